using System.Collections.Generic;

namespace Zoo;

public static class Registry
{
    private static readonly List<Animal> All = new();

    public static void Add(Animal animal) => All.Add(animal);

    public static int Count() => All.Count;
}
