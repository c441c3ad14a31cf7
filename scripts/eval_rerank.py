"""Offline re-ranking experiments on the candidates hybrid search fuses.

For every docstring and identifier case of the quality repositories (scripts/eval_quality.py
builds them and their indexes), the candidates the searcher fuses are collected once: the
vector and full-text top 50, exact symbol and fragment matches, each with its cosine, BM25
score, stored-vector cosine, name-phrase cosine and lead. They are cached in
BENCH/quality/NAME/candidates-MODEL-HASH-QUERIESHASH.pkl (named by the derived models: the
cosines are theirs). The shipped scoring is then recomputed from them (it must equal the live
search's MRR, which is printed beside it) and compared with variants: extra score terms
that are chosen on the TUNING repositories only and reported on all of them.
The `learned` variant re-ranks the 30 best by a linear score over every feature above (plus
kind, side code, length), trained on the tuning repositories' docstring cases with a
pairwise logistic loss: the hand-set fusion it would replace is the bar.

    python scripts/eval_rerank.py                    # shipped and every variant, all repos
    python scripts/eval_rerank.py --repos flask axios
"""

from __future__ import annotations

import argparse
import os
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from codekith.config import DEFAULT_MODEL
from codekith.evaluation import is_answer
from eval_quality import Paths, load_repos

Case = dict[str, Any]
ROW_FIELDS: tuple[str, ...] = ("id", "path", "qualname", "symbol", "kind", "parent", "signature")
ROW_FIELDS += ("start_line", "end_line", "decorators", "bases")
KINDS = ("docstring", "identifier")
_WORD = re.compile(r"[A-Za-z0-9]+")
_STOP = frozenset(
    {"a", "an", "the", "of", "to", "for", "in", "on", "and", "or", "is", "are", "be", "by"}
    | {"with", "as", "that", "this", "it", "its", "from", "at"}
)


def matches(row: dict[str, Any], expected: str) -> bool:
    """`codekith.evaluation.matches` for a candidate's row."""
    return is_answer(row["qualname"], row["path"], expected)


def _cache_name() -> str:
    """Named by the default model's two derived folders, whose names already hash its
    adapters and the tools that derived it: a new query adapter keeps the model id but
    moves every cosine a cached candidate holds."""
    from codekith.embedding import offline_model_dir

    questions = offline_model_dir(DEFAULT_MODEL, queries=True).name.rsplit("-", 1)[-1]
    return f"candidates-{offline_model_dir(DEFAULT_MODEL).name}-{questions}.pkl"


def collect(paths: Paths) -> dict[str, list[Case]]:
    """Each case's fused candidates with what the scoring reads (see the module docstring)."""
    from codekith.embedding import FastEmbedder
    from codekith.evaluation import load_cases
    from codekith.project import Project
    from codekith.search import CANDIDATE_DEPTH, names_a_symbol
    from codekith.template import name_phrase, search_text

    project = Project(paths.workspace, db=str(paths.stripped_db), embedder=FastEmbedder())
    store, searcher = project.read_store, project.searcher
    found: dict[str, list[Case]] = {}
    for kind in KINDS:
        found[kind] = []
        for case in load_cases(paths.case_file(kind)):
            query = searcher.query_vector(case.query)
            vector = store.vector_search(query, CANDIDATE_DEPTH)
            text = store.text_search(search_text(case.query), CANDIDATE_DEPTH)
            named = names_a_symbol(case.query)
            leads = {r["id"]: 10.0 for r in searcher.symbol_matches(case.query)} if named else {}
            for row, lead in searcher.fragment_matches(case.query) if named else []:
                leads[row["id"]] = max(leads.get(row["id"], 0.0), lead)
            rows = {r["id"]: r for r in vector + text}
            rows.update({r["id"]: r for r in store.chunks_by_id(list(leads.keys() - rows.keys()))})
            stored = store.vectors_of(list(rows))
            phrases = {i: name_phrase(r["symbol"] or "", r["qualname"]) for i, r in rows.items()}
            names = dict(zip(phrases, searcher.name_vectors(list(phrases.values())), strict=True))
            cosine = {r["id"]: 1.0 - float(r["_distance"]) for r in vector}
            bm25 = {r["id"]: float(r["_score"]) for r in text}
            found[kind].append(
                {
                    "query": case.query,
                    "expected": case.expected,
                    "live": [hit.id for hit in searcher.search(case.query, 10)],
                    "candidates": [
                        {
                            **{k: r[k] for k in ROW_FIELDS},
                            "cosine": cosine.get(i),
                            "stored_cosine": float(stored[i] @ query) if i in stored else 0.0,
                            "bm25": bm25.get(i),
                            "name": float(names[i] @ query),
                            "lead": leads.get(i, 0.0),
                        }
                        for i, r in rows.items()
                    ],
                }
            )
    return found


