<?php

namespace Net\Http\Message;

class Request extends Message
{
    public function __construct(private string $method, private string $uri, array $headers = [])
    {
        foreach ($headers as $name => $value) {
            $this->headers[$name] = $value;
        }
    }

    public function uri(): string
    {
        return $this->uri;
    }

    public function method(): string
    {
        return $this->method;
    }
}
