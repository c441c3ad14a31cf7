"""Offline experiments on "related code" bundles against the co-change cases.

Each repository's index (chunk rows, vectors, call/inheritance edges) is loaded once; for
each co-change case the target chunk is the seed and a candidate ranking is cut to the
default token budget the way `related` cuts its bundle (seed first, greedy by order).
Compared at the same number of items:

* similarity: the chunks most similar to the target (what a plain vector store gives);
* graph rankings: personalized PageRank from the seed over a weighted graph of call and
  inheritance edges, class membership (a method and its class's other members) and file
  membership (definitions of one file), mixed with similarity.

Weights are chosen on the TUNING repositories (best mean ratio to similarity-only) and then
reported on every repository, held-out ones included.

    python scripts/eval_related.py                  # the grid on tuning, the pick on all
    python scripts/eval_related.py --repos flask --top 20
    python scripts/eval_related.py --live           # the real bundles, shipped settings
    python scripts/eval_related.py --live 0.3:0.2 0.5:0.35:0:1   # MIX:FLOOR[:SIBLING[:REACH]]
    python scripts/eval_related.py --ceiling        # the best any bundle of 8 could do

The ceiling bounds what ranking can win: a bundle of as many items as `related` keeps, drawn
from what the design relates a target to (its 30 most similar chunks, its call and
inheritance neighbours, its class's members, and, wider, every definition of its file),
holds at best min(found, items) of a case's expected chunks, whatever the order. Where that
is below 1.3x the similarity baseline, no weighting of these signals meets the issue's
target on that case set.

The offline grid fills the whole budget (about 30 items, where similarity alone is hard to
beat); the shipped bundle keeps the best 8 (`related.EXPANDED_ITEMS`, mix 0.3, chosen on
flask+axios at a fixed count), which `--live` measures through `Related.bundle`.
"""

from __future__ import annotations

import argparse
import itertools
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np

from codekith.evaluation import Case, load_cases
from codekith.qualnames import constructed
from codekith.related import NOT_RELATING
from codekith.template import code_of
from eval_quality import Paths, add_bench_arguments, load_repos

BUDGET = 6000
CHARS_PER_TOKEN = 4


@dataclass
class Graph:
    rows: list[dict[str, Any]]
    vectors: np.ndarray
    index_of: dict[str, list[int]]  # qualname -> row indices
    calls: np.ndarray  # symmetric 0/1: a call or inheritance edge either way
    members: np.ndarray  # symmetric 0/1: same class (methods and their class chunk)
    same_file: np.ndarray  # symmetric 0/1: definitions in one file
    tokens: np.ndarray


