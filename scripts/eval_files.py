"""Files first: the reference design's hierarchical step, measured on bug reports.

A bug report ("Fix performance regression caused by path escaping") asks which files to
change, not which one definition answers it. Hybrid search lists chunks; the fix -> files
cases (a fixing commit's subject, the source files it changed) read its 50 best and rank
files in the order their first chunk comes. Files first ranks each file by its best chunk's
hybrid score plus SHARE times the scores of its next chunks, each worth DECAY times the one
before (`quality_table.files_by_score`): a file that many good chunks point at outranks one
lucky chunk. SHARE 0 is the plain order.

The rule, written down before this grid's figures (the table has printed SHARE 0.5, DECAY
0.5 since ab4dafd: tuning mean -.007, held-out mean +.031):
- the point is chosen on the tuning repositories alone: the best mean fix -> files MRR@10
  over flask, axios and structlog;
- it is taken only if that mean gains at least .01 over the plain order, the held-out
  repositories' mean gain is at least 0, and no repository of the fourteen loses more
  than .02.
A point that is taken ranks files where codekith answers with files; it does not reorder
search's chunks (a docstring question wants its one definition first).

That grid's best point was not taken (tuning +.005; axios lost most where its type
declarations, index.d.ts, a file of many chunks, rose above the fix's files). So a second
family, its rule the same and written down before its figures: the next chunks' part
divided by the file's size in chunks to the power ALPHA (0.5 or 1), so a file counts for
how much of it the question points at, not for how big it is; SHARE 0.25-2, DECAY
0.5-1. ALPHA 0 is the first grid.

    python scripts/eval_files.py                   # every repository
    python scripts/eval_files.py --repos flask axios structlog
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from functools import partial
from typing import Any

from codekith.evaluation import Case, load_cases
from codekith.search import Hit
from eval_quality import Paths, add_bench_arguments, fixes_trained, load_repos
from quality_table import FILE_DEPTH, file_summary, files_by_score

GRIDS = {  # ALPHA: (SHARES, DECAYS)
    0.0: ((0.0, 0.1, 0.25, 0.5, 1.0), (0.25, 0.5, 0.75, 1.0)),
    0.5: ((0.25, 0.5, 1.0, 2.0), (0.5, 0.75, 1.0)),
    1.0: ((0.25, 0.5, 1.0, 2.0), (0.5, 0.75, 1.0)),
}
PLAIN = (0.0, 0.25, 0.0)
MIN_TUNING_GAIN = 0.01
MAX_LOSS = 0.02
Point = tuple[float, float, float]  # share, decay, alpha


def searched(paths: Paths) -> tuple[list[tuple[Case, list[Hit]]], Counter[str]]:
    """Each fix case with hybrid search's FILE_DEPTH best chunks, searched once, and every
    file's size in chunks."""
    project = paths.project()
    cases = load_cases(paths.case_file("fix"))
    sizes = Counter(row["path"] for row in project.read_store.rows("true", columns=["path"]))
    return [(case, project.searcher.search(case.query, FILE_DEPTH)) for case in cases], sizes


def grid(results: list[tuple[Case, list[Hit]]], sizes: Counter[str]) -> dict[Point, float]:
    """Fix -> files MRR@10 at every point."""
    hits = {case.query: found for case, found in results}
    cases = [case for case, _ in results]
    return {
        point: file_summary(cases, partial(_files, hits, sizes, point))["mrr@10"]
        for alpha, (shares, decays) in GRIDS.items()
        for point in [(share, decay, alpha) for share in shares for decay in decays]
    }


def _files(hits: dict[str, list[Hit]], sizes: Counter[str], point: Point, case: Case) -> list[str]:
    share, decay, alpha = point
    return files_by_score(hits[case.query], share, decay, lambda path: sizes[path] ** alpha)


def verdict(
    tables: dict[str, dict[Point, float]], roles: dict[str, str], trained: frozenset[str]
) -> dict[str, Any]:
    """The tuning repositories' best point and whether the rule takes it; held out are the
    others whose fix commits did not train the query adapter (`fixes_trained`)."""
    tuning = [name for name in tables if roles[name] == "tuning"]
    held = [name for name in tables if roles[name] != "tuning" and name not in trained]
    plain = PLAIN

    def mean_gain(names: list[str], point: Point) -> float:
        return statistics.fmean(tables[n][point] - tables[n][plain] for n in names)

    best = max(tables[tuning[0]], key=lambda point: mean_gain(tuning, point))
    losses = {n: tables[n][best] - tables[n][plain] for n in (*tuning, *held)}
    worst = min(losses, key=lambda n: losses[n])
    taken = (
        mean_gain(tuning, best) >= MIN_TUNING_GAIN
        and (not held or mean_gain(held, best) >= 0)
        and losses[worst] >= -MAX_LOSS
    )
    return {
        "point": best,
        "tuning_gain": mean_gain(tuning, best),
        "held_gain": mean_gain(held, best) if held else None,
        "worst": (worst, losses[worst]),
        "taken": taken,
    }


def print_grid(repo: dict[str, Any], row: dict[Point, float]) -> None:
    print(f"{repo['name']} ({repo['role']}): plain {row[PLAIN]:.3f}", flush=True)
    for alpha, (shares, decays) in GRIDS.items():
        for share in (s for s in shares if s > 0):
            cells = "  ".join(f"{row[(share, decay, alpha)]:.3f}" for decay in decays)
            print(f"  alpha {alpha} share {share:<4} decay {decays}: {cells}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_bench_arguments(parser)
    args = parser.parse_args(argv)
    repos = load_repos(args.repos)
    roles = {repo["name"]: repo["role"] for repo in repos}
    tables: dict[str, dict[Point, float]] = {}
    for repo in repos:
        paths = Paths(args.bench, repo["name"])
        if not paths.case_file("fix").exists():
            continue
        tables[repo["name"]] = grid(*searched(paths))
        print_grid(repo, tables[repo["name"]])
    if not any(roles[name] == "tuning" for name in tables):
        return 0
    result = verdict(tables, roles, fixes_trained(repos))
    share, decay, alpha = result["point"]
    worst, loss = result["worst"]
    held = result["held_gain"]
    gain = result["tuning_gain"]
    print(
        f"tuning's best point: share {share}, decay {decay}, alpha {alpha}: tuning mean {gain:+.3f}"
        + (f", held-out mean {held:+.3f}" if held is not None else "")
        + f", worst {worst} {loss:+.3f} -> {'taken' if result['taken'] else 'not taken'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
