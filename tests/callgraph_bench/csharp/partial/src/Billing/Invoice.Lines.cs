using System;
using System.Collections.Generic;
using System.Linq;

namespace Billing;

public partial class Invoice
{
    private readonly List<Line> _lines = new();

    public void AddLine(string sku, decimal amount) => _lines.Add(new Line(sku, amount));

    private decimal Net() => _lines.Sum(l => l.Amount);

    private void Validate()
    {
        if (Net() < 0)
        {
            throw new InvalidOperationException("negative invoice");
        }
    }
}
