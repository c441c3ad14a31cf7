package shapes;

public class Square extends Rect {
    public Square(double side) {
        super("square", side, side);
    }

    @Override
    public String describe() {
        return "[" + super.describe() + "] side=" + side();
    }

    public double side() {
        return Math.sqrt(area());
    }
}
