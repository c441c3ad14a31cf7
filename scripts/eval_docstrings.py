"""Docstring retrieval eval: does a definition's docstring find its (docstring-less) code?

The Python files of a real repository are copied to a temp workspace with every function,
method and class docstring removed (module docstrings stay). The first sentence of each
removed docstring (4 words or more) becomes a query whose expected answer is the
definition's qualname. The stripped copy is indexed with the real default model and the
cases are run with `codekith.evaluation.evaluate` in hybrid, vector and text modes.

`--experiments` also fetches deep vector and full-text rankings once per case and fuses
them offline in other ways (RRF constant, candidate depth, per-list weights, with and
without the symbol-match list), to show what would change hybrid's MRR@10.

    python scripts/eval_docstrings.py --repo /tmp/bench-flask --experiments
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import re
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from codekith.embedding import FastEmbedder
from codekith.evaluation import Case, evaluate, load_cases
from codekith.project import Project
from codekith.qualnames import Layout, ModuleNames, join
from codekith.search import MODES, Filters, Hit, Searcher, hit_from_row
from codekith.template import search_text
from codekith.workspace import VENDORED_DIRS

DefNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
MIN_WORDS = 4


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- stripping docstrings ----------------------------------------------------------------


def _docstring_node(node: DefNode) -> ast.Expr | None:
    first = node.body[0] if node.body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return first
    return None


def first_sentence(docstring: str) -> str:
    paragraph = re.split(r"\n\s*\n", docstring.strip(), maxsplit=1)[0]
    text = " ".join(paragraph.split())
    match = re.match(r"(.+?[.!?])(?:\s|$)", text)
    return (match.group(1) if match else text).strip()


def strip_docstrings(source: str) -> str:
    """The source without function/class docstrings; `pass` where a body would be empty."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    edits: list[tuple[ast.Expr, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, DefNode):
            doc = _docstring_node(node)
            if doc is not None:
                edits.append((doc, len(node.body) == 1))
    # Bottom-up so that earlier line numbers stay valid.
    for doc, only in sorted(edits, key=lambda e: e[0].lineno, reverse=True):
        start, end = doc.lineno - 1, (doc.end_lineno or doc.lineno) - 1
        before = lines[start][: doc.col_offset]
        after = lines[end][doc.end_col_offset or 0 :]
        if before.strip() == "" and after.strip() == "":
            replacement = [f"{before}pass\n"] if only else []
            lines[start : end + 1] = replacement
        else:  # shares a line with other code, e.g. `def f(): """doc"""`
            lines[start : end + 1] = [f"{lines[start][: doc.col_offset]}pass{after}"]
    return "".join(lines)


def chunk_definitions(tree: ast.Module, module: str) -> list[tuple[str, DefNode]]:
    """Definitions that the chunker makes chunks of: top-level ones and class members
    (recursively); definitions nested in a function stay inside it."""
    found: list[tuple[str, DefNode]] = []

    def visit(body: list[ast.stmt], scope: str) -> None:
        for node in body:
            if isinstance(node, DefNode):
                qualname = join(scope, node.name)
                found.append((qualname, node))
                if isinstance(node, ast.ClassDef):
                    visit(node.body, qualname)

    visit(tree.body, module)
    return found


def python_files(repo: Path) -> list[Path]:
    files = []
    for path in sorted(repo.rglob("*.py")):
        rel = path.relative_to(repo)
        if any(part in VENDORED_DIRS or part.startswith(".") for part in rel.parts[:-1]):
            continue
        if path.is_file() and not path.is_symlink():
            files.append(path)
    return files


def copied_names(repo: Path, paths: list[str]) -> ModuleNames:
    """The module names the index of a copy of `paths` gives (qualnames.ModuleNames)."""
    return ModuleNames(Layout.on_disk(repo).packages_only(paths))


