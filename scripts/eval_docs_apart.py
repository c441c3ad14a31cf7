"""Documentation listed apart from the code hits (MCP `search_code`'s default) against one
list that ranks both, through `Answers.search` as the protocols call it.

Ranked together, sections take a code question's first places (docstring MRR@10 with the
documentation indexed: flask .577, code only .666) and code takes a documentation
question's (section MRR@10 flask .477, sections only .527); a share for sections that
depends on the question was measured four ways and not taken (docs/DESIGN.md). Apart,
each question type is ranked among its own kind. Per repository, on its quality case sets:

- docstring questions: MRR@10 and R@10 of the hits, together vs apart (code only);
- fix -> files: MRR@10 of the files of the best FILE_DEPTH hits;
- identifier questions: R@1;
- section questions: MRR@10 and R@10 of the hits together, vs MRR and R@DOCS of the `docs`
  list apart (is the answer in the answer at all, and how high);
- the wall time of one search, the question embedded each time (median over the docstring
  questions; together and apart alternate which goes first).

Then the held-out repositories pooled (each counting once, a stratified bootstrap interval
of the difference). The figures were seen before DOCS_APART was chosen (the smallest list
whose pooled R@n comes within .01 of the ten together): a product choice, not a tuned gain.

    cd scripts && ../.venv/bin/python eval_docs_apart.py [--repos flask requests] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import numpy as np

from benchstats import stratified_interval
from codekith.answers import Answers
from codekith.evaluation import Case, first_rank, load_cases
from codekith.search import Hit
from codekith.vocabulary import DOCS_APART
from eval_quality import Paths, add_bench_arguments, load_repos
from quality_table import FILE_DEPTH, file_rank, files_of

K = 10
Ranks = list[int | None]


def reciprocal(ranks: Ranks, cutoff: int = K) -> np.ndarray:
    return np.array([1 / r if r is not None and r <= cutoff else 0.0 for r in ranks])


def recall(ranks: Ranks, cutoff: int) -> float:
    return float(np.mean([r is not None and r <= cutoff for r in ranks]))


def ranks_of(cases: list[Case], hits_of: Callable[[Case], list[Hit]]) -> Ranks:
    return [first_rank(hits_of(case), case.expected) for case in cases]


def file_ranks(cases: list[Case], answers: Answers, docs: int) -> Ranks:
    return [
        file_rank(
            files_of(answers.search(case.query, FILE_DEPTH, docs=docs).hits), set(case.expected)
        )
        for case in cases
    ]


def timed(
    answers: Answers, cases: list[Case], settings: Mapping[str, Callable[[str], Any]]
) -> dict[str, float]:
    """Median ms of one search in each setting (`{label}_ms`), each question embedded
    afresh; the settings take turns going first, so none gets the warmer turn throughout."""
    spent: dict[str, list[float]] = {label: [] for label in settings}
    labels = list(settings)
    for number, case in enumerate(cases):
        for label in labels[number % len(labels) :] + labels[: number % len(labels)]:
            answers.project.searcher.forget_questions()
            started = time.perf_counter()
            settings[label](case.query)
            spent[label].append((time.perf_counter() - started) * 1000)
    return {f"{label}_ms": round(statistics.median(spent[label]), 1) for label in settings}


def measure(paths: Paths) -> dict[str, Any]:
    answers = Answers(paths.project(), freshness_ttl_s=float("inf"))
    cases = {
        kind: load_cases(paths.case_file(kind))
        for kind in ("docstring", "fix", "identifier", "section")
        if paths.case_file(kind).exists()
    }
    ranks: dict[str, Ranks] = {}

    def hits_with(docs: int) -> Callable[[Case], list[Hit]]:
        return lambda case: answers.search(case.query, K, docs=docs).hits

    for docs, label in ((0, "together"), (DOCS_APART, "apart")):
        for kind in ("docstring", "identifier"):
            ranks[f"{kind} {label}"] = ranks_of(cases[kind], hits_with(docs))
        if "fix" in cases:
            ranks[f"fix {label}"] = file_ranks(cases["fix"], answers, docs)
    if "section" in cases:
        ranks["section together"] = ranks_of(
            cases["section"], lambda c: answers.search(c.query, K).hits
        )
        ranks["section apart"] = ranks_of(
            cases["section"], lambda c: answers.search(c.query, K, docs=DOCS_APART).docs or []
        )
    settings = {
        label: partial(answers.search, k=K, docs=docs)
        for label, docs in (("together", 0), ("apart", DOCS_APART))
    }
    return {"ranks": ranks, **timed(answers, cases["docstring"], settings)}


def row(name: str, role: str, result: dict[str, Any]) -> str:
    r = result["ranks"]

    def pair(kind: str, figure: Callable[[Ranks], float]) -> str:
        if f"{kind} together" not in r:
            return "   -  /   -  "
        return f"{figure(r[f'{kind} together']):.3f} / {figure(r[f'{kind} apart']):.3f}"

    def mrr(ranks: Ranks) -> float:
        return float(reciprocal(ranks).mean())

    section_recall = (
        f"{recall(r['section together'], K):.3f} / {recall(r['section apart'], DOCS_APART):.3f}"
        if "section together" in r
        else "   -  /   -  "
    )
    return (
        f"{name:10} {role[:4]:4}  {pair('docstring', mrr)}  {pair('fix', mrr)}  "
        f"{pair('identifier', lambda x: recall(x, 1))}  {pair('section', mrr)}  "
        f"{section_recall}  {result['together_ms']:6.1f} / {result['apart_ms']:6.1f}"
    )


def pooled(results: dict[str, dict[str, Any]], kind: str) -> dict[str, Any]:
    """Apart minus together, each repository counting once (section: R@DOCS vs R@10)."""
    gaps, together = [], []
    for result in results.values():
        r = result["ranks"]
        if f"{kind} together" not in r:
            continue
        if kind == "section":
            apart = np.array([x is not None and x <= DOCS_APART for x in r["section apart"]])
            before = np.array([x is not None and x <= K for x in r["section together"]])
        else:
            apart, before = reciprocal(r[f"{kind} apart"]), reciprocal(r[f"{kind} together"])
        gaps.append(apart.astype(float) - before.astype(float))
        together.append(before.mean())
    if not gaps:
        return {}
    low, high = stratified_interval(gaps)
    return {
        "together": round(float(np.mean(together)), 4),
        "difference": round(float(np.mean([g.mean() for g in gaps])), 4),
        "interval": [round(low, 4), round(high, 4)],
    }


def parse_arguments(
    doc: str, argv: list[str] | None, more: Callable[[argparse.ArgumentParser], Any] | None = None
) -> tuple[Any, list[dict[str, Any]]]:
    """The bench arguments and --json of the scripts that measure a change before / after
    (this one, eval_tests_apart.py, eval_text_rules.py: `more` adds its own), and the
    repositories they choose."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    add_bench_arguments(parser)
    if more:
        more(parser)
    parser.add_argument("--json", action="store_true", help="the per-case ranks too")
    args = parser.parse_args(argv)
    return args, load_repos(args.repos)


def main(argv: list[str] | None = None) -> int:
    args, repos = parse_arguments(__doc__, argv)
    print(
        "together / apart: docstring MRR@10, fix -> files MRR@10, identifier R@1, "
        f"section MRR@10, section R@10 / R@{DOCS_APART}, ms a search (median)"
    )
    results: dict[str, dict[str, Any]] = {}
    for repo in repos:
        results[repo["name"]] = measure(Paths(args.bench, repo["name"]))
        print(row(repo["name"], repo["role"], results[repo["name"]]), flush=True)
    held = {
        n: results[n]
        for n in results
        if next(r for r in repos if r["name"] == n)["role"] != "tuning"
    }
    summary = {kind: pooled(held, kind) for kind in ("docstring", "fix", "identifier", "section")}
    times = [r["apart_ms"] / r["together_ms"] for r in results.values()]
    summary["time_ratio_median"] = round(statistics.median(times), 3)
    print("held out, apart minus together:", json.dumps(summary))
    if args.json:
        print(json.dumps({"repos": results, "held_out": summary}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
