<?php

namespace App\Model;

class Page
{
    public function __construct(private string $slug, private string $title)
    {
    }

    public function slug(): string
    {
        return $this->slug;
    }

    public function title(): string
    {
        return $this->title;
    }
}
