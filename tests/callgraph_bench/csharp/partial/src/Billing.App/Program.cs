using Billing;

namespace Billing.App;

public static class Program
{
    public static void Main()
    {
        var invoice = new Invoice(new TaxTable());
        invoice.AddLine("A-1", 10m);
        System.Console.WriteLine(invoice.Print());
        System.Console.WriteLine(invoice.Total());
    }
}
