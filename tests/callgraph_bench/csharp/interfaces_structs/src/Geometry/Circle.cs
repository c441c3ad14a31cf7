using System;

namespace Geometry;

public sealed class Circle : IShape
{
    private readonly double _radius;

    public Circle(double radius)
    {
        _radius = Check(radius);
    }

    public double Area() => Math.PI * Square(_radius);

    private static double Square(double x) => x * x;

    private static double Check(double radius) =>
        radius >= 0 ? radius : throw new ArgumentOutOfRangeException(nameof(radius));
}
