<?php

namespace App\Support;

final class Str
{
    public static function lower(string $s): string
    {
        return mb_strtolower($s);
    }

    public static function title(string $s): string
    {
        return ucwords(self::lower($s));
    }

    public static function slug(string $s): string
    {
        return slugify($s);
    }
}
