"""The edge record shared by both resolvers, the store and the PyCG export."""

from __future__ import annotations

from dataclasses import dataclass

# Edge kinds: call, wrapped, property, setter, new, inherit, decorate, import. A call of a
# decorated function whose decorator put a wrapper in its place is a "call" of the wrapper
# (PyCG's answer, what `codekith graph` exports) and a "wrapped" call of the function; a
# read of a property (`order.total`) runs its getter: a "property" edge; a write
# (`order.total = 0`) its setter: a "setter" edge to the same qualified name; making an
# instance of a class that runs no `__init__` of its own (a dataclass, an exception, a
# subclass keeping its base's) is a "new" edge to the class. All five are calls for call
# hierarchy, lenses and the call graph (bundles leave property reads and writes and
# instances out: related.NOT_RELATING).
CALL_KINDS = ("call", "wrapped", "property", "setter", "new")


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
