namespace Inventory;

public readonly struct Location
{
    public static readonly Location Max = new Location(100, 100);

    public Location(int aisle, int shelf)
    {
        Aisle = aisle;
        Shelf = shelf;
    }

    public int Aisle { get; }

    public int Shelf { get; }

    public int Area() => Aisle * Shelf;
}
