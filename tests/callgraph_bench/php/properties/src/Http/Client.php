<?php

namespace Net\Http;

use Net\Http\Handler\HandlerStack;
use Net\Http\Message\Request;
use Net\Http\Message\Response;

class Client implements ClientInterface
{
    private HandlerStack $stack;

    private $config;

    /**
     * @param array $config client options: timeout, headers
     */
    public function __construct(array $config = [], ?HandlerStack $stack = null)
    {
        $this->stack = $stack ?? HandlerStack::create();
        $this->config = new Config($config);
    }

    public function get(string $uri): Response
    {
        return $this->send($this->request('GET', $uri));
    }

    public function send(Request $request): Response
    {
        $timeout = $this->config->timeout();
        return $this->stack->resolve()->handle($request->withHeader('X-Timeout', (string) $timeout));
    }

    private function request(string $method, string $uri): Request
    {
        return new Request($method, $uri, $this->config->headers());
    }
}
