using System.Collections.Generic;

namespace Geometry;

public class Canvas
{
    private readonly List<IShape> _shapes = new();
    private IShape? _last;

    public Canvas Add(IShape shape)
    {
        _shapes.Add(shape);
        _last = shape;
        return this;
    }

    public double TotalArea()
    {
        double sum = 0;
        foreach (IShape shape in _shapes)
        {
            sum += shape.Area();
        }
        return sum + LastArea();
    }

    private double LastArea() => _last?.Area() ?? 0;

    public string Describe(Kind kind) => kind.Label() + ": " + TotalArea();
}
