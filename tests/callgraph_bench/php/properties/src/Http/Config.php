<?php

namespace Net\Http;

final class Config
{
    public function __construct(private array $values)
    {
    }

    public function timeout(): float
    {
        return (float) ($this->values['timeout'] ?? 30);
    }

    public function headers(): array
    {
        return $this->values['headers'] ?? [];
    }
}
