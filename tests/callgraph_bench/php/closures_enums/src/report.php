<?php

use Tasks\Enum\Priority;
use Tasks\TaskList;

function build_list(array $titles): TaskList
{
    $list = new TaskList();
    foreach ($titles as $title) {
        $list->add($title);
    }
    return $list;
}

function report(array $titles): string
{
    $list = build_list($titles);
    $format = function (string $label) use ($list): string {
        return $label . ' (' . count($list->labels()) . ')';
    };
    $list->advanceAll();
    return $format($list->summary()) . ' weight ' . Priority::High->weight();
}
