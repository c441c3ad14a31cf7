<?php

namespace Tasks;

use Tasks\Enum\Priority;
use Tasks\Enum\Status;

final class Task
{
    public function __construct(
        public readonly string $title,
        private Status $status = Status::Todo,
        private Priority $priority = Priority::Low,
    ) {
    }

    public function advance(): void
    {
        $this->status = $this->status->next();
    }

    public function status(): Status
    {
        return $this->status;
    }

    public function score(): int
    {
        return $this->priority->weight() + ($this->status->isFinal() ? 0 : 1);
    }
}
