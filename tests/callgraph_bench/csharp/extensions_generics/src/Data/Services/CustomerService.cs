using System.Threading.Tasks;
using Data.Extensions;
using Data.Util;

namespace Data.Services;

public class CustomerService
{
    private readonly Repository<Customer> _customers = new();

    public async Task<string> RegisterAsync(string name)
    {
        var customer = new Customer(Guard.NotNull<string>(name));
        if (customer.IsNew())
        {
            _customers.Save(customer);
        }
        Customer? found = await _customers.FindAsync(customer.Key());
        return found?.Describe() ?? Missing(name);
    }

    private static string Missing(string name) => $"missing {name}";

    public int Total() => _customers.Count();
}
