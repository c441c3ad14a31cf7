"""The call graph across runs: a cold run (a new process) reuses the stored derivations of
unchanged files and still ends with exactly the edges of a fresh full index, after edits,
renames, deletes and branch switches; a run killed in the Jedi pass resumes; the Jedi pass
of a plain `codekith index` finishes in the background."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codekith import graphsync
from codekith.answers import Answers
from codekith.graph.incremental import FastGraph, UpdateYielded, decode_variant
from codekith.store import Store
from tests.conftest import git, write_files
from tests.interrupt import signalled_cli

CORE = """
import functools


class Engine:
    def start(self):
        return helper()


def helper():
    return 1


def build():
    engines = sorted([Engine()], key=id)
    engines[0].start()  # only Jedi sees through sorted()
    return functools.partial(helper)
"""

PKG = {
    "pkg/__init__.py": "from .core import Engine, helper\n",
    "pkg/core.py": CORE,
    "pkg/extra.py": "from pkg.core import build\n\n\ndef twice():\n    build()\n    build()\n",
    "app/main.py": "from pkg import Engine\nfrom pkg.extra import twice\n\n\n"
    "def run():\n    twice()\n    return Engine().start()\n",
    "app/other.py": "import os\n\n\ndef here():\n    return os.getcwd()\n",
}


def all_edges(store: Store) -> set[tuple[str, str, str, str, int, str]]:
    return {
        (e["src"], e["dst"], e["kind"], e["path"], e["line"], e["resolver"])
        for e in store.live_edges()
    }


def fresh_edges(root: Path, tmp_path: Path, project_for) -> set:  # type: ignore[no-untyped-def]
    """The edges of a fresh full index of a copy of the workspace, Jedi included."""
    copy = tmp_path / f"fresh-{time.monotonic_ns()}"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".codekith", ".git"))
    project = project_for(copy)
    project.indexer.run()
    return all_edges(project.store)


def commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


def indexed_without_jedi(workspace, project_for):  # type: ignore[no-untyped-def]
    """PKG committed and indexed by a project whose graph is the fast resolver's alone."""
    root = workspace(PKG)
    commit(root, "start")
    project = project_for(root, jedi=False)
    project.indexer.run()
    return root, project


def fast_fresh_edges(root: Path, tmp_path: Path, project_for) -> set:  # type: ignore[no-untyped-def]
    """`fresh_edges` without Jedi, without the resolver column."""
    return {e[:5] for e in fresh_edges(root, tmp_path, lambda r: project_for(r, jedi=False))}


def save_bake_with_edges_later(root: Path, project) -> None:  # type: ignore[no-untyped-def]
    """Two saves (a new function, a new caller of it) whose runs leave the edges behind."""
    (root / "pkg/core.py").write_text(
        (root / "pkg/core.py").read_text() + "\n\ndef bake():\n    return helper()\n"
    )
    (root / "app/other.py").write_text("from pkg.core import bake\n\n\ndef here():\n    bake()\n")
    project.indexer.run(paths=["pkg/core.py", "app/other.py"], refine=False, edges_later=True)


def test_cold_runs_equal_a_fresh_index_after_edits_renames_and_deletes(
    workspace, project_for, tmp_path
):
    root = workspace(PKG)
    commit(root, "start")
    first = project_for(root).indexer.run()
    assert first.graph["jedi_files"] == len(PKG) and first.graph["jedi_pending"] == 0
    assert any(e[5] == "jedi" for e in all_edges(project_for(root).store))
    core = (root / "pkg/core.py").read_text()
    steps = {
        "edit a function body": lambda: (root / "pkg/core.py").write_text(
            core.replace("return helper()", "helper()\n        return 2")
        ),
        "rename a module": lambda: (root / "pkg/extra.py").rename(root / "pkg/more.py"),
        "fix the import": lambda: (root / "app/main.py").write_text(
            PKG["app/main.py"].replace("pkg.extra", "pkg.more")
        ),
        "delete a module": lambda: (root / "app/other.py").unlink(),
        "add a module": lambda: write_files(
            root, {"app/new.py": "from pkg.core import build\n\n\ndef go():\n    build()\n"}
        ),
    }
    for name, step in steps.items():
        step()
        project = project_for(root)  # a new project: its graph starts cold, from the store
        report = project.indexer.run()
        assert report.graph["files_resolved"] < 5, name  # stored derivations were reused
        # and stored again only for files resolved anew (not every file a cold run loaded)
        assert report.graph["variants_stored"] <= report.graph["files_resolved"], name
        assert all_edges(project.store) == fresh_edges(root, tmp_path, project_for), name


