"""A long-lived graph builder re-resolves only the tree-sitter files an edit can reach, and
its edges stay those of a cold build: every language's labeled bench programs (side by side
in one workspace) are edited line by line, files are deleted, restored and copied, and
after each update the edges must equal a cold build's, edge for edge (lines included)."""

from __future__ import annotations

import gc
import random
import shutil
from pathlib import Path

import pytest

from codekith.graph.builder import GraphBuilder
from codekith.graph.index import config_fingerprint
from codekith.graph.model import Edge
from codekith.graph.reads import Interner, ReadGraph, Recorder, Table
from codekith.graph.syntax_engine import SyntaxIndex
from tests.graphs import contents

BENCH = Path(__file__).parent / "callgraph_bench"
LANGUAGES = sorted(p.name for p in BENCH.iterdir() if p.is_dir())


class Workspace:
    """A builder kept alive over a workspace, checked against a cold build after each edit."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.builder = GraphBuilder(root)
        self.resolved: list[int] = []
        self.update()

    def update(self) -> None:
        files = contents(self.root)
        result = self.builder.update(files, config_fingerprint(self.root, files))
        self.resolved.append(result.syntax_resolved)
        warm = {edge for edges in self.builder.edges.values() for edge, _ in edges}
        assert warm == self.cold(files), f"warm edges differ from cold after {self.resolved}"

    def cold(self, files: dict[str, str]) -> set[Edge]:
        index = SyntaxIndex(self.root, sorted(files))
        return {edge for path in index.paths() for edge in index.resolve(path)}


def edits(workspace: Workspace, path: str, rng: random.Random) -> None:
    """Line edits (a call or a declaration gone, a line doubled), the file gone and back,
    and a copy of it beside it (every definition twice)."""
    target = workspace.root / path
    original = target.read_text()
    lines = original.split("\n")
    for _ in range(3):
        changed = list(lines)
        at = rng.randrange(len(changed))
        if rng.random() < 0.5:
            del changed[at]
        else:
            changed.insert(at, changed[at])
        target.write_text("\n".join(changed))
        workspace.update()
    target.write_text(original)
    workspace.update()
    target.unlink()
    workspace.update()
    target.write_text(original)
    workspace.update()
    copy = target.with_name(f"copy_{target.name}")
    shutil.copy(target, copy)
    workspace.update()
    copy.unlink()
    workspace.update()


@pytest.mark.parametrize("language", LANGUAGES)
def test_updates_equal_cold_builds_and_resolve_less(language: str, tmp_path: Path) -> None:
    root = tmp_path / language
    shutil.copytree(BENCH / language, root)
    workspace = Workspace(root)
    files = sorted(contents(root))
    rng = random.Random(language)
    for path in rng.sample(files, min(6, len(files))):
        edits(workspace, path, rng)
    updates = workspace.resolved[1:]
    assert workspace.resolved[0] == len(files)
    assert sum(updates) < 0.5 * len(files) * len(updates), updates


def test_a_change_reaches_files_through_the_answers_they_reused() -> None:
    graph = ReadGraph()
    inner = graph.node((1,))  # an answer that read read 1
    outer = graph.node((inner, 2))  # an answer built on it
    graph.record("a.c", {outer})
    graph.record("b.c", {3})
    assert graph.reached({1}) == {inner, outer, "a.c"}
    assert graph.reached({3}) == {"b.c"}


def test_a_forgotten_answer_stays_while_a_file_reads_it_and_goes_with_it() -> None:
    graph = ReadGraph()
    inner = graph.node((1,))
    outer = graph.node((inner,))
    graph.record("a.c", {outer})
    assert graph.reached({1}) == {inner, outer, "a.c"}  # the evaluator forgets both
    graph.drop(outer)
    graph.drop(inner)
    assert graph.size() == (3, 2)
    assert graph.reached({1}) == {inner, outer, "a.c"}  # a.c still read what they read
    graph.record("a.c", {4})  # a.c resolved again
    assert graph.size() == (1, 0)
    graph.drop(graph.node((5,)))  # unread: gone at once
    assert graph.size() == (1, 0)


def test_a_forgotten_answer_read_by_two_files_goes_with_the_last_of_them() -> None:
    graph = ReadGraph()
    graph.reached(())  # the reverse index exists from here on: readers come and go in it
    answer = graph.node((1,))
    graph.record("a.c", (answer, 2))
    graph.record("b.c", (answer,))
    graph.drop(answer)
    graph.record("a.c", (2,))  # a.c resolved again, without the answer
    assert graph.size() == (3, 1)
    assert graph.reached((1,)) == {answer, "b.c"}
    graph.record("b.c", (3,))
    assert graph.size() == (2, 0)
    assert graph.reached((1,)) == set()
    assert graph.reached((2,)) == {"a.c"}


def test_rows_replaced_stand_where_a_cold_build_puts_them() -> None:
    recorder = Recorder(Interner())
    cold, warm = Table[str]("t", recorder), Table[str]("t", recorder)
    for path in ("a", "b", "c"):
        cold.add("k", path, f"{path}1", {ord(path)})
        warm.add("k", path, "stale", {0})
    warm.replace("k", "a", [("a1", {ord("a")})])
    warm.replace("k", "c", [("c1", {ord("c")})])
    warm.replace("k", "b", [("b1", {ord("b")})])
    assert warm.rows == cold.rows
    assert warm.get("k") == cold.get("k")
    recorder.begin()
    warm.get("k")
    assert recorder.reads == {recorder.interner.id(("t", "k")), *map(ord, "abc")}
    for path in "abc":
        warm.replace("k", path, [])
    assert "k" not in warm.rows


def test_repeated_edits_leave_no_growing_read_graph(tmp_path: Path) -> None:
    """Answers forgotten while an unchanged file still reads them are kept for that file
    only: editing one file over and over keeps the graph's size."""
    root = tmp_path / "c"
    shutil.copytree(BENCH / "c", root)
    workspace = Workspace(root)
    target = root / sorted(contents(root))[0]
    original = target.read_text()
    sizes = []
    for _ in range(4):
        target.write_text(original.replace("\n", "\n// an edit\n", 1))
        workspace.update()
        target.write_text(original)
        workspace.update()
        index = workspace.builder._index
        assert index is not None
        sizes.append(index.graph.size())
    assert sizes[1:] == sizes[1:2] * 3, sizes


def test_reading_files_makes_no_cyclic_garbage() -> None:
    """The graph builder pauses the cycle collector while it parses and resolves
    (`memory.cycle_collector_paused`): a syntax tree kept alive by a cycle (an extractor's
    bound-method handlers, a recursive closure) would stay in memory until it resumes."""
    SyntaxIndex(BENCH, contents(BENCH))  # every language's modules imported first
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        index = SyntaxIndex(BENCH, contents(BENCH))
        assert len(index.paths()) > 100
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def test_a_line_added_to_a_required_lua_module_resolves_that_file_alone(tmp_path: Path) -> None:
    """What a Lua module's readers see of it (its tables, its locals) is named and placed
    without its lines: a comment line on top moves everything and changes nothing else."""
    root = tmp_path / "lua"
    shutil.copytree(BENCH / "lua" / "modules_require", root)
    workspace = Workspace(root)
    util = root / "src" / "shop" / "util.lua"
    util.write_text("-- a line on top\n" + util.read_text())
    workspace.update()
    assert workspace.resolved[-1] == 1
