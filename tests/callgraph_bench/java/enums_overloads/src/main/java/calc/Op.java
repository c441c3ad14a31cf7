package calc;

public enum Op {
    ADD("+") {
        @Override
        int apply(int a, int b) {
            return a + b;
        }
    },
    MUL("*") {
        @Override
        int apply(int a, int b) {
            return a * b;
        }
    };

    private final String symbol;

    Op(String symbol) {
        this.symbol = symbol;
    }

    abstract int apply(int a, int b);

    String render(int a, int b) {
        return a + symbol + b + "=" + apply(a, b);
    }

    static Op parse(String s) {
        return s.equals("+") ? ADD : MUL;
    }
}
