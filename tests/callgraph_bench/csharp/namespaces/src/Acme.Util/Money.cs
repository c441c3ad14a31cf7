namespace Acme.Util
{
    public static class Money
    {
        public static long Cents(decimal amount) => (long)(amount * 100);

        public static string Format(long cents) => $"{cents / 100}.{cents % 100:D2}";
    }
}
