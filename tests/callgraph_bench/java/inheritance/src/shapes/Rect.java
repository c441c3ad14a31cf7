package shapes;

public class Rect extends Shape {
    protected final double w, h;

    public Rect(double w, double h) {
        this("rect", w, h);
    }

    protected Rect(String label, double w, double h) {
        super(label);
        this.w = w;
        this.h = h;
    }

    @Override
    public double area() {
        return w * h;
    }
}
