namespace Data;

public class Customer : Entity
{
    public Customer(string name)
    {
        Name = name;
    }

    public string Name { get; }

    public override string Key() => "customer:" + Name.ToLowerInvariant();
}
