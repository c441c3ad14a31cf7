"""Where a one-file save's time goes: the language server's run for a save (chunks only,
edges later), in this process, phase by phase, then the search that finds the new function.

    .venv/bin/python scripts/bench_save_phases.py --repo /work/bench/flask [--saves 20]
        [--file src/flask/helpers.py]

The repository is copied to a temp dir (its index too, when it has one) and indexed; each
save appends a function to --file and runs `Answers.reindex(paths=[file], refine=False,
edges_later=True)` as the server does. Store and indexer steps are timed by wrapping them:
each line is the median per save of a step's total time and its number of calls (steps
nest: `Indexer._write` holds the embedding and `Store.write_files`). The first two saves
warm up and are not counted. bench_lsp.py measures the same path through a real client.
"""

from __future__ import annotations

import argparse
import functools
import shutil
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_lsp import words_for
from codekith import indexer as indexer_module
from codekith import store as store_module
from codekith.answers import Answers
from codekith.project import Project

STORE_STEPS = [
    "meta",
    "set_meta",
    "has_index",
    "catalog",
    "live_ids",
    "record_files",
    "write_files",
    "_add_vectors",
    "add_run",
    "maintain",
    "vector_search",
    "text_search",
]
INDEXER_STEPS = ["_plan", "_write", "_examine_all", "_embed", "_record_state"]
WARM_UP = 2


def timed(owner: type, name: str, log: dict[str, list[float]]) -> None:
    original: Callable[..., Any] = getattr(owner, name)

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            log[f"{owner.__name__}.{name}"].append((time.perf_counter() - started) * 1000)

    setattr(owner, name, wrapper)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument("--file", default="src/flask/helpers.py")
    options = parser.parse_args()
    root = Path(tempfile.mkdtemp()) / "repo"
    shutil.copytree(options.repo, root, symlinks=True)
    log: dict[str, list[float]] = defaultdict(list)
    for name in STORE_STEPS:
        timed(store_module.Store, name, log)
    for name in INDEXER_STEPS:
        timed(indexer_module.Indexer, name, log)
    project = Project(root)
    answers = Answers(project)
    answers.reindex(refine=False)
    target = root / options.file
    saves: list[tuple[float, float, dict[str, tuple[float, int]]]] = []
    for number in range(options.saves + WARM_UP):
        log.clear()
        a, b, c = words_for(number)  # saves alike crowded the top 5 past ~50 of them
        function = f"blend_{a}_{b}_{c}_{number}"
        with target.open("a") as handle:
            handle.write(f"\n\ndef {function}(value):\n")
            handle.write(f'    """Blend {a} {b} and {c} into a gradient."""\n    return value\n')
        started = time.perf_counter()
        answers.reindex(paths=[options.file], refine=False, edges_later=True)
        run_ms = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        hits = project.searcher.search(f"blend {a} {b} and {c} gradient", 5)
        search_ms = (time.perf_counter() - started) * 1000
        if not any(hit.symbol == function for hit in hits):
            raise SystemExit(f"{function} was not found after its save")
        steps = {name: (sum(times), len(times)) for name, times in log.items()}
        if number >= WARM_UP:
            saves.append((run_ms, search_ms, steps))
    print(f"saves {len(saves)}  run median {statistics.median(s[0] for s in saves):.1f} ms")
    print(f"search after the save, median {statistics.median(s[1] for s in saves):.1f} ms")
    for name in sorted({name for save in saves for name in save[2]}):
        spent = statistics.median(save[2].get(name, (0.0, 0))[0] for save in saves)
        calls = statistics.median(save[2].get(name, (0.0, 0))[1] for save in saves)
        print(f"  {name:28s} {spent:7.1f} ms  calls {calls:g}")
    shutil.rmtree(root.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
