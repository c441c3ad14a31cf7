"""A file's facts cut into the parts other files' resolutions read, each with a digest that
an edit leaves alone unless it changes what the part says.

The parts: the file's declarations (`decl`: its module and type scopes, the types,
functions, imports and exports it declares, whatever else its front end's facts hold) and
the body of each function outside any other (`bodies`: the scopes inside it, the results
it declares). Call sites are in no part: only the file's own resolution reads them.

Positions (a name's, a binding's, any record's field named `pos`) are kept as ranks
within their part. The evaluator compares positions only within one function (a local is
visible from where it is bound, `Evaluator.bound`), and an expression is written into the
part of the scope it is evaluated in (an object holding one scope is read there; a
function's declared result in its body), so a comparison's two sides are always in one
part. Inserting a line moves positions but changes no rank: a
function moved down reads the same. A line number that only names an edge of the file
itself (a type's, an impl's, an import's) is left out.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from codekith.graph.syntax_model import (
    Binding,
    FileFacts,
    FuncDecl,
    Name,
    Pos,
    Scope,
    TraitImpl,
    TypeDecl,
)

DECL = -1  # the part of the scopes outside every function
_SKIPPED = {
    (FileFacts, "sites"),
    (FileFacts, "imports"),  # (expr, line): written without the lines
    (TypeDecl, "line"),
    (TraitImpl, "line"),
    (Scope, "parent"),  # written as a reference, in the scope's own part
}


@dataclass
class Digest:
    """The digest of a file's declarations and of each function body, and the part of
    every scope an evaluation can reach from other files (DECL or a body's index)."""

    decl: str
    bodies: list[str]
    parts: dict[int, int] = field(default_factory=dict)  # id(scope) -> part


class _Writer:
    def __init__(self) -> None:
        self.parts: dict[int, int] = {}  # id(scope) -> part
        self.order: dict[int, int] = {}  # id(scope) -> its order within its part
        self.counts: dict[int, int] = {DECL: 0}  # scopes enrolled per part
        self.pending: deque[Scope] = deque()
        self.tokens: dict[int, list[object]] = {DECL: []}
        self.positions: dict[int, set[Pos]] = {DECL: set()}
        self.seen: dict[int, int] = {}  # id(object) -> its order: shared objects once
        self.part = DECL

    def run(self, facts: FileFacts) -> Digest:
        self.write(facts)
        self.write([expr for expr, _ in facts.imports])
        while self.pending:
            scope = self.pending.popleft()
            with_part = self.parts[id(scope)]
            self.inside(with_part, lambda s=scope: self.write_scope(s))  # type: ignore[misc]
        bodies = [self.digest(part) for part in range(len(self.tokens) - 1)]
        return Digest(self.digest(DECL), bodies, self.parts)

    def digest(self, part: int) -> str:
        ranks = {p: i for i, p in enumerate(sorted(self.positions[part]))}
        tokens = [ranks[t[1]] if _is_pos(t) else t for t in self.tokens[part]]  # type: ignore[index]
        return hashlib.sha1(repr(tokens).encode()).hexdigest()

    def inside(self, part: int, write: object) -> None:
        outer, self.part = self.part, part
        try:
            write()  # type: ignore[operator]
        finally:
            self.part = outer

    def emit(self, token: object) -> None:
        self.tokens[self.part].append(token)

    def write_scope(self, scope: Scope) -> None:
        self.emit(("scope", self.order[id(scope)]))
        self.write_fields(scope)
        if scope.parent is not None:
            self.write(scope.parent)

    def write(self, value: object) -> None:
        kind = type(value)
        if kind in _PLAIN:  # the most common values first: no isinstance chain for them
            self.tokens[self.part].append(value)
        elif kind is Name:
            self.emit(("name", value.id))  # type: ignore[attr-defined]
            self.position(value.pos)  # type: ignore[attr-defined]
        else:
            self.write_other(value)

    def write_other(self, value: object) -> None:
        if isinstance(value, Scope):
            self.emit(("ref", *self.enrol(value)))
        elif isinstance(value, str | int | float | bool) or value is None:
            self.emit(value)
        elif isinstance(value, Binding):
            self.emit(("binding", value.typed, value.imported))
            self.position(value.pos)
            self.write(value.expr)
        elif isinstance(value, Name):
            self.emit(("name", value.id))
            self.position(value.pos)
        elif isinstance(value, dict):
            self.emit(("dict", len(value)))
            for key, item in value.items():
                self.write(key)
                self.write(item)
        elif isinstance(value, frozenset | set):
            self.emit(("set", len(value)))
            for item in sorted(value, key=repr):
                self.write(item)
        elif isinstance(value, list):
            self.emit(("list", len(value)))
            for item in value:
                self.write(item)
        elif isinstance(value, tuple) and not _is_record(value):
            self.write_tuple(value)
        elif _is_record(value) and self.once(value):
            self.write_record(value)
        elif not _is_record(value):  # an object of a kind not known here: changed, say
            self.emit(("object", id(value)))

    def write_record(self, value: object) -> None:
        """A dataclass or named tuple, in the part of the one scope it holds (where its
        expressions are evaluated); a function's declared result in its body."""
        self.emit(type(value).__name__)
        if isinstance(value, FuncDecl):
            self.write_function(value)
            return
        values = _values(value)
        at = _position_field(value)
        home = _only_scope(values)
        if home is not None:
            part, _ = self.enrol(home)
            self.inside(part, lambda: self.write_items(values, at))
        else:
            self.write_items(values, at)

    def write_tuple(self, value: tuple[object, ...]) -> None:
        """A tuple holding one scope (an expression and where it is read) in that scope's
        part; any other as a list."""
        self.emit(("tuple", len(value)))
        home = home_scope(value)
        if home is not None:
            part, _ = self.enrol(home)
            self.inside(part, lambda: self.write_items(value))
        else:
            for item in value:
                self.write(item)

    def write_items(self, value: Sequence[object], position: int | None = None) -> None:
        """The items; the one at `position` is a position."""
        for index, item in enumerate(value):
            if index == position:
                self.position(item)  # type: ignore[arg-type]
            else:
                self.write(item)

    def write_function(self, function: FuncDecl) -> None:
        self.write((function.qualname, function.name, function.body))
        if function.outer is not None:
            self.write(function.outer)
            outer, _ = self.enrol(function.outer)
            self.inside(outer, lambda: self.write(function.container))
        body, _ = self.enrol(function.body)
        self.inside(body, lambda: self.write(function.returns))

    def write_fields(self, value: object) -> None:
        self.write_items(_values(value))

    def once(self, value: object) -> bool:
        """Whether `value` is new here (a shared expression is written once, then named
        by its order)."""
        index = self.seen.get(id(value))
        if index is not None:
            self.emit(("again", index))
            return False
        self.seen[id(value)] = len(self.seen)
        return True

    def position(self, pos: Pos) -> None:
        self.positions[self.part].add(pos)
        self.emit(("pos", pos))

    def enrol(self, scope: Scope) -> tuple[int, int]:
        """The scope's part and order, enrolling it (and its parents) on first sight: a
        function scope outside any other starts a part."""
        if id(scope) not in self.parts:
            chain: list[Scope] = []
            current: Scope | None = scope
            while current is not None and id(current) not in self.parts:
                chain.append(current)
                current = current.parent
            part = self.parts[id(current)] if current is not None else DECL
            for link in reversed(chain):
                if part == DECL and link.kind == "function":
                    part = len(self.tokens) - 1
                    self.tokens[part], self.positions[part], self.counts[part] = [], set(), 0
                self.parts[id(link)] = part
                self.order[id(link)] = self.counts[part]
                self.counts[part] += 1
                self.pending.append(link)
        return self.parts[id(scope)], self.order[id(scope)]


def home_scope(value: object) -> Scope | None:
    """The one scope a record or tuple holds (where its expressions are evaluated, so
    the part it is written in and read from); None for none or several, and for a
    function (`_Writer.write_function`)."""
    if isinstance(value, FuncDecl | Scope):
        return None
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return _only_scope(value)
    return _only_scope(_values(value)) if _is_record(value) else None


def _only_scope(values: Sequence[object]) -> Scope | None:
    scopes = [v for v in values if isinstance(v, Scope)]
    return scopes[0] if len(scopes) == 1 else None


def _is_record(value: object) -> bool:
    return hasattr(value, "_fields") or (
        dataclasses.is_dataclass(value) and not isinstance(value, type)
    )


def _position_field(value: object) -> int | None:
    """Where a record's field named `pos` is among its written fields: a position."""
    kind = type(value)
    if kind not in _POSITION:
        names = value._fields if hasattr(value, "_fields") else _field_names(value)  # type: ignore[attr-defined]
        _POSITION[kind] = names.index("pos") if "pos" in names else None
    return _POSITION[kind]


def _is_pos(token: object) -> bool:
    return isinstance(token, tuple) and len(token) == 2 and token[0] == "pos"


def _values(value: object) -> Sequence[object]:
    """A record's fields, less those no other file reads."""
    if hasattr(value, "_fields"):
        return value  # type: ignore[return-value]
    return [getattr(value, name) for name in _field_names(value)]


def _field_names(value: object) -> tuple[str, ...]:
    """A dataclass's fields that other files read (`_SKIPPED` left out)."""
    names = _FIELDS.get(type(value))
    if names is None:
        names = _FIELDS[type(value)] = tuple(
            f.name
            for f in dataclasses.fields(value)  # type: ignore[arg-type]
            if not any(issubclass(type(value), kind) and f.name == n for kind, n in _SKIPPED)
        )
    return names


_FIELDS: dict[type, tuple[str, ...]] = {}
_POSITION: dict[type, int | None] = {}  # record type -> where its `pos` field is written
_PLAIN = frozenset({str, int, bool, float, type(None)})


def digest(facts: FileFacts) -> Digest:
    return _Writer().run(facts)
