"""Second-stage re-rankers of hybrid search, replayed on eval_fusion's records.

Hybrid search's last stage re-ranks its 30 best fused candidates (`Searcher._rerank_by_name`:
the name bonus). Each variant here is another such stage, run inside the real
`Searcher.search` replayed from BENCH/quality/NAME/replay.pkl (`eval_fusion.py dump` writes
it), so everything before the stage is exactly the live search and nothing of it is copied:

- `shipped`: the live stage (its figures are the live search's, `eval_fusion.py check`);
- `name cover W`: shipped plus W x the share of a definition's name words (stemmed) that the
  question holds, the lexical twin of the name bonus;
- `learned`: a linear score over features of the 30 best (their cosine, BM25 score and name
  similarity, raw and relative to the best; kind, side code, length, found by both lists),
  trained on the tuning repositories' docstring and fix cases with a pairwise logistic loss:
  the hand-set stage it would replace is the bar. Exact-name leads still lead.

Figures are docstring MRR@10, identifier Recall@1 and fix -> files MRR@10 (as quality_table
computes them); a variant is worth a live table only when it holds on the held-out
repositories too.

    python scripts/eval_rerank.py                    # every variant, all repositories
    python scripts/eval_rerank.py --repos flask axios ky
"""

from __future__ import annotations

import argparse
import pickle
import re
from collections.abc import Callable
from functools import cached_property
from typing import Any

import numpy as np

from codekith import search
from codekith.evaluation import is_answer
from codekith.search import Searcher, Shares, fuse, is_side_code, kept_share
from codekith.template import name_phrase, split_identifier
from eval_fusion import KINDS, ReplaySearcher, ReplayStore, measure, replay
from eval_quality import Paths, add_bench_arguments, load_repos

Row = dict[str, Any]
Stage = Callable[["StageInput"], None]
_WORD = re.compile(r"[A-Za-z0-9]+")
_STOP = frozenset(
    {"a", "an", "the", "of", "to", "for", "in", "on", "and", "or", "is", "are", "be", "by"}
    | {"with", "as", "that", "this", "it", "its", "from", "at"}
)
LEAD_SCALE = 1000.0  # a re-ranked candidate's lead outweighs any learned score
FEATURES: tuple[str, ...] = ("cosine/top", "bm25/top", "name/top", "cosine", "name")
FEATURES += ("class", "module", "method", "side", "log lines", "in both lists")


class StageInput:
    """What the last stage sees of one search: the fused scores (leads included) and rows it
    may change, and each candidate's features read from the replayed record (worked out
    only when a stage asks for them)."""

    def __init__(
        self,
        searcher: StageSearcher,
        query: str,
        scores: dict[str, float],
        rows: dict[str, Row],
        depth: int,
        shares: Shares,
    ):
        self.searcher, self.query, self.scores, self.rows = searcher, query, scores, rows
        self.depth = depth  # candidates the stage re-ranks (NAME_DEPTH, or 3k)
        self.shares = shares
        self.record = searcher.replay.record

    @cached_property
    def _vector(self) -> list[Row]:
        """The vector list as the fusion read it (text-only candidates with stored cosines)."""
        text = self.record["text"]
        return self.searcher._with_stored_cosines(self.query, self.record["vector"], text)

    @cached_property
    def cosine(self) -> dict[str, float]:
        return {row["id"]: 1.0 - float(row["_distance"]) for row in self._vector}

    @cached_property
    def bm25(self) -> dict[str, float]:
        return {row["id"]: float(row["_score"]) for row in self.record["text"]}

    @cached_property
    def lead(self) -> dict[str, float]:
        """What the symbol and fragment leads added to each fused score."""
        unled, _ = fuse([], self._vector, self.record["text"], (), self.shares)
        return {i: score - unled.get(i, 0.0) for i, score in self.scores.items()}

    def best(self) -> list[str]:
        return sorted(self.scores, key=lambda i: (-self.scores[i], i))[: self.depth]

    def name_similarity(self, chunk_id: str) -> float:
        row = self.rows[chunk_id]
        return self.record["names"][name_phrase(row["symbol"] or "", row["qualname"])]

    def features(self, ids: list[str]) -> np.ndarray:
        """One row of FEATURES per candidate."""
        top_v = max(self.cosine.values(), default=0.0) or 1.0
        top_t = max(self.bm25.values(), default=0.0) or 1.0
        names = [max(self.name_similarity(i), 0.0) for i in ids]
        top_n = max(names, default=0.0) or 1.0
        table = []
        for chunk_id, name in zip(ids, names, strict=True):
            row = self.rows[chunk_id]
            cosine, bm25 = self.cosine.get(chunk_id, 0.0), self.bm25.get(chunk_id, 0.0)
            lines = max(0, (row["end_line"] or 0) - (row["start_line"] or 0))
            kinds = (row["kind"] == "class", row["kind"] == "module", row["kind"] == "method")
            both = chunk_id in self.cosine and chunk_id in self.bm25
            side = is_side_code(row["path"], self.shares.tests_wanted)
            relative = (cosine / top_v, bm25 / top_t, name / top_n)
            table.append([*relative, cosine, name, *kinds, side, np.log1p(lines), both])
        return np.array(table, dtype=float).reshape(len(ids), len(FEATURES))


