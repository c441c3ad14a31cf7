<?php

namespace Acme;

use Acme\Log\Logger;
use Acme\Notification\{MailNotifier, Message, Notifier, SmsNotifier};

class Dispatcher
{
    /** @var Notifier[] */
    private array $channels = [];

    public function __construct(private Logger $logger)
    {
        $this->channels[] = new MailNotifier($logger);
        $this->channels[] = new SmsNotifier($logger, 'twilio');
    }

    public function broadcast(string $to, string $text): int
    {
        Logger::log('broadcast');
        $message = new Message($to, $text);
        $count = 0;
        foreach ($this->channels as $channel) {
            $count += (int) $channel->send($message->withBody($text));
        }
        $this->logger->info("sent $count");
        return $count;
    }

    public function direct(Notifier $notifier, Message $message): bool
    {
        return $notifier->send($message);
    }
}
