"""The Kotlin call graph where the labeled bench does not reach: receivers of unknown type,
library lambda receivers, expect/actual, broken and odd files, and warm rebuilds."""

from __future__ import annotations

from pathlib import Path

from codekith.graph.builder import GraphBuilder
from codekith.graph.index import GraphIndex
from tests.conftest import write_files
from tests.graphs import all_edges, calls, cold, files, graph, update


def test_receivers_of_unknown_type_are_never_guessed(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "a/A.kt": """\
                package a

                class A {
                    fun only() {}

                    fun append(text: String) {}
                }
                """,
            "a/B.kt": """\
                package a

                class B {
                    fun only() {}

                    fun append(text: String) {}

                    fun g(x: Any, y: dynamic) {
                        x.only()
                        y.only()
                        unknown().only()
                        mystery.apply { only() }
                        val text = buildString { append("library's") }
                    }
                }
                """,
        },
    )
    assert graph(root) == set()


def test_implicit_receivers_extensions_and_expect(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "common/Clock.kt": """\
                package time

                expect fun now(): Long

                class Clock {
                    fun tick(): Long = now()
                }

                fun Clock.twice(): Long = tick() + tick()
                """,
            "jvm/Clock.jvm.kt": """\
                package time

                actual fun now(): Long = System.nanoTime()
                """,
            "app/Main.kt": """\
                import time.Clock
                import time.twice as double

                fun main() {
                    val clock = Clock()
                    with(clock) { tick() }
                    clock.twice()
                }
                """,
        },
    )
    assert graph(root) == {
        ("common.Clock.Clock.tick", "common.Clock.now"),  # the expect declaration
        ("common.Clock.twice", "common.Clock.Clock.tick"),  # the extension's receiver
        ("app.Main.main", "common.Clock.Clock"),
        ("app.Main.main", "common.Clock.Clock.tick"),
        ("app.Main.main", "common.Clock.twice"),
    }


def test_odd_files_cost_only_their_own_edges(tmp_path: Path) -> None:
    chain = "f()" + ".g()" * 3000
    nested = "run { " * 400 + "f()" + " }" * 400
    root = write_files(
        tmp_path,
        {
            "ok/Ok.kt": "package ok\n\nfun f() = 1\n\nfun k() {\n    f()\n}\n",
            "ok/Broken.kt": "package ok\n\nval x = = 1\n\nfun whole() {\n    f()\n}\n",
            "ok/Deep.kt": f"package ok\n\nfun d() {{\n    {chain}\n    f()\n}}\n",
            "ok/Nested.kt": f"package ok\n\nfun n() {{\n    {nested}\n}}\n",
            "ok/Empty.kt": "",
            "ok/Weird.kt": "class { fun ( } } }\n",
            "ok/Binary.kt": b"\x00\xff\xfe",
        },
    )
    index = GraphIndex(root, files(root))
    found = calls(all_edges(index))
    assert ("ok.Ok.k", "ok.Ok.f") in found
    assert ("ok.Broken.whole", "ok.Ok.f") in found  # around a syntax error
    assert ("ok.Deep.d", "ok.Ok.f") in found  # the absurd chain is skipped, the plain call not
    assert index.broken <= {"ok/Binary.kt"}


def test_functions_of_a_misread_class_stay_in_their_file(tmp_path: Path) -> None:
    """tree-sitter cannot read `final` as a name (okio's CipherSource): the chunker makes
    the class's methods top-level functions, which other files of the package must not
    see."""
    root = write_files(
        tmp_path,
        {
            "p/Spec.kt": """\
                package p

                class Spec(val name: String) {
                  private var final = false

                  fun emit(): String = render()

                  fun render(): String = name

                  fun stop() {
                    final = true
                  }
                }
                """,
            "p/Other.kt": """\
                package p

                class Other {
                  fun build() {
                    emit()
                  }
                }
                """,
        },
    )
    found = graph(root)
    assert ("p.Spec.emit", "p.Spec.render") in found
    assert not any(src.startswith("p.Other") for src, _ in found)


EDITS = [  # Use.kt has no edge into the changed files: it reads them through its package
    (
        "app/Stores.kt",
        "package app\n\nclass Cache {\n    fun find() {}\n}\n\nclass Disk {\n"
        "    fun find() {}\n}\n",
    ),
    ("app/Holder.kt", "package app\n\nclass Holder(val store: Disk)\n"),
    ("app/Use.kt", "package app\n\nfun use(h: Holder) {\n    h.store.find()\n}\n"),
    ("app/Holder.kt", "package app\n\nclass Holder(val store: Cache)\n"),
]


def test_warm_builder_equals_a_cold_build_after_edits(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    builder = GraphBuilder(root)

    for path, text in EDITS:
        write_files(root, {path: text})
        warm = update(builder, root)
    assert warm == cold(root, tmp_path / "copy")
    assert ("app.Use.use", "app.Stores.Cache.find", "call") in warm  # the property's new type
    assert ("app.Use.use", "app.Stores.Disk.find", "call") not in warm


def test_a_nested_class_with_its_constructor_on_the_next_line_has_its_edges(
    tmp_path: Path,
) -> None:
    """kotlinpoet's `public class Builder` / `internal constructor(…)`: tree-sitter-kotlin
    read it as an ERROR to the end of the file, and no call in it had an edge."""
    root = write_files(
        tmp_path,
        {
            "Spec.kt": """
                class Spec
                private constructor(val name: String) {
                  fun toBuilder(): Builder = Builder(name)

                  class Builder
                  internal constructor(val name: String) {
                    fun build(): Spec = Spec(name).also { check() }
                    fun check() {}
                  }
                }
                """,
        },
    )
    assert graph(root) == {
        ("Spec.Spec.toBuilder", "Spec.Spec.Builder"),
        ("Spec.Spec.Builder.build", "Spec.Spec"),
        ("Spec.Spec.Builder.build", "Spec.Spec.Builder.check"),
    }
