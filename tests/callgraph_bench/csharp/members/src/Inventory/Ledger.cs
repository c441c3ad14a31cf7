using System.Collections.Generic;

namespace Inventory;

public class Ledger
{
    private readonly Dictionary<Location, int> _counts = new();

    public int CountAt(Location location) =>
        _counts.TryGetValue(location, out var count) ? count : Default(location);

    private static int Default(Location location) => location.Area() > 0 ? 0 : -1;
}
