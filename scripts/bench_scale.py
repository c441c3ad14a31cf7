"""Distributed indexing: full builds on Ray with 1 and 2 workers, and a 1M-line estimate.

Builds the index of ROOT (optionally only `--include` globs) from scratch once per worker
count on a local Ray (`ray.init(num_cpus=max workers)`), each into a fresh temporary index.
Measures wall time, chunks, lines per chunk, the driver's commit time, and, separately, the
model's chunks per CPU-second (one ONNX thread embedding a sample of the same chunks). From
those it estimates a 1M-line repository on N workers:

    chunks  = 1e6 / lines_per_chunk
    T(N)    = chunks / (N * chunks_per_cpu_s)     embedding, spread over N workers
            + chunks * commit_s_per_chunk         the driver's atomic commits (serial)
            + startup_s                           Ray start and model load, measured

    python scripts/bench_scale.py /work/bench/team-flask --include 'src/**' --workers 1 2
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from codekith.distributed import Distribution
from codekith.embedding import FastEmbedder
from codekith.project import Project

ESTIMATE_WORKERS = (1, 8, 32, 128)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--include", action="append", default=[])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--sample", type=int, default=120, help="chunks for the CPU-s rate")
    args = parser.parse_args()
    import ray

    ray.init(num_cpus=max(args.workers), include_dashboard=False, log_to_driver=False)
    runs = [build(args.root, args.include, workers, args.sample) for workers in args.workers]
    ray.shutdown()
    rate = embedding_rate(runs[0].pop("sample"))
    for run in runs:
        run.pop("sample", None)
        print(json.dumps(run))
    base = runs[0]
    for run in runs[1:]:
        speedup = base["seconds"] / run["seconds"]
        print(f"speedup {base['workers']} -> {run['workers']} workers: {speedup:.2f}x")
    print(json.dumps({"chunks_per_cpu_s": round(rate, 2)}))
    estimate(base, rate)


def build(root: Path, include: list[str], workers: int, sample: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as db:
        overrides = {"include": include} if include else None
        project = Project(root, db=db, overrides=overrides)
        commit_s = 0.0
        write_files = project.store.write_files

        def timed_write(*args: Any, **kwargs: Any) -> None:
            nonlocal commit_s
            started = time.perf_counter()
            write_files(*args, **kwargs)
            commit_s += time.perf_counter() - started

        project.store.write_files = timed_write  # type: ignore[method-assign]
        started = time.perf_counter()
        report = project.indexer.run(distribution=Distribution("ray", workers=workers))
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


def estimate(base: dict[str, Any], rate: float) -> None:
    chunks = 1_000_000 / base["lines_per_chunk"]
    commit_per_chunk = base["commit_s"] / max(1, base["chunks"])
    embed_1 = base["chunks"] / rate
    startup = max(0.0, base["seconds"] - embed_1 - base["commit_s"] - base["graph_s"])
    print(
        f"1M lines / {base['lines_per_chunk']} lines per chunk = {chunks:,.0f} chunks; "
        f"{rate:.1f} chunks per CPU-s; commit {commit_per_chunk * 1000:.2f} ms per chunk; "
        f"startup ~{startup:.0f} s (measured run minus embedding, commits and graph)"
    )
    for workers in ESTIMATE_WORKERS:
        embed = chunks / (workers * rate)
        commit = chunks * commit_per_chunk
        total = embed + commit + startup
        print(
            f"  N={workers:>3}: {chunks:,.0f} / ({workers} x {rate:.1f}) = {embed:,.0f} s embedding"
            f" + {commit:,.0f} s commits + {startup:.0f} s startup = {total / 60:,.1f} min"
        )


if __name__ == "__main__":
    main()
