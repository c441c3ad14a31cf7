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
from codekith.languages import PYTHON, language_of
from codekith.qualnames import ModuleNames

GRAPH_LANGUAGES = frozenset({PYTHON, *LANGUAGES})


def in_graph(path: str) -> bool:
    """Whether the call graph reads this file."""
    return language_of(path) in GRAPH_LANGUAGES


def is_python(path: str) -> bool:
    return language_of(path) == PYTHON


class GraphIndex:
    """Every graph file of a workspace resolved at once (`codekith graph`, benchmarks); an
    index run goes through `builder.GraphBuilder`, which does the same incrementally."""

    def __init__(self, root: Path, paths: Iterable[str] = ()) -> None:
        listed = [p for p in paths if in_graph(p)]
        self.names = ModuleNames.on_disk(root)
        self.python = FastGraph(root, names=self.names)
        self.python.update(dict.fromkeys((p for p in listed if is_python(p)), ""))
        self.syntax = SyntaxIndex(root, [p for p in listed if not is_python(p)])

    def resolve(self, path: str) -> list[Edge]:
        if is_python(path):
            variant = self.python.current.get(path)
            return list(variant.edges) if variant is not None else []
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
    for path in sorted(probe.config_files(p for p in paths if in_graph(p))):
        try:
            stat = (root / path).stat()
        except OSError:
            continue
        digest.update(f"{path}|{stat.st_size}|{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()
