"""One graph index over every language that has a call graph.

Python files go to the `ast` resolver (`fast.ModuleIndex`), JavaScript, TypeScript, Go,
Rust and Java files to the tree-sitter one (`syntax_engine.SyntaxIndex`). Callers (the
builder, `graph_for_root`) see one object and never ask which language a file is in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from codekith.graph.fast import ModuleIndex, resolve_file
from codekith.graph.model import Edge
from codekith.graph.syntax_engine import LANGUAGES, SyntaxIndex
from codekith.languages import PYTHON, language_of

GRAPH_LANGUAGES = frozenset({PYTHON, *LANGUAGES})


def in_graph(path: str) -> bool:
    """Whether the call graph reads this file."""
    return language_of(path) in GRAPH_LANGUAGES


def is_python(path: str) -> bool:
    return language_of(path) == PYTHON


class GraphIndex:
    def __init__(self, root: Path, paths: Iterable[str] = ()) -> None:
        listed = [p for p in paths if in_graph(p)]
        self.python = ModuleIndex(root, [p for p in listed if is_python(p)])
        self.syntax = SyntaxIndex(root, [p for p in listed if not is_python(p)])

    def update(self, path: str, source: str | None = None) -> None:
        if is_python(path):
            self.python.update(path, source)
        elif in_graph(path):
            self.syntax.update(path, source)

    def remove(self, path: str) -> None:
        if is_python(path):
            self.python.remove(path)
        else:
            self.syntax.remove(path)

    def refresh(self) -> None:
        """Recompute what spans files: Python's parameter flow, project files' settings."""
        self.python.refresh_flow()
        self.syntax.configure(self.syntax.paths())

    def resolve(self, path: str) -> list[Edge]:
        if is_python(path):
            return resolve_file(self.python, path)
        return self.syntax.resolve(path)

    def paths(self) -> list[str]:
        return sorted([*self.python.paths(), *self.syntax.paths()])

    def qualnames(self) -> set[str]:
        return self.python.qualnames() | self.syntax.qualnames()

    def defined(self) -> set[str]:
        """Every qualified name something is defined under."""
        return set(self.python.scopes) | self.syntax.defined()

    @property
    def broken(self) -> set[str]:
        return self.python.broken | self.syntax.broken


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
