<?php

namespace Tasks;

use Tasks\Enum\Status;

class TaskList
{
    /** @var Task[] */
    private array $tasks = [];

    public function add(string $title): Task
    {
        $task = new Task($title);
        $this->tasks[] = $task;
        return $task;
    }

    public function labels(): array
    {
        return array_map(fn (Task $t) => $t->status()->label(), $this->tasks);
    }

    public function byStatus(Status $status): array
    {
        return array_filter($this->tasks, function (Task $task) use ($status) {
            return $task->status() === $status && !$status->isFinal();
        });
    }

    public function advanceAll(): void
    {
        array_walk($this->tasks, static fn (Task $task) => $task->advance());
        $this->sort(fn (Task $a, Task $b) => $b->score() <=> $a->score());
    }

    private function sort(callable $compare): void
    {
        usort($this->tasks, $compare);
    }

    public function summary(): string
    {
        $done = Status::Done;
        $parts = [];
        foreach ($this->byStatus($done) as $task) {
            $parts[] = $task->title;
        }
        return Status::fromLabel('done')->label() . ': ' . implode(', ', $parts) . ' ' . $done->label();
    }
}