def build_workspace(repo: Path, workspace: Path) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Copy stripped Python files; return {first sentence: [qualnames]} and counts."""
    by_query: dict[str, list[str]] = defaultdict(list)
    stats = {"files": 0, "unparsable": 0, "docstrings": 0, "short": 0}
    files = python_files(repo)
    names = copied_names(repo, [p.relative_to(repo).as_posix() for p in files])
    for path in files:
        rel = path.relative_to(repo).as_posix()
        try:
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            stats["unparsable"] += 1
            continue
        stripped = strip_docstrings(source)
        ast.parse(stripped)  # must stay valid Python
        target = workspace / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(stripped, encoding="utf-8")
        stats["files"] += 1
        for qualname, node in chunk_definitions(tree, names(rel)):
            docstring = ast.get_docstring(node)
            if not docstring:
                continue
            stats["docstrings"] += 1
            sentence = first_sentence(docstring)
            if len(sentence.split()) < MIN_WORDS:
                stats["short"] += 1
                continue
            by_query[sentence].append(qualname)
    return by_query, stats


def sample_cases(by_query: dict[str, list[str]], cap: int, seed: int) -> list[Case]:
    queries = sorted(by_query)
    if len(queries) > cap:
        queries = sorted(random.Random(seed).sample(queries, cap))
    return [Case(q, sorted(set(by_query[q]))) for q in queries]


def write_cases(cases: list[Case], path: Path) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for case in cases:
            handle.write(json.dumps({"query": case.query, "expected": case.expected}) + "\n")


# -- fusion experiments ------------------------------------------------------------------

Rows = list[dict[str, Any]]


def fuse_weighted(
    rankings: list[tuple[Rows, float]], k: int, rrf_k: float, depth: int
) -> list[Hit]:
    scores: dict[str, float] = {}
    rows: dict[str, dict[str, Any]] = {}
    for ranking, weight in rankings:
        for rank, row in enumerate(ranking[:depth]):
            scores[row["id"]] = scores.get(row["id"], 0.0) + weight / (rrf_k + rank + 1)
            rows.setdefault(row["id"], row)
    best = sorted(scores, key=lambda i: scores[i], reverse=True)[:k]
    return [hit_from_row(rows[i], scores[i]) for i in best]


def search_in_mode(searcher: Searcher, k: int, mode: str, case: Case) -> list[Hit]:
    return searcher.search(case.query, k, None, mode)


Variant = Callable[[Rows, Rows, Rows], list[Hit]]  # (vector, text, symbols) -> hits


def weighted_rrf(vector: float, text: float, rrf_k: int, depth: int) -> Variant:
    """RRF of the symbol matches and the two lists, these weighted."""
    return lambda v, t, s: fuse_weighted([(s, 1), (v, vector), (t, text)], 10, rrf_k, depth)


def score_fusion(alpha: float) -> Variant:
    return lambda v, t, s: fuse_scores(v, t, 10, alpha, 30)


def fuse_scores(vector: Rows, text: Rows, k: int, alpha: float, depth: int) -> list[Hit]:
    """Convex combination of cosine similarity and max-normalised BM25."""
    vector, text = vector[:depth], text[:depth]
    top_bm25 = max((r["_score"] for r in text), default=1.0) or 1.0
    scores: dict[str, float] = defaultdict(float)
    rows: dict[str, dict[str, Any]] = {}
    for row in vector:
        scores[row["id"]] += alpha * (1.0 - row["_distance"])
        rows.setdefault(row["id"], row)
    for row in text:
        scores[row["id"]] += (1 - alpha) * row["_score"] / top_bm25
        rows.setdefault(row["id"], row)
    best = sorted(scores, key=lambda i: scores[i], reverse=True)[:k]
    return [hit_from_row(rows[i], scores[i]) for i in best]


def experiments(searcher: Searcher, cases: list[Case], deep: int = 100) -> dict[str, Any]:
    store = searcher.store
    everything = Filters()
    lists: dict[str, tuple[Rows, Rows, Rows]] = {}
    for case in cases:
        vector = store.vector_search(searcher.embedder().embed_query(case.query), deep, everything)
        text = store.text_search(search_text(case.query), deep, everything)
        symbols = searcher.symbol_matches(case.query, everything)
        lists[case.query] = (vector, text, symbols)

    def run(make: Callable[[Rows, Rows, Rows], list[Hit]]) -> dict[str, Any]:
        return evaluate(cases, lambda c: make(*lists[c.query]))["summary"]

    variants: dict[str, Callable[[Rows, Rows, Rows], list[Hit]]] = {
        "baseline rrf k=60 depth=30 +symbols": lambda v, t, s: fuse_weighted(
            [(s, 1), (v, 1), (t, 1)], 10, 60, 30
        ),
        "rrf k=60 depth=30 no symbols": lambda v, t, s: fuse_weighted([(v, 1), (t, 1)], 10, 60, 30),
        "vector only (depth 100)": lambda v, t, s: fuse_weighted([(v, 1)], 10, 60, 100),
        "text only (depth 100)": lambda v, t, s: fuse_weighted([(t, 1)], 10, 60, 100),
    }
    for depth in (10, 20, 50, 100):
        variants[f"rrf k=60 depth={depth} +symbols"] = weighted_rrf(1, 1, 60, depth)
    for rrf_k in (1, 5, 10, 20, 30):
        variants[f"rrf k={rrf_k} depth=30 +symbols"] = weighted_rrf(1, 1, rrf_k, 30)
    for wv, wt in ((1, 0.5), (1, 0.7), (0.7, 1), (0.5, 1), (0.3, 1)):
        variants[f"weighted rrf v={wv} t={wt} k=60 depth=30"] = weighted_rrf(wv, wt, 60, 30)
    for wv, wt in ((1, 0.5), (0.7, 1), (0.5, 1)):
        variants[f"weighted rrf v={wv} t={wt} k=10 depth=30"] = weighted_rrf(wv, wt, 10, 30)
    variants["symbols weight 0.5, rrf k=60 depth=30"] = lambda v, t, s: fuse_weighted(
        [(s, 0.5), (v, 1), (t, 1)], 10, 60, 30
    )
    variants["weighted rrf v=1 t=0.5 k=60 depth=30 no symbols"] = lambda v, t, s: fuse_weighted(
        [(v, 1), (t, 0.5)], 10, 60, 30
    )
    for alpha in (0.3, 0.5, 0.6, 0.7, 0.8):
        variants[f"score fusion alpha={alpha} (cosine vs bm25/max) depth=30"] = score_fusion(alpha)
    results = {name: run(make) for name, make in variants.items()}
    # How often each list alone has the answer, and how deep.
    coverage: dict[str, list[int | None]] = {"vector": [], "text": []}
    for case in cases:
        vector, text, _ = lists[case.query]
        for name, ranking in (("vector", vector), ("text", text)):
            hits = [hit_from_row(r, 0.0) for r in ranking]
            rank = next(
                (
                    i
                    for i, h in enumerate(hits, 1)
                    if any(h.qualname == e or h.qualname.endswith("." + e) for e in case.expected)
                ),
                None,
            )
            coverage[name].append(rank)
    found: dict[str, Any] = {
        name: {
            f"in_top{d}": round(sum(1 for r in ranks if r and r <= d) / len(ranks), 4)
            for d in (10, 30, 100)
        }
        for name, ranks in coverage.items()
    }
    both = sum(
        1
        for a, b in zip(coverage["vector"], coverage["text"], strict=True)
        if a and b and a <= 30 and b <= 30
    )
    found["both_in_top30"] = round(both / len(cases), 4)
    symbol_cases = sum(1 for c in cases if lists[c.query][2])
    found["cases_with_symbol_matches"] = symbol_cases
    return {"variants": results, "coverage": found}


# -- main --------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, required=True, help="a real Python repository")
    parser.add_argument("--cap", type=int, default=200, help="at most this many cases")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("-k", type=int, default=10)
    parser.add_argument("--cases", type=Path, help="where to write the cases .jsonl")
    parser.add_argument("--workdir", type=Path, help="keep the workspace and index here")
    parser.add_argument("--experiments", action="store_true", help="try other fusions")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="codekith-eval-"))
    workspace = workdir / "workspace"
    if workspace.exists():
        shutil.rmtree(workspace)
    workspace.mkdir(parents=True)
    try:
        by_query, stats = build_workspace(args.repo.resolve(), workspace)
        cases = sample_cases(by_query, args.cap, args.seed)
        cases_path = args.cases or workdir / "cases.jsonl"
        write_cases(cases, cases_path)
        cases = load_cases(cases_path)
        log(f"{stats}; {len(by_query)} distinct first sentences; {len(cases)} cases")

        project = Project(workspace, db=str(workdir / "index"), embedder=FastEmbedder())
        started = time.perf_counter()
        report = project.indexer.run(full=True)
        log(f"indexed {report.chunks_total} chunks in {time.perf_counter() - started:.1f} s")
        store = project.store
        known = {c.expected[0] for c in cases if store.chunks_by_qualname([c.expected[0]], 1)}
        missing = [c.query for c in cases if c.expected[0] not in known]

        searcher = project.searcher
        results: dict[str, Any] = {
            "repo": args.repo.name,
            "stats": stats,
            "cases": len(cases),
            "cases_file": str(cases_path),
            "expected_not_indexed": missing,
            "chunks": report.chunks_total,
            "modes": {},
        }
        per_case: dict[str, Any] = {}
        for mode in MODES:
            evaluation = evaluate(cases, partial(search_in_mode, searcher, args.k, mode))
            results["modes"][mode] = evaluation["summary"]
            per_case[mode] = evaluation["cases"]
        if args.experiments:
            results["experiments"] = experiments(searcher, cases)
        if args.json:
            results["per_case"] = per_case
            print(json.dumps(results, indent=2))
        else:
            print_human(results)
    finally:
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


def print_human(results: dict[str, Any]) -> None:
    print(f"repo {results['repo']}: {results['chunks']} chunks, {results['cases']} cases")
    print(f"  {results['stats']}; expected not indexed: {len(results['expected_not_indexed'])}")
    header = f"  {'mode':58} {'R@1':>7} {'R@5':>7} {'R@10':>7} {'MRR@10':>7}"
    print(header)
    rows = [(m, s) for m, s in results["modes"].items()]
    rows += list(results.get("experiments", {}).get("variants", {}).items())
    for name, s in rows:
        print(
            f"  {name:58} {s['recall@1']:7.3f} {s['recall@5']:7.3f} {s['recall@10']:7.3f}"
            f" {s['mrr@10']:7.3f}"
        )
    if "experiments" in results:
        print(f"  coverage: {json.dumps(results['experiments']['coverage'])}")
    hybrid = results["modes"]["hybrid"]["mrr@10"]
    others = [results["modes"][m]["mrr@10"] for m in ("vector", "text")]
    verdict = "beats" if all(hybrid > o for o in others) else "does NOT beat"
    print(f"  hybrid MRR@10 {hybrid:.3f} {verdict} vector {others[0]:.3f} and text {others[1]:.3f}")


if __name__ == "__main__":
    raise SystemExit(main())
