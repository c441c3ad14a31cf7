<?php

namespace Tasks\Enum;

interface HasLabel
{
    public function label(): string;
}
