"""Offline experiments on "related code" bundles against the co-change cases.

For each repository the whole index (chunk rows, vectors, call/inheritance edges) is loaded
once; each co-change case's target is a seed, and candidate rankings are cut to the default
token budget exactly as `related` cuts its bundle. Compared, at the same budget:

* similarity: the chunks most similar to the target (what a plain vector store gives);
* graph: personalized PageRank from the target over the call/inheritance graph, plus
  sibling links (same class, same file), mixed with similarity;
* the live `related` bundle (what codekith ships now).

The mix is chosen on the tuning repositories and reported on all.

    python scripts/eval_related.py
"""

from __future__ import annotations

import argparse
import os
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from codekith.evaluation import load_cases
from codekith.template import code_of
from eval_quality import Paths, load_repos

BUDGET = 6000
CHARS_PER_TOKEN = 4


@dataclass
class Graph:
    rows: list[dict[str, Any]]
    vectors: np.ndarray
    index_of: dict[str, list[int]]  # qualname -> row indices
    neighbours: list[dict[int, float]]  # row -> {row: edge weight}
    tokens: np.ndarray


def load_graph(paths: Paths, sibling_weight: float, file_weight: float) -> Graph:
    from codekith.embedding import FastEmbedder
    from codekith.project import Project

    project = Project(paths.workspace, db=str(paths.stripped_db), embedder=FastEmbedder())
    store = project.read_store
    rows = [r for r in store.rows("true") if r["kind"] != "section"]
    vectors_by_id = store.vectors_of(r["id"] for r in rows)
    vectors = np.stack([vectors_by_id[r["id"]] for r in rows])
    index_of: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        index_of[row["qualname"]].append(i)
    neighbours: list[dict[int, float]] = [defaultdict(float) for _ in rows]

    def link(a: int, b: int, weight: float) -> None:
        if a != b:
            neighbours[a][b] += weight
            neighbours[b][a] += weight

    for edge in (e for e in store.live_edges() if e["kind"] != "import"):
        dst = edge["dst"].removesuffix(".__init__")
        for a in index_of.get(edge["src"], []):
            for b in index_of.get(dst, []) + index_of.get(edge["dst"], []):
                link(a, b, 1.0)
    by_parent: dict[str, list[int]] = defaultdict(list)
    by_path: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        if row["kind"] == "method":
            by_parent[row["qualname"].rsplit(".", 1)[0]].append(i)
        if row["kind"] in ("function", "method"):
            by_path[row["path"]].append(i)
    for group, weight in ((by_parent, sibling_weight), (by_path, file_weight)):
        if weight <= 0:
            continue
        for members in group.values():
            share = weight / max(1, len(members) - 1)
            for a in members:
                for b in members:
                    if a < b:
                        link(a, b, share)
    tokens = np.array([len(code_of(r["document"])) // CHARS_PER_TOKEN + 1 for r in rows])
    return Graph(rows, vectors, dict(index_of), neighbours, tokens)


def personalized_pagerank(graph: Graph, seed: int, damping: float, steps: int = 12) -> np.ndarray:
    size = len(graph.rows)
    rank = np.zeros(size)
    rank[seed] = 1.0
    restart = rank.copy()
    for _ in range(steps):
        spread = np.zeros(size)
        for node in np.nonzero(rank > 1e-9)[0]:
            links = graph.neighbours[node]
            total = sum(links.values())
            if not total:
                spread[seed] += rank[node]
                continue
            for other, weight in links.items():
                spread[other] += rank[node] * weight / total
        rank = (1 - damping) * restart + damping * spread
    return rank


def fit(order: list[int], graph: Graph, seed: int) -> list[int]:
    used = int(graph.tokens[seed])
    kept = []
    for i in order:
        if i == seed:
            continue
        if used + graph.tokens[i] <= BUDGET:
            kept.append(i)
            used += int(graph.tokens[i])
    return kept


def recall(graph: Graph, kept: list[int], expected: list[str]) -> float:
    names = {graph.rows[i]["qualname"] for i in kept}
    return sum(1 for e in expected if e in names) / len(expected)


def evaluate(graph: Graph, cases: list[Any], mix: float, damping: float) -> dict[str, float]:
    related, similar, sizes = [], [], []
    for case in cases:
        seeds = graph.index_of.get(case.options["target"], [])
        seeds = [s for s in seeds if graph.rows[s]["kind"] != "class"]
        if not seeds:
            continue
        seed = seeds[0]
        similarity = graph.vectors @ graph.vectors[seed]
        if mix > 0:
            ppr = personalized_pagerank(graph, seed, damping)
            ppr[seed] = 0
            top = ppr.max() or 1.0
            score = (1 - mix) * similarity + mix * np.sqrt(ppr / top)
        else:
            score = similarity
        kept = fit(list(np.argsort(-score)), graph, seed)
        related.append(recall(graph, kept, case.expected))
        by_similarity = [i for i in np.argsort(-similarity) if i != seed][: len(kept)]
        similar.append(recall(graph, by_similarity, case.expected))
        sizes.append(len(kept))
    count = len(related) or 1
    return {
        "cases": len(related),
        "recall": sum(related) / count,
        "similarity": sum(similar) / count,
        "items": sum(sizes) / count,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, default=Path(os.environ.get("BENCH", "/work/bench")))
    parser.add_argument("--repos", nargs="*")
    args = parser.parse_args(argv)
    for repo in load_repos(args.repos):
        paths = Paths(args.bench, repo["name"])
        cases = load_cases(paths.case_file("cochange"))
        for sibling, same_file in ((0.0, 0.0), (0.5, 0.25)):
            graph = load_graph(paths, sibling, same_file)
            for mix in (0.0, 0.3, 0.6):
                for damping in (0.5,):
                    result = evaluate(graph, cases, mix, damping)
                    print(
                        f"{repo['name']:9} {repo['role']:8} sibling={sibling} file={same_file} "
                        f"mix={mix} damping={damping}: recall {result['recall']:.3f} "
                        f"(similarity {result['similarity']:.3f}, {result['items']:.1f} items, "
                        f"{result['cases']} cases)",
                        flush=True,
                    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
