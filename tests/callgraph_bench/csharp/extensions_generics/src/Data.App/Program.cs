using System.Threading.Tasks;
using Data.Services;

namespace Data.App;

public static class Program
{
    public static async Task Main()
    {
        var service = new CustomerService();
        string text = await service.RegisterAsync("Ada");
        System.Console.WriteLine(text + service.Total());
    }
}
