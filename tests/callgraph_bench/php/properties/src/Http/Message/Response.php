<?php

namespace Net\Http\Message;

class Response extends Message
{
    public function __construct(private int $status, private string $body = '')
    {
    }

    public function status(): int
    {
        return $this->status;
    }

    public function body(): string
    {
        return $this->body;
    }
}
