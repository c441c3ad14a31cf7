namespace Data.Legacy;

public static class LegacyExtensions
{
    public static string Describe(this Customer customer) => "legacy " + customer.Name;

    public static int Count<T>(this Repository<T> repository) where T : Entity => -1;
}
