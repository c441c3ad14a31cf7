<?php

namespace Geometry;

interface Shape
{
    public function area(): float;

    public function name(): string;
}
