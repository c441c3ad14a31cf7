"""Offline experiments on the embedded document (codekith.template.document).

For each repository of scripts/quality_repos.json whose index `eval_quality.py index` built,
every live chunk is turned back into a Chunk and embedded under several document
templates (vectors cached by document text in BENCH/quality/NAME/template-cache.npz, so
shared documents are embedded once; the index's own vectors and the bare-definition
baseline's seed it). Each template is scored through codekith's own search with its vectors
in place of the index's (`VariantStore`; the full-text list and name lookups are the
index's): docstring -> definition MRR@10 and Recall@10 of vector mode and hybrid, and fix ->
files MRR@10 of hybrid, as scripts/quality_table.py computes them ("shipped" reproduces the
table). The index itself is not touched: choose on TUNING repositories, then check HELD-OUT
ones, then change the template.

    python scripts/eval_template.py --repos flask axios
    python scripts/eval_template.py --variants shipped lean --repos requests click gin
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, cast

import numpy as np

from codekith.chunking import Chunk
from codekith.evaluation import Case, evaluate, is_answer, load_cases
from codekith.search import Hit, Searcher
from codekith.store import NO_FILTERS, Store
from codekith.template import HEADER_END, code_of, document
from eval_quality import Paths, add_bench_arguments, load_repos
from quality_cases import code_chunks
from quality_table import FILE_DEPTH, file_summary, files_of

Row = dict[str, Any]


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def chunk_of(row: Row) -> Chunk:
    return Chunk(
        path=row["path"],
        language=row["language"],
        kind=row["kind"],
        symbol=row["symbol"],
        qualname=row["qualname"],
        code=code_of(row["document"]),
        start_line=row["start_line"],
        end_line=row["end_line"],
        signature=row["signature"] or "",
        docstring=row["docstring"] or "",
        imports=list(row["imports"] or []),
        bases=list(row["bases"] or []),
        decorators=list(row["decorators"] or []),
        parent=row["parent"] or "",
    )


def _doc_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[0][:200] if lines else ""


def _header(chunk: Chunk, path: bool, imports: bool, kind: bool = True) -> list[str]:
    lines = [f"# {chunk.path}"] if path else []
    lines.append(f"# {chunk.kind} {chunk.qualname}" if kind else f"# {chunk.qualname}")
    if chunk.signature and chunk.signature not in chunk.code:
        lines.append(f"# {chunk.signature}")
    if chunk.docstring and chunk.docstring[:40] not in chunk.code:
        lines.append(f"# {_doc_line(chunk.docstring)}")
    if imports and chunk.imports:
        lines.append(f"# imports: {', '.join(chunk.imports[:12])}")
    return lines


def _short(chunk: Chunk) -> str:
    """The doc line when the code lacks it; a method's class; the code."""
    lines = []
    if chunk.docstring and chunk.docstring[:40] not in chunk.code:
        lines.append(f"# {_doc_line(chunk.docstring)}")
    if chunk.kind == "method" and chunk.parent:
        lines.append(f"# {chunk.parent.rpartition('.')[2]}.{chunk.symbol}")
    return "\n".join([*lines, chunk.code])


def _in_class(chunk: Chunk, class_docs: dict[str, str]) -> str:
    """The shipped document, a method's also saying what its class is for (the class's doc
    line after the method's own name), as issue 14 proposes: "enclosing class and its
    docstring for methods". The workspace has no doc text, so the lines come from the
    checkout (`class_doc_lines`)."""
    shipped = document(chunk)
    doc_line = class_docs.get(chunk.parent, "") if chunk.kind == "method" else ""
    if not doc_line:
        return shipped
    head, code = shipped.split(HEADER_END, 1)
    lines = head.split("\n")
    lines.insert(2, f"# in {chunk.parent.rpartition('.')[2]}: {doc_line}")
    return "\n".join(lines) + HEADER_END + code


def class_doc_lines(paths: Paths) -> dict[str, str]:
    """Each class's doc line from the checkout, but for a class that is a docstring case's
    answer or whose doc line holds a question: its methods would carry the answer's words."""
    cases = load_cases(paths.case_file("docstring"))
    answers = {e for case in cases for e in case.expected}
    lines = {
        chunk.qualname: _doc_line(chunk.docstring)
        for chunk in code_chunks(paths.checkout)
        if chunk.kind == "class" and chunk.docstring
    }
    return {
        qualname: line
        for qualname, line in lines.items()
        if not any(is_answer(qualname, "", a) for a in answers)
        and not any(case.query in line for case in cases)
    }


Variant = Callable[[Chunk, dict[str, str]], str]  # a chunk and its classes' doc lines
VARIANTS: dict[str, Variant] = {
    "short": lambda c, _: _short(c),
    "shipped": lambda c, _: document(c),
    "bare": lambda c, _: c.code,
    "no-imports": lambda c, _: "\n".join(_header(c, True, False)) + "\n" + c.code,
    "no-path": lambda c, _: "\n".join(_header(c, False, True)) + "\n" + c.code,
    "lean": lambda c, _: "\n".join(_header(c, False, False)) + "\n" + c.code,
    "lean-nokind": lambda c, _: "\n".join(_header(c, False, False, kind=False)) + "\n" + c.code,
    "in-class": _in_class,
}


