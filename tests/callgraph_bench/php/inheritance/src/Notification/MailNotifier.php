<?php

namespace Acme\Notification;

class MailNotifier extends AbstractNotifier
{
    public function name(): string
    {
        return 'mail';
    }

    protected function deliver(Message $message): bool
    {
        $this->logger->info('mail to ' . $message->to);
        return mail($message->to, 'Notice', $message->body);
    }

    protected static function afterSend(bool $ok): void
    {
        parent::afterSend($ok);
        self::audit($ok ? 'sent' : 'failed');
    }

    private static function audit(string $what): void
    {
        error_log($what);
    }
}
