"""The shared frame of the tree-sitter language front ends.

A `Frontend` knows one language family: how to turn a file into `FileFacts` (through an
`Extractor`), how its imports name workspace files, and what its language adds to name
lookup (Go's package scope, Java's same-package classes, Rust's crates). The evaluator in
`syntax_engine` asks it these questions and does everything else the same way for all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from codekith.chunking.treesitter import Definition, definitions
from codekith.graph.syntax_model import (
    EMPTY,
    UNKNOWN,
    Expr,
    FileFacts,
    Instance,
    Member,
    Name,
    Pos,
    Scope,
    Union,
    Value,
    Values,
    Wrapped,
)
from codekith.qualnames import module_name
from codekith.syntax import Node, grammar_of, parse, text

if TYPE_CHECKING:
    from codekith.graph.syntax_engine import Evaluator

Handler = Callable[[Node, Scope, str], Scope | None]
MAX_DEPTH = 64  # expressions nested deeper are unknown (generated code nests thousands deep)


def pos(node: Node) -> Pos:
    return node.start_point[0], node.start_point[1]


def end(node: Node) -> Pos:
    return node.end_point[0], node.end_point[1]


def line(node: Node) -> int:
    return node.start_point[0] + 1


def first_named(node: Node | None) -> Node | None:
    return node.named_children[0] if node is not None and node.named_children else None


def field_text(node: Node, name: str) -> str:
    return text(node.child_by_field_name(name))


def words(*lines: str) -> frozenset[str]:
    """The words of a few lines of text: front ends write their name lists so."""
    return frozenset(" ".join(lines).split())


def one_function(qualnames: set[str]) -> Values:
    """The function a name links to when exactly one definition is left, else none."""
    return frozenset({Value("func", next(iter(qualnames)))}) if len(qualnames) == 1 else EMPTY


def shared_prefix(a: list[str], b: list[str]) -> int:
    """How many leading parts two paths' part lists share (how near two files are)."""
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


def file_ending(paths: Iterable[str], tail: str, near: str) -> str | None:
    """The file of `paths` that is `tail` or ends with `/tail` (a C include, a shell
    `source` after `$DIR/`); of several, the one whose folder shares the most leading
    folders with `near`'s; none when two are as near."""
    matches = [p for p in paths if p == tail or p.endswith("/" + tail)]
    if len(matches) <= 1:
        return matches[0] if matches else None
    here = PurePosixPath(near).parent.as_posix().split("/")
    nearness = {
        p: shared_prefix(here, PurePosixPath(p).parent.as_posix().split("/")) for p in matches
    }
    best = max(nearness.values())
    nearest = [p for p in matches if nearness[p] == best]
    return nearest[0] if len(nearest) == 1 else None


def children(node: Node | None) -> list[Node]:
    """A node's named children; none of a missing node."""
    return list(node.named_children) if node is not None else []


def child_of_type(node: Node | None, kind: str) -> Node | None:
    """A node's first named child of a type (grammars that name few fields)."""
    return next((c for c in children(node) if c.type == kind), None)


class Extractor:
    """Walks one syntax tree once, keeping the lexical scope and the chunk that owns the
    code at hand; subclasses register a handler per node type. A handler returns the scope
    for the node's children, or None when it queued the children itself (`visit`)."""

    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        self.root = root
        self.facts = FileFacts(path, language, module_name(path), Scope("module", None))
        self.defs = {d.node.id: d for d in found}
        self.facts.definitions = {d.qualname: d.kind for d in found}
        self.handlers: dict[str, Handler] = {}
        self._stack: list[tuple[Node, Scope, str]] = []
        self._exprs: dict[int, Expr] = {}
        self._depth = 0
        self.current = self.facts.scope  # the scope of the node at hand (for `convert`)

    def run(self) -> FileFacts:
        self.visit(self.root, self.facts.scope, self.facts.module)
        while self._stack:
            node, scope, owner = self._stack.pop()
            definition = self.defs.get(node.id)
            if definition is not None:
                owner = definition.qualname
            self.current = scope
            handler = self.handlers.get(node.type)
            inner = handler(node, scope, owner) if handler is not None else scope
            if inner is not None:
                self.visit_children(node, inner, owner)
        return self.facts

    def visit(self, node: Node | None, scope: Scope, owner: str) -> None:
        if node is not None:
            self._stack.append((node, scope, owner))

    def visit_children(self, node: Node, scope: Scope, owner: str) -> None:
        self._stack.extend((c, scope, owner) for c in reversed(node.named_children))

    def definition(self, node: Node) -> Definition | None:
        return self.defs.get(node.id)

    def expr(self, node: Node | None) -> Expr:
        """The expression of a node, converted once (a call chain's inner calls are also
        sites of their own); too deep a nesting is unknown."""
        if node is None:
            return UNKNOWN
        found = self._exprs.get(node.id)
        if found is None:
            if self._depth >= MAX_DEPTH:
                return UNKNOWN
            self._depth += 1
            try:
                found = self.convert(node)
            finally:
                self._depth -= 1
            self._exprs[node.id] = found
        return found

    def convert(self, node: Node) -> Expr:
        """Subclasses map their expression nodes to `Expr`, recursing through `expr`."""
        return UNKNOWN


