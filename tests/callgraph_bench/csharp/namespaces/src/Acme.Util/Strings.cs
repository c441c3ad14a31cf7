namespace Acme.Util;

public static class Strings
{
    public static string Pad(string s, int width) => s.PadRight(width);

    public static string Upper(string s) => s.ToUpperInvariant();
}