def load_graph(paths: Paths) -> Graph:
    project = paths.project()
    store = project.read_store
    rows = [r for r in store.rows("true") if r["kind"] != "section"]
    by_id = store.vectors_of(r["id"] for r in rows)
    vectors = np.stack([by_id[r["id"]] for r in rows])
    index_of: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        index_of[row["qualname"]].append(i)
    size = len(rows)
    calls = np.zeros((size, size), dtype=np.float32)
    for edge in store.edges_from(index_of, skip_kinds=NOT_RELATING, into_scopes=True):
        # as `related` reads them
        targets = index_of.get(edge["dst"], []) or index_of.get(constructed(edge["dst"]), [])
        for a in index_of.get(edge["src"], []):
            for b in targets:
                if a != b:
                    calls[a, b] = calls[b, a] = 1.0
    members = np.zeros_like(calls)
    same_file = np.zeros_like(calls)
    by_class: dict[str, list[int]] = defaultdict(list)
    by_path: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        if row["kind"] == "method":
            by_class[row["qualname"].rsplit(".", 1)[0]].append(i)
        if row["kind"] != "module":
            by_path[row["path"]].append(i)
    for cls, methods in by_class.items():
        group = methods + index_of.get(cls, [])
        for a, b in itertools.permutations(group, 2):
            members[a, b] = 1.0
    for group in by_path.values():
        for a, b in itertools.permutations(group, 2):
            same_file[a, b] = 1.0
    tokens = np.array([len(code_of(r["document"])) // CHARS_PER_TOKEN + 1 for r in rows])
    return Graph(rows, vectors, dict(index_of), calls, members, same_file, tokens)


@dataclass(frozen=True)
class Ranker:
    """score = (1 - mix) * similarity + mix * sqrt(ppr / max ppr); PPR over the weighted
    graph wc * calls + wm * members + wf * same_file."""

    mix: float
    wc: float = 1.0
    wm: float = 0.0
    wf: float = 0.0
    damping: float = 0.5
    steps: int = 8

    def __str__(self) -> str:
        return (
            f"mix={self.mix:g} calls={self.wc:g} members={self.wm:g} file={self.wf:g} "
            f"damping={self.damping:g}"
        )

    def scores(self, graph: Graph, seed: int, similarity: np.ndarray) -> np.ndarray:
        if self.mix <= 0:
            return similarity
        ppr = personalized_pagerank(self.transition(graph), seed, self.damping, self.steps)
        ppr[seed] = 0.0
        top = ppr.max() or 1.0
        return (1 - self.mix) * similarity + self.mix * np.sqrt(ppr / top)

    def transition(self, graph: Graph) -> tuple[np.ndarray, np.ndarray]:
        key = (id(graph), self.wc, self.wm, self.wf)
        if key not in _TRANSITIONS:
            weights = self.wc * graph.calls + self.wm * graph.members + self.wf * graph.same_file
            totals = weights.sum(axis=1)
            _TRANSITIONS[key] = (
                np.divide(
                    weights, totals[:, None], where=totals[:, None] > 0, out=np.zeros_like(weights)
                ),
                totals == 0,
            )
        return _TRANSITIONS[key]


_TRANSITIONS: dict[tuple[Any, ...], tuple[np.ndarray, np.ndarray]] = {}


def personalized_pagerank(
    transition: tuple[np.ndarray, np.ndarray], seed: int, damping: float, steps: int
) -> np.ndarray:
    """Random walk with restart at the seed; a node without links sends its mass home."""
    matrix, dangling = transition
    restart = np.zeros(len(matrix), dtype=matrix.dtype)
    restart[seed] = 1.0
    rank = restart.copy()
    for _ in range(steps):
        spread = rank @ matrix
        spread[seed] += rank[dangling].sum()
        rank = (1 - damping) * restart + damping * spread
    return rank


def fit(order: np.ndarray, graph: Graph, seed: int) -> list[int]:
    used = int(graph.tokens[seed])
    kept = []
    for i in order.tolist():
        if i == seed:
            continue
        if used + graph.tokens[i] <= BUDGET:
            kept.append(i)
            used += int(graph.tokens[i])
    return kept


def recall(graph: Graph, kept: list[int], expected: list[str]) -> float:
    names = {graph.rows[i]["qualname"] for i in kept}
    return sum(1 for e in expected if e in names) / len(expected)


def seed_of(graph: Graph, case: Case) -> int | None:
    found = [
        i for i in graph.index_of.get(case.fields["target"], []) if graph.rows[i]["kind"] != "class"
    ]
    return found[0] if found else None


def nearest(graph: Graph, seed: int, similarity: np.ndarray | None = None) -> list[int]:
    """Every chunk but the seed, most similar to it first (ties in row order)."""
    if similarity is None:
        similarity = graph.vectors @ graph.vectors[seed]
    return [i for i in np.argsort(-similarity, kind="stable").tolist() if i != seed]


def evaluate(
    graph: Graph, cases: list[Case], ranker: Ranker, items: int | None = None
) -> dict[str, float]:
    """Recall of the ranker's bundle (cut to the budget, or to `items` items) and of as many
    items by similarity alone."""
    related, similar, sizes = [], [], []
    for case in cases:
        seed = seed_of(graph, case)
        if seed is None:
            continue
        similarity = graph.vectors @ graph.vectors[seed]
        order = np.argsort(-ranker.scores(graph, seed, similarity), kind="stable")
        kept = (
            fit(order, graph, seed)
            if items is None
            else [i for i in order.tolist() if i != seed][:items]
        )
        by_similarity = nearest(graph, seed, similarity)[: len(kept)]
        related.append(recall(graph, kept, case.expected))
        similar.append(recall(graph, by_similarity, case.expected))
        sizes.append(len(kept))
    count = len(related) or 1
    result = {
        "cases": len(related),
        "recall": sum(related) / count,
        "similarity": sum(similar) / count,
        "items": sum(sizes) / count,
    }
    result["ratio"] = result["recall"] / result["similarity"] if result["similarity"] else 0.0
    return result


def ceiling(graph: Graph, cases: list[Case], items: int, similar: int) -> dict[str, float]:
    """Mean recall of the best bundle of `items` chunks drawn from each case's candidates:
    `similarity` (the baseline's own top `items`), `graph` (the `similar` most similar, call
    and inheritance neighbours, class members) and `file` (those and the definitions of the
    target's file)."""
    found: dict[str, list[float]] = {"similarity": [], "graph": [], "file": []}
    for case in cases:
        seed = seed_of(graph, case)
        if seed is None:
            continue
        order = nearest(graph, seed)
        linked = (graph.calls[seed] + graph.members[seed]) > 0
        pools = {
            "similarity": set(order[:items]),
            "graph": set(order[:similar]) | set(np.flatnonzero(linked).tolist()),
        }
        pools["file"] = pools["graph"] | set(np.flatnonzero(graph.same_file[seed]).tolist())
        for name, pool in pools.items():
            held = sum(1 for e in case.expected if pool.intersection(graph.index_of.get(e, [])))
            found[name].append(min(held, items) / len(case.expected))
    return {name: float(np.mean(values)) if values else 0.0 for name, values in found.items()}


def ceilings(repos: list[dict[str, Any]], bench: Path) -> int:
    """Each repository's ceilings beside the real bundles' recall (`eval_quality.py
    table`'s co-change figure) and the share of the graph ceiling that 1.3x would need."""
    import codekith.related as related
    from quality_table import cochange

    items, similar = related.EXPANDED_ITEMS, related.SIMILAR_CANDIDATES
    print(
        f"co-change recall of the best bundle of {items} items drawn from: the target's "
        f"{items} most similar (similarity-only, the baseline); its {similar} most similar, "
        "call / inheritance neighbours and class members (graph); those and its file's "
        "definitions (file). related: the real bundles, and their share of the graph ceiling."
    )
    for repo in repos:
        paths = Paths(bench, repo["name"])
        cases = load_cases(paths.case_file("cochange"))
        r = ceiling(load_graph(paths), cases, items, similar)
        bundles = cochange(paths.project(), paths)["related"]
        base, graph = r["similarity"] or 1.0, r["graph"] or 1.0
        print(
            f"  {repo['name']:12} {repo['role']:8} similarity {r['similarity']:.3f}  "
            f"graph {r['graph']:.3f} ({r['graph'] / base:.2f}x)  "
            f"file {r['file']:.3f} ({r['file'] / base:.2f}x)  related {bundles:.3f} "
            f"({bundles / base:.2f}x, {bundles / graph:.2f} of graph; 1.3x needs "
            f"{1.3 * base / graph:.2f})",
            flush=True,
        )
    return 0


def grid() -> list[Ranker]:
    found = [Ranker(0.0)]
    for mix, wm, wf, damping in itertools.product(
        (0.3, 0.5, 0.7, 0.85), (0.0, 0.5, 1.0), (0.0, 0.25, 0.5, 1.0), (0.5, 0.7)
    ):
        found.append(Ranker(mix, 1.0, wm, wf, damping))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_bench_arguments(parser)
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument(
        "--live",
        nargs="*",
        metavar="MIX:FLOOR[:SIBLING[:REACH]]",
        help="run the real `related` bundles with these GRAPH_MIX:CODE_TARGET_SIMILARITY"
        "[:SIBLING_LINK[:SIBLING_REACH]] settings instead of the offline grid",
    )
    parser.add_argument(
        "--template",
        help="--live with the vectors of this scripts/eval_template.py variant (its cache)",
    )
    parser.add_argument(
        "--ceiling",
        action="store_true",
        help="the most of each case any bundle of `related`'s item count could hold",
    )
    args = parser.parse_args(argv)
    repos = load_repos(args.repos)
    if args.live is not None:
        return live(repos, args.bench, args.live, args.template)
    if args.ceiling:
        return ceilings(repos, args.bench)
    graphs = {}
    cases = {}
    for repo in repos:
        paths = Paths(args.bench, repo["name"])
        graphs[repo["name"]] = load_graph(paths)
        cases[repo["name"]] = load_cases(paths.case_file("cochange"))
    tuning = [r["name"] for r in repos if r["role"] == "tuning"] or [r["name"] for r in repos]
    scored = []
    for ranker in grid():
        results = {name: evaluate(graphs[name], cases[name], ranker) for name in tuning}
        mean = sum(r["ratio"] for r in results.values()) / len(results)
        scored.append((mean, ranker, results))
    scored.sort(key=lambda s: -s[0])
    print("grid on tuning repositories (mean ratio to similarity-only at equal items):")
    for mean, ranker, results in scored[: args.top]:
        cells = "  ".join(
            f"{n} {r['recall']:.3f}/{r['similarity']:.3f} ({r['items']:.1f})"
            for n, r in results.items()
        )
        print(f"  {mean:5.2f}x {ranker}  {cells}")
    best = scored[0][1]
    print(f"\nchosen on tuning: {best}")
    for repo in repos:
        name = repo["name"]
        for label, ranker in (("similarity", Ranker(0.0)), ("chosen", best)):
            r = evaluate(graphs[name], cases[name], ranker)
            print(
                f"  {name:9} {repo['role']:8} {label:10} recall {r['recall']:.3f} vs "
                f"similarity-only {r['similarity']:.3f} ({r['ratio']:.2f}x, {r['items']:.1f} "
                f"items, {r['cases']} cases)"
            )
    return 0


def live(
    repos: list[dict[str, Any]], bench: Path, settings: list[str], template: str | None = None
) -> int:
    """Co-change recall of the real bundles (as `eval_quality.py table` measures it) for
    each MIX:FLOOR setting; the shipped constants when none is given. With `template`, the
    vectors are those of that eval_template.py variant (from its cache), not the index's."""
    import codekith.related as related
    from quality_table import cochange

    defaults = [
        related.GRAPH_MIX,
        related.CODE_TARGET_SIMILARITY,
        related.SIBLING_LINK,
        related.SIBLING_REACH,
    ]
    shipped = ":".join(f"{value:g}" for value in defaults)
    for repo in repos:
        paths = Paths(bench, repo["name"])
        project: Any = paths.project()
        if template:
            project = _with_template(project, paths, template)
        for setting in settings or [shipped]:
            given = [float(x) for x in setting.split(":")]
            mix, floor, sibling, reach = given + defaults[len(given) :]
            related.GRAPH_MIX, related.CODE_TARGET_SIMILARITY = mix, floor
            related.SIBLING_LINK, related.SIBLING_REACH = sibling, int(reach)
            r = cochange(project, paths)
            ratio = r["related"] / r["similarity"] if r["similarity"] else 0.0
            print(
                f"{repo['name']:9} {repo['role']:8} mix={mix:g} floor={floor:g} "
                f"sibling={sibling:g} reach={reach:g}: related "
                f"{r['related']:.3f} vs similarity-only {r['similarity']:.3f} ({ratio:.2f}x, "
                f"{r['items']} items, {r['cases']} cases)",
                flush=True,
            )
    return 0


class _TemplateVectors:
    """The index's store with each chunk's vector replaced by another template's: what
    `related` and the similarity baseline read (vectors_of, vector_search, chunk vectors)."""

    def __init__(self, store: Any, vectors: dict[str, np.ndarray]):
        self.store, self.vectors = store, vectors
        self.rows = store.rows("true")
        self.ids = [r["id"] for r in self.rows]
        self.matrix = np.stack([vectors[i] for i in self.ids])

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def vectors_of(self, ids: Any) -> dict[str, np.ndarray]:
        return {i: self.vectors[i] for i in ids if i in self.vectors}

    def vector_search(self, vector: np.ndarray, k: int, *filters: Any) -> list[dict[str, Any]]:
        similarity = self.matrix @ vector
        best = np.argsort(-similarity, kind="stable")[:k].tolist()
        return [{**self.rows[i], "_distance": 1.0 - float(similarity[i])} for i in best]

    def chunks_by_qualname(self, qualnames: Any, limit: Any = None, with_vectors: bool = False):
        rows = self.store.chunks_by_qualname(qualnames, limit)
        return [{**r, "vector": self.vectors[r["id"]]} for r in rows] if with_vectors else rows


def _with_template(project: Any, paths: Paths, template: str) -> Any:
    from types import SimpleNamespace

    from codekith.related import Related
    from codekith.store import Store
    from eval_template import VARIANTS, Embeddings, _key, chunk_of, class_doc_lines

    store = project.read_store
    cache = Embeddings(paths.root / "template-cache.npz", project.embedder().embed_documents)
    rows = store.rows("true")
    class_docs = class_doc_lines(paths)
    documents = [VARIANTS[template](chunk_of(r), class_docs) for r in rows]
    cache.matrix(documents)  # embeds what the cache lacks
    vectors = {r["id"]: cache.cached[_key(d)] for r, d in zip(rows, documents, strict=True)}
    proxy = _TemplateVectors(store, vectors)
    related = Related(cast(Store, proxy), project.searcher)  # duck-typed: reads only
    return SimpleNamespace(read_store=proxy, related=related)


if __name__ == "__main__":
    raise SystemExit(main())
