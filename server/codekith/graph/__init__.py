"""The code graph: call, inherit, decorate and import edges between qualified names."""

from __future__ import annotations

from pathlib import Path

from codekith.graph.fast import ModuleIndex, resolve_file
from codekith.graph.incremental import FastGraph, build_edges
from codekith.graph.index import GraphIndex, in_graph
from codekith.graph.merge import call_sites, merge_edges
from codekith.graph.model import Edge
from codekith.graph.pycg import to_pycg

__all__ = [
    "Edge",
    "FastGraph",
    "GraphIndex",
    "ModuleIndex",
    "build_edges",
    "graph_for_root",
    "in_graph",
    "merge_edges",
    "resolve_file",
    "to_pycg",
]


def graph_for_root(root: Path, paths: list[str], use_jedi: bool) -> dict[str, list[str]]:
    """PyCG simple JSON for the files `paths` of `root` in every graph language; Jedi
    refines the Python part when asked.

    Loads neither the embedding model nor the store, so `codekith graph` stays quick.
    """
    index = GraphIndex(root, paths)
    edges = [edge for path in index.paths() for edge in index.resolve(path)]
    if use_jedi:
        from codekith.graph.jedi_resolver import JediResolver

        layout = index.names.layout
        resolver = JediResolver(root, import_roots=layout.import_roots() if layout else ())
        jedi = [
            e
            for path in index.paths()
            if path in index.python.current
            for e in resolver.resolve_file(path, skip=call_sites(index.resolve(path)))
        ]
        edges = merge_edges(edges, jedi)
    return to_pycg(edges, index.qualnames())
