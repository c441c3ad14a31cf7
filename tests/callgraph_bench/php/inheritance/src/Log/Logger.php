<?php

namespace Acme\Log;

class Logger
{
    private static ?Logger $shared = null;

    private array $lines = [];

    public static function shared(): self
    {
        return self::$shared ??= new self();
    }

    public static function log(string $line): void
    {
        self::$shared?->info($line);
    }

    public function info(string $line): void
    {
        $this->write('INFO', $line);
    }

    public function warn(string $line): void
    {
        $this->write('WARN', $line);
    }

    private function write(string $level, string $line): void
    {
        $this->lines[] = "[$level] $line";
    }
}
