using Acme.Util;

namespace Acme.Shop;

public class Item
{
    public Item(string name, decimal price)
    {
        Name = name;
        Price = price;
    }

    public string Name { get; }

    public decimal Price { get; }

    public long PriceCents() => Money.Cents(Price);
}
