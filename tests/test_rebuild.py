"""`index --full` builds aside and swaps in (issue 12, item 19); damaged index files are
detected and repaired (item 13). Real LanceDB, the real model, real CLI processes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codekith.progress import Step
from codekith.store import Store
from tests.conftest import MATH_MODULE, write_files


def codekith(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codekith.cli", *args], capture_output=True, text=True
    )


def test_readers_see_the_old_index_until_the_rebuild_is_complete(tmp_path, project_for):
    root = write_files(tmp_path / "ws", {"mathx.py": MATH_MODULE})
    project = project_for(root, batch_chunks=1)
    project.indexer.run()
    reader = project_for(root).read_store
    seen: list[int] = []

    def during_rebuild(step: Step) -> None:
        seen.append(reader.count())  # a reader in the middle of the rebuild

    write_files(root, {"more.py": "def extra():\n    return 3\n"})
    report = project.indexer.run(full=True, progress=during_rebuild)
    assert report.mode == "full" and report.chunks_total == 3
    assert seen and all(count == 2 for count in seen)
    assert reader.count() == 3  # the same connection follows the swap
    assert [p.name for p in Path(project.store.location).glob("*.lance")] == []
    again = project.indexer.run(full=True)
    assert again.chunks_total == 3
    assert len(list(Path(project.store.location).glob("gen-*"))) == 1
    assert project.indexer.run().indexed == []


def latest_manifest(db: Path, table: str) -> Path:
    # Lance names manifests by u64::MAX - version: the latest sorts first
    return sorted((db / f"{table}.lance" / "_versions").glob("*.manifest"))[0]


def damage(db: Path, how: str) -> None:
    data = sorted((db / "chunks.lance" / "data").glob("*.lance"), key=lambda p: p.stat().st_size)
    if how == "truncated chunk data":
        os.truncate(data[-1], 100)
    elif how == "deleted latest chunk manifests":
        # until the table rolls back to a version whose rows differ (the last commits may
        # be compactions, which change nothing a reader sees)
        live = Store(str(db)).count()
        while Store(str(db)).count() == live:
            latest_manifest(db, "chunks").unlink()
            (db / "chunks.lance" / "_versions" / "latest_version_hint.json").unlink(missing_ok=True)
    elif how == "garbage meta manifest":
        latest_manifest(db, "meta").write_bytes(b"garbage\n")
    elif how == "deleted vector data":
        for path in (db / "vectors.lance" / "data").glob("*.lance"):
            path.unlink()


def live_chunks(db: Path) -> set[tuple[str, str]]:
    return {(r["id"], r["document"]) for r in Store(str(db)).rows("true")}


DAMAGES = [  # each one of a kind (a deleted data file or a truncated manifest is like these)
    "truncated chunk data",
    "deleted latest chunk manifests",
    "garbage meta manifest",
    "deleted vector data",
]


@pytest.fixture(scope="module")
def indexed(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("damage") / "ws"
    files = {f"m{n}.py": MATH_MODULE.replace("fibonacci", f"fibonacci_{n}") for n in range(4)}
    write_files(root, {**files, "README.md": "# Numbers\nFibonacci and primes.\n"})
    assert codekith("index", str(root), "--wait").returncode == 0
    for n in range(4):  # more commits: more versions and data files
        write_files(root, {f"m{n}.py": files[f"m{n}.py"] + f"\nCONSTANT_{n} = {n}\n"})
        assert codekith("index", str(root), "--wait").returncode == 0
    return root


@pytest.mark.parametrize("how", DAMAGES)
def test_damage_is_one_line_then_repaired_by_the_next_run(indexed, tmp_path, how):
    root = tmp_path / "ws"
    shutil.copytree(indexed, root, symlinks=True)
    for source in indexed.rglob("*.py"):  # same mtimes: nothing is stale but the damage
        target = root / source.relative_to(indexed)
        os.utime(target, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns))
    db = root / ".codekith"
    expected = live_chunks(db)
    damage(db, how)
    search = codekith("search", "fibonacci", "--root", str(root))
    if how != "deleted vector data":  # the cache is not read by searches
        assert search.returncode == 1, (how, search.stdout)
        assert "damaged" in search.stderr and "Traceback" not in search.stderr, search.stderr
        assert len(search.stderr.strip().splitlines()) == 1
    repair = codekith("index", str(root), "--wait", "--json")
    assert repair.returncode == 0, repair.stderr
    report = json.loads(repair.stdout)
    assert report["repaired"], report
    assert live_chunks(db) == expected
    assert report["embedded"] == (4 if how == "garbage meta manifest" else 0) or how.startswith(
        "garbage"
    )
    assert codekith("search", "fibonacci", "--root", str(root)).returncode == 0


@pytest.mark.parametrize("how", ["garbage meta manifest"])
def test_full_always_rebuilds_a_damaged_index(indexed, tmp_path, how):
    root = tmp_path / "ws"
    shutil.copytree(indexed, root, symlinks=True)
    db = root / ".codekith"
    expected = live_chunks(db)
    damage(db, how)
    full = codekith("index", str(root), "--full", "--wait", "--json")
    assert full.returncode == 0, full.stderr
    assert live_chunks(db) == expected
