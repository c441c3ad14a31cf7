package app;

import shapes.Rect;
import shapes.Shape;
import shapes.Square;

public class Main {
    public static void main(String[] args) {
        Shape s = new Square(2);
        Rect r = new Rect(1, 2);
        Square q = new Square(3);
        System.out.println(s.describe() + r.describe() + q.side() + r.area());
    }
}
