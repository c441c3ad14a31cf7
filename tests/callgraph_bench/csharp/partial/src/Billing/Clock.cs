using System;

namespace Billing;

internal static class Clock
{
    public static string Today() => DateTime.UtcNow.ToString("yyyy-MM-dd");
}
