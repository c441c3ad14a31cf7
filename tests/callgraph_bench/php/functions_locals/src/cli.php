<?php

use Geometry\Circle;
use Geometry\InvalidShape;
use Geometry\ShapeFactory;
use function Geometry\describe;
use function Geometry\total_area;

$factory = new ShapeFactory();
$shapes = [];
foreach ([['type' => 'circle', 'r' => 2], ['type' => 'hex']] as $data) {
    try {
        $shapes[] = $factory->fromArray($data);
    } catch (InvalidShape $e) {
        fwrite(STDERR, $e->type());
    }
}
$unit = Circle::unit();
echo describe($unit), total_area($shapes), PHP_EOL;
