"""What a tree-sitter language front end extracts from one file, in language-neutral terms.

Each front end (`ts_resolve`, `go_resolve`, `rust_resolve`, `java_resolve`) turns its syntax
into these expressions, scopes and declarations; one evaluator (`syntax_engine`) resolves
them for every language. A file's facts depend on that file alone, so a changed file is
re-extracted without looking at any other; all cross-file meaning is left to the evaluator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

Pos = tuple[int, int]  # (row, column), 0-based, as tree-sitter gives them
END: Pos = (1 << 30, 0)


class Value(NamedTuple):
    """An abstract value. kind: func | type | inst | module (a file) | package (a Go
    directory or Java package) | wrap (an Option/Result/Promise of the type `name`)."""

    kind: str
    name: str


Values = frozenset[Value]
EMPTY: Values = frozenset()


class Expr:
    """An expression the evaluator understands; front ends build these from syntax."""

    __slots__ = ()


@dataclass(frozen=True, eq=False)
class Unknown(Expr):
    pass


UNKNOWN = Unknown()


@dataclass(frozen=True, eq=False)
class Name(Expr):
    id: str
    pos: Pos = END


@dataclass(frozen=True, eq=False)
class Member(Expr):
    """`obj.name`, `obj::name`, `pkg.Name`."""

    obj: Expr
    name: str


@dataclass(frozen=True, eq=False)
class Method(Expr):
    """`obj.name` called, where methods and fields are apart (Java): methods only."""

    obj: Expr
    name: str


@dataclass(frozen=True, eq=False)
class Call(Expr):
    fn: Expr


@dataclass(frozen=True, eq=False)
class New(Expr):
    """`new C(...)`: an instance of C, made by C's constructor."""

    cls: Expr


@dataclass(frozen=True, eq=False)
class Instance(Expr):
    """A value of a named type without a call: declared types, struct literals, casts."""

    type: Expr


@dataclass(frozen=True, eq=False)
class Wrapped(Expr):
    """A declared `Promise<T>`, `Option<T>`, `Result<T, E>`: T once unwrapped."""

    type: Expr


@dataclass(frozen=True, eq=False)
class Unwrap(Expr):
    """`await x`, `x?`, `x.unwrap()`."""

    inner: Expr


@dataclass(frozen=True, eq=False)
class This(Expr):
    """`this` / `self`: the instance of the enclosing type."""


@dataclass(frozen=True, eq=False)
class SelfType(Expr):
    """The enclosing type itself (Rust `Self`, a Java method called without a receiver)."""


@dataclass(frozen=True, eq=False)
class Super(Expr):
    """`super`: members looked up from the enclosing type's bases."""


@dataclass(frozen=True, eq=False)
class Union(Expr):
    options: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class Either(Expr):
    """`first` when it resolves to anything, else `second` (Java: an unqualified call is a
    method of the class, else a statically imported one)."""

    first: Expr
    second: Expr


@dataclass(frozen=True, eq=False)
class Known(Expr):
    """A value known while extracting: a definition of this file."""

    value: Value


@dataclass(frozen=True, eq=False)
class Import(Expr):
    """A module, package or crate named by `spec` (`./x`, a Go import path, `crate`);
    the front end resolves it against the workspace."""

    spec: str


class Binding(NamedTuple):
    pos: Pos  # where the name starts to hold `expr`
    expr: Expr
    typed: bool = False  # a declared type: wins over later untyped assignments
    imported: bool = False  # an import (Go: not visible from the package's other files)


@dataclass(eq=False)
class Scope:
    kind: str  # module | type | function
    parent: Scope | None
    this: Expr | None = None  # what `this`/`self` means here; None: ask the parent
    type_qualname: str = ""  # the type whose body a type scope is
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    returns: list[Expr] = field(default_factory=list)
    type_params: set[str] = field(default_factory=set)  # generic parameters declared here

    def bind(self, name: str, binding: Binding) -> None:
        if name:
            self.bindings.setdefault(name, []).append(binding)

    def declaring(self, name: str) -> Scope | None:
        """The scope `name` is bound in, seen from here (an assignment rebinds it there)."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.bindings:
                return scope
            scope = scope.parent
        return None

    def is_type_param(self, name: str) -> bool:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.bindings and name not in scope.type_params:
                return False
            if name in scope.type_params:
                return True
            scope = scope.parent
        return False

    def enclosing_type(self) -> str:
        scope: Scope | None = self
        while scope is not None:
            if scope.type_qualname:
                return scope.type_qualname
            scope = scope.parent
        return ""


@dataclass(eq=False)
class TypeDecl:
    qualname: str
    scope: Scope  # where its bases and field types are read
    line: int
    bases: list[Expr] = field(default_factory=list)  # extends, implements, embedded types
    fields: dict[str, list[tuple[Expr, Scope]]] = field(default_factory=dict)
    is_class: bool = True  # interfaces and traits have no constructors to inherit

    def add_field(self, name: str, expr: Expr, scope: Scope) -> None:
        if name:
            self.fields.setdefault(name, []).append((expr, scope))


@dataclass(eq=False)
class FuncDecl:
    """A function or method; `container` (read in `outer`) is the type a method belongs to."""

    qualname: str
    name: str
    body: Scope
    returns: Expr | None = None  # the declared result; None: what `return` statements give
    container: Expr | None = None
    outer: Scope | None = None


@dataclass(eq=False)
class TraitImpl:
    """Rust `impl Trait for Type`: Type gains Trait's methods and an inherit edge."""

    type: Expr
    trait: Expr
    scope: Scope
    line: int


@dataclass(eq=False)
class Site:
    """Code that calls: kind call | new | super (`super(...)`) | this (Java `this(...)`)."""

    owner: str  # the qualname of the chunk the call is in
    scope: Scope
    expr: Expr
    line: int
    kind: str = "call"


@dataclass(eq=False)
class FileFacts:
    path: str
    language: str
    module: str  # the module qualname (the chunker's)
    scope: Scope  # the module scope
    package: str = ""  # Go package name, Java package
    definitions: dict[str, str] = field(default_factory=dict)  # chunk qualname -> kind
    exports: dict[str, list[Expr]] = field(default_factory=dict)  # re-exports, CommonJS
    import_stars: list[Expr] = field(default_factory=list)  # names visible in this file
    export_stars: list[Expr] = field(default_factory=list)  # names offered to importers
    member_stars: list[Expr] = field(default_factory=list)  # Java `import static a.B.*`
    unnamed_imports: list[Expr] = field(default_factory=list)  # Go: bound by package name
    types: list[TypeDecl] = field(default_factory=list)
    functions: list[FuncDecl] = field(default_factory=list)
    impls: list[TraitImpl] = field(default_factory=list)
    sites: list[Site] = field(default_factory=list)
    imports: list[tuple[Expr, int]] = field(default_factory=list)  # for import edges
