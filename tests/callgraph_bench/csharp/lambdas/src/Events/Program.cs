using System;
using System.Linq;

namespace Events;

public static class Program
{
    private static int _received;

    private static void Count(string message) => _received++;

    private static string Shout(string s) => s.ToUpperInvariant();

    public static void Main()
    {
        var bus = new Bus();
        bus.Subscribe(m => Console.WriteLine(Shout(m)));
        bus.Subscribe(Count);
        Action later = () => bus.Publish("ready");
        later();
        Report(new[] { "a", " ", "b" });
    }

    private static void Report(string[] words)
    {
        int total = 0;
        foreach (var w in words.Select(Normalize).Where(w => !IsEmpty(w)))
        {
            Add(w);
        }
        Console.WriteLine(total);

        void Add(string word)
        {
            total += Weigh(word);
        }
    }

    private static string Normalize(string w) => w.Trim();

    private static bool IsEmpty(string w) => w.Length == 0;

    private static int Weigh(string w) => w.Length;

    /// <summary>Adds to the received count; Report's local Add hides it.</summary>
    private static void Add(string w) => _received += w.Length;
}
