<?php

namespace Geometry;

final class InvalidShape extends \InvalidArgumentException
{
    private string $type = '';

    public static function forType(string $type): self
    {
        $e = new self("unknown shape type: $type");
        $e->type = $type;
        return $e;
    }

    public function type(): string
    {
        return $this->type;
    }
}
