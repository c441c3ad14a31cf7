using System.Collections.Generic;

namespace Inventory;

public class Catalog
{
    private readonly Dictionary<string, Product> _products = new();

    public Product Find(string sku)
    {
        if (!_products.TryGetValue(sku, out var product))
        {
            product = Product.Missing(sku);
        }
        return product;
    }

    public void Add(Product product) => _products[product.Sku] = product;
}
