namespace Billing;

public abstract class DocumentBase
{
    private bool _stamped;

    protected void Stamp() => _stamped = true;

    protected string Header() => (_stamped ? "INVOICE " : "DRAFT ") + Clock.Today();
}
