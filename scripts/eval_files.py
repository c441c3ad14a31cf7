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

    python scripts/eval_files.py                   # every repository
    python scripts/eval_files.py --repos flask axios structlog
"""

from __future__ import annotations

import argparse
import statistics
from functools import partial
from pathlib import Path
from typing import Any

from codekith.evaluation import Case, load_cases
from codekith.search import Hit
from eval_quality import Paths, load_repos
from quality_table import FILE_DEPTH, file_summary, files_by_score

SHARES = (0.0, 0.1, 0.25, 0.5, 1.0)
DECAYS = (0.25, 0.5, 0.75, 1.0)
MIN_TUNING_GAIN = 0.01
MAX_LOSS = 0.02
Point = tuple[float, float]


def searched(paths: Paths) -> list[tuple[Case, list[Hit]]]:
    """Each fix case with hybrid search's FILE_DEPTH best chunks, searched once."""
    project = paths.project()
    cases = load_cases(paths.case_file("fix"))
    return [(case, project.searcher.search(case.query, FILE_DEPTH)) for case in cases]


def grid(results: list[tuple[Case, list[Hit]]]) -> dict[Point, float]:
    """Fix -> files MRR@10 at every point."""
    hits = {case.query: found for case, found in results}
    cases = [case for case, _ in results]
    return {
        (share, decay): file_summary(cases, partial(_files, hits, share, decay))["mrr@10"]
        for share in SHARES
        for decay in DECAYS
    }


def _files(hits: dict[str, list[Hit]], share: float, decay: float, case: Case) -> list[str]:
    return files_by_score(hits[case.query], share, decay)


def verdict(tables: dict[str, dict[Point, float]], roles: dict[str, str]) -> dict[str, Any]:
    """The tuning repositories' best point and whether the rule takes it."""
    tuning = [name for name in tables if roles[name] == "tuning"]
    held = [name for name in tables if roles[name] != "tuning"]
    plain: Point = (0.0, DECAYS[0])

    def mean_gain(names: list[str], point: Point) -> float:
        return statistics.fmean(tables[n][point] - tables[n][plain] for n in names)

    best = max(tables[tuning[0]], key=lambda point: mean_gain(tuning, point))
    losses = {n: tables[n][best] - tables[n][plain] for n in tables}
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, default=Path("/work/bench"))
    parser.add_argument("--repos", nargs="*")
    args = parser.parse_args(argv)
    repos = load_repos(args.repos)
    roles = {repo["name"]: repo["role"] for repo in repos}
    tables: dict[str, dict[Point, float]] = {}
    for repo in repos:
        paths = Paths(args.bench, repo["name"])
        if not paths.case_file("fix").exists():
            continue
        tables[repo["name"]] = grid(searched(paths))
        row = tables[repo["name"]]
        print(f"{repo['name']} ({repo['role']}): plain {row[(0.0, DECAYS[0])]:.3f}", flush=True)
        for share in SHARES[1:]:
            cells = "  ".join(f"{row[(share, decay)]:.3f}" for decay in DECAYS)
            print(f"  share {share:<4} decay {DECAYS}: {cells}", flush=True)
    if not any(roles[name] == "tuning" for name in tables):
        return 0
    result = verdict(tables, roles)
    share, decay = result["point"]
    worst, loss = result["worst"]
    held = result["held_gain"]
    gain = result["tuning_gain"]
    print(
        f"tuning's best point: share {share}, decay {decay}: tuning mean {gain:+.3f}"
        + (f", held-out mean {held:+.3f}" if held is not None else "")
        + f", worst {worst} {loss:+.3f} -> {'taken' if result['taken'] else 'not taken'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
