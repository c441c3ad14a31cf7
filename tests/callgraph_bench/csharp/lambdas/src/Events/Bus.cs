using System;
using System.Collections.Generic;

namespace Events;

public class Bus
{
    private readonly List<Action<string>> _handlers = new();

    public void Subscribe(Action<string> handler) => _handlers.Add(handler);

    public void Publish(string message)
    {
        _handlers.ForEach(h => h(message));
        Log(message);
    }

    private static void Log(string message) => Console.WriteLine(message);
}
