"""Score codekith's Python call graph against PyCG's micro-benchmark.

Each case directory holds `main.py`, maybe more modules, and `callgraph.json` (PyCG simple
JSON). Both the expected and the produced graphs are cut down to edges whose caller and
callee live in a module of that case (builtins and external packages are out: a workspace
call graph does not name them), then compared as edge sets.

    python scripts/eval_callgraph.py --bench /tmp/pycg/micro-benchmark --resolver merged
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

from codekith.graph import merge_edges
from codekith.graph.incremental import build_edges
from codekith.graph.model import Edge
from codekith.graph.pycg import Score, to_pycg
from codekith.qualnames import ModuleNames

EdgeSet = set[tuple[str, str]]


class Timer:
    """Build time and line count per resolver, for seconds per 1k lines."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.lines = 0


def case_files(case: Path) -> list[str]:
    return sorted(p.relative_to(case).as_posix() for p in case.rglob("*.py"))


def in_case(name: str, modules: set[str]) -> bool:
    """True when the longest module prefix of `name` is a module of the case."""
    parts = name.split(".")
    return any(".".join(parts[:i]) in modules for i in range(len(parts), 0, -1))


def edge_set(graph: dict[str, list[str]], modules: set[str]) -> EdgeSet:
    return {
        (caller, callee)
        for caller, callees in graph.items()
        for callee in callees
        if in_case(caller, modules) and in_case(callee, modules)
    }


def resolve(case: Path, paths: list[str], resolver: str, timer: Timer) -> list[Edge]:
    start = time.perf_counter()
    fast = build_edges(case, paths)
    timer.seconds["fast"] += time.perf_counter() - start
    if resolver == "fast":
        return fast
    from codekith.graph.jedi_resolver import JediResolver

    start = time.perf_counter()
    jedi_resolver = JediResolver(case)
    jedi = [edge for path in paths for edge in jedi_resolver.resolve_file(path)]
    timer.seconds["jedi"] += time.perf_counter() - start
    return jedi if resolver == "jedi" else merge_edges(fast, jedi)


def run(bench: Path, resolver: str) -> tuple[dict[str, Score], Timer]:
    scores: dict[str, Score] = defaultdict(Score)
    timer = Timer()
    for expected_file in sorted((bench / "snippets").glob("*/*/callgraph.json")):
        case = expected_file.parent
        paths = case_files(case)
        timer.lines += sum(len((case / p).read_text().splitlines()) for p in paths)
        names = ModuleNames.on_disk(case)
        modules = {names(p) for p in paths}
        expected = edge_set(json.loads(expected_file.read_text()), modules)
        produced = edge_set(to_pycg(resolve(case, paths, resolver, timer)), modules)
        name = case.relative_to(bench / "snippets").as_posix()
        scores[name.split("/")[0]].add(name, expected, produced)
    return scores, timer


def report(scores: dict[str, Score], timer: Timer, verbose: bool) -> None:
    total = Score()
    print(f"{'category':<14} {'prec':>6} {'recall':>6} {'tp':>4} {'fp':>4} {'fn':>4}")
    for category, score in sorted(scores.items()):
        print(
            f"{category:<14} {score.precision:6.3f} {score.recall:6.3f} "
            f"{score.tp:4d} {score.fp:4d} {score.fn:4d}"
        )
        total.merge(score)
    print(
        f"{'TOTAL':<14} {total.precision:6.3f} {total.recall:6.3f} "
        f"{total.tp:4d} {total.fp:4d} {total.fn:4d}"
    )
    for name, seconds in timer.seconds.items():
        print(
            f"build time {name}: {seconds:.2f} s, {1000 * seconds / timer.lines:.3f} s per 1k lines"
        )
    if verbose:
        print("\nmissed:", *total.missed, sep="\n  ")
        print("\nspurious:", *total.spurious, sep="\n  ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, required=True, help="extracted micro-benchmark dir")
    parser.add_argument("--resolver", choices=["fast", "jedi", "merged"], default="merged")
    parser.add_argument("--verbose", action="store_true", help="list missed and spurious edges")
    args = parser.parse_args()
    scores, timer = run(args.bench, args.resolver)
    report(scores, timer, args.verbose)


if __name__ == "__main__":
    main()
