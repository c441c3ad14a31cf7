using System;

namespace Data.Util;

public static class Guard
{
    public static T NotNull<T>(T value) where T : class =>
        value ?? throw new ArgumentNullException(nameof(value));
}
