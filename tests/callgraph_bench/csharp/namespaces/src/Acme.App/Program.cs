using Acme.Shop;

namespace Acme.App;

internal static class Program
{
    private static void Main()
    {
        var cart = new Cart().Add("pen", 1.5m).Add("ink", 3.25m);
        System.Console.WriteLine(cart.Receipt());
        System.Console.WriteLine(Acme.Util.Strings.Upper("done"));
        Report.Print(cart);
    }
}
