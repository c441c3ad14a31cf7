"""Documentation in the index: what it costs questions about code, and the share it gives up.

A user's `codekith index .` holds the repository's Markdown, reStructuredText, TOML and
YAML as sections beside the code. The quality workspaces hold them too
(`quality_cases.build_workspace`), each Markdown/reStructuredText section without its first
paragraph of prose, whose first sentence is a `section` case answered by that section (as a
docstring's first sentence is a `docstring` case answered by its definition).

The issue asks for docs, like tests, below the project's own code on questions about
behaviour. Two ways for a section to give up a share of its fused score were measured,
here, around the real search (`section_share` patches `search.kept_share`): unless the
question names documentation (doc, docs, documentation, documented, readme, guide,
tutorial, manual, changelog; fixed before any figure), a section keeps
- `flat`: 1 - DOC_SHARE;
- `probe`: 1 - DOC_SHARE x (1 - how much the question reads like documentation), a
  logistic probe (scripts/doc_probe.py).

The rule, written down before each one's figures (commits 194c754 and b99b238):
- DOC_SHARE is chosen from 0.2, 0.4, 0.6 (and 0.8 for the probe) on the tuning
  repositories alone: the best mean over flask, axios and structlog of docstring + fix ->
  files + section MRR@10;
- it is taken only if that mean gains at least .01 over 0, the held-out repositories' mean
  of the same sum gains at least 0, no repository of the fourteen loses more than .02 on
  docstring MRR@10, fix -> files MRR@10 or identifier R@1, and none loses more than .05 on
  section MRR@10.
Neither was taken (docs/DESIGN.md has the figures), so search ranks sections as it ranks
code, and this script keeps both variants to measure. The first probe read the question's
vector alone; the second (stop 45) reads its first word and shape too and was trained with
bug reports among the code (`doc_probe.py`). Its rule, written down before its figures:
the same as the first probe's (DOC_SHARE from 0.2, 0.4, 0.6, 0.8 by the tuning
repositories' mean; taken only if that mean gains at least .01, the held-out mean at least
0, no repository loses more than .02 on docstring, fix -> files or identifier R@1, and
none more than .05 on sections). Not taken either: 0.4 gains +.110 tuning and +.080 held
out, but sections fall more than .05 on nine repositories.

With documentation in the index, flask's hybrid fell below its vector mode (.578 vs .596):
prose questions match prose, so sections head the full-text list, and the code's best
full-text match is scaled against theirs. A third variant takes no share:
- `split`: the full-text list's scores are scaled by the best of their own group
  (sections; everything else) instead of the best of all, so each group's best match
  counts the whole text weight.
Its rule, written down before its figures: taken only if the tuning repositories' mean of
docstring + fix -> files + section MRR@10 gains at least .01, the held-out mean at least 0,
no repository loses more than .02 on docstring, fix -> files or identifier R@1, and none
more than .05 on sections (the same conditions; `split` has no constant to choose).

    python scripts/eval_docs.py --variant flat --repos flask axios structlog
    python scripts/doc_probe.py --out BENCH/doc_probe.json GIT_DIR ...
    python scripts/eval_docs.py --variant probe --probe BENCH/doc_probe.json
    python scripts/eval_docs.py --variant split
"""

from __future__ import annotations

import argparse
import re
import statistics
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from codekith import search
from codekith.evaluation import evaluate, load_cases
from codekith.question_probe import Probe
from eval_quality import Paths, add_bench_arguments, fixes_trained, load_repos
from quality_table import FILE_DEPTH, file_summary, files_of

SHARES = {"flat": (0.0, 0.2, 0.4, 0.6), "probe": (0.0, 0.2, 0.4, 0.6, 0.8), "split": (0.0, 1.0)}
SUMMED = ("docstring", "fix", "section")
MIN_TUNING_GAIN = 0.01
MAX_LOSS = {"docstring": 0.02, "fix": 0.02, "identifier": 0.02, "section": 0.05}
ASKS_FOR_DOCS = re.compile(
    r"\b(docs?|documentation|documented|readme|guide|tutorial|manual|changelog)\b",
    re.IGNORECASE,
)
Figures = dict[str, float]


def keeps(variant: str, share: float, probe: Probe | None) -> Callable[[Any, str], float]:
    """(searcher, question) -> what a section keeps of its fused score."""

    def kept(searcher: Any, query: str) -> float:
        if share == 0 or ASKS_FOR_DOCS.search(query):
            return 1.0
        if variant != "probe" or probe is None:
            return 1 - share
        if probe.query_side != searcher.query_id():
            raise SystemExit("the probe was trained on another query side: train it again")
        return 1 - share * (1 - probe.likelihood(searcher.query_vector(query), query))

    return kept


