using Acme.Shop;

namespace Acme.App;

public static class Report
{
    public static void Print(Cart cart)
    {
        Log.Write(Strings.Upper("total ") + cart.Total());
    }
}
