<?php

namespace Net\Http\Handler;

use Net\Http\Message\Request;
use Net\Http\Message\Response;

class RetryHandler implements Handler
{
    public function __construct(private Handler $next, private int $times)
    {
    }

    public function handle(Request $request): Response
    {
        for ($i = 0; $i < $this->times; $i++) {
            $response = $this->next->handle($request);
            if ($response->status() < 500) {
                return $response;
            }
        }
        return $this->next->handle($request);
    }
}
