"""Distributed indexing: worker processes or Ray actors examine and embed, the driver
commits. The index they build must equal a local run's, row for row."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

from codekith.cli import _distribution, build_parser
from codekith.distributed import Distribution
from codekith.project import Project
from tests.conftest import HTTP_MODULE, MATH_MODULE, write_files

FIXTURE = {
    **{f"pkg/http_{i}.py": HTTP_MODULE.replace("cookies", f"cookies_{i}") for i in range(3)},
    **{f"pkg/math_{i}.py": MATH_MODULE.replace("n-th", f"n-th ({i})") for i in range(3)},
    "README.md": "# Fixture\n\nA small package for distributed indexing tests.\n",
    "secrets.env.py": "TOKEN = 'AKIAABCDEFGHIJKLMNOP'\n",
}
SMALL_GROUPS = 2_000  # bytes: several groups, so that every worker gets some


def snapshot(project: Project) -> tuple[dict, dict, dict]:
    store = project.store
    rows = store.rows(
        "true", columns=["id", "path", "start_line", "end_line", "content_hash", "document"]
    )
    catalog = {p: (r.status, r.file_hash, r.chunks) for p, r in store.catalog().items()}
    vectors = store.vectors_of(r["id"] for r in rows)
    return {r["id"]: r for r in rows}, catalog, vectors


def assert_same_index(left: Project, right: Project) -> None:
    rows_a, catalog_a, vectors_a = snapshot(left)
    rows_b, catalog_b, vectors_b = snapshot(right)
    assert rows_a == rows_b
    assert catalog_a == catalog_b
    # A vector depends on its document alone (the model embeds each one by itself, and the
    # cache is keyed by the document), so workers and a local run agree up to the float
    # rounding of another thread count. Keyed by the code, identical code in two files shared
    # the vector of whichever document came first: cosine 0.974 in a CI rehearsal.
    for chunk_id, vector in vectors_a.items():
        assert float(np.dot(vector, vectors_b[chunk_id])) > 0.9999


@pytest.fixture
def twin_projects(tmp_path: Path, embedder) -> tuple[Path, Project, Project]:
    """One workspace, two indexes: one built here, one by the workers."""
    root = write_files(tmp_path / "ws", FIXTURE)
    local = Project(root, db=str(tmp_path / "local-db"), embedder=embedder)
    spread = Project(root, db=str(tmp_path / "spread-db"), embedder=embedder)
    return root, local, spread


def run_both(local: Project, spread: Project, distribution: Distribution) -> tuple:
    expected = local.indexer.run()
    got = spread.indexer.run(distribution=distribution)
    return expected, got


def test_local_worker_processes_build_the_same_index_as_a_local_run(twin_projects):
    root, local, spread = twin_projects
    distribution = Distribution("local", workers=2, group_bytes=SMALL_GROUPS)
    expected, got = run_both(local, spread, distribution)
    assert got.distributed["workers"] == 2 and len(got.distributed["by_worker"]) == 2
    assert sorted(got.indexed) == sorted(expected.indexed)
    assert got.skipped == expected.skipped
    assert got.redacted == expected.redacted and "secrets.env.py" in got.redacted
    assert got.embedded == expected.embedded > 0
    assert_same_index(local, spread)

    # An edit: the workers embed only the changed chunk, the cache answers the rest.
    write_files(root, {"pkg/math_1.py": MATH_MODULE.replace("a + b", "b + a")})
    expected, got = run_both(local, spread, distribution)
    assert got.indexed == ["pkg/math_1.py"] and got.embedded == expected.embedded == 1
    assert_same_index(local, spread)


def test_ray_actors_build_the_same_index_as_a_local_run(twin_projects, tmp_path):
    """Ray runs in a child process in its own session, bounded by a timeout: a Ray that
    cannot start fails the test with Ray's reason, one that hangs is killed with everything
    it started, and no raylet or GCS process outlives the test."""
    pytest.importorskip("ray", reason="the [scale] extra (Ray) is not installed")
    root, local, spread = twin_projects
    expected = local.indexer.run()
    # Ray's socket paths must stay under the 107-byte limit: a short temp dir, not tmp_path.
    temp_dir = tempfile.mkdtemp(prefix="ckray-", dir="/tmp")
    try:
        run = run_bounded(
            [
                sys.executable,
                "-m",
                "tests.ray_run",
                str(root),
                spread.settings.db_location(root),
                temp_dir,
                str(SMALL_GROUPS),
            ],
            timeout_s=RAY_RUN_TIMEOUT_S,
        )
        leftovers = wait_for_no_processes_using(temp_dir, deadline_s=30)
    finally:
        shutil.rmtree(temp_dir, ignore_errors=True)
    assert run.returncode == 0, f"the Ray run failed ({run.returncode}):\n{run.stderr[-4000:]}"
    assert not leftovers, f"Ray processes outlived the run: {leftovers}"
    got = json.loads(run.stdout.strip().splitlines()[-1])
    assert got["distributed"]["backend"] == "ray" and got["distributed"]["workers"] == 2
    assert len(got["distributed"]["by_worker"]) == 2  # both actors loaded the model and worked
    assert got["embedded"] == expected.embedded > 0
    assert_same_index(local, spread)


RAY_RUN_TIMEOUT_S = 480  # Ray start + two model loads + embedding on a slow, clean machine


def run_bounded(argv: list[str], timeout_s: float) -> subprocess.CompletedProcess[str]:
    """Run `argv` in a new session; past the timeout, kill the session (Ray's helpers too)
    and fail with what the child said so far."""
    repo = Path(__file__).resolve().parent.parent
    with subprocess.Popen(
        argv,
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"},
    ) as child:
        try:
            out, err = child.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            out, err = child.communicate()
            pytest.fail(f"the Ray run did not end in {timeout_s} s; it said:\n{err[-4000:]}")
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)  # anything the child left in its session
    return subprocess.CompletedProcess(argv, child.returncode, out, err)


def wait_for_no_processes_using(marker: str, deadline_s: float) -> list[str]:
    """Processes whose command line names `marker` (Ray's raylet, GCS and workers name their
    session dir): waits until none is left, kills and returns those still there at the end."""
    end = time.monotonic() + deadline_s
    while True:
        found = processes_naming(marker)
        if not found or time.monotonic() >= end:
            break
        time.sleep(0.2)
    for pid in found:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return [f"{pid}: {command[:120]}" for pid, command in found.items()]


def processes_naming(marker: str) -> dict[int, str]:
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in command:
            found[int(entry.name)] = command
    return found


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["index"], None),
        (["index", "--ray"], Distribution("local")),
        (["index", "--workers", "3"], Distribution("local", workers=3)),
        (["index", "--ray", "auto", "--workers", "2"], Distribution("ray", "auto", 2)),
        (["index", "--ray", "ray://head:10001"], Distribution("ray", "ray://head:10001")),
    ],
)
def test_index_flags_choose_where_the_work_runs(argv, expected):
    """`--ray ADDRESS` is Ray there; `--ray` alone (or `--workers`) stays on this machine."""
    args = build_parser().parse_args(argv)
    assert _distribution(args) == expected