class StageSearcher(ReplaySearcher):
    """The replayed search with its last stage replaced (None: the shipped one)."""

    def __init__(self, stage: Stage | None = None):
        super().__init__(ReplayStore())
        self.stage = stage

    def _rerank_by_name(
        self,
        query: str,
        scores: dict[str, float],
        rows: dict[str, Row],
        depth: int,
        shares: Shares,
    ) -> None:
        if self.stage is None:
            super()._rerank_by_name(query, scores, rows, depth, shares)
        else:
            self.stage(StageInput(self, query, scores, rows, depth, shares))


def name_cover(weight: float) -> Stage:
    """The shipped stage, then `weight` x the share of each candidate's name words that the
    question holds (stemmed, without stop words), less its kept share."""
    import py_rust_stemmers

    stem = py_rust_stemmers.SnowballStemmer("english").stem_word

    def words(text: str) -> set[str]:
        parts = (p for w in _WORD.findall(text) for p in split_identifier(w))
        return {stem(p) for p in parts if p not in _STOP and len(p) > 1}

    def stage(seen: StageInput) -> None:
        Searcher._rerank_by_name(
            seen.searcher, seen.query, seen.scores, seen.rows, seen.depth, seen.shares
        )
        asked = words(seen.query)
        for chunk_id, row in seen.rows.items():
            name = words(row["symbol"] or row["qualname"].rpartition(".")[2])
            if name:
                cover = len(asked & name) / len(name)
                seen.scores[chunk_id] += weight * cover * kept_share(row, seen.shares)

    return stage


def linear(weights: np.ndarray) -> Stage:
    """The 30 best re-ranked by FEATURES @ weights, each above every other candidate and
    keeping its lead (an exact name still comes first)."""

    def stage(seen: StageInput) -> None:
        best = seen.best()
        for chunk_id, value in zip(best, seen.features(best) @ weights, strict=True):
            seen.scores[chunk_id] = LEAD_SCALE * (1 + seen.lead[chunk_id]) + float(value)

    return stage


def answer_rule(kind: str, expected: list[str]) -> Callable[[Row], bool]:
    """Whether a candidate answers a case: a docstring case's definition, any chunk of one
    of a fix case's files."""
    if kind == "fix":
        return lambda row: row["path"] in expected
    return lambda row: any(is_answer(row["qualname"], row["path"], e) for e in expected)


def training_pairs(data: dict[str, Any]) -> list[np.ndarray]:
    """Feature differences, first answer minus each other candidate among those the stage
    re-ranks, of each docstring and fix case that has both among them."""
    pairs: list[np.ndarray] = []

    def collector(answers: Callable[[Row], bool]) -> Stage:
        def collect(seen: StageInput) -> None:
            best = seen.best()
            hit = np.array([answers(seen.rows[i]) for i in best], dtype=bool)
            if hit.any() and not hit.all():
                features = seen.features(best)
                pairs.append(features[hit][:1] - features[~hit])

        return collect

    searcher = StageSearcher()
    for kind in ("docstring", "fix"):
        for item in data["cases"][kind]:
            searcher.stage = collector(answer_rule(kind, item["case"].expected))
            replay(searcher, item, KINDS[kind])
    return pairs


def learn(pairs: list[np.ndarray], l2: float = 0.001, steps: int = 3000) -> np.ndarray:
    """Weights minimising the pairwise logistic loss (Adam), from the shipped stage's
    proportions of cosine, BM25 and name."""
    stacked = np.concatenate(pairs)
    share = np.concatenate([np.full(len(p), 1 / len(p)) for p in pairs])  # each case counts once
    share *= len(share) / share.sum()
    weights = np.zeros(len(FEATURES))
    weights[:3] = (search.VECTOR_WEIGHT, search.TEXT_WEIGHT, search.NAME_WEIGHT)
    m, v = np.zeros_like(weights), np.zeros_like(weights)
    for t in range(1, steps + 1):
        wrong = 1 / (1 + np.exp(np.clip(stacked @ weights, -30, 30)))
        gradient = -(stacked * (wrong * share)[:, None]).mean(0) + l2 * weights
        m, v = 0.9 * m + 0.1 * gradient, 0.999 * v + 0.001 * gradient**2
        weights -= 0.05 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return weights


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_bench_arguments(parser)
    args = parser.parse_args(argv)
    repos = load_repos(args.repos)
    data = {
        r["name"]: pickle.loads(Paths(args.bench, r["name"]).replay.read_bytes()) for r in repos
    }
    stages: dict[str, Stage | None] = {"shipped": None}
    stages.update({f"name cover {w:g}": name_cover(w) for w in (0.05, 0.1, 0.15)})
    tuning = [r["name"] for r in repos if r["role"] == "tuning"]
    if tuning:
        weights = learn([p for name in tuning for p in training_pairs(data[name])])
        print("learned weights:", dict(zip(FEATURES, weights.round(2).tolist(), strict=True)))
        stages["learned"] = linear(weights)
    names = list(data)
    shipped = {name: measure(StageSearcher(), d)["identifier"] for name, d in data.items()}
    header = "".join(f"{n + ('*' if n in tuning else ''):>18}" for n in names)
    print(f"docstring MRR@10 / fix -> files MRR@10 (* = tuning)\n{'':16}{header}")
    for label, stage in stages.items():
        searcher = StageSearcher(stage)
        figures = {name: measure(searcher, d) for name, d in data.items()}
        marked = any(figures[n]["identifier"] < shipped[n] for n in names)
        cells = "".join(
            f"{figures[n]['docstring']:>11.3f} /{figures[n]['fix']:5.3f}" for n in names
        )
        print(f"{label + (' (id R@1 down)' if marked else ''):16}{cells}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
