<?php

namespace Net\Http\Handler;

final class Middleware
{
    public static function retry(int $times): callable
    {
        return static function (Handler $next) use ($times): Handler {
            return new RetryHandler($next, $times);
        };
    }
}
