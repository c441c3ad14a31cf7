<?php

namespace Shop\Concerns;

trait HasEvents
{
    private array $listeners = [];

    public function on(string $event, callable $listener): void
    {
        $this->listeners[$event][] = $listener;
    }

    protected function fire(string $event): void
    {
        foreach ($this->listeners[$event] ?? [] as $listener) {
            $listener($this);
        }
        $this->afterFire($event);
    }

    abstract protected function afterFire(string $event): void;
}
