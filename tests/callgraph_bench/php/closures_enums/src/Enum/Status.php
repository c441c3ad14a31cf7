<?php

namespace Tasks\Enum;

enum Status: string implements HasLabel
{
    case Todo = 'todo';
    case Doing = 'doing';
    case Done = 'done';

    public function label(): string
    {
        return ucfirst($this->value);
    }

    public function isFinal(): bool
    {
        return $this === self::Done;
    }

    public static function fromLabel(string $label): self
    {
        return self::from(strtolower($label));
    }

    public function next(): self
    {
        return match ($this) {
            self::Todo => self::Doing,
            self::Doing, self::Done => self::Done,
        };
    }
}
