"""Embedding throughput and memory per ONNX Runtime configuration, on a real repository.

The documents are exactly what the indexer embeds (chunked and templated by
`codekith.examine`). Each configuration runs in a fresh process (so peak RSS is its own)
and embeds the same documents, sorted by length and in the indexer's steps; it reports
chunks per CPU-second (user + system, all threads), wall seconds and peak RSS. Medians of
`--runs` runs. The default model embeds each document alone, several side by side in
single-threaded sessions (`one-session`: all of them in one session of every core's thread);
`float` is the previous default (float matrix products), whose batch size the `float-b*`
configurations vary.

    python scripts/bench_embed.py --repo /work/bench/flask --limit 600 --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from codekith.config import WEIGHT_ONLY_MODEL

CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},  # several documents side by side in single-threaded sessions
    "one-session": {"threads": len(os.sched_getaffinity(0))},  # the default before 383d463
    "no-arena": {"arena": False},
    "threads-1": {"threads": 1},
    "float": {"model_id": WEIGHT_ONLY_MODEL},  # batches of embedding.BATCH_SIZE
    "float-b16": {"model_id": WEIGHT_ONLY_MODEL, "batch_size": 16},
    "float-b4": {"model_id": WEIGHT_ONLY_MODEL, "batch_size": 4},
}


def documents(repo: Path, limit: int) -> list[str]:
    from codekith.chunking import sha1
    from codekith.config import load_settings
    from codekith.examine import SourceFile, examine
    from codekith.workspace import scan

    settings = load_settings(repo)
    texts: list[str] = []
    for candidate in scan(repo, settings, None):
        if candidate.reason is not None or candidate.language != "python":
            continue
        data = (repo / candidate.path).read_bytes()
        source = SourceFile(
            candidate.path,
            candidate.language,
            data,
            sha1(data.decode("latin-1")),
            candidate.mtime_ns,
            candidate.size,
        )
        texts += [row["document"] for row in examine(source, settings).rows]
    return texts[:limit]


def measure(repo: Path, limit: int, config: dict[str, Any]) -> dict[str, float]:
    """In this process: load the model with `config`, embed, report."""
    from codekith import embedding

    texts = documents(repo, limit)
    options = dict(config)
    if "batch_size" in options:
        embedding.BATCH_SIZE = options.pop("batch_size")
    load_started = time.perf_counter()
    embedder = embedding.FastEmbedder(**options)
    load_s = time.perf_counter() - load_started
    rss_loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for start in range(0, len(texts), 64):  # the indexer's steps
        embedder.embed_documents(texts[start : start + 64])
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {
        "chunks": len(texts),
        "chunks_per_cpu_s": len(texts) / cpu,
        "wall_s": wall,
        "load_s": load_s,
        "rss_after_load_mb": rss_loaded,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=600)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--configs", default=",".join(CONFIGS))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.repo, args.limit, CONFIGS[args.child])))
        return
    print(f"{'config':<12} {'chunks':>6} {'chunks/CPU-s':>12} {'wall s':>7} {'peak RSS MB':>11}")
    for name in args.configs.split(","):
        runs = []
        for _ in range(args.runs):
            command = [sys.executable, __file__, "--repo", str(args.repo), "--limit"]
            command += [str(args.limit), "--child", name]
            out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
            runs.append(json.loads(out.strip().splitlines()[-1]))
        median = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(
            f"{name:<12} {median['chunks']:>6.0f} {median['chunks_per_cpu_s']:>12.1f} "
            f"{median['wall_s']:>7.1f} {median['peak_rss_mb']:>11.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
