"""Distributed indexing: full builds on Ray with 1 and 2 workers, and a 1M-line estimate.

Builds the index of ROOT (optionally only `--include` globs) from scratch once per worker
count on a local Ray (`ray.init(num_cpus=max workers)`), each into a fresh temporary index.
Measures wall time, chunks, lines per chunk, the driver's commit time, and, separately, the
model's chunks per CPU-second (one ONNX thread embedding a sample of the chunks of
`--lines-from`, else of ROOT). From
those it estimates a 1M-line repository on N workers:

    chunks  = 1e6 / lines_per_chunk
    T(N)    = chunks / (N * chunks_per_cpu_s)     embedding, spread over N workers
            + chunks * commit_s_per_chunk         the driver's atomic commits (serial)
            + startup_s                           Ray start and model load, measured

Ray runs its workers at nice 15 (polite on a shared host, starved on a busy one); the script
sets `RAY_worker_niceness=0` so the figures measure throughput. `--fixture` indexes the test
suite's small fixture repository instead of ROOT; `--lines-from DIR` takes lines per chunk
from chunking DIR (no embedding) for the estimate.

    PYTHONPATH=. python scripts/bench_scale.py --fixture --lines-from /work/bench/team-flask
    PYTHONPATH=. python scripts/bench_scale.py /work/bench/team-flask --include 'src/**'
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from codekith.config import load_settings
from codekith.distributed import GROUP_BYTES, Distribution, start_ray
from codekith.embedding import DEFAULT_DIM, FastEmbedder
from codekith.examine import SourceFile, examine
from codekith.project import Project
from codekith.store import FileUpdate, Store
from codekith.workspace import scan
from tests.conftest import write_files
from tests.test_distributed import FIXTURE

ESTIMATE_WORKERS = (1, 8, 32, 128)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, nargs="?")
    parser.add_argument("--fixture", action="store_true", help="the tests' fixture repository")
    parser.add_argument("--lines-from", type=Path, help="lines per chunk from this tree")
    parser.add_argument(
        "--group-bytes",
        type=int,
        default=None,
        help="default 2000 with --fixture (so every worker gets files), else the indexer's 256 KiB",
    )
    parser.add_argument("--include", action="append", default=[])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--sample", type=int, default=120, help="chunks for the CPU-s rate")
    args = parser.parse_args()
    import ray

    os.environ.setdefault("RAY_worker_niceness", "0")
    with tempfile.TemporaryDirectory() as scratch:
        root = write_files(Path(scratch), FIXTURE) if args.fixture else args.root
        start_ray(ray, "local", num_cpus=max(args.workers))
        try:
            group = args.group_bytes or (2_000 if args.fixture else GROUP_BYTES)
            runs = [build(root, args.include, w, args.sample, group) for w in args.workers]
        finally:
            ray.shutdown()
    tree = chunking_stats(args.lines_from, args.sample) if args.lines_from else runs[0]
    rate = embedding_rate(tree["sample"])
    for run in [*runs, tree] if args.lines_from else runs:
        run.pop("sample", None)
        print(json.dumps(run))
    base = runs[0]
    for run in runs[1:]:
        speedup = base["seconds"] / run["seconds"]
        print(f"speedup {base['workers']} -> {run['workers']} workers: {speedup:.2f}x")
    print(json.dumps({"chunks_per_cpu_s": round(rate, 2)}))
    estimate(base, tree, rate)


def chunking_stats(root: Path, sample: int) -> dict[str, Any]:
    """Lines per chunk of a real tree (chunked as the indexer does, nothing embedded), and
    the driver's commit cost for its chunks in batches of 1024 (random unit vectors)."""
    lines = chunks = 0
    updates: list[FileUpdate] = []
    rng = np.random.default_rng(0)
    for candidate in scan(root, load_settings(root)):
        if candidate.reason is not None:
            continue
        data = (root / candidate.path).read_bytes()
        source = SourceFile(candidate.path, candidate.language or "", data, "", 0, len(data))
        examined = examine(source, load_settings(root))
        if examined.rows:
            lines += len(data.decode("utf-8", "replace").splitlines())
            chunks += len(examined.rows)
            rows = [{**r, "vector": unit(rng)} for r in examined.rows]
            updates.append(FileUpdate(examined.record, rows))
    commit_s = commit_seconds(updates)
    print(
        json.dumps(
            {"lines_from": str(root), "lines": lines, "chunks": chunks, "commit_s": commit_s}
        )
    )
    documents = [row["document"] for update in updates for row in update.rows]
    return {
        "lines_per_chunk": round(lines / max(1, chunks), 1),
        "commit_s": commit_s,
        "chunks": chunks,
        "sample": documents[:: max(1, len(documents) // sample)][:sample],
    }


def unit(rng: np.random.Generator) -> np.ndarray:
    vector = rng.normal(size=DEFAULT_DIM).astype(np.float32)
    return vector / np.linalg.norm(vector)


def commit_seconds(updates: list[FileUpdate]) -> float:
    """Wall time of the driver's commits: batches of whole files of ~1024 chunks."""
    with tempfile.TemporaryDirectory() as db:
        store = Store(db)
        store.create("bench", DEFAULT_DIM, "bench")
        started = time.perf_counter()
        batch: list[FileUpdate] = []
        for update in updates:
            batch.append(update)
            if sum(len(u.rows) for u in batch) >= 1024:
                store.write_files(batch, {})
                batch = []
        if batch:
            store.write_files(batch, {})
        return round(time.perf_counter() - started, 2)


def build(
    root: Path, include: list[str], workers: int, sample: int, group_bytes: int
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as db:
        overrides = {"include": include} if include else None
        project = Project(root, db=db, overrides=overrides)
        commit_s = 0.0
        write_files = project.store.write_files

        def timed_write(*args: Any, **kwargs: Any) -> int:
            nonlocal commit_s
            started = time.perf_counter()
            gained = write_files(*args, **kwargs)
            commit_s += time.perf_counter() - started
            return gained

        project.store.write_files = timed_write  # type: ignore[method-assign]
        started = time.perf_counter()
        distribution = Distribution("ray", workers=workers, group_bytes=group_bytes)
        report = project.indexer.run(distribution=distribution)
        seconds = time.perf_counter() - started
        documents = [r["document"] for r in project.store.rows("true", sample, ["document"])]
        lines = sum(
            len((root / path).read_text(encoding="utf-8", errors="replace").splitlines())
            for path in report.indexed
        )
    return {
        "workers": workers,
        "files": len(report.indexed),
        "lines": lines,
        "chunks": report.chunks_written,
        "lines_per_chunk": round(lines / max(1, report.chunks_written), 1),
        "seconds": round(seconds, 1),
        "chunks_per_s": round(report.chunks_written / seconds, 2),
        "commit_s": round(commit_s, 2),
        "graph_s": round(report.graph.get("fast_s", 0) + report.graph.get("jedi_s", 0), 1),
        "by_worker": report.distributed.get("by_worker", {}),
        "sample": documents,
    }


def embedding_rate(documents: list[str]) -> float:
    """Chunks per CPU-second of one worker (one ONNX thread), median of three passes."""
    embedder = FastEmbedder(threads=1)
    times = []
    for _ in range(3):
        started = time.process_time()
        embedder.embed_documents(documents)
        times.append(time.process_time() - started)
    return len(documents) / statistics.median(times)


def estimate(run: dict[str, Any], tree: dict[str, Any], rate: float) -> None:
    """`run`: a measured build (its start-up cost); `tree`: lines per chunk and commit cost."""
    chunks = 1_000_000 / tree["lines_per_chunk"]
    commit_per_chunk = tree["commit_s"] / max(1, tree["chunks"])
    embed_run = run["chunks"] / rate
    startup = max(0.0, run["seconds"] - embed_run - run["commit_s"] - run["graph_s"])
    print(
        f"1M lines / {tree['lines_per_chunk']} lines per chunk = {chunks:,.0f} chunks; "
        f"{rate:.1f} chunks per CPU-s; commits {commit_per_chunk * 1000:.2f} ms per chunk; "
        f"start-up ~{startup:.0f} s (a measured run minus its embedding, commits and graph)"
    )
    for workers in ESTIMATE_WORKERS:
        embed = chunks / (workers * rate)
        commit = chunks * commit_per_chunk
        total = embed + commit + startup
        print(
            f"  N={workers:>3}: {chunks:,.0f} / ({workers} x {rate:.1f}) = {embed:,.0f} s embedding"
            f" + {commit:,.0f} s commits + {startup:.0f} s start-up = {total / 60:,.1f} min"
        )


if __name__ == "__main__":
    main()
