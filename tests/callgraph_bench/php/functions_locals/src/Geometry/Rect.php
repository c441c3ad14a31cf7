<?php

namespace Geometry;

class Rect implements Shape
{
    public function __construct(protected float $width, protected float $height)
    {
    }

    public function area(): float
    {
        return $this->width * $this->height;
    }

    public function name(): string
    {
        return $this->isSquare() ? 'square' : 'rect';
    }

    public function isSquare(): bool
    {
        return abs($this->width - $this->height) < 1e-9;
    }
}
