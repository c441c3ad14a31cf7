<?php

namespace Acme\Notification;

use Acme\Log\Logger;

class SmsNotifier extends AbstractNotifier
{
    public function __construct(Logger $logger, private string $gateway)
    {
        parent::__construct($logger);
    }

    public function name(): string
    {
        return 'sms';
    }

    protected function accepts(Message $message): bool
    {
        return parent::accepts($message) && $message->length() <= 160;
    }

    protected function deliver(Message $message): bool
    {
        $this->logger->info("sms via {$this->gateway} to {$message->to}");
        return true;
    }
}
