namespace Acme.Legacy
{
    /// <summary>The old helpers, kept for the import job; nothing in the shop uses them.</summary>
    public static class Strings
    {
        public static string Pad(string s, int width) => s.PadLeft(width);

        public static string Upper(string s) => s.ToUpper();
    }
}
