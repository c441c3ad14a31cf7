<?php

namespace Geometry;

final class Circle implements Shape
{
    public function __construct(private float $radius)
    {
    }

    public static function unit(): self
    {
        return new self(1.0);
    }

    public function area(): float
    {
        return M_PI * $this->radius ** 2;
    }

    public function name(): string
    {
        return 'circle r=' . $this->radius;
    }

    public function scaled(float $k): static
    {
        $copy = new static($this->radius * $k);
        return $copy;
    }
}
