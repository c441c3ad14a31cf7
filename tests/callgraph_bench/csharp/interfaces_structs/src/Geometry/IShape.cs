namespace Geometry;

public interface IShape
{
    double Area();

    string Name => "shape";
}
