"""Offline experiments on the full-text text (codekith.template's search_text of a chunk).

For each repository of scripts/quality_repos.json whose index `eval_quality.py index` built,
every live chunk's full-text text is rebuilt under several variants into a scratch text table
(Store.write_text_mirror in a temporary folder: one FTS index, BM25 as the index has it).
Each variant is scored on the docstring -> definition cases (text mode alone, and hybrid:
the shipped `search.fuse` over the index's vector list, that text list and symbol matches)
and on the identifier cases (hybrid Recall@1 and MRR@10). Vectors are not touched: the
full-text text is never embedded. The index itself is not changed.

    python scripts/eval_fulltext.py --repos flask axios
    python scripts/eval_fulltext.py --repos requests click gin --variants v1 shipped
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from typing import Any

import numpy as np

from codekith.evaluation import evaluate, load_cases
from codekith.search import CANDIDATE_DEPTH, Hit, fuse, hit_from_row, names_a_symbol
from codekith.store import Store
from codekith.template import code_of, row_search_text, search_text
from eval_quality import Paths, add_bench_arguments, load_repos

Row = dict[str, Any]


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class Neighbours:
    """Names of each chunk's callers and callees, from the index's live edges."""

    def __init__(self, edges: list[Row], kinds: tuple[str, ...]):
        self.out: dict[str, list[str]] = {}
        self.into: dict[str, list[str]] = {}
        for edge in edges:
            if edge["kind"] not in kinds:
                continue
            src, dst = edge["src"], _as_class(edge["dst"])
            self.out.setdefault(src, []).append(dst)
            self.into.setdefault(dst, []).append(src)

    def callees(self, row: Row) -> list[str]:
        return sorted(set(self.out.get(row["qualname"], [])))

    def callers(self, row: Row) -> list[str]:
        return sorted(set(self.into.get(row["qualname"], [])))


def _as_class(qualname: str) -> str:
    head, _, last = qualname.rpartition(".")
    return head if last in ("__init__", "constructor") and head else qualname


def _short(qualname: str, parts: int = 1) -> str:
    return ".".join(qualname.split(".")[-parts:])


def variants(neighbours: Neighbours) -> dict[str, Callable[[Row], str]]:
    """v1: the rule before TEXT_VERSION 2 (path, qualname, docstring, code); shipped: the
    current rule (template.row_search_text); the others add to v1 or drop its path."""

    def plus(names: Callable[[Row], list[str]], parts: int = 1) -> Callable[[Row], str]:
        return lambda row: (
            _base(row, True) + " " + search_text(" ".join(_short(n, parts) for n in names(row)))
        )

    return {
        "v1": boosted(1, True),
        "shipped": row_search_text,
        "callees": plus(neighbours.callees),
        "callers": plus(neighbours.callers),
        "neighbours": plus(lambda r: neighbours.callees(r) + neighbours.callers(r)),
        "neighbours2": plus(lambda r: neighbours.callees(r) + neighbours.callers(r), 2),
        **{f"name{n}": boosted(n, True) for n in range(2, 7)},
        **{f"name{n}-no-path": boosted(n, False) for n in (1, 3, 4, 5)},
        "name4-class": boosted(4, True, owner=True),
    }


def _base(row: Row, path: bool) -> str:
    where = f"{row['path']} " if path else ""
    return search_text(f"{where}{row['qualname']} {row['docstring']} {code_of(row['document'])}")


def boosted(times: int, path: bool, owner: bool = False) -> Callable[[Row], str]:
    """v1's text (without the path unless `path`) plus the chunk's own name `times` times
    in all (the class's too, with `owner`)."""

    def text(row: Row) -> str:
        names = [row["symbol"]]
        if owner and row["kind"] == "method" and row["parent"]:
            names.append(row["parent"].rpartition(".")[2])
        return _base(row, path) + " " + search_text(" ".join(names * (times - 1)))

    return text


class Scorer:
    def __init__(self, project: Any, rows: list[Row]):
        self.project, self.rows = project, rows
        stored = project.read_store.vectors_of(r["id"] for r in rows)
        keep = [i for i, r in enumerate(rows) if r["id"] in stored]
        self.vector_rows_all = [rows[i] for i in keep]
        self.matrix = np.stack([stored[rows[i]["id"]] for i in keep])

    def vector_rows(self, query: str) -> list[Row]:
        similarity = self.matrix @ self.project.searcher.query_vector(query)
        best = np.argsort(-similarity)[:CANDIDATE_DEPTH].tolist()
        return [{**self.vector_rows_all[i], "_distance": 1.0 - float(similarity[i])} for i in best]

    def score(self, text_store: Store, paths: Any) -> dict[str, Any]:
        searcher = self.project.searcher

        def text_rows(query: str) -> list[Row]:
            return text_store.mirror_text_search(search_text(query), CANDIDATE_DEPTH)

        def text(case: Any) -> list[Hit]:
            return [hit_from_row(r, r["_score"]) for r in text_rows(case.query)[:10]]

        def hybrid(case: Any) -> list[Hit]:
            query = case.query
            symbols = searcher.symbol_matches(query) if names_a_symbol(query) else []
            scores, by_id = fuse(symbols, self.vector_rows(query), text_rows(query))
            best = sorted(scores, key=lambda i: (-scores[i], i))[:10]
            return [hit_from_row(by_id[i], scores[i]) for i in best]

        docstring = load_cases(paths.case_file("docstring"))
        identifier = load_cases(paths.case_file("identifier"))
        return {
            "text": evaluate(docstring, text)["summary"],
            "hybrid": evaluate(docstring, hybrid)["summary"],
            "identifier": evaluate(identifier, hybrid)["summary"],
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_bench_arguments(parser)
    parser.add_argument("--variants", nargs="*", help="variant names (all)")
    parser.add_argument("--edge-kinds", default="call", help="comma-separated edge kinds")
    args = parser.parse_args(argv)
    from codekith.embedding import FastEmbedder
    from codekith.project import Project

    embedder = FastEmbedder()
    for repo in load_repos(args.repos):
        paths = Paths(args.bench, repo["name"])
        project = Project(paths.workspace, db=str(paths.stripped_db), embedder=embedder)
        store = project.read_store
        rows = store.text_rows()
        neighbours = Neighbours(store.live_edges(), tuple(args.edge_kinds.split(",")))
        scorer = Scorer(project, rows)
        chosen = variants(neighbours)
        log(f"{repo['name']}: {len(rows)} chunks")
        for name in args.variants or list(chosen):
            with tempfile.TemporaryDirectory() as scratch:
                text_store = Store(scratch)
                text_store.write_text_mirror(
                    [{**r, "search_text": chosen[name](r)} for r in rows], None, {}
                )
                result = scorer.score(text_store, paths)
            t, h, i = result["text"], result["hybrid"], result["identifier"]
            print(
                f"{repo['name']:9} {repo['role']:8} {name:12} text MRR@10 {t['mrr@10']:.3f} | "
                f"hybrid MRR@10 {h['mrr@10']:.3f} R@10 {h['recall@10']:.3f} | "
                f"identifier R@1 {i['recall@1']:.3f} MRR@10 {i['mrr@10']:.3f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
