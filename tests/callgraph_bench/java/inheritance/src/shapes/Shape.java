package shapes;

public abstract class Shape {
    protected final String label;

    protected Shape(String label) {
        this.label = label;
    }

    public abstract double area();

    public String describe() {
        return label + " " + area();
    }
}
