<?php

namespace Shop\Model;

use Shop\Concerns\HasEvents;
use Shop\Concerns\Timestamps as Stamps;

class Cart
{
    use HasEvents, Stamps {
        Stamps::touch as protected stamp;
    }

    private ?Order $order = null;

    public function checkout(): Order
    {
        $this->order = (new Order())->add('sku-1', 2);
        $this->stamp();
        $this->fire('checkout');
        return $this->order;
    }

    protected function afterFire(string $event): void
    {
        $this->order?->touch();
    }

    public static function create(): static
    {
        $cart = new static();
        $cart->on('checkout', fn (Cart $c) => $c->order?->total());
        return $cart;
    }
}
