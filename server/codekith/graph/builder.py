"""Keeps the stored edges equal to what the resolvers say about the workspace now.

The fast resolver is cheap enough to re-run over every Python file whenever one changes,
which makes the stored fast edges an exact function of the workspace (an incremental run
and a fresh full run agree). Jedi is slow, so it only re-checks the files that changed;
its edges for untouched files are kept as long as the fast resolver still leaves their
call sites unresolved.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from codekith.graph.fast import ModuleIndex, resolve_file
from codekith.graph.merge import merge_edges
from codekith.graph.model import Edge


@dataclass
class GraphUpdate:
    edges: list[tuple[Edge, str]]  # (edge, resolver: fast | jedi)
    jedi_files: int
    fast_seconds: float
    jedi_seconds: float
    timed_out: list[str]
    broken: list[str]


def build_graph(
    root: Path,
    python_paths: Iterable[str],
    changed: set[str],
    previous_jedi: Iterable[Edge],
    use_jedi: bool,
    jedi_time_limit: float = 10.0,
) -> GraphUpdate:
    """All edges of the workspace: fast everywhere, Jedi re-run on `changed` files."""
    paths = sorted(python_paths)
    started = time.perf_counter()
    index = ModuleIndex(root, paths)
    fast = [edge for path in index.paths() for edge in resolve_file(index, path)]
    fast_seconds = time.perf_counter() - started
    jedi_edges = [e for e in previous_jedi if e.path not in changed and e.path in set(paths)]
    timed_out: list[str] = []
    started = time.perf_counter()
    rechecked = [p for p in paths if p in changed]
    if use_jedi and rechecked:
        from codekith.graph.jedi_resolver import JediResolver

        resolver = JediResolver(root, time_limit=jedi_time_limit)
        for path in rechecked:
            jedi_edges.extend(resolver.resolve_file(path))
        timed_out = sorted(resolver.timed_out)
    fast_set = set(fast)
    merged = merge_edges(fast, jedi_edges) if use_jedi else sorted(fast_set, key=_order)
    edges = [(e, "fast" if e in fast_set else "jedi") for e in merged]
    return GraphUpdate(
        edges,
        len(rechecked) if use_jedi else 0,
        fast_seconds,
        time.perf_counter() - started,
        timed_out,
        sorted(index.broken),
    )


def _order(edge: Edge) -> tuple[str, int, str, str, str]:
    return (edge.path, edge.line, edge.src, edge.kind, edge.dst)
