<?php

namespace App\Repository;

class UserRepository
{
    public function current(): string
    {
        return env('APP_USER', 'guest');
    }
}
