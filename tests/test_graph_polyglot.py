"""The tree-sitter call graph (JS/TS, Go, Rust, Java) on small real workspaces on disk:
warm updates agree with a cold build, nothing is guessed, odd files cost nothing else."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from codekith.cli import main
from codekith.graph.builder import GraphBuilder
from codekith.graph.index import GraphIndex, config_fingerprint
from codekith.graph.syntax_engine import MAX_GRAPH_LINE_CHARS
from tests.conftest import write_files
from tests.graphs import all_edges, calls, cold, files

MIXED = {
    "web/tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@lib/*": ["lib/*"]}}}',
    "web/lib/format.ts": """
        export function money(cents: number): string {
          return (cents / 100).toFixed(2);
        }
        """,
    "web/lib/index.ts": "export * from './format';\n",
    "web/cart.ts": """
        import { money } from '@lib/format';
        import * as lib from './lib';

        export class Cart {
          private cents = 0;
          add(c: number): this {
            this.cents += c;
            return this;
          }
          total(): string {
            return money(this.cents) + lib.money(0);
          }
        }
        """,
    "web/main.ts": """
        import { Cart } from './cart';

        export function checkout(): string {
          return new Cart().add(3).total();
        }
        """,
    "svc/go.mod": "module example.com/svc\n\ngo 1.22\n",
    "svc/store/store.go": """
        package store

        type Store struct{ n int }

        func New() *Store { return &Store{} }

        func (s *Store) Add() { s.n++ }
        """,
    "svc/main.go": """
        package main

        import "example.com/svc/store"

        func main() {
            s := store.New()
            s.Add()
        }
        """,
}


def test_mixed_workspace_resolves_through_imports_paths_and_packages(tmp_path: Path) -> None:
    root = write_files(tmp_path, MIXED)
    found = calls(all_edges(GraphIndex(root, files(root))))
    assert found == {
        ("web.cart.Cart.total", "web.lib.format.money"),  # tsconfig paths and `export *`
        ("web.main.checkout", "web.cart.Cart.add"),
        ("web.main.checkout", "web.cart.Cart.total"),  # `add` returns `this`
        ("svc.main.main", "svc.store.store.New"),  # go.mod module path
        ("svc.main.main", "svc.store.store.Store.Add"),  # the type New returns
    }


def test_making_an_instance_of_a_class_without_its_own_constructor(tmp_path: Path) -> None:
    """`new Cart()` of a class with no constructor (TypeScript), `new Order()` of one with
    Java's default constructor: no edge reached the class, so call hierarchy and lenses
    listed no caller of it. A class with a constructor keeps its call edge alone."""
    java = "j/src/main/java/shop"
    root = write_files(
        tmp_path,
        {
            **MIXED,
            f"{java}/Order.java": "package shop;\npublic class Order {\n  int total;\n}\n",
            f"{java}/Priced.java": "package shop;\npublic class Priced extends Order {\n"
            "  public Priced(int t) { }\n}\n",
            f"{java}/Shop.java": "package shop;\npublic class Shop {\n"
            "  Order make() { new Priced(2); return new Order(); }\n}\n",
        },
    )
    edges = all_edges(GraphIndex(root, files(root)))
    made = {(e.src.rsplit(".", 1)[-1], e.dst.rsplit(".", 1)[-1]) for e in edges if e.kind == "new"}
    assert made == {("checkout", "Cart"), ("make", "Order")}
    assert ("make", "Priced") in {
        (s.rsplit(".", 1)[-1], d.rsplit(".", 1)[-1]) for s, d in calls(edges)
    }


def test_cli_graph_prints_every_language(tmp_path: Path, capsys) -> None:
    root = write_files(tmp_path, {**MIXED, "tool.py": "def go():\n    pass\n\n\ngo()\n"})
    assert main(["graph", str(root), "--json", "--no-jedi"]) == 0
    graph = json.loads(capsys.readouterr().out)
    assert graph["web.main.checkout"] == ["web.cart.Cart.add", "web.cart.Cart.total"]
    assert graph["svc.main.main"] == ["svc.store.store.New", "svc.store.store.Store.Add"]
    assert graph["tool"] == ["tool.go"]
    assert graph["web.lib.format.money"] == []  # listed without callees, as PyCG does


PACKAGE_EDITS = [  # the last two change a field's type: use.go and Use.java have
    # no edge into the changed file, they read it through their package
    (
        "svc/db.go",
        "package main\n\ntype DB struct{}\n\nfunc (d *DB) Query() {}\n\n"
        "type Cache struct{}\n\nfunc (c *Cache) Query() {}\n",
    ),
    ("svc/holder.go", "package main\n\ntype Holder struct{ db *DB }\n"),
    ("svc/use.go", "package main\n\nfunc use(h Holder) { h.db.Query() }\n"),
    (
        "app/Cache.java",
        "package app;\n\nclass Cache { void find() {} }\nclass Disk { void find() {} }\n",
    ),
    ("app/Holder.java", "package app;\n\nclass Holder { Disk store; }\n"),
    ("app/Use.java", "package app;\n\nclass Use { void use(Holder h) { h.store.find(); } }\n"),
    ("svc/holder.go", "package main\n\ntype Holder struct{ db *Cache }\n"),
    ("app/Holder.java", "package app;\n\nclass Holder { Cache store; }\n"),
]


def test_warm_builder_equals_a_cold_build_after_edits(tmp_path: Path) -> None:
    """Edits in a long-lived builder (changed files parsed again) agree with a cold build."""
    root = write_files(tmp_path / "ws", MIXED)
    builder = GraphBuilder(root)

    def run(changed: set[str]) -> None:  # the builder finds what changed from the hashes
        contents = {p: hashlib.sha1((root / p).read_bytes()).hexdigest() for p in files(root)}
        builder.update(contents, config_fingerprint(root, contents))

    run(set(files(root)))
    edits: dict[str, str | None] = {
        "web/lib/format.ts": "export function money(c: number): string { return round(c); }\n"
        "export function round(c: number): string { return String(c); }\n",
        "web/main.ts": "import { Cart } from './cart';\nimport { round } from './lib';\n\n"
        "export function checkout(): string {\n  round(1);\n  return new Cart().total();\n}\n",
        "svc/store/extra.go": "package store\n\nfunc (s *Store) Reset() { s.n = 0 }\n",
        "svc/main.go": 'package main\n\nimport "example.com/svc/store"\n\nfunc main() {\n'
        "\ts := store.New()\n\ts.Reset()\n}\n",
        "svc/store/store.go": None,
    }
    for path, text in edits.items():
        if text is None:
            (root / path).unlink()
        else:
            (root / path).write_text(text)
        run({path})
    for path, text in PACKAGE_EDITS:
        write_files(root, {path: text})
        run({path})
    warm = {(e.src, e.dst, e.kind) for edges in builder.edges.values() for e, _ in edges}
    assert warm == cold(root, tmp_path / "copy")
    assert ("web.main.checkout", "web.lib.format.round", "call") in warm
    assert ("web.lib.format.money", "web.lib.format.round", "call") in warm
    assert not any("svc.store.store" in e[1] for e in warm)  # its file is gone
    assert ("svc.main.main", "svc.store.extra.Store.Reset", "call") not in warm  # no Store type
    assert ("svc.use.use", "svc.db.Cache.Query", "call") in warm  # the field's new type
    assert ("app.Use.Use.use", "app.Cache.Cache.find", "call") in warm


def test_receivers_of_unknown_type_are_never_guessed(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "a.ts": "export class A { only(): void {} }\n",
            "b.ts": "export function g(x) { x.only(); }\nexport function h(y: any) { y.only(); }\n",
            "p/a.go": "package p\n\ntype A struct{}\n\nfunc (a A) Only() {}\n",
            "p/b.go": "package p\n\nfunc G(x interface{}) { x.(interface{ Only() }).Only() }\n",
            "src/A.java": "class A { void only() {} }\n",
            "src/B.java": "class B { void g(Object x) { ((Runnable) x).run(); } void h(var y) {"
            " y.only(); } }\n",
            "src/lib.rs": "struct A;\nimpl A { fn only(&self) {} }\nfn g<T>(x: T) { x.only(); }\n",
        },
    )
    assert calls(all_edges(GraphIndex(root, files(root)))) == set()


def test_odd_files_cost_only_their_own_edges(tmp_path: Path) -> None:
    chain = "f()" + ".g()" * 3000
    root = write_files(
        tmp_path,
        {
            "ok.ts": "export function f() { return 1; }\nexport function k() { f(); }\n",
            "broken.ts": "export function half( {\nexport function whole() { f(); }\n",
            "deep.ts": f"import {{ f }} from './ok';\nexport function d() {{ {chain}; f(); }}\n",
            "empty.go": "",
            "weird.rs": "fn x() { let = ; } }}}\n",
        },
    )
    index = GraphIndex(root, files(root))
    found = calls(all_edges(index))
    assert ("ok.k", "ok.f") in found
    assert ("deep.d", "ok.f") in found  # the absurd chain is skipped, the plain call is not
    assert index.broken == set()


def test_project_files_are_fingerprinted(tmp_path: Path) -> None:
    root = write_files(tmp_path, MIXED)
    before = config_fingerprint(root, files(root))
    assert before == config_fingerprint(root, files(root))
    (root / "svc/go.mod").write_text("module example.com/other\n\ngo 1.22\n")
    assert config_fingerprint(root, files(root)) != before
    index = GraphIndex(root, files(root))
    assert ("svc.main.main", "svc.store.store.New") not in calls(all_edges(index))


STORE = {
    "tsconfig.json": '{"compilerOptions": {"baseUrl": "src"}}',
    "src/pricing/discount.ts": """
        /** The price of an amount after a percentage discount. */
        export function applyDiscount(amount: number, percent: number): number {
          return roundCents(amount * (100 - percent) / 100);
        }

        /** Round a price to whole cents. */
        export function roundCents(amount: number): number {
          return Math.round(amount * 100) / 100;
        }
        """,
    "src/cart.ts": """
        import { applyDiscount } from 'pricing/discount';

        /** A shopping cart of priced items. */
        export class Cart {
          private items: { price: number; quantity: number }[] = [];

          /** Add an item with its unit price and quantity to the cart. */
          add(price: number, quantity: number): this {
            this.items.push({ price, quantity });
            return this;
          }

          /** The total price of the cart after the volume discount. */
          total(): number {
            const sum = this.items.reduce((acc, i) => acc + i.price * i.quantity, 0);
            return applyDiscount(sum, sum > 100 ? 10 : 0);
          }
        }
        """,
    "src/checkout.ts": """
        import { Cart } from './cart';

        /** Check out a cart: the total price the customer pays. */
        export function checkout(cart: Cart): number {
          return cart.total();
        }
        """,
}


def line_of(root: Path, path: str, text: str) -> int:
    return next(n for n, t in enumerate((root / path).read_text().splitlines(), 1) if text in t)


def test_index_stores_edges_and_related_follows_them(workspace, project_for) -> None:
    root = workspace(STORE)
    project = project_for(root)
    report = project.indexer.run()
    stored = {(e["src"], e["dst"], e["kind"]) for e in project.store.live_edges()}
    assert {
        ("cart.Cart.total", "pricing.discount.applyDiscount", "call"),
        ("pricing.discount.applyDiscount", "pricing.discount.roundCents", "call"),
        ("checkout.checkout", "cart.Cart.total", "call"),
        ("checkout", "cart.Cart", "import"),
    } <= stored
    assert report.graph["edges"] == len(stored)
    bundle = project.related.bundle(f"src/cart.ts:{line_of(root, 'src/cart.ts', 'reduce')}")
    reasons = {item.hit.qualname: item.reason for item in bundle.items}
    assert reasons["cart.Cart.total"] == "seed"
    assert reasons["pricing.discount.applyDiscount"] == "callee of cart.Cart.total"
    assert reasons["checkout.checkout"] == "caller of cart.Cart.total"


def test_a_project_file_change_re_resolves_without_source_changes(workspace, project_for):
    """Moving baseUrl breaks `pricing/discount`: the next run drops the edge, though no
    source file changed."""
    root = workspace(STORE)
    project = project_for(root)
    project.indexer.run()
    edge = ("cart.Cart.total", "pricing.discount.applyDiscount", "call")
    assert edge in {(e["src"], e["dst"], e["kind"]) for e in project.store.live_edges()}
    (root / "tsconfig.json").write_text('{"compilerOptions": {"baseUrl": "lib"}}')
    project.indexer.run()
    assert edge not in {(e["src"], e["dst"], e["kind"]) for e in project.store.live_edges()}


def test_server_style_runs_keep_the_edge_table_equal_to_a_cold_index(
    workspace, project_for, tmp_path
):
    """Saves (runs on the saved paths, warm builder) end where a fresh index starts."""
    root = workspace(STORE)
    project = project_for(root)
    project.indexer.run()
    (root / "src/pricing/discount.ts").write_text(
        "export function applyDiscount(amount: number, percent: number): number {\n"
        "  return amount - fee(amount, percent);\n}\n\n"
        "export function fee(amount: number, percent: number): number {\n"
        "  return (amount * percent) / 100;\n}\n"
    )
    project.indexer.run(paths=["src/pricing/discount.ts"])
    (root / "src/checkout.ts").unlink()
    project.indexer.run(paths=["src/checkout.ts"])
    copy = tmp_path / "copy"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".codekith"))
    cold = project_for(copy)
    cold.indexer.run()

    def table(p) -> set[tuple[str, str, str, str, int]]:
        return {(e["src"], e["dst"], e["kind"], e["path"], e["line"]) for e in p.store.live_edges()}

    assert table(project) == table(cold)
    assert ("pricing.discount.applyDiscount", "pricing.discount.fee", "call") in {
        row[:3] for row in table(project)
    }
    assert not any(row[3] == "src/checkout.ts" for row in table(project))


def test_a_megabyte_line_is_cut_before_parsing(tmp_path: Path) -> None:
    """Minified code: tree-sitter and the front ends held hundreds of megabytes per megabyte
    line (scripts/long_line_memory.py); past MAX_GRAPH_LINE_CHARS a line is cut, so a call
    at its far end is not seen while the calls on other lines still are (though the cut
    braces may nest them in the cut definition, as the chunks' cut text does)."""
    padding = " " * MAX_GRAPH_LINE_CHARS
    root = write_files(
        tmp_path,
        {
            "ok.ts": "export function f() { return 1; }\nexport function g() { return 2; }\n",
            "min.ts": (
                "import { f, g } from './ok';\n"
                f"export function far() {{ {padding} g(); }}\n"
                "export function near() { f(); }\n"
            ),
        },
    )
    found = calls(all_edges(GraphIndex(root, files(root))))
    assert any(src.startswith("min.") and dst == "ok.f" for src, dst in found)
    assert not any(dst == "ok.g" for _, dst in found)


def test_calls_inside_functions_assigned_at_the_top_level_are_theirs(tmp_path: Path) -> None:
    """CommonJS methods (`View.prototype.lookup = function …`) own the calls in them, and an
    adapter exported behind a guard owns its own: the graph names them as their chunks."""
    root = write_files(
        tmp_path,
        {
            "lib/view.js": "function tryStat(p) { return p; }\n"
            "View.prototype.lookup = function lookup(name) {\n  return tryStat(name);\n};\n",
            "lib/http.js": "function send(c) { return c; }\n"
            "export default ok && function httpAdapter(config) {\n  return send(config);\n};\n",
        },
    )
    assert calls(all_edges(GraphIndex(root, files(root)))) == {
        ("lib.view.View.lookup", "lib.view.tryStat"),
        ("lib.http.httpAdapter", "lib.http.send"),
    }
