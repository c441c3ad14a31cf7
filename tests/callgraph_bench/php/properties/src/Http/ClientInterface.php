<?php

namespace Net\Http;

use Net\Http\Message\Request;
use Net\Http\Message\Response;

interface ClientInterface
{
    public function get(string $uri): Response;

    public function send(Request $request): Response;
}
