<?php

namespace App\Repository;

use App\Model\Page;

class PageRepository
{
    /** @var array<string, Page> */
    private array $pages = [];

    public function findBySlug(string $slug): ?Page
    {
        return $this->pages[$slug] ?? null;
    }

    public function save(Page $page): void
    {
        $this->pages[$page->slug()] = $page;
    }
}
