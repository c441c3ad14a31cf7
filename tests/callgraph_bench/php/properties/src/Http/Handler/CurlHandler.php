<?php

namespace Net\Http\Handler;

use Net\Http\Message\Request;
use Net\Http\Message\Response;

class CurlHandler implements Handler
{
    public function handle(Request $request): Response
    {
        $response = new Response(200, 'ok from ' . $request->uri());
        return $response->withHeader('X-Handler', 'curl');
    }
}
