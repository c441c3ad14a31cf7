"""Keeps the stored edges in step with the workspace, cheaply when the process is warm.

A cold builder (every CLI run, a server's first run) parses every file of a graph language
(Python, JavaScript, TypeScript, Go, Rust, Java) and resolves all of them, so a fresh index
and an incremental one agree exactly. A warm builder (the language server after its first
run) re-parses only the changed files and re-resolves them plus their neighbourhood: files
that import or call into them and files they import or call into. Scans (branch switches,
`reindex`) re-resolve everything with the warm parse. Jedi is slow, so it only re-checks
changed Python files; its edges for untouched files are kept while the fast resolver still
leaves those call sites open.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from codekith.graph.index import GraphIndex, is_python
from codekith.graph.merge import merge_edges
from codekith.graph.model import Edge
from codekith.qualnames import module_name

WARM_LIMIT = 20  # more changed files than this: re-resolve everything


@dataclass
class GraphUpdate:
    edges: list[tuple[Edge, str]]  # (edge, resolver: fast | jedi) of the `paths` below
    paths: set[str] | None  # the files whose edges these are; None = all files
    jedi_files: int
    fast_seconds: float
    jedi_seconds: float
    timed_out: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)


class GraphBuilder:
    def __init__(self, root: Path, use_jedi: bool, jedi_time_limit: float = 10.0):
        self.root = root
        self.use_jedi = use_jedi
        self.jedi_time_limit = jedi_time_limit
        self._index: GraphIndex | None = None
        self._jedi = None

    def update(
        self,
        graph_paths: Iterable[str],
        changed: set[str],
        stored: list[tuple[Edge, str]],
        rescan: bool,
    ) -> GraphUpdate:
        """Edges for the files that may have changed; `stored` are the live edges with
        their resolver."""
        paths = sorted(graph_paths)
        started = time.perf_counter()
        scope = self._refresh(paths, changed, [e for e, _ in stored], rescan)
        targets = paths if scope is None else sorted(scope & set(paths))
        assert self._index is not None
        fast = [edge for path in targets for edge in self._index.resolve(path)]
        fast_seconds = time.perf_counter() - started
        started = time.perf_counter()
        target_set = set(targets)
        jedi = [
            e
            for e, resolver in stored
            if resolver == "jedi" and e.path not in changed and e.path in target_set
        ]
        rechecked = [p for p in targets if p in changed and is_python(p)]
        timed_out: list[str] = []
        if self.use_jedi and rechecked:
            resolver = self._jedi_resolver()
            for path in rechecked:
                jedi.extend(resolver.resolve_file(path))
            timed_out = sorted(resolver.timed_out)
        fast_set = set(fast)
        merged = merge_edges(fast, jedi) if self.use_jedi else sorted(fast_set, key=_order)
        return GraphUpdate(
            [(e, "fast" if e in fast_set else "jedi") for e in merged],
            scope,
            len(rechecked) if self.use_jedi else 0,
            fast_seconds,
            time.perf_counter() - started,
            timed_out,
            sorted(self._index.broken),
        )

    def _refresh(
        self, paths: list[str], changed: set[str], stored: list[Edge], rescan: bool
    ) -> set[str] | None:
        """Bring the parsed modules up to date; the files to re-resolve (None = all)."""
        if self._index is None:
            self._index = GraphIndex(self.root, paths)
            return None
        present = set(paths)
        before = self._index.defined()
        for path in sorted(changed):
            if path in present:
                self._index.update(path)
            else:
                self._index.remove(path)
        if rescan or len(changed) > WARM_LIMIT:
            self._index.refresh()
            return None
        added = {name.rsplit(".", 1)[-1] for name in self._index.defined() - before}
        return changed | neighbours(changed, stored, paths) | self._mentioning(added, paths)

    def _mentioning(self, names: set[str], paths: list[str]) -> set[str]:
        """Files whose text mentions a newly defined name: their calls that found nothing
        before may resolve now."""
        if not names:
            return set()
        pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names))) + r")\b")
        found = set()
        for path in paths:
            try:
                if pattern.search((self.root / path).read_text("utf-8", errors="replace")):
                    found.add(path)
            except OSError:
                continue
        return found

    def _jedi_resolver(self):  # type: ignore[no-untyped-def]
        """One warm Jedi per builder: its module cache is what makes re-checks fast."""
        if self._jedi is None:
            from codekith.graph.jedi_resolver import JediResolver

            self._jedi = JediResolver(self.root, time_limit=self.jedi_time_limit)
        return self._jedi


def neighbours(changed: set[str], edges: list[Edge], paths: list[str]) -> set[str]:
    """Files with an edge into a changed module, and the files a changed file's edges point
    into: the ones whose resolution may read what changed."""
    changed_modules = {module_name(p) for p in changed}
    modules = {module_name(p): p for p in paths}
    found: set[str] = set()
    for edge in edges:
        if _owner(edge.dst, changed_modules) is not None:
            found.add(edge.path)
        if edge.path in changed:
            owner = _owner(edge.dst, set(modules))
            if owner is not None:
                found.add(modules[owner])
    return found - changed


def _owner(name: str, modules: set[str]) -> str | None:
    """The longest module in `modules` that `name` lies in."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def _order(edge: Edge) -> tuple[str, int, str, str, str]:
    return (edge.path, edge.line, edge.src, edge.kind, edge.dst)