def test_a_branch_switch_back_reuses_every_derivation(workspace, project_for, tmp_path):
    root = workspace(PKG)
    commit(root, "start")
    project_for(root).indexer.run()
    before = all_edges(project_for(root).store)
    git(root, "checkout", "-q", "-b", "other")
    (root / "pkg/core.py").write_text(CORE.replace("engines[0].start()", "helper()"))
    (root / "app/other.py").unlink()
    commit(root, "other")
    changed = project_for(root).indexer.run()
    assert changed.graph["files_resolved"] > 0
    assert all_edges(project_for(root).store) == fresh_edges(root, tmp_path, project_for)
    git(root, "checkout", "-q", "main")
    back = project_for(root).indexer.run()
    assert back.embedded == 0
    assert back.graph["files_resolved"] == 0 and back.graph["jedi_files"] == 0
    assert all_edges(project_for(root).store) == before


def test_a_cold_start_decodes_one_derivation_per_file_while_those_hold(
    workspace, project_for, tmp_path, monkeypatch
):
    """After a switch away and back every unchanged file has two derivations kept; a cold
    process that then indexes an edit reads only the last used one of each (those hold),
    and its edges equal a fresh index's."""
    root = workspace(PKG)
    commit(root, "start")
    project_for(root).indexer.run()
    git(root, "checkout", "-q", "-b", "other")
    (root / "pkg/core.py").write_text(CORE.replace("engines[0].start()", "helper()"))
    commit(root, "other")
    project_for(root).indexer.run()
    git(root, "checkout", "-q", "main")
    project_for(root).indexer.run()
    decoded: list[str] = []
    monkeypatch.setattr(
        graphsync, "decode_variant", lambda blob: decoded.append("") or decode_variant(blob)
    )
    (root / "app/main.py").write_text((root / "app/main.py").read_text() + "# edited\n")
    project = project_for(root)
    files = len(
        project.store.graph_state_listing(
            f"{p}|{r.file_hash}" for p, r in project.store.catalog().items()
        )
    )
    report = project.indexer.run()
    assert report.indexed == ["app/main.py"] and len(decoded) == files - 1
    assert all_edges(project.store) == fresh_edges(root, tmp_path, project_for)


def many_modules(count: int) -> dict[str, str]:
    """A package where every module has call sites only Jedi resolves."""
    files = {"pkg/__init__.py": "", "pkg/core.py": CORE}
    for number in range(count):
        files[f"pkg/m{number}.py"] = (
            f"from pkg.core import Engine, build\n\n\ndef f{number}():\n"
            "    build()\n    items = sorted([Engine()], key=id)\n    return items[0].start()\n"
        )
    return files


