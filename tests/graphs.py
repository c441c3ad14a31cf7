"""What the graph tests of every language ask of a workspace: its call pairs cold, and a
long-lived builder's edges after each edit (which must equal a cold build's)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from codekith.graph.builder import GraphBuilder
from codekith.graph.index import GraphIndex, config_fingerprint, in_graph
from codekith.graph.model import Edge

Triple = tuple[str, str, str]


def calls(edges: list[Edge]) -> set[tuple[str, str]]:
    return {(e.src, e.dst) for e in edges if e.kind == "call"}


def all_edges(index: GraphIndex) -> list[Edge]:
    return [e for path in index.paths() for e in index.resolve(path)]


def files(root: Path) -> list[str]:
    listed = (p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    return sorted(p for p in listed if in_graph(root, p))


def graph(root: Path) -> set[tuple[str, str]]:
    """The call pairs of a cold build."""
    return calls(all_edges(GraphIndex(root, files(root))))


def contents(root: Path) -> dict[str, str]:
    """The graph files of the workspace and their content hashes, as an index run sees them."""
    return {p: hashlib.sha1((root / p).read_bytes()).hexdigest() for p in files(root)}


def update(builder: GraphBuilder, root: Path) -> set[Triple]:
    """The builder brought up to date with the workspace as it is; its edges."""
    found = contents(root)
    builder.update(found, config_fingerprint(root, found))
    return {(e.src, e.dst, e.kind) for edges in builder.edges.values() for e, _ in edges}


def cold(root: Path, scratch: Path) -> set[Triple]:
    """The edges of a cold build of a copy of the workspace (made afresh in `scratch`)."""
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(root, scratch)
    return {(e.src, e.dst, e.kind) for e in all_edges(GraphIndex(scratch, files(scratch)))}
