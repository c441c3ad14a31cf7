<?php

namespace Acme\Notification;

interface Notifier
{
    public function send(Message $message): bool;

    public function name(): string;
}
