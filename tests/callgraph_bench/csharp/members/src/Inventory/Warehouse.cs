namespace Inventory;

public class Warehouse
{
    private readonly Catalog _catalog;
    private Scanner scanner = new();

    public Warehouse(Catalog catalog)
    {
        _catalog = catalog;
    }

    public Ledger Ledger { get; } = new Ledger();

    public int Capacity => Location.Max.Area() * 2;

    public int Stock(string sku)
    {
        Product product = _catalog.Find(sku);
        Location where = Locate(product);
        return Ledger.CountAt(where) + scanner.Scan(product.Code);
    }

    private Location Locate(Product product) => new(product.Code.Length, 0);
}
