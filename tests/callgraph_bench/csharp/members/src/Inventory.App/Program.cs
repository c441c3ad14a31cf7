using Inventory;

namespace Inventory.App;

public static class Program
{
    public static void Main()
    {
        Catalog catalog = new();
        catalog.Add(new Product("A1", "X-1", 2m).WithPrice(2.499m));
        var warehouse = new Warehouse(catalog);
        System.Console.WriteLine(warehouse.Stock("A1") + warehouse.Capacity);
        warehouse.Ledger.CountAt(Location.Max);
    }
}
