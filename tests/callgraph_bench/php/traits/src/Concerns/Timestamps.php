<?php

namespace Shop\Concerns;

use Shop\Support\Clock;

trait Timestamps
{
    protected ?string $updatedAt = null;

    public function touch(): void
    {
        $this->updatedAt = Clock::now();
    }

    public static function freshTimestamp(): string
    {
        return Clock::now();
    }
}
