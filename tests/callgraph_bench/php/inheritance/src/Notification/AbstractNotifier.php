<?php

namespace Acme\Notification;

use Acme\Log\Logger;

abstract class AbstractNotifier implements Notifier
{
    protected int $sent = 0;

    public function __construct(protected Logger $logger)
    {
    }

    public function send(Message $message): bool
    {
        if (!$this->accepts($message)) {
            $this->logger->warn('rejected by ' . $this->name());
            return false;
        }
        $ok = $this->deliver($message);
        $this->sent++;
        static::afterSend($ok);
        return $ok;
    }

    protected function accepts(Message $message): bool
    {
        return $message->length() > 0;
    }

    protected static function afterSend(bool $ok): void
    {
    }

    abstract protected function deliver(Message $message): bool;
}
