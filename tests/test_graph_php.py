"""The PHP call graph where the labeled bench does not reach: values of unknown class,
name resolution corners, test doubles of builtins, narrowing, odd files, and warm rebuilds."""

from __future__ import annotations

from pathlib import Path

from codekith.graph.builder import GraphBuilder
from codekith.graph.index import GraphIndex
from tests.conftest import write_files
from tests.graphs import all_edges, calls, cold, files, graph, update


def test_values_of_unknown_class_are_never_guessed(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "src/A.php": """\
                <?php
                namespace App;

                class A
                {
                    public function only(): void {}
                }
                """,
            "src/B.php": """\
                <?php
                namespace App;

                class B
                {
                    private $untyped;

                    public function g($x, array $opts, callable $f): void
                    {
                        $x->only();
                        $opts['a']->only();
                        $f()->only();
                        $this->untyped->only();
                        $this->$name();
                        $x::only();
                        (new Missing())->only();
                        $class = A::class;
                        $class::only();
                    }
                }
                """,
        },
    )
    assert graph(root) == set()


def test_functions_and_variables_are_scoped_as_in_php(tmp_path: Path) -> None:
    """A function never sees the file's variables; a namespaced function hides the global
    one; `namespace\\f` and `use function … as` resolve; classes have no global fallback."""
    root = write_files(
        tmp_path,
        {
            "src/Model.php": """\
                <?php
                namespace App;

                class Model
                {
                    public function save(): void {}
                }
                """,
            "src/global.php": """\
                <?php
                function helper(): int { return 1; }
                function other(): int { return 2; }
                class Model
                {
                    public function save(): void {}
                }
                """,
            "src/ns.php": """\
                <?php
                namespace App;

                use function other as renamed;

                function helper(): int { return 3; }

                $model = new \\Model();

                function run(): void
                {
                    helper();
                    namespace\\helper();
                    renamed();
                    $model->save();
                    $m = new Model();
                    $m->save();
                }
                """,
        },
    )
    assert graph(root) == {
        ("ns.run", "ns.helper"),
        ("ns.run", "global.other"),
        ("ns.run", "Model.Model.save"),
    }


def test_a_test_double_of_a_builtin_is_not_reached_from_library_code(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "src/Handler.php": """\
                <?php
                namespace Lib\\Handler;

                class Handler
                {
                    public function run(): void
                    {
                        curl_setopt_array(null, []);
                    }
                }
                """,
            "tests/bootstrap.php": """\
                <?php
                namespace Lib\\Handler {
                    function curl_setopt_array($h, array $o) { return \\curl_setopt_array($h, $o); }
                }
                namespace Lib\\Tests {
                    function check(): void { \\Lib\\Handler\\curl_setopt_array(null, []); }
                }
                """,
        },
    )
    assert graph(root) == {("tests.bootstrap.check", "tests.bootstrap.curl_setopt_array")}


def test_narrowing_closures_and_docblocks(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "src/Shapes.php": """\
                <?php
                namespace Geo;

                interface Shape { public function area(): float; }

                class Square implements Shape
                {
                    public function area(): float { return 1.0; }
                    public function side(): float { return 1.0; }
                }

                class Report
                {
                    /** @var Shape[] */
                    private array $shapes = [];

                    public function sum(): float
                    {
                        $total = 0.0;
                        foreach ($this->shapes as $shape) {
                            $total += $shape->area();
                            if ($shape instanceof Square) {
                                $shape->side();
                            }
                        }
                        return $total;
                    }

                    /**
                     * @param Square[] $squares
                     */
                    public function sides(array $squares): array
                    {
                        return array_map(static fn ($s) => $s, $squares);
                    }

                    public function first(iterable $items): void
                    {
                        foreach ($items as $item) {
                            $item->side();
                        }
                        $fn = function () { return new Square(); };
                        $fn()->side();
                    }

                    public function guarded($a, $b, $c): float
                    {
                        $side = $b instanceof Square ? $b->side() : 0.0;
                        if (!$c instanceof Square) {
                            $c->side();
                        }
                        if (!$a instanceof Square) {
                            throw new \\InvalidArgumentException('not a square');
                        }
                        return $a->area();
                    }
                }
                """,
        },
    )
    assert graph(root) == {
        ("Shapes.Report.sum", "Shapes.Shape.area"),
        ("Shapes.Report.sum", "Shapes.Square.side"),
        ("Shapes.Report.guarded", "Shapes.Square.side"),  # the ternary's, not the if's
        ("Shapes.Report.guarded", "Shapes.Square.area"),  # after the guard
    }


