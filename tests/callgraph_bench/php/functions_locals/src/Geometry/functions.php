<?php

namespace Geometry;

function total_area(array $shapes): float
{
    $sum = 0.0;
    foreach ($shapes as $shape) {
        if ($shape instanceof Shape) {
            $sum += $shape->area();
        }
    }
    return $sum;
}

function describe(Shape $shape): string
{
    $text = $shape->name();
    if ($shape instanceof Rect && $shape->isSquare()) {
        $text .= ' (square)';
    }
    return $text . ' of ' . number_format($shape->area(), 2);
}

function largest(Shape ...$shapes): ?Shape
{
    usort($shapes, fn (Shape $a, Shape $b) => $b->area() <=> $a->area());
    return $shapes[0] ?? null;
}

function biggest_name(array $shapes): string
{
    $big = largest(...$shapes);
    return $big === null ? '' : describe($big);
}
