<?php

namespace Shop\Support;

final class Clock
{
    public static function now(): string
    {
        return date(DATE_ATOM);
    }
}
