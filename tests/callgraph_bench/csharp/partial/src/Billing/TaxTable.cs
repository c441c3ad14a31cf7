namespace Billing;

public class TaxTable
{
    public decimal TaxOn(decimal net) => net * Rate();

    public string Describe() => "VAT " + Rate();

    private decimal Rate() => 0.2m;
}