def test_odd_files_cost_only_their_own_edges(tmp_path: Path) -> None:
    chain = "f()" + "->g()" * 3000
    nested = "(" * 3000 + "f()" + ")" * 3000
    blocks = "if (true) { " * 1500 + "f();" + " }" * 1500
    root = write_files(
        tmp_path,
        {
            "ok/ok.php": "<?php\n\nfunction f() { return 1; }\n\nfunction k() {\n    f();\n}\n",
            "ok/broken.php": "<?php\n\n$x = = 1;\n\nfunction whole() {\n    f();\n}\n",
            "ok/deep.php": f"<?php\n\nfunction d() {{\n    {chain};\n    f();\n}}\n",
            "ok/nested.php": f"<?php\n\nfunction n() {{\n    $x = {nested};\n}}\n",
            "ok/blocks.php": f"<?php\n\nfunction b() {{\n    {blocks}\n}}\n",
            "ok/empty.php": "",
            "ok/html.php": "<html><?php echo f(); ?></html>\n",
            "ok/weird.php": "<?php class { function ( } } }\n",
            "ok/binary.php": b"\x00\xff\xfe",
        },
    )
    index = GraphIndex(root, files(root))
    found = calls(all_edges(index))
    assert ("ok.ok.k", "ok.ok.f") in found
    assert ("ok.broken.whole", "ok.ok.f") in found  # around a syntax error
    assert ("ok.deep.d", "ok.ok.f") in found  # the absurd chain is skipped, the plain call not
    assert ("ok.html", "ok.ok.f") in found
    assert index.broken <= {"ok/binary.php"}


EDITS = [  # use.php names the changed classes only through their namespace
    (
        "src/Stores.php",
        "<?php\nnamespace App;\n\nclass Cache\n{\n    public function find() {}\n}\n\n"
        "class Disk\n{\n    public function find() {}\n}\n",
    ),
    (
        "src/Holder.php",
        "<?php\nnamespace App;\n\nclass Holder\n{\n"
        "    public function __construct(public Disk $store) {}\n}\n",
    ),
    (
        "src/use.php",
        "<?php\nnamespace App;\n\nfunction use_it(Holder $h)\n{\n    $h->store->find();\n}\n",
    ),
    (
        "src/Holder.php",
        "<?php\nnamespace App;\n\nclass Holder\n{\n"
        "    public function __construct(public Cache $store) {}\n}\n",
    ),
]


def test_warm_builder_equals_a_cold_build_after_edits(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    builder = GraphBuilder(root)

    seen = []
    for path, text in EDITS:
        write_files(root, {path: text})
        seen.append(update(builder, root))
    assert ("use.use_it", "Stores.Disk.find", "call") in seen[2]
    warm = seen[-1]
    assert warm == cold(root, tmp_path / "copy")
    assert ("use.use_it", "Stores.Cache.find", "call") in warm  # the property's new type
    assert ("use.use_it", "Stores.Disk.find", "call") not in warm


def test_a_function_declared_under_function_exists_is_a_node(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "src/helpers.php": """\
                <?php
                namespace App;

                if (!function_exists('App\\\\tap')) {
                    function tap($value) { return helper($value); }
                }

                function helper($value) { return $value; }
                """,
            "src/Job.php": """\
                <?php
                namespace App;

                class Job
                {
                    public function run(): void { tap(1); }
                }
                """,
        },
    )
    assert graph(root) == {("Job.Job.run", "helpers.tap"), ("helpers.tap", "helpers.helper")}
