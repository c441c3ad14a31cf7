namespace Billing;

/// <summary>An invoice; its lines and its printing live in the other parts.</summary>
public partial class Invoice : DocumentBase
{
    private readonly TaxTable _taxes;

    public Invoice(TaxTable taxes)
    {
        _taxes = taxes;
        Validate();
    }

    public decimal Total()
    {
        decimal net = Net();
        return net + _taxes.TaxOn(net);
    }
}
