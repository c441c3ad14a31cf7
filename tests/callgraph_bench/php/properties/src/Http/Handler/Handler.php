<?php

namespace Net\Http\Handler;

use Net\Http\Message\Request;
use Net\Http\Message\Response;

interface Handler
{
    public function handle(Request $request): Response;
}