def fused_cosines(candidates: list[dict[str, Any]]) -> tuple[list[float | None], float, float]:
    """Each candidate's cosine as the fusion counts it (a text-only candidate its stored
    vector's, as `Searcher._with_stored_cosines` gives it), and the best cosine and BM25."""
    listed = any(c["cosine"] is not None for c in candidates)
    cosines = [
        c["stored_cosine"]
        if listed and c["cosine"] is None and c["bm25"] is not None
        else c["cosine"]
        for c in candidates
    ]
    top_v = max((v for v in cosines if v is not None), default=0.0) or 1.0
    top_t = max((c["bm25"] for c in candidates if c["bm25"] is not None), default=0.0) or 1.0
    return cosines, top_v, top_t


def shipped(case: Case) -> np.ndarray:
    """codekith.search's score of each candidate."""
    from codekith import search

    candidates = case["candidates"]
    tests_wanted = search.asks_for_tests(case["query"])
    cosines, top_v, top_t = fused_cosines(candidates)
    kept = np.array([search.kept_share(c, tests_wanted) for c in candidates])
    both = any(c["cosine"] is not None for c in candidates) and any(
        c["bm25"] is not None for c in candidates
    )
    fused = np.array(
        [
            search.VECTOR_WEIGHT * (v or 0.0) / top_v
            + search.TEXT_WEIGHT * (c["bm25"] or 0.0) / top_t
            for c, v in zip(candidates, cosines, strict=True)
        ]
    ) * (kept if both else 1.0)
    gap = search.SIDE_LEAD_GAP
    fused += np.array(
        [
            c["lead"] - (gap if c["lead"] and search.is_side_code(c["path"], tests_wanted) else 0)
            for c in candidates
        ]
    )
    best = np.argsort(-fused, kind="stable")[: search.NAME_DEPTH]
    names = np.array([max(candidates[i]["name"], 0.0) for i in best])
    if len(best) and names.max() > 0:
        fused[best] += search.NAME_WEIGHT * names / names.max() * kept[best]
    return fused


def name_cover(weight: float) -> Callable[[Case], np.ndarray]:
    """Shipped plus `weight` times the share of the definition's name words (stemmed) that
    the query contains: the lexical twin of the name re-ranking."""
    import py_rust_stemmers

    from codekith.search import kept_share
    from codekith.template import split_identifier

    stem = py_rust_stemmers.SnowballStemmer("english").stem_word

    def words(text: str) -> set[str]:
        parts = (p for w in _WORD.findall(text) for p in split_identifier(w))
        return {stem(p) for p in parts if p not in _STOP and len(p) > 1}

    def score(case: Case) -> np.ndarray:
        asked = words(case["query"])
        extra = []
        for c in case["candidates"]:
            name = words(c["symbol"] or c["qualname"].rpartition(".")[2])
            extra.append(len(asked & name) / len(name) * kept_share(c) if name else 0.0)
        return shipped(case) + weight * np.array(extra)

    return score


LEARNED_FEATURES: tuple[str, ...] = ("cosine/top", "bm25/top", "name/top", "cosine", "name")
LEARNED_FEATURES += ("class", "module", "method", "side", "log lines", "in both lists")


