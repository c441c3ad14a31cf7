namespace Geometry;

internal static class Names
{
    public static string Title(string name) => char.ToUpperInvariant(name[0]) + name.Substring(1);
}
