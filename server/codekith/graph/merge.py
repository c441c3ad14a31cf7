"""Combine the fast resolver's edges with Jedi's."""

from __future__ import annotations

from codekith.graph.model import Edge


def merge_edges(fast: list[Edge], jedi: list[Edge]) -> list[Edge]:
    return sorted(set(fast) | set(jedi), key=lambda e: (e.path, e.line, e.src, e.kind, e.dst))