def _learned_features(case: Case) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the NAME_DEPTH best by the shipped fusion without its name bonus, their features,
    the first-stage scores with leads) for one case."""
    from codekith import search

    candidates, tests_wanted = case["candidates"], search.asks_for_tests(case["query"])
    first = shipped({**case, "candidates": [{**c, "name": 0.0} for c in candidates]})
    best = np.argsort(-first, kind="stable")[: search.NAME_DEPTH]
    fused, top_v, top_t = fused_cosines(candidates)
    cosines = [v or 0.0 for v in fused]
    top_n = max((max(candidates[i]["name"], 0.0) for i in best), default=0.0) or 1.0
    rows = []
    for i in best:
        c = candidates[i]
        lines = max(0, (c["end_line"] or 0) - (c["start_line"] or 0))
        relative = (cosines[i] / top_v, (c["bm25"] or 0.0) / top_t, max(c["name"], 0.0) / top_n)
        kinds = (c["kind"] == "class", c["kind"] == "module", c["kind"] == "method")
        side = search.is_side_code(c["path"], tests_wanted)
        both = c["cosine"] is not None and c["bm25"] is not None
        rows.append([*relative, cosines[i], c["name"], *kinds, side, np.log1p(lines), both])
    return best, np.array(rows, dtype=float).reshape(len(best), -1), first


def learned(tuning: list[Case], l2: float = 0.001, steps: int = 3000) -> Callable:
    """A linear re-ranking of the NAME_DEPTH best, trained on `tuning` (Adam on the pairwise
    logistic loss of each case's first answer against the other candidates)."""
    differences = []
    for case in tuning:
        best, features, _ = _learned_features(case)
        hit = [any(matches(case["candidates"][i], e) for e in case["expected"]) for i in best]
        if any(hit) and not all(hit):
            answer = features[hit.index(True)]
            differences.append(answer - features[~np.array(hit)])
    pairs = np.concatenate(differences)
    weights, m, v = np.zeros(pairs.shape[1]), np.zeros(pairs.shape[1]), np.zeros(pairs.shape[1])
    weights[:3] = (0.5, 0.5, 0.25)  # the shipped fusion's weights
    for t in range(1, steps + 1):
        wrong = 1 / (1 + np.exp(np.clip(pairs @ weights, -30, 30)))
        gradient = -(pairs * wrong[:, None]).mean(0) + l2 * weights
        m, v = 0.9 * m + 0.1 * gradient, 0.999 * v + 0.001 * gradient**2
        weights -= 0.05 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    print("  learned weights:", dict(zip(LEARNED_FEATURES, weights.round(2).tolist(), strict=True)))

    def score(case: Case) -> np.ndarray:
        best, features, first = _learned_features(case)
        leads = np.array([c["lead"] for c in case["candidates"]])
        scores = first.copy()
        scores[best] = 100.0 + features @ weights + leads[best]  # the re-ranked come first
        return scores

    return score


def figures(cases: list[Case], score: Callable[[Case], np.ndarray]) -> tuple[float, float]:
    """(MRR@10, Recall@1) of a scoring."""
    reciprocal, first = 0.0, 0
    for case in cases:
        order = np.argsort(-score(case), kind="stable")[:10]
        rank = next(
            (
                n
                for n, i in enumerate(order, 1)
                if any(matches(case["candidates"][i], e) for e in case["expected"])
            ),
            None,
        )
        reciprocal += 1 / rank if rank else 0.0
        first += rank == 1
    return reciprocal / (len(cases) or 1), first / (len(cases) or 1)


def live(cases: list[Case]) -> float:
    """MRR@10 of the live search's hits (the check that `shipped` reproduces it)."""
    total = 0.0
    for case in cases:
        by_id = {c["id"]: c for c in case["candidates"]}
        ranks = [
            n
            for n, i in enumerate(case["live"], 1)
            if i in by_id and any(matches(by_id[i], e) for e in case["expected"])
        ]
        total += 1 / ranks[0] if ranks else 0.0
    return total / (len(cases) or 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repos", nargs="*")
    parser.add_argument("--bench", type=Path, default=Path(os.environ.get("BENCH", "/work/bench")))
    parser.add_argument("--again", action="store_true", help="collect the candidates again")
    args = parser.parse_args(argv)
    variants: dict[str, Callable[[Case], np.ndarray]] = {
        "shipped": shipped,
        **{f"name cover {w:g}": name_cover(w) for w in (0.05, 0.1, 0.15)},
    }
    data: dict[str, dict[str, list[Case]]] = {}
    repos = load_repos(args.repos)
    for repo in repos:
        paths = Paths(args.bench, repo["name"])
        cache = paths.root / _cache_name()
        if args.again or not cache.exists():
            cache.write_bytes(pickle.dumps(collect(paths)))
        data[repo["name"]] = pickle.loads(cache.read_bytes())
    tuning = [c for r in repos if r["role"] == "tuning" for c in data[r["name"]]["docstring"]]
    if tuning:
        variants["learned"] = learned(tuning)
    for repo in repos:
        cases = data[repo["name"]]
        print(
            f"{repo['name']} ({repo['role']}): live docstring MRR@10 {live(cases['docstring']):.3f}"
        )
        for name, score in variants.items():
            doc, _ = figures(cases["docstring"], score)
            _, first = figures(cases["identifier"], score)
            print(f"  {name:24} docstring MRR@10 {doc:.3f}  identifier R@1 {first:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
