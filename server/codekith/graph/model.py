"""The edge record shared by both resolvers, the store and the PyCG export."""

from __future__ import annotations

from dataclasses import dataclass

EDGE_KINDS = ("call", "inherit", "decorate", "import")


@dataclass(frozen=True)
class Edge:
    """One directed relation between qualified names.

    Keyed by qualnames rather than positions so an edge survives edits that only shift lines;
    `path` and `line` say where the source side holds it (POSIX, workspace-relative, 1-based).
    """

    src: str
    dst: str
    kind: str
    path: str
    line: int
