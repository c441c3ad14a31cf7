using System;

namespace Acme;

public static class Log
{
    public static void Write(string message) => Console.Error.WriteLine(message);
}
