package calc;

public class Calculator {
    private int memory;

    public Calculator() {
        this(0);
    }

    public Calculator(int start) {
        memory = start;
    }

    public int run(String op, int x) {
        return run(Op.parse(op), x);
    }

    public int run(Op op, int x) {
        memory = op.apply(memory, x);
        System.out.println(op.render(memory, x));
        return memory;
    }

    public static void main(String[] args) {
        Calculator c = new Calculator();
        c.run("+", 2);
        c.run(Op.MUL, 3);
    }
}
