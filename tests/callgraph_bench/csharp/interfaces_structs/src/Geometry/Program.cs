namespace Geometry;

public static class Program
{
    public static void Main()
    {
        Rect rect = new(2, 3);
        var canvas = new Canvas().Add(new Circle(1)).Add(rect * 2);
        System.Console.WriteLine(canvas.Describe(Kind.Round));
        System.Console.WriteLine(rect.Area());
    }
}
