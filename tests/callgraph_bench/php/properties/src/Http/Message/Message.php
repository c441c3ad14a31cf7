<?php

namespace Net\Http\Message;

abstract class Message
{
    protected array $headers = [];

    public function withHeader(string $name, string $value): static
    {
        $copy = clone $this;
        $copy->headers[strtolower($name)] = $value;
        return $copy;
    }

    public function header(string $name): ?string
    {
        return $this->headers[strtolower($name)] ?? null;
    }
}
