"""Latency of `related` bundles on an indexed repository (warm process, model loaded).

    .venv/bin/python scripts/bench_related.py --root /path/to/indexed/repo [--rounds 3]

Targets mix the three kinds the CLI and server accept: free-text questions (usage,
implementation, plain), PATH:LINE positions taken from the index, and qualified names.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

from benchstats import percentile
from codekith.project import Project

QUESTIONS = [
    "how is the request context pushed and popped",
    "who calls url_for",
    "where are templates rendered",
    "how does the app dispatch a request to a view",
    "session cookie signing",
    "register a blueprint",
    "json response serialization",
    "error handler registration",
    "who uses the config object",
    "command line interface entry point",
]


def targets(project: Project, count: int) -> list[str]:
    rows = [
        r for r in project.store.symbols_like("", limit=None) if r["kind"] in ("function", "method")
    ]
    picked = random.Random(7).sample(rows, min(count, len(rows)))
    positions = [f"{r['path']}:{(r['start_line'] + r['end_line']) // 2}" for r in picked]
    return QUESTIONS + positions + [r["qualname"] for r in picked]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--budget", type=int, default=6000)
    args = parser.parse_args()
    project = Project(args.root)
    project.related.bundle("warm up", budget=args.budget)
    by_kind: dict[str, list[float]] = {"text": [], "position": [], "qualname": []}
    sizes: list[int] = []
    for _ in range(args.rounds):
        for index, target in enumerate(targets(project, 10)):
            kind = (
                "text"
                if index < len(QUESTIONS)
                else ("position" if index < len(QUESTIONS) + 10 else "qualname")
            )
            started = time.perf_counter()
            bundle = project.related.bundle(target, budget=args.budget)
            by_kind[kind].append((time.perf_counter() - started) * 1000)
            sizes.append(len(bundle.items))
    every = [v for values in by_kind.values() for v in values]
    result = {
        "root": str(args.root),
        "chunks": project.store.count(),
        "edges": len(project.store.live_edges()),
        "bundles": len(every),
        "ms_p50": round(statistics.median(every), 1),
        "ms_p95": round(percentile(every, 95), 1),
        "by_target": {
            k: {"p50": round(statistics.median(v), 1), "p95": round(percentile(v, 95), 1)}
            for k, v in by_kind.items()
        },
        "items_median": statistics.median(sizes),
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