def codekith(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "codekith.cli", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def test_killed_in_the_jedi_pass_then_resumed_equals_a_fresh_index(
    workspace, project_for, tmp_path
):
    root = workspace(many_modules(30))
    commit(root, "start")
    killed = signalled_cli(  # its Jedi pass stores after every file: killed after the third
        "codekith.graphsync:GraphSync.apply_jedi",
        3,
        signal.SIGKILL,
        "index",
        str(root),
        "--wait",
        setup="module.JEDI_WRITE_EVERY_S = 0.0",
    )
    _, err = killed.communicate(timeout=600)
    assert killed.returncode == -signal.SIGKILL, err
    store = Store(str(root / ".codekith"))
    assert 0 < int(store.meta()["jedi_pending"]) < 30
    resumed = codekith("index", str(root), "--wait")
    assert resumed.wait(timeout=600) == 0, resumed.stderr.read() if resumed.stderr else ""
    assert store.meta()["jedi_pending"] == "0"
    assert all_edges(store) == fresh_edges(root, tmp_path, project_for)


def test_index_returns_before_jedi_and_the_background_pass_completes_it(
    workspace, project_for, tmp_path
):
    root = workspace(many_modules(5))
    commit(root, "start")
    run = codekith("index", str(root))
    assert run.wait(timeout=600) == 0, run.stderr.read() if run.stderr else ""
    store = Store(str(root / ".codekith"))
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and store.meta().get("jedi_pending") != "0":
        time.sleep(0.2)
    assert store.meta()["jedi_pending"] == "0"
    assert all_edges(store) == fresh_edges(root, tmp_path, project_for)


def test_a_save_is_searchable_before_its_edges_and_no_edge_is_lost(
    workspace, project_for, tmp_path
):
    """A save's run (`edges_later`, as the language server makes it) writes the chunks and
    leaves the edges to `update_graph`; until then the graph's snapshot is behind, so a
    process that never updates them (killed, or another writer) still ends with a fresh
    index's edges."""
    root, project = indexed_without_jedi(workspace, project_for)
    before = all_edges(project.store)
    (root / "app/other.py").write_text(
        "import os\nfrom pkg.core import helper\n\n\ndef here():\n    return os.getcwd()\n\n\n"
        "def fold_the_maple_leaves():\n    return helper()\n"
    )
    saved = project.indexer.run(paths=["app/other.py"], refine=False, edges_later=True)
    assert saved.graph["deferred"] == 1 and saved.indexed == ["app/other.py"]
    assert all_edges(project.store) == before  # not yet
    hits = project.searcher.search("fold the maple leaves", 3, mode="hybrid")
    assert hits[0].qualname == "app.other.fold_the_maple_leaves"
    fresh = fast_fresh_edges(root, tmp_path, project_for)
    cold = project_for(root, jedi=False)  # another process: its run re-derives them
    assert cold.indexer.run().graph["files_resolved"] >= 1
    assert {e[:5] for e in all_edges(cold.store)} == fresh
    figures = project.indexer.update_graph()  # the warm builder brings them too
    assert {e[:5] for e in all_edges(project.store)} == fresh
    assert ("app.other.fold_the_maple_leaves", "pkg.core.helper") in {
        e[:2] for e in all_edges(project.store)
    }
    assert project.indexer.update_graph() == {}, figures  # nothing left behind


def test_an_edge_update_that_gives_way_to_a_save_stores_nothing_and_resumes_exactly(
    workspace, project_for, tmp_path
):
    """The language server's edge update stops between files when a save comes (so the
    save does not wait for it); what it stopped leaves no trace, and the next update ends
    with a fresh index's edges."""
    root, project = indexed_without_jedi(workspace, project_for)
    before, meta_before = all_edges(project.store), project.store.meta()
    save_bake_with_edges_later(root, project)
    asked: list[int] = []

    def save_arrives_at_the_third_file() -> bool:
        asked.append(1)
        return len(asked) >= 3

    with pytest.raises(UpdateYielded):
        project.indexer.update_graph(stop=save_arrives_at_the_third_file)
    assert len(asked) == 3
    assert all_edges(project.store) == before
    assert project.store.meta()["graph_snapshot"] == meta_before["graph_snapshot"]
    figures = project.indexer.update_graph()
    assert figures["files_resolved"] >= 2
    fresh = fast_fresh_edges(root, tmp_path, project_for)
    assert {e[:5] for e in all_edges(project.store)} == fresh
    assert ("app.other.here", "pkg.core.bake") in {e[:2] for e in all_edges(project.store)}
    assert project.indexer.update_graph() == {}


def test_an_edge_update_also_gives_way_while_it_resolves_edges(workspace, project_for, tmp_path):
    """Resolving edges file by file (after the rounds) took most of an update after a
    save of a widely imported file: a save waits for none of it either. The variants made
    before the stop leave the pool, so the next update makes and stores them."""
    root, project = indexed_without_jedi(workspace, project_for)
    before = all_edges(project.store)
    save_bake_with_edges_later(root, project)
    finishing = FastGraph._finish
    finished: list[str] = []

    def counted(self, variant, owned, world):  # type: ignore[no-untyped-def]
        finished.append(variant.path)
        return finishing(self, variant, owned, world)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(FastGraph, "_finish", counted)
        with pytest.raises(UpdateYielded):
            project.indexer.update_graph(stop=lambda: len(finished) >= 2)
    assert finished == ["app/main.py", "app/other.py"]  # the rounds ran; stopped at the 3rd
    assert all_edges(project.store) == before
    project.indexer.update_graph()
    key = f"app/other.py|{project.store.catalog()['app/other.py'].file_hash}"
    assert project.store.graph_state_listing([key])  # made again and stored, not in memory
    fresh = fast_fresh_edges(root, tmp_path, project_for)
    assert {e[:5] for e in all_edges(project.store)} == fresh
    assert project.indexer.update_graph() == {}


def test_edges_computed_without_the_lock_let_a_save_write_meanwhile_and_stay_exact(
    workspace, project_for, tmp_path
):
    """The server computes a save's edges without the index's write lock and stores them
    under it: a save that comes meanwhile takes the lock and writes at once; the stored
    edges are those of the files the computation saw (the graph's snapshot says so), and
    the next update brings the save's."""
    root, project = indexed_without_jedi(workspace, project_for)
    save_bake_with_edges_later(root, project)
    seen: list[set] = []

    def a_save_comes_at_the_first_file() -> bool:
        if not seen:
            seen.append(fast_fresh_edges(root, tmp_path, project_for))  # what it computes
            (root / "pkg/extra.py").write_text(
                "from pkg.core import build, helper\n\n\ndef twice():\n    build()\n"
                "    return helper()\n"
            )
            Answers(project).reindex(paths=["pkg/extra.py"], refine=False, edges_later=True)
        return False

    before = all_edges(project.store)
    assert project.indexer.compute_graph(project.store.meta(), a_save_comes_at_the_first_file)
    assert all_edges(project.store) == before  # nothing stored yet
    assert project.indexer.store_graph()["files_resolved"] >= 2
    assert {e[:5] for e in all_edges(project.store)} == seen[0]
    assert ("pkg.extra.twice", "pkg.core.helper") not in {e[:2] for e in all_edges(project.store)}
    assert project.indexer.update_graph()["files_resolved"] >= 1  # the save's, still behind
    assert {e[:5] for e in all_edges(project.store)} == fast_fresh_edges(
        root, tmp_path, project_for
    )
    assert project.indexer.update_graph() == {}


def test_a_computed_update_is_stored_before_any_other_use_of_the_graph(
    workspace, project_for, tmp_path
):
    """A run that updates the graph (or Jedi's pass) before the computed edges were stored
    stores them first, so nothing it changes is lost; when another process wrote the graph
    meanwhile the computed edges are dropped and the graph reloaded from the store."""
    root, project = indexed_without_jedi(workspace, project_for)
    save_bake_with_edges_later(root, project)
    assert project.indexer.compute_graph(project.store.meta())
    (root / "app/main.py").write_text("from pkg.core import bake\n\n\ndef run():\n    bake()\n")
    project.indexer.run(paths=["app/main.py"])  # its own edges: stores the computed first
    fresh = fast_fresh_edges(root, tmp_path, project_for)
    assert {e[:5] for e in all_edges(project.store)} == fresh
    assert project.indexer.update_graph() == {}

    (root / "app/main.py").write_text("from pkg.core import helper\n\n\ndef run():\n    helper()\n")
    project.indexer.run(paths=["app/main.py"], refine=False, edges_later=True)
    assert project.indexer.compute_graph(project.store.meta())
    (root / "app/main.py").write_text("from pkg.extra import twice\n\n\ndef run():\n    twice()\n")
    other = project_for(root, jedi=False)  # another process writes the graph meanwhile
    assert other.indexer.run().graph["files_resolved"] >= 1
    assert project.indexer.store_graph() == {}  # dropped: the store has the other's
    fresh = fast_fresh_edges(root, tmp_path, project_for)
    assert {e[:5] for e in all_edges(project.store)} == fresh
    assert project.indexer.update_graph() == {}
