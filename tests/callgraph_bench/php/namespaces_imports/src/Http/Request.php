<?php

namespace App\Http;

class Request
{
    public function __construct(private string $path, private array $query = [])
    {
    }

    public function path(): string
    {
        return '/' . trim($this->path, '/');
    }

    public function query(string $key): ?string
    {
        return $this->query[$key] ?? null;
    }
}
