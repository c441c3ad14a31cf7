<?php

require __DIR__ . '/../vendor/autoload.php';

$kernel = new App\Kernel();
$kernel->boot();
echo $kernel->handle($argv[1] ?? '/');
echo implode(',', legacy_boot($argv));
