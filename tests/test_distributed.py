"""Distributed indexing: worker processes or Ray actors examine and embed, the driver
commits. The index they build must equal a local run's, row for row."""

from __future__ import annotations

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
    assert got.skipped == expected.skipped and "secrets.env.py" in got.skipped
    assert got.embedded == expected.embedded > 0
    assert_same_index(local, spread)

    # An edit: the workers embed only the changed chunk, the cache answers the rest.
    write_files(root, {"pkg/math_1.py": MATH_MODULE.replace("a + b", "b + a")})
    expected, got = run_both(local, spread, distribution)
    assert got.indexed == ["pkg/math_1.py"] and got.embedded == expected.embedded == 1
    assert_same_index(local, spread)


def test_ray_actors_build_the_same_index_as_a_local_run(twin_projects):
    ray = pytest.importorskip("ray", reason="the [scale] extra (Ray) is not installed")
    _, local, spread = twin_projects
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        distribution = Distribution("ray", workers=2, group_bytes=SMALL_GROUPS)
        expected, got = run_both(local, spread, distribution)
    finally:
        ray.shutdown()
    assert got.distributed["backend"] == "ray" and got.distributed["workers"] == 2
    assert len(got.distributed["by_worker"]) == 2  # both actors loaded the model and worked
    assert got.embedded == expected.embedded > 0
    assert_same_index(local, spread)


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
