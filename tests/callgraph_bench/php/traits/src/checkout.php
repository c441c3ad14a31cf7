<?php

use Shop\Model\Cart;
use Shop\Model\Order;

$cart = Cart::create();
$order = $cart->checkout();
echo $order->total(), PHP_EOL;
echo Order::freshTimestamp(), PHP_EOL;