def _key(document_text: str) -> str:
    return hashlib.sha1(document_text.encode()).hexdigest()


class Embeddings:
    """Vectors by document text, kept on disk between runs."""

    def __init__(self, path: Path, embed: Callable[[list[str]], np.ndarray]):
        self.path, self.embed = path, embed
        self.cached: dict[str, np.ndarray] = {}
        if path.exists():
            data = np.load(path)
            self.cached = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))

    def seed(self, documents: list[str], vectors: list[np.ndarray | None]) -> None:
        """Vectors already made elsewhere (the index's, the bare baseline's)."""
        for document_text, vector in zip(documents, vectors, strict=True):
            if vector is not None:
                self.cached.setdefault(_key(document_text), vector)

    def matrix(self, documents: list[str]) -> np.ndarray:
        keys = [_key(d) for d in documents]
        missing = sorted(
            {k: d for k, d in zip(keys, documents, strict=True) if k not in self.cached}.items()
        )
        if missing:
            log(f"  embedding {len(missing)} documents")
            vectors = self.embed([d for _, d in missing])
            self.cached.update({k: v for (k, _), v in zip(missing, vectors, strict=True)})
            ordered = sorted(self.cached)
            np.savez(
                self.path,
                keys=np.array(ordered),
                vectors=np.stack([self.cached[k] for k in ordered]),
            )
        return np.stack([self.cached[k] for k in keys])


class VariantStore:
    """The index's store with a variant's vectors in place of its own: the real search reads
    them as it reads the index's (its full-text list and name lookups are the index's)."""

    def __init__(self, store: Any, rows: list[Row], matrix: np.ndarray):
        self.store, self.rows, self.matrix = store, rows, matrix
        self.position = {row["id"]: n for n, row in enumerate(rows)}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def vector_search(self, vector: np.ndarray, k: int, filters: Any = None) -> list[Row]:
        if filters not in (None, NO_FILTERS):
            raise ValueError("a variant's vectors are searched without filters")
        similarity = self.matrix @ vector
        best = sorted(range(len(self.rows)), key=lambda i: (-similarity[i], self.rows[i]["id"]))
        return [{**self.rows[i], "_distance": 1.0 - float(similarity[i])} for i in best[:k]]

    def vectors_of(self, ids: Any) -> dict[str, np.ndarray]:
        return {i: self.matrix[self.position[i]] for i in ids if i in self.position}

    def feedback(self) -> list[Row]:
        return []  # votes are not replayed: a quality index has none


def search_in_mode(searcher: Searcher, mode: str, case: Case) -> list[Hit]:
    return searcher.search(case.query, 10, None, mode)


def score_variant(project: Any, rows: list[Row], matrix: np.ndarray, paths: Paths) -> dict:
    """Docstring MRR@10 and Recall@10 of vector mode and hybrid, and fix -> files MRR@10 of
    hybrid, as quality_table computes them, through codekith's own search."""
    variant = VariantStore(project.read_store, rows, matrix)
    searcher = Searcher(cast(Store, variant), project.searcher.embedder)  # duck-typed: reads only
    cases = load_cases(paths.case_file("docstring"))
    result = {
        mode: evaluate(cases, partial(search_in_mode, searcher, mode))["summary"]
        for mode in ("vector", "hybrid")
    }
    if paths.case_file("fix").exists():
        fixes = load_cases(paths.case_file("fix"))
        result["fix"] = file_summary(
            fixes, lambda case: files_of(searcher.search(case.query, FILE_DEPTH))
        )
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_bench_arguments(parser)
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=list(VARIANTS))
    args = parser.parse_args(argv)
    from codekith.embedding import FastEmbedder
    from codekith.project import Project

    embedder = FastEmbedder()
    for repo in load_repos(args.repos):
        paths = Paths(args.bench, repo["name"])
        project = Project(paths.workspace, db=str(paths.stripped_db), embedder=embedder)
        rows = project.read_store.rows("true")
        chunks = [chunk_of(r) for r in rows]
        class_docs = class_doc_lines(paths)
        cache = Embeddings(paths.root / "template-cache.npz", embedder.embed_documents)
        stored = project.read_store.vectors_of(r["id"] for r in rows)
        cache.seed([r["document"] for r in rows], [stored.get(r["id"]) for r in rows])
        if paths.bare.exists():  # eval_quality.py table's bare-definition baseline
            data = np.load(paths.bare)
            bare = dict(zip(data["ids"].tolist(), data["vectors"], strict=True))
            cache.seed([c.code for c in chunks], [bare.get(r["id"]) for r in rows])
        log(f"{repo['name']}: {len(rows)} chunks")
        for name in args.variants:
            matrix = cache.matrix([VARIANTS[name](c, class_docs) for c in chunks])
            result = score_variant(project, rows, matrix, paths)
            v, h = result["vector"], result["hybrid"]
            fix = f" | fix -> files {result['fix']['mrr@10']:.3f}" if "fix" in result else ""
            print(
                f"{repo['name']:9} {repo['role']:8} {name:12} vector MRR@10 {v['mrr@10']:.3f} "
                f"R@10 {v['recall@10']:.3f} | hybrid MRR@10 {h['mrr@10']:.3f} "
                f"R@10 {h['recall@10']:.3f}{fix}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
