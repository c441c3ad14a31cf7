<?php

namespace App\Http\Controller;

use App\Http\Request;
use App\Model\Page;
use App\Repository\{PageRepository, UserRepository as Users};
use App\Support\Str as S;
use function App\Support\slugify;

class PageController
{
    public function __construct(private PageRepository $pages, private Users $users)
    {
    }

    public function show(Request $request): string
    {
        $slug = slugify($request->path());
        $page = $this->pages->findBySlug($slug);
        if ($page === null) {
            return $this->notFound($slug);
        }
        return S::title($page->title()) . ' by ' . $this->users->current();
    }

    public function create(Request $request): Page
    {
        $page = new Page(slugify($request->query('title')), $request->query('title'));
        $this->pages->save($page);
        return $page;
    }

    private function notFound(string $slug): string
    {
        return \App\Support\format_money(0) . " $slug not found by " . env('APP_NAME');
    }
}
