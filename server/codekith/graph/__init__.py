"""The code graph: call, inherit, decorate and import edges between qualified names."""

from __future__ import annotations

from pathlib import Path

from codekith.graph.fast import ModuleIndex, resolve_file
from codekith.graph.merge import merge_edges
from codekith.graph.model import Edge
from codekith.graph.pycg import to_pycg

__all__ = ["Edge", "ModuleIndex", "graph_for_root", "merge_edges", "resolve_file", "to_pycg"]


def graph_for_root(root: Path, paths: list[str], use_jedi: bool) -> dict[str, list[str]]:
    """PyCG simple JSON for the Python files `paths` of `root`; Jedi refines when asked.

    Loads neither the embedding model nor the store, so `codekith graph` stays quick.
    """
    python = [p for p in paths if p.endswith(".py")]
    index = ModuleIndex(root, python)
    edges = [edge for path in index.paths() for edge in resolve_file(index, path)]
    if use_jedi:
        from codekith.graph.jedi_resolver import JediResolver

        resolver = JediResolver(root)
        jedi = [edge for path in index.paths() for edge in resolver.resolve_file(path)]
        edges = merge_edges(edges, jedi)
    return to_pycg(edges, index.qualnames())
