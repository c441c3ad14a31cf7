"""One graph index over every language that has a call graph.

Python files go to the `ast` resolver (`incremental.FastGraph`), the files of every
language with a tree-sitter front end (`syntax_engine.FRONTENDS`) to the tree-sitter one
(`syntax_engine.SyntaxIndex`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from codekith.graph.incremental import FastGraph
from codekith.graph.model import Edge
from codekith.graph.syntax_engine import LANGUAGES, SyntaxIndex
from codekith.languages import PYTHON, language_at
from codekith.qualnames import ModuleNames

GRAPH_LANGUAGES = frozenset({PYTHON, *LANGUAGES})


def in_graph(root: Path, path: str) -> bool:
    """Whether the call graph reads this workspace file."""
    return language_at(root, path) in GRAPH_LANGUAGES


def split_python(root: Path, paths: Iterable[str]) -> tuple[list[str], list[str]]:
    """The graph files among `paths`: the Python ones, the others."""
    python: list[str] = []
    others: list[str] = []
    for path in paths:
        language = language_at(root, path)
        if language == PYTHON:
            python.append(path)
        elif language in GRAPH_LANGUAGES:
            others.append(path)
    return python, others


class GraphIndex:
    """Every graph file of a workspace resolved at once (`codekith graph`, benchmarks); an
    index run goes through `builder.GraphBuilder`, which does the same incrementally."""

    def __init__(self, root: Path, paths: Iterable[str] = ()) -> None:
        python, others = split_python(root, paths)
        self.names = ModuleNames.on_disk(root)
        self.python = FastGraph(root, names=self.names)
        self.python.update(dict.fromkeys(python, ""))
        self.syntax = SyntaxIndex(root, others)

    def resolve(self, path: str) -> list[Edge]:
        if path in self.python.current:
            return list(self.python.current[path].edges)
        return self.syntax.resolve(path)

    def paths(self) -> list[str]:
        python = [p for p, v in self.python.current.items() if v.rounds]
        return sorted([*python, *self.syntax.paths()])

    def qualnames(self) -> set[str]:
        return self.python.qualnames() | self.syntax.qualnames()

    @property
    def broken(self) -> set[str]:
        return set(self.python.broken()) | self.syntax.broken


def config_fingerprint(root: Path, paths: Iterable[str]) -> str:
    """A digest of the project files imports depend on (tsconfig.json, package.json, go.mod,
    Cargo.toml): when it changes, every file's edges must be resolved again."""
    probe = SyntaxIndex(root)
    digest = hashlib.sha1()
    for path in sorted(probe.config_files(p for p in paths if in_graph(root, p))):
        try:
            stat = (root / path).stat()
        except OSError:
            continue
        digest.update(f"{path}|{stat.st_size}|{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()
