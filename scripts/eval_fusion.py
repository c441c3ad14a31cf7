"""Offline fusion experiments on the rankings that `eval_quality.py table` stored.

Each case's deep vector list (cosine similarity), full-text list (BM25) and symbol matches
were saved in BENCH/quality/NAME/lists.json, so fusions can be compared without the model
or the index. A grid of fusions is scored on the TUNING repositories only; the chosen one
(best mean docstring MRR@10 on tuning repositories, hybrid at least the best single list on
each of them, identifier Recall@1 not below the old hybrid's) is then reported on every
repository, held-out ones included, next to the single lists and the old RRF.

    python scripts/eval_fusion.py
    python scripts/eval_fusion.py --top 10     # the ten best grid points, all repositories
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codekith.search import is_test_path
from eval_quality import Paths, load_repos

Row = dict[str, Any]
Lists = dict[str, Any]


def matches(row: Row, expected: str) -> bool:
    qualname = row["qualname"]
    return qualname == expected or qualname.endswith("." + expected) or row["path"] == expected


def rank_of(ranking: list[Row], expected: list[str], k: int = 10) -> int | None:
    for rank, row in enumerate(ranking[:k], 1):
        if any(matches(row, e) for e in expected):
            return rank
    return None


def mrr(cases: list[Lists], fuse: Callable[[Lists], list[Row]]) -> tuple[float, float]:
    """(MRR@10, Recall@1)."""
    ranks = [rank_of(fuse(case), case["expected"]) for case in cases]
    total = len(ranks) or 1
    return (
        sum(1 / r for r in ranks if r) / total,
        sum(1 for r in ranks if r == 1) / total,
    )


@dataclass(frozen=True)
class Fusion:
    """score = wv * norm(cosine) + wt * norm(bm25) [+ symbol bonus], over the top `depth`."""

    norm: str  # "rrf" | "max" | "minmax"
    wv: float
    wt: float
    depth: int
    rrf_k: float = 60
    symbols: str = "rrf"  # "rrf": a third list, "first": exact matches lead
    module_penalty: float = 0.0  # share of the score a module/rest-of-file chunk loses
    test_penalty: float = 0.0  # share a chunk under tests/ loses

    def __str__(self) -> str:
        extra = f" k={self.rrf_k:g}" if self.norm == "rrf" else ""
        penalties = (
            f" module-{self.module_penalty:g} test-{self.test_penalty:g}"
            if self.module_penalty or self.test_penalty
            else ""
        )
        return (
            f"{self.norm}{extra} wv={self.wv:g} wt={self.wt:g} depth={self.depth} "
            f"symbols={self.symbols}{penalties}"
        )

    def _scores(self, ranking: list[Row], key: str) -> dict[str, float]:
        ranking = ranking[: self.depth]
        if self.norm == "rrf":
            return {r["id"]: 1.0 / (self.rrf_k + i + 1) for i, r in enumerate(ranking)}
        values = [float(r[key]) for r in ranking]
        if not values:
            return {}
        top, low = max(values), (min(values) if self.norm == "minmax" else 0.0)
        span = (top - low) or 1.0
        return {r["id"]: (float(r[key]) - low) / span for r in ranking}

    def __call__(self, case: Lists) -> list[Row]:
        rows: dict[str, Row] = {}
        scores: dict[str, float] = {}
        for ranking, key, weight in (
            (case["vector"], "similarity", self.wv),
            (case["text"], "bm25", self.wt),
        ):
            for chunk_id, score in self._scores(ranking, key).items():
                scores[chunk_id] = scores.get(chunk_id, 0.0) + weight * score
            for row in ranking[: self.depth]:
                rows.setdefault(row["id"], row)
        for chunk_id, row in rows.items():
            if row["kind"] == "module":
                scores[chunk_id] *= 1 - self.module_penalty
            if is_test_path(row["path"]):
                scores[chunk_id] *= 1 - self.test_penalty
        symbols = case["symbols"]
        for rank, row in enumerate(symbols):
            rows.setdefault(row["id"], row)
            if self.symbols == "first":
                scores[row["id"]] = scores.get(row["id"], 0.0) + 10.0
            else:
                bonus = 1.0 / (60 + rank + 1) if self.norm == "rrf" else 1.0
                scores[row["id"]] = scores.get(row["id"], 0.0) + bonus
        return [rows[i] for i in sorted(scores, key=lambda i: -scores[i])[:10]]


def single(name: str) -> Callable[[Lists], list[Row]]:
    return lambda case: case[name][:10]


def shipped() -> Fusion:
    """What codekith.search.fuse does (its constants), for the figures in the report."""
    from codekith import search

    return Fusion(
        "max",
        search.VECTOR_WEIGHT,
        search.TEXT_WEIGHT,
        search.CANDIDATE_DEPTH,
        symbols="first",
        module_penalty=search.MODULE_SHARE,
        test_penalty=search.SIDE_SHARE,
    )


def old_rrf() -> Fusion:
    return Fusion("rrf", 1, 1, 30, 60, "rrf")


def grid() -> list[Fusion]:
    found = []
    for norm, wv in (("max", 0.5), ("minmax", 0.5), ("minmax", 0.6), ("minmax", 0.7)):
        for module, test in ((0.1, 0), (0.2, 0), (0, 0.1), (0.1, 0.1), (0.2, 0.2)):
            for symbols in ("rrf", "first"):
                found.append(Fusion(norm, wv, round(1 - wv, 2), 50, 60, symbols, module, test))
    for depth in (30, 50, 100):
        for k in (5, 10, 20, 60):
            for wv, wt in ((1, 1), (1, 0.7), (1, 0.5), (0.7, 1), (0.5, 1)):
                for symbols in ("rrf", "first"):
                    found.append(Fusion("rrf", wv, wt, depth, k, symbols))
        for norm in ("max", "minmax"):
            for wv in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8):
                for symbols in ("rrf", "first"):
                    found.append(Fusion(norm, wv, round(1 - wv, 2), depth, 60, symbols))
    return found


def load(repos: list[dict[str, Any]], bench: Path) -> dict[str, dict[str, list[Lists]]]:
    return {
        repo["name"]: json.loads(Paths(bench, repo["name"]).lists.read_text()) for repo in repos
    }


def score_all(
    data: dict[str, dict[str, list[Lists]]], fuse: Callable[[Lists], list[Row]]
) -> dict[str, dict[str, float]]:
    out = {}
    for name, sets in data.items():
        doc_mrr, _ = mrr(sets["docstring"], fuse)
        id_mrr, id_r1 = mrr(sets["identifier"], fuse)
        out[name] = {"doc": doc_mrr, "id_r1": id_r1, "id_mrr": id_mrr}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, default=Path(os.environ.get("BENCH", "/work/bench")))
    parser.add_argument("--top", type=int, default=5)
    args = parser.parse_args(argv)
    repos = load_repos(None)
    data = load(repos, args.bench)
    tuning = [r["name"] for r in repos if r["role"] == "tuning"]
    names = [r["name"] for r in repos]

    singles = {n: score_all(data, single(n)) for n in ("vector", "text")}
    old = score_all(data, old_rrf())
    candidates = []
    for fusion in grid():
        scores = score_all(data, fusion)
        ok = all(
            scores[r]["doc"] >= max(singles["vector"][r]["doc"], singles["text"][r]["doc"])
            and scores[r]["id_r1"] >= old[r]["id_r1"]
            for r in tuning
        )
        tuned = sum(scores[r]["doc"] for r in tuning) / len(tuning)
        candidates.append((ok, tuned, fusion, scores))
    candidates.sort(key=lambda c: (not c[0], -c[1]))

    header = "".join(f"{n + ('*' if n in tuning else ''):>20}" for n in names)
    print(f"docstring MRR@10 / identifier R@1 per repository (* = tuning)\n{'':44}{header}")

    def line(label: str, scores: dict[str, dict[str, float]]) -> None:
        cells = "".join(f"{scores[n]['doc']:>13.3f} /{scores[n]['id_r1']:5.2f}" for n in names)
        print(f"{label[:44]:44}{cells}")

    line("vector (codekith, top 10)", singles["vector"])
    line("text (codekith, top 10)", singles["text"])
    line(f"old: {old_rrf()}", old)
    line(f"shipped: {shipped()}", score_all(data, shipped()))
    for ok, _, fusion, scores in candidates[: args.top]:
        line(("" if ok else "(fails a guard) ") + str(fusion), scores)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
