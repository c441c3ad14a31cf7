namespace Geometry;

public enum Kind
{
    Round,
    Square,
}

public static class KindExtensions
{
    public static string Label(this Kind kind) => Names.Title(kind.ToString());
}
