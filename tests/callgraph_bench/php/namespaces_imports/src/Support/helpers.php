<?php

namespace App\Support;

function slugify(string $text): string
{
    $clean = Str::lower($text);
    return str_replace(' ', '-', $clean);
}

function format_money(int $cents): string
{
    return sprintf('%.2f', $cents / 100);
}
