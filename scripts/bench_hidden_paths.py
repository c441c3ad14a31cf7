"""What the paths a team index's overlay hides cost the published index's queries.

Every path the overlay holds or deleted becomes a `NOT path IN (…)` filter on the published
tables. This times a vector and a text query on an existing index with 0 … 50,000 hidden
paths (its own paths first, then made-up ones), medians of `--repeat` runs.

    PYTHONPATH=server python scripts/bench_hidden_paths.py /work/bench/requests-mcp/.codekith
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from codekith.store import Shadow, Store

COUNTS = (0, 100, 1_000, 10_000, 50_000)


def median_ms(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", help="an index folder (.codekith)")
    parser.add_argument("--query", default="redirect auth header")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    store = Store(args.db, create=False)
    paths = sorted(store.catalog())
    vector = np.random.default_rng(0).standard_normal(int(store.meta()["dim"]))
    vector = vector.astype("float32")
    print(f"{len(paths)} files, {store.count()} chunks")
    for count in COUNTS:
        made_up = (f"zz/hidden_{n}.py" for n in range(max(0, count - len(paths))))
        hidden = frozenset(paths[:count]) | frozenset(made_up)
        store.shadow = partial(Shadow, hidden, hidden)
        vector_ms = median_ms(lambda: store.vector_search(vector, 10), args.repeat)
        text_ms = median_ms(lambda: store.text_search(args.query, 10), args.repeat)
        print(f"hidden {count:>6}: vector {vector_ms:8.1f} ms, text {text_ms:8.1f} ms")


if __name__ == "__main__":
    main()
