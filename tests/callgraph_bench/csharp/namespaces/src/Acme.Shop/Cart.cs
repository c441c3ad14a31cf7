using System.Collections.Generic;
using System.Text;
using Acme.Util;
using static Acme.Util.Money;
using Fmt = Acme.Util.Strings;

namespace Acme.Shop
{
    public class Cart
    {
        private readonly List<Item> _items = new();

        public Cart Add(string name, decimal price)
        {
            _items.Add(new Item(name, price));
            return this;
        }

        public long Total()
        {
            long sum = 0;
            foreach (Item item in _items)
            {
                sum += item.PriceCents();
            }
            return sum;
        }

        public string Receipt()
        {
            var output = new StringBuilder();
            foreach (Item item in _items)
            {
                output.Append(Fmt.Pad(item.Name, 10)).Append(Format(item.PriceCents())).AppendLine();
            }
            return output.Append(Format(Total())).ToString();
        }
    }
}
