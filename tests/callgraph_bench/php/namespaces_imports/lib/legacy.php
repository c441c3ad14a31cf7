<?php

namespace Legacy\Util {
    function clean(string $s): string
    {
        return trim($s);
    }

    class Cleaner
    {
        public function run(array $items): array
        {
            return array_map(fn ($item) => clean($item), $items);
        }
    }
}

namespace {
    use Legacy\Util\Cleaner;

    function legacy_boot(array $argv): array
    {
        $cleaner = new Cleaner();
        $first = Legacy\Util\clean($argv[0] ?? '');
        return $cleaner->run([$first]);
    }
}
