namespace Geometry;

public struct Rect : IShape
{
    public Rect(double width, double height)
    {
        Width = width;
        Height = height;
    }

    public double Width { get; }

    public double Height { get; }

    public double Area() => Width * Height;

    public static Rect operator *(Rect rect, double factor) =>
        new Rect(rect.Width * factor, rect.Height * factor);
}
