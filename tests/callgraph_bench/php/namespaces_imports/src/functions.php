<?php

function env(string $key, ?string $default = null): ?string
{
    $value = getenv($key);
    return $value === false ? $default : $value;
}

function slugify(string $text): string
{
    return strtolower(trim($text));
}
