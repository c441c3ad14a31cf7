"""Documentation in the index: what it costs questions about code, and the share it gives up.

A user's `codekith index .` holds the repository's Markdown, reStructuredText, TOML and
YAML as sections beside the code. The quality workspaces hold them too
(`quality_cases.build_workspace`), each Markdown/reStructuredText section without its first
paragraph of prose, whose first sentence is a `section` case answered by that section (as a
docstring's first sentence is a `docstring` case answered by its definition).

The issue asks for docs, like tests, below the project's own code on questions about
behaviour. A section keeps `search.section_share` of its fused score: all of it when the
question names documentation (`search.asks_for_docs`: doc, docs, documentation,
documented, readme, guide, tutorial, manual, changelog; fixed before any figure), else all
but DOC_SHARE times how unlike documentation the question reads (`search.reads_like_docs`,
a probe on the question's vector, scripts/doc_probe.py).

The first rule (commit 194c754), for a flat share (every section giving up DOC_SHARE),
took nothing: the tuning repositories' best, 0.2, gained .012 but cost every one of them
more than .05 on section MRR@10. The same rule, written down again before the probe's
figures, for the share the probe modulates:
- DOC_SHARE is chosen from 0.2, 0.4, 0.6 and 0.8 on the tuning repositories alone: the
  best mean over flask, axios and structlog of docstring + fix -> files + section MRR@10;
- it is taken only if that mean gains at least .01 over 0, the held-out repositories' mean
  of the same sum gains at least 0, no repository of the fourteen loses more than .02 on
  docstring MRR@10, fix -> files MRR@10 or identifier R@1, and none loses more than .05 on
  section MRR@10.

    python scripts/eval_docs.py                       # every repository
    python scripts/eval_docs.py --repos flask axios structlog
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path
from typing import Any

from codekith import search
from codekith.evaluation import evaluate, load_cases
from eval_quality import Paths, load_repos
from quality_table import FILE_DEPTH, file_summary, files_of

SHARES = (0.0, 0.2, 0.4, 0.6, 0.8)
SUMMED = ("docstring", "fix", "section")
MIN_TUNING_GAIN = 0.01
MAX_LOSS = {"docstring": 0.02, "fix": 0.02, "identifier": 0.02, "section": 0.05}
Figures = dict[str, float]


def figures(paths: Paths, share: float) -> Figures:
    """Hybrid search's figures on the repository's case sets with DOC_SHARE at `share`."""
    search.DOC_SHARE = share
    searcher = paths.project().searcher
    result: Figures = {}
    for kind in ("docstring", "section", "identifier"):
        if paths.case_file(kind).exists():
            summary = evaluate(
                load_cases(paths.case_file(kind)), lambda c: searcher.search(c.query, 10)
            )["summary"]
            result[kind] = summary["recall@1" if kind == "identifier" else "mrr@10"]
    if paths.case_file("fix").exists():
        fixes = load_cases(paths.case_file("fix"))
        result["fix"] = file_summary(
            fixes, lambda c: files_of(searcher.search(c.query, FILE_DEPTH))
        )["mrr@10"]
    result["sum"] = sum(result.get(kind, 0.0) for kind in SUMMED)
    return result


def verdict(tables: dict[str, dict[float, Figures]], roles: dict[str, str]) -> dict[str, Any]:
    tuning = [name for name in tables if roles[name] == "tuning"]
    held = [name for name in tables if roles[name] != "tuning"]

    def gain(names: list[str], share: float) -> float:
        return statistics.fmean(tables[n][share]["sum"] - tables[n][0.0]["sum"] for n in names)

    best = max(SHARES[1:], key=lambda share: gain(tuning, share))
    losses = [
        (name, kind, tables[name][best][kind] - tables[name][0.0][kind])
        for name in tables
        for kind in MAX_LOSS
        if kind in tables[name][0.0]
    ]
    broken = [(n, k, round(d, 3)) for n, k, d in losses if d < -MAX_LOSS[k]]
    taken = gain(tuning, best) >= MIN_TUNING_GAIN and not broken
    if held:
        taken = taken and gain(held, best) >= 0
    return {
        "share": best,
        "tuning_gain": round(gain(tuning, best), 4),
        "held_gain": round(gain(held, best), 4) if held else None,
        "broken": broken,
        "taken": taken,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, default=Path("/work/bench"))
    parser.add_argument("--repos", nargs="*")
    args = parser.parse_args(argv)
    repos = load_repos(args.repos)
    roles = {repo["name"]: repo["role"] for repo in repos}
    tables: dict[str, dict[float, Figures]] = {}
    print("DOC_SHARE: docstring / fix -> files / section MRR@10, identifier R@1")
    for repo in repos:
        paths = Paths(args.bench, repo["name"])
        tables[repo["name"]] = {share: figures(paths, share) for share in SHARES}
        cells = "   ".join(
            f"{share}: "
            + " / ".join(f"{row.get(kind, float('nan')):.3f}" for kind in (*SUMMED, "identifier"))
            for share, row in tables[repo["name"]].items()
        )
        print(f"{repo['name']} ({repo['role']})  {cells}", flush=True)
    if any(roles[name] == "tuning" for name in tables):
        print(verdict(tables, roles))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
