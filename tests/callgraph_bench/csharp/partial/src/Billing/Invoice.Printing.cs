namespace Billing;

public partial class Invoice
{
    public string Print()
    {
        Stamp();
        return Header() + " " + _taxes.Describe() + " " + Total();
    }
}
