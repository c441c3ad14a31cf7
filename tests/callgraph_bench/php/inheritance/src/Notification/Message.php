<?php

namespace Acme\Notification;

final class Message
{
    public function __construct(public readonly string $to, public readonly string $body)
    {
    }

    public function withBody(string $body): static
    {
        return new static($this->to, $body);
    }

    public function length(): int
    {
        return strlen($this->body);
    }
}
