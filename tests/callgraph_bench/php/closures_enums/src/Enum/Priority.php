<?php

namespace Tasks\Enum;

enum Priority: int
{
    case Low = 1;
    case High = 3;

    public function weight(): int
    {
        return $this->value * self::factor();
    }

    private static function factor(): int
    {
        return 10;
    }
}
