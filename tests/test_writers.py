"""Two writers on one index: the second gets a clear answer naming the holder, and the
holder's lock file is left intact (issue 12, items 14 and 21)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from codekith.store import IndexLockedError, IndexMismatchError, Store

HOLD_LOCK = textwrap.dedent(
    """
    import sys, time
    from codekith.store import Store
    with Store(sys.argv[1]).write_lock():
        print("locked", flush=True)
        sys.stdin.readline()
    """
)


def test_a_refused_writer_names_the_holder_and_keeps_its_pid(tmp_path: Path):
    location = str(tmp_path / "index")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, location],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        for _ in range(2):
            with (
                pytest.raises(IndexLockedError, match=f"pid {holder.pid}"),
                Store(location).write_lock(),
            ):
                pass
        assert (Path(location) / "write.lock").read_text() == str(holder.pid)
    finally:
        holder.communicate("\n", timeout=60)
    with Store(location).write_lock():
        assert (Path(location) / "write.lock").read_text() == str(os.getpid())


HOLD_AS_REFINER = textwrap.dedent(
    """
    import sys
    from codekith.store import Store
    store = Store(sys.argv[1])
    with store.refine_lock() as mine, store.write_lock():
        print("locked" if mine else "refine lock taken", flush=True)
        sys.stdin.readline()
    """
)


def test_an_index_run_waits_for_a_background_jedi_store_but_not_for_another_writer(
    tmp_path: Path,
):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "m.py").write_text("def f(x):\n    return x\n")
    location = str(repo / ".codekith")
    for script, waits in ((HOLD_LOCK, False), (HOLD_AS_REFINER, True)):
        holder = subprocess.Popen(
            [sys.executable, "-c", script, location],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
            run = subprocess.Popen(
                [sys.executable, "-m", "codekith.cli", "index", str(repo), "--json"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            assert run.stderr is not None
            said = run.stderr.readline()
            if waits:
                assert "waiting for the background Jedi pass" in said
                holder.communicate("\n", timeout=60)  # the pass's store ends
                out, err = run.communicate(timeout=600)
                assert run.returncode == 0, err
                assert json.loads(out)["indexed"] == 1
            else:
                assert f"pid {holder.pid}" in said
                assert run.wait(timeout=600) == 1
        finally:
            if holder.poll() is None:
                holder.communicate("\n", timeout=60)


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 200 KB tmpfs (root only: CI runs as root); unmounted afterwards."""
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(mount)])
    if made.returncode:
        pytest.skip("cannot mount a tmpfs here")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=True)


def codekith(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codekith.cli", *args], capture_output=True, text=True
    )


def test_a_full_disk_then_a_read_only_one_are_one_line_errors_then_it_resumes(small_disk, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    digits = "".join(str(k) for k in range(200))
    for module in range(3):
        (repo / f"m{module}.py").write_text(
            "".join(f"def f{module}_{n}(x):\n    return x * {n} + {digits}\n\n" for n in range(40))
        )
    db = str(small_disk / "index")
    full = codekith("index", str(repo), "--db", db)
    assert full.returncode == 1, full.stderr
    assert "No space left on device" in full.stderr and "Traceback" not in full.stderr
    assert len(full.stderr.strip().splitlines()) == 1
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    read_only = codekith("index", str(repo), "--db", db)
    assert read_only.returncode == 1 and "Read-only file system" in read_only.stderr
    assert "Traceback" not in read_only.stderr
    subprocess.run(["mount", "-o", "remount,rw,size=64m", str(small_disk)], check=True)
    resumed = codekith("index", str(repo), "--db", db)  # space is back: the run resumes
    assert resumed.returncode == 0, resumed.stderr
    search = codekith("search", "f2_39", "--root", str(repo), "--db", db)
    assert search.returncode == 0 and "m2.py" in search.stdout


def test_every_reader_refuses_an_index_of_another_model(tmp_path, project_for):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text("def alpha():\n    return 1\n")
    project = project_for(root)
    project.indexer.run()
    project.store.set_meta({"model": "someone/else-model"})
    for command in (["search", "alpha"], ["related", "alpha"], ["search", "alpha", "--json"]):
        result = codekith(*command, "--root", str(root))
        assert result.returncode == 1 and "someone/else-model" in result.stderr, command
        assert result.stdout == ""
    status = codekith("status", "--json", "--root", str(root))
    assert status.returncode == 0 and "someone/else-model" in json.loads(status.stdout)["problem"]
    with pytest.raises(IndexMismatchError):
        project_for(root).searcher.search("alpha")
