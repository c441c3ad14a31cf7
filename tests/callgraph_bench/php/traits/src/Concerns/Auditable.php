<?php

namespace Shop\Concerns;

trait Auditable
{
    use HasEvents, Timestamps;

    public function audit(string $what): void
    {
        $this->touch();
        $this->fire('audit:' . $what);
    }
}
