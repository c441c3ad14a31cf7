"""Retrieval regression metrics: rank of the first expected item, recall@k, MRR@10.

An expected entry matches a hit by qualname, by a qualname suffix (`Class.method`), or by
path, so cases stay valid when a package is moved under `src/`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codekith.search import Hit, SearchOptions, search_request

CUTOFFS = (1, 5, 10)


@dataclass
class Case:
    query: str
    expected: list[str]
    options: SearchOptions = field(default_factory=SearchOptions)
    # every field of the line but query and expected: the options as written, and a case
    # set's own (a co-change case's target)
    fields: dict[str, Any] = field(default_factory=dict)


def load_cases(path: Path) -> list[Case]:
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        query, options, data = search_request(line, where)
        expected = data.get("expected")
        if not (
            isinstance(expected, list)
            and expected
            and all(isinstance(e, str) and e for e in expected)
        ):
            raise ValueError(
                f"{where}: 'expected' must be a non-empty list of qualified names or paths,"
                f" not {expected!r}"
            )
        others = {k: v for k, v in data.items() if k not in ("query", "expected")}
        cases.append(Case(query, expected, options, others))
    return cases


def judged_hits(
    hits: list[Hit], apart: Sequence[list[Hit] | None], expected: list[str]
) -> list[Hit]:
    """The list a case is judged on: the hits, or the first list apart from them (tests,
    documentation) that holds the answer when they do not (each list is ranked on its own,
    as its reader sees it: a section answer third among the sections ranks third)."""
    if first_rank(hits, expected) is None:
        for listed in apart:
            if listed and first_rank(listed, expected):
                return listed
    return hits


def matches(hit: Hit, expected: str) -> bool:
    return is_answer(hit.qualname, hit.path, expected)


def is_answer(qualname: str, path: str, expected: str) -> bool:
    """Whether a definition is an expected answer: its qualified name, a dotted tail of
    it, or its file."""
    return qualname == expected or qualname.endswith("." + expected) or path == expected


def first_rank(hits: list[Hit], expected: list[str]) -> int | None:
    for rank, hit in enumerate(hits, 1):
        if any(matches(hit, e) for e in expected):
            return rank
    return None


def evaluate(cases: Iterable[Case], run: Callable[[Case], list[Hit]]) -> dict[str, Any]:
    """Per-case ranks plus recall@1/5/10 and MRR@10 over all cases."""
    results: list[dict[str, Any]] = []
    ranks: list[int | None] = []
    for case in cases:
        hits = run(case)
        rank = first_rank(hits, case.expected)
        ranks.append(rank)
        results.append(
            {
                "query": case.query,
                "expected": case.expected,
                "rank": rank,
                "top": hits[0].qualname if hits else None,
            }
        )
    total = len(results) or 1

    summary: dict[str, Any] = {"cases": len(results)}
    for cutoff in CUTOFFS:
        summary[f"recall@{cutoff}"] = round(
            sum(1 for rank in ranks if rank is not None and rank <= cutoff) / total, 4
        )
    summary["mrr@10"] = round(
        sum(1 / rank for rank in ranks if rank is not None and rank <= 10) / total, 4
    )
    return {"summary": summary, "cases": results}
