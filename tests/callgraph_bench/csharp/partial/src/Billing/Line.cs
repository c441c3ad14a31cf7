namespace Billing;

public sealed class Line
{
    public Line(string sku, decimal amount)
    {
        Sku = sku;
        Amount = amount;
    }

    public string Sku { get; }

    public decimal Amount { get; }
}
