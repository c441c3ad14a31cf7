<?php

namespace Shop\Model;

use Shop\Concerns\Auditable;

class Order
{
    use Auditable;

    private array $lines = [];

    public function add(string $sku, int $qty): self
    {
        $this->lines[$sku] = $qty;
        $this->audit("add $sku");
        return $this;
    }

    public function total(): int
    {
        return array_sum($this->lines);
    }

    public function touch(): void
    {
        $this->fire('touched');
    }

    protected function afterFire(string $event): void
    {
        error_log($event);
    }
}