@contextmanager
def section_share(kept: Callable[[Any, str], float]) -> Iterator[None]:
    """Hybrid search with documentation sections keeping `kept(searcher, question)` of
    their fused score (and of their name bonus), as `search.kept_share` has modules and
    side code keep theirs."""
    original_kept, original_search = search.kept_share, search.Searcher.search
    factor = [1.0]

    def kept_share(row: dict[str, Any], shares: search.Shares = search.NO_QUESTION) -> float:
        share = original_kept(row, shares)
        return share * factor[0] if row["kind"] == "section" else share

    def searched(self: Any, query: str, k: int = 10, *args: Any, **kwargs: Any) -> Any:
        factor[0] = kept(self, query)
        return original_search(self, query, k, *args, **kwargs)

    search.kept_share, search.Searcher.search = kept_share, searched  # type: ignore[method-assign]
    try:
        yield
    finally:
        search.kept_share, search.Searcher.search = original_kept, original_search  # type: ignore[method-assign]


@contextmanager
def text_split_by_kind(on: bool) -> Iterator[None]:
    """Hybrid search with the full-text list's scores scaled by the best of their group
    (sections; everything else), so the best of each group counts the whole text weight."""
    original = search.fuse

    def fuse(
        symbols: Any, vector: Any, text: list[dict[str, Any]], *args: Any, **kwargs: Any
    ) -> Any:
        tops: dict[bool, float] = {}
        for row in text:
            group = row["kind"] == "section"
            tops[group] = max(tops.get(group, 0.0), float(row["_score"]))
        scaled = [
            {**row, "_score": float(row["_score"]) / top}
            if (top := tops[row["kind"] == "section"]) > 0
            else row
            for row in text
        ]
        return original(symbols, vector, scaled, *args, **kwargs)

    if on:
        search.fuse = fuse
    try:
        yield
    finally:
        search.fuse = original


def figures(
    paths: Paths, searcher: Any, variant: str, share: float, probe: Probe | None
) -> Figures:
    """Hybrid search's figures on the repository's case sets under the variant."""
    result: Figures = {}
    kept = keeps(variant, share if variant != "split" else 0.0, probe)
    with section_share(kept), text_split_by_kind(variant == "split" and share > 0):
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


def verdict(
    tables: dict[str, dict[float, Figures]],
    roles: dict[str, str],
    shares: tuple[float, ...],
    trained: frozenset[str],
) -> dict[str, Any]:
    """The tuning repositories' best share and whether the rule takes it. A repository whose
    fix commits trained the query adapter (`fixes_trained`) counts without its fix figure."""
    tuning = [name for name in tables if roles[name] == "tuning"]
    held = [name for name in tables if roles[name] != "tuning"]

    def summed(name: str, share: float) -> float:
        row = tables[name][share]
        return row["sum"] - (row.get("fix", 0.0) if name in trained else 0.0)

    def gain(names: list[str], share: float) -> float:
        return statistics.fmean(summed(n, share) - summed(n, 0.0) for n in names)

    best = max(shares[1:], key=lambda share: gain(tuning, share))
    losses = [
        (name, kind, tables[name][best][kind] - tables[name][0.0][kind])
        for name in tables
        for kind in MAX_LOSS
        if kind in tables[name][0.0] and not (kind == "fix" and name in trained)
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
    add_bench_arguments(parser)
    parser.add_argument("--variant", choices=tuple(SHARES), default="probe")
    parser.add_argument("--probe", type=Path, help="the probe's file (--variant probe)")
    args = parser.parse_args(argv)
    if args.variant == "probe" and args.probe is None:
        parser.error("--variant probe needs --probe (scripts/doc_probe.py --out)")
    probe = Probe.load(args.probe) if args.variant == "probe" else None
    shares = SHARES[args.variant]
    repos = load_repos(args.repos)
    roles = {repo["name"]: repo["role"] for repo in repos}
    tables: dict[str, dict[float, Figures]] = {}
    print(f"{args.variant} DOC_SHARE: docstring / fix -> files / section MRR@10, identifier R@1")
    for repo in repos:
        paths = Paths(args.bench, repo["name"])
        searcher = paths.project().searcher  # one for every share: its name vectors stay
        tables[repo["name"]] = {
            share: figures(paths, searcher, args.variant, share, probe) for share in shares
        }
        cells = "   ".join(
            f"{share}: "
            + " / ".join(f"{row.get(kind, float('nan')):.3f}" for kind in (*SUMMED, "identifier"))
            for share, row in tables[repo["name"]].items()
        )
        print(f"{repo['name']} ({repo['role']})  {cells}", flush=True)
    if any(roles[name] == "tuning" for name in tables):
        print(verdict(tables, roles, shares, fixes_trained(repos)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
