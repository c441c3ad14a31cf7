<?php

namespace App;

use App\Http\Controller\PageController;
use App\Repository\PageRepository;
use App\Repository\UserRepository;

class Kernel
{
    private PageController $controller;

    public function boot(): void
    {
        $this->controller = new PageController(new PageRepository(), new UserRepository());
        echo slugify(env('APP_NAME', 'demo'));
    }

    public function handle(string $path): string
    {
        $request = new Http\Request($path);
        echo Support\format_money(100);
        return $this->controller->show($request);
    }
}
