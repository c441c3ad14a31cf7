"""Export call edges in PyCG's "simple JSON" so the graph can be scored against its benchmark."""

from __future__ import annotations

from collections.abc import Iterable

from codekith.graph.model import Edge


def to_pycg(edges: Iterable[Edge], known_qualnames: Iterable[str] = ()) -> dict[str, list[str]]:
    """{"caller": ["callee", ...]} over call edges, sorted.

    PyCG lists every function and module it saw as a key, callees or not; `known_qualnames`
    supplies those that take part in no edge. Callees become keys too, as in PyCG.
    """
    graph: dict[str, set[str]] = {name: set() for name in known_qualnames}
    for edge in edges:
        if edge.kind != "call":
            continue
        graph.setdefault(edge.src, set()).add(edge.dst)
        graph.setdefault(edge.dst, set())
    return {caller: sorted(callees) for caller, callees in sorted(graph.items())}
