namespace Inventory;

public record Product(string Sku, string Code, decimal Price)
{
    public static Product Missing(string sku) => new Product(sku, "?", 0m);

    public Product WithPrice(decimal price) => this with { Price = Normalize(price) };

    private static decimal Normalize(decimal price) => decimal.Round(price, 2);
}