def extracted(extractor: Extractor) -> FileFacts:
    """The facts of the extractor's file. The extractor then lets go of everything: its
    handlers (its own bound methods) make a cycle that would keep the syntax tree alive
    until the cycle collector came by."""
    try:
        return extractor.run()
    finally:
        extractor.__dict__.clear()


class Frontend:
    """One language family. Subclasses set `extractor` and override the hooks they need."""

    languages: tuple[str, ...] = ()
    extractor: type[Extractor] = Extractor
    implicit_this = False  # Java: a bare name may be a field or method of the class
    inherits_constructors = False  # JS/TS: `new Child()` runs the base's constructor

    def __init__(self, root: Path) -> None:
        self.root = root

    def extract(self, path: str, language: str, source: bytes) -> FileFacts:
        grammar = grammar_of(path, language, source)
        tree = parse(grammar, source)
        found = definitions(tree.root_node, path, grammar)
        return extracted(self.extractor(path, language, tree.root_node, found))

    def configure(self, paths: Iterable[str]) -> None:
        """Read the project files (tsconfig.json, go.mod, Cargo.toml) that imports depend on."""

    def config_files(self, paths: Iterable[str]) -> set[str]:
        """Workspace-relative project files whose change changes how imports resolve."""
        return set()

    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """The modules, packages or types an `Import(spec)` in `facts` names."""
        return EMPTY

    def fallback(self, name: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """Names a file sees beyond its own scopes and star imports."""
        return EMPTY

    def submodule(self, module: str, name: str, evaluator: Evaluator) -> Values:
        """A module nested under the module file `module` (Rust's `a/b.rs`)."""
        return EMPTY

    def package_files(self, key: str, evaluator: Evaluator) -> list[str]:
        return []

    def constructor_names(self, type_qualname: str) -> tuple[str, ...]:
        return ()

    def rows(self, facts: FileFacts) -> Iterable[tuple[str, str, object]]:
        """(table, key, value) of each row the file adds to this front end's workspace
        tables (`Evaluator.tables.of(table)`: lookups there are recorded, so an edit
        re-resolves only the files that looked up a key it changed). Table names start
        with the language's."""
        return ()


def returned(declared: Expr | None, scope: Scope) -> Expr | None:
    """A declared result, unless it names a type parameter: `first<T>(xs: T[]): T` returns
    whatever the caller's T is, which its bound (used inside the function) does not say."""
    if declared is None:
        return None
    parts = list(declared.options) if isinstance(declared, Union) else [declared]
    for part in parts:
        inner = part.type if isinstance(part, Instance | Wrapped) else part
        while isinstance(inner, Member):
            inner = inner.obj
        if isinstance(inner, Name) and scope.is_type_param(inner.id):
            return UNKNOWN  # declared, but unknown here: not what `return` statements give
    return declared


def config_ancestors(paths: Iterable[str], names: tuple[str, ...]) -> set[str]:
    """`names` in every directory that holds one of `paths`, and in all their parents."""
    dirs: set[PurePosixPath] = set()
    for path in paths:
        parent = PurePosixPath(path).parent
        while parent not in dirs:
            dirs.add(parent)
            if parent == parent.parent:
                break
            parent = parent.parent
    return {(d / n).as_posix() for d in dirs for n in names}
