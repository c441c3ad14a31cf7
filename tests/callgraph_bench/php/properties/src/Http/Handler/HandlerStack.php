<?php

namespace Net\Http\Handler;

class HandlerStack
{
    /** @var callable[] */
    private array $middleware = [];

    public function __construct(private Handler $handler)
    {
    }

    public static function create(?Handler $handler = null): self
    {
        $stack = new self($handler ?? new CurlHandler());
        $stack->push(Middleware::retry(3));
        return $stack;
    }

    public function push(callable $middleware): void
    {
        $this->middleware[] = $middleware;
    }

    public function resolve(): Handler
    {
        $handler = $this->handler;
        foreach (array_reverse($this->middleware) as $fn) {
            $handler = $fn($handler);
        }
        return $handler;
    }
}
