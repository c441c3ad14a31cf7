<?php

require 'vendor/autoload.php';

use Net\Http\Client;

$client = new Client(['timeout' => 5]);
$response = $client->get('https://example.org');
echo $response->status(), ' ', $response->header('content-type'), ' ', $response->body();
