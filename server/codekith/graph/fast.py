"""The fast call-graph resolver: `ast` and name resolution only, no Jedi.

It follows what a reader can see in the text: imports (relative, aliased, re-exported,
star), definitions in enclosing scopes, self/cls/super through the workspace MRO,
constructor-typed locals, annotations, values returned or passed as arguments. It never
guesses from a bare method name: an attribute resolves only through a known receiver.
Cheap enough to run on every save; Jedi refines its edges in the background.

Values that flow between files (arguments passed to parameters, and the class hierarchy
that `subclasses` reads) form a `World` computed in rounds over all files (see
`incremental`). Every evaluation records in its `Reads` what it looked at outside the text
of its own file, so an update can tell exactly which files' results a change can reach.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from codekith.graph.interface import interface
from codekith.graph.model import Edge
from codekith.graph.scopes import END, Binding, Pos, Scope, Site, collect
from codekith.qualnames import ModuleNames
from codekith.workspace import read_source

ParamKey = tuple[str, str]
PROPERTIES = frozenset({"property", "cached_property"})  # a read runs what they decorate


class Value(NamedTuple):
    """An abstract value: kind is func | class | inst | module | gen | super | const
    (`name` is the literal's repr) | list | dict (`name` is a `ModuleIndex.container`
    token, stable across processes) | partial (`functools.partial` of the function `name`:
    a call of it calls the function). A partial is neither passed on as an argument nor
    returned: through sanic's listener registries and decorator factories it reached every
    decorator application (3,335 more call edges, a few dozen true); where it is made,
    held or called, every edge it adds on the bench is true. `wraps`: the decorated
    function a decorator's result
    (a wrapper function) stands in for, so a call of that name also reaches it."""

    kind: str
    name: str
    bound: bool = False
    wraps: str = ""


Values = frozenset[Value]
EMPTY: Values = frozenset()
Entry = tuple[str | None, ast.expr, Scope, Pos]


@dataclass
class Parsed:
    """One file's scope tables."""

    module: Scope
    scopes: dict[str, list[Scope]]  # qualname -> this file's scopes, in walk order

    @property
    def defines(self) -> frozenset[str]:
        return frozenset(self.scopes)


@dataclass
class World:
    """Workspace-wide results of the previous round: the values passed to each parameter
    and the direct subclasses of each class."""

    flow: dict[ParamKey, Values] = field(default_factory=dict)
    derived: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Reads:
    """What one evaluation looked at beyond its own file's text, with the answers it got:
    files whose scopes it used (path -> content hash, filled in by the caller), the file
    each module name it looked up resolved to ("" for none), the files holding each
    qualified name it looked up, has_module answers, parameter values and subclasses.

    `interfaces` (path -> `interface.interface` digest, filled in by the caller) names the
    used files of which the result depends on no more than their interface; `texts`, only
    until then, the files whose text the evaluation read beyond it (a list or dict literal
    behind a token, a function scope's bindings read by attribute)."""

    files: dict[str, str] = field(default_factory=dict)
    modules: dict[str, str] = field(default_factory=dict)
    qualnames: dict[str, tuple[str, ...]] = field(default_factory=dict)
    prefixes: dict[str, bool] = field(default_factory=dict)
    params: dict[ParamKey, Values] = field(default_factory=dict)
    subclasses: dict[str, tuple[str, ...]] = field(default_factory=dict)
    interfaces: dict[str, str] = field(default_factory=dict)
    texts: set[str] = field(default_factory=set, compare=False, repr=False)


class ModuleIndex:
    """The workspace's Python files, each parsed the first time a lookup needs it.

    Answers lookups as one eager pass over every file (in path order) would: a module name
    held by several files is the last of them that parses; the scopes of a qualified name
    come in path order, then walk order. What a file defines and whether it parses can be
    told in advance (`know`), so that checking earlier answers parses nothing.
    """

    def __init__(
        self, root: Path, paths: Iterable[str] = (), names: ModuleNames | None = None
    ) -> None:
        self.root = root
        self.names = names or ModuleNames.on_disk(root)  # the chunker's module names
        self.broken: set[str] = set()
        self._by_module: dict[str, list[str]] = {}
        self._modules: list[str] = []  # sorted: prefix queries bisect it
        self._parsed: dict[str, Parsed | None] = {}
        self._facts: dict[str, frozenset[str] | None] = {}  # path -> defines, None: no parse
        self._sources: dict[str, str] = {}
        self._containers: dict[str, tuple[ast.expr, Scope]] = {}
        self._scopes: dict[str, list[Scope]] = {}
        self._interfaces: dict[str, str] = {}
        for path in paths:
            self.add(path)

    def add(self, path: str, source: str | None = None) -> None:
        """Register a file (again): it is parsed afresh when next needed."""
        self.remove(path)
        module = self.names(path)
        if module not in self._by_module:
            bisect.insort(self._modules, module)
        bisect.insort(self._by_module.setdefault(module, []), path)
        if source is not None:
            self._sources[path] = source

    def know(self, path: str, defines: frozenset[str] | None) -> None:
        """What an unparsed registered file defines (None: it does not parse)."""
        if path not in self._parsed:
            self._facts[path] = defines

    def remove(self, path: str) -> None:
        module = self.names(path)
        paths = self._by_module.get(module, [])
        if path in paths:
            paths.remove(path)
            if not paths:
                del self._by_module[module]
                self._modules.remove(module)
        self._parsed.pop(path, None)
        self._facts.pop(path, None)
        self._sources.pop(path, None)
        self._interfaces.pop(path, None)
        self._scopes.clear()
        self.broken.discard(path)
        for token in [t for t in self._containers if t.startswith(path + "|")]:
            del self._containers[token]

    def paths(self) -> list[str]:
        """Registered files that are their module's file (parsing them)."""
        return sorted(p for p in self.all_paths() if self.owns(p))

    def all_paths(self) -> list[str]:
        return sorted(p for paths in self._by_module.values() for p in paths)

    def owns(self, path: str) -> bool:
        return self.owner(self.names(path)) == path

    def parsed(self, path: str) -> Parsed | None:
        if path not in self._parsed:
            self._parsed[path] = self._parse(path)
            self._facts.pop(path, None)
        return self._parsed[path]

    def defines(self, path: str) -> frozenset[str] | None:
        """The qualified names a file defines; None when it does not parse."""
        if path in self._facts:
            return self._facts[path]
        parsed = self.parsed(path)
        return parsed.defines if parsed is not None else None

    def owner(self, module: str) -> str:
        """The file that is `module` ("" for none)."""
        for path in reversed(self._by_module.get(module, [])):
            if self.defines(path) is not None:
                return path
        return ""

    def holders(self, qualname: str) -> tuple[str, ...]:
        """The files that define `qualname`, in path order."""
        return tuple(p for p in self._candidates(qualname) if qualname in (self.defines(p) or ()))

    def interface(self, path: str) -> str:
        """A digest of what evaluating another file can read of `path`
        (`interface.interface`; a file that does not parse has none to read)."""
        if path not in self._interfaces:
            parsed = self.parsed(path)
            self._interfaces[path] = interface(parsed.module) if parsed is not None else "-"
        return self._interfaces[path]

    def module(self, name: str) -> Scope | None:
        path = self.owner(name)
        parsed = self.parsed(path) if path else None
        return parsed.module if parsed is not None else None

    def module_scope(self, path: str) -> Scope | None:
        return self.module(self.names(path))

    def scopes(self, qualname: str) -> list[Scope]:
        if qualname not in self._scopes:
            found: list[Scope] = []
            for path in self.holders(qualname):
                parsed = self.parsed(path)
                found += parsed.scopes.get(qualname, []) if parsed is not None else []
            self._scopes[qualname] = found
        return self._scopes[qualname]

    def has_module(self, module: str) -> bool:
        """A module file, or a package prefix of one (namespace packages have no file)."""
        if self.owner(module):
            return True
        start = bisect.bisect_right(self._modules, module + ".")
        for name in self._modules[start:]:
            if not name.startswith(module + "."):
                break
            if self.owner(name):
                return True
        return False

    def _candidates(self, qualname: str) -> list[str]:
        parts = qualname.split(".")
        prefixes = (".".join(parts[:end]) for end in range(1, len(parts) + 1))
        return sorted(p for prefix in prefixes for p in self._by_module.get(prefix, []))

    def qualnames(self) -> set[str]:
        """Modules and functions (lambdas included): the keys PyCG lists."""
        first: dict[str, Scope] = {}
        for path in self.all_paths():
            parsed = self.parsed(path)
            for qualname, scopes in (parsed.scopes if parsed else {}).items():
                first.setdefault(qualname, scopes[0])
        return {qn for qn, scope in first.items() if scope.kind != "class"}

    def container(self, node: ast.expr, scope: Scope) -> str:
        """A token for a list/dict literal that names the same literal in any process."""
        parsed = self.parsed(scope.path)
        twins = parsed.scopes.get(scope.qualname, [scope]) if parsed else [scope]
        number = next((i for i, s in enumerate(twins) if s is scope), 0)
        position = ":".join(
            str(getattr(node, a, 0))
            for a in ("lineno", "col_offset", "end_lineno", "end_col_offset")
        )
        token = f"{scope.path}|{scope.qualname}|{number}|{position}|{type(node).__name__}"
        self._containers[token] = (node, scope)
        return token

    def resolve_container(self, token: str) -> tuple[ast.expr, Scope] | None:
        """The literal a token names, found again in its file if this process has not seen it."""
        if token not in self._containers:
            self._find_container(token)
        return self._containers.get(token)

    def _find_container(self, token: str) -> None:
        path, qualname, number, position, kind = token.split("|")
        parsed = self.parsed(path)
        twins = parsed.scopes.get(qualname, []) if parsed else []
        if parsed is None or int(number) >= len(twins):
            return
        for node in ast.walk(parsed.module.node):
            named = type(node).__name__ == kind and isinstance(node, ast.expr)
            if named and _position(node) == position:
                self._containers[token] = (node, twins[int(number)])  # type: ignore[assignment]
                return

    def _parse(self, path: str) -> Parsed | None:
        try:
            text = self._sources.get(path)
            if text is None:
                text = read_source(self.root, path)
            tree = ast.parse(text, filename=path)
            module = collect(tree, path, self.names(path))
        except (SyntaxError, ValueError, OSError, UnicodeDecodeError, RecursionError):
            self.broken.add(path)
            return None
        self.broken.discard(path)
        scopes: dict[str, list[Scope]] = {}
        for scope in module.walk():
            scopes.setdefault(scope.qualname, []).append(scope)
        return Parsed(module, scopes)


class Evaluator:
    """Abstract evaluation over one consistent state of the index, with memo tables."""

    def __init__(self, index: ModuleIndex, world: World | None = None) -> None:
        self.index = index
        self.world = world or World()
        self.reads = Reads()
        self.memo: dict[tuple, Values] = {}
        self.active: set[tuple] = set()
        self.mros: dict[str, list[str]] = {}
        self.store_memo: dict[str, dict[str, list[Entry]]] = {}
        self.subs: dict[str, tuple[str, ...]] = {}
        self.strings: dict[int, tuple[ast.Constant, ast.expr | None]] = {}

    # -- lookups beyond the file, each recorded in `reads` -------------------------------
    def module_of(self, name: str) -> Scope | None:
        scope = self.index.module(name)
        self.reads.modules[name] = scope.path if scope is not None else ""
        if scope is not None:
            self.reads.files[scope.path] = ""
        return scope

    def scopes_of(self, qualname: str) -> list[Scope]:
        scopes = self.index.scopes(qualname)
        holders = tuple(sorted({s.path for s in scopes}))
        self.reads.qualnames[qualname] = holders
        self.reads.files.update(dict.fromkeys(holders, ""))
        return scopes

    def has_module(self, name: str) -> bool:
        if name not in self.reads.prefixes:
            self.reads.prefixes[name] = self.index.has_module(name)
        return self.reads.prefixes[name]

    def is_package(self, name: str) -> bool:
        scope = self.module_of(name)
        return scope is not None and PurePosixPath(scope.path).stem == "__init__"

    def param_values(self, key: ParamKey) -> Values:
        values = self.world.flow.get(key, EMPTY)
        self.reads.params[key] = values
        return values

    def container_at(self, token: str) -> tuple[ast.expr, Scope] | None:
        found = self.index.resolve_container(token)
        path = token.split("|", 1)[0]
        self.reads.files[path] = ""
        self.reads.texts.add(path)  # the literal, found by position, and its file's stores
        return found

    # -- memoised, cycle-safe evaluation -------------------------------------------------
    def cached(self, key: tuple, compute) -> Values:  # type: ignore[no-untyped-def]
        if key in self.memo:
            return self.memo[key]
        if key in self.active:
            return EMPTY
        self.active.add(key)
        try:
            result = frozenset(compute())
        finally:
            self.active.discard(key)
        self.memo[key] = result
        return result

    def eval(self, node: ast.expr | None, scope: Scope, pos: Pos | None = None) -> Values:
        if node is None:
            return EMPTY
        return self.cached(("eval", id(node), id(scope), pos), lambda: self._eval(node, scope, pos))

    def _eval(self, node: ast.expr, scope: Scope, pos: Pos | None) -> Iterator[Value]:
        if isinstance(node, ast.Name):
            yield from self.lookup(node.id, scope, pos or (node.lineno, node.col_offset))
        elif isinstance(node, ast.Attribute):
            for value in self.eval(node.value, scope, pos):
                for found in self.attribute(value, node.attr):
                    yield from self.returns(found) if self.is_getter(found) else (found,)
        elif isinstance(node, ast.Call):
            yield from self.call_result(node, scope, pos)
        elif isinstance(node, ast.Lambda):
            yield from self.lambda_value(node, scope)
        elif isinstance(node, ast.NamedExpr):
            yield from self.eval(node.value, scope, pos)
        elif isinstance(node, ast.IfExp | ast.BoolOp):
            parts = [node.body, node.orelse] if isinstance(node, ast.IfExp) else node.values
            for part in parts:
                yield from self.eval(part, scope, pos)
        elif isinstance(node, ast.Await):
            yield from self.eval(node.value, scope, pos)
        elif isinstance(node, ast.Constant) and isinstance(node.value, int | str | None):
            yield Value("const", repr(node.value))
        elif isinstance(node, ast.List | ast.Tuple | ast.Dict):
            kind = "dict" if isinstance(node, ast.Dict) else "list"
            yield Value(kind, self.index.container(node, scope))
        elif isinstance(node, ast.Subscript):
            yield from self.subscript(node, scope, pos or (node.lineno, node.col_offset))

    # -- containers ------------------------------------------------------------------------
    def subscript(self, node: ast.Subscript, scope: Scope, pos: Pos) -> Iterator[Value]:
        """`x[k]` on a list or dict literal: the entries stored under `k` (all if unknown)."""
        keys: set[str] | None = None
        if not isinstance(node.slice, ast.Slice):
            consts = {v.name for v in self.eval(node.slice, scope, pos) if v.kind == "const"}
            keys = consts or None
        for value in self.eval(node.value, scope, pos):
            if value.kind in ("list", "dict"):
                yield from self.items(value, keys, scope, pos)

    def items(self, container: Value, keys: set[str] | None, scope: Scope, pos: Pos) -> Values:
        entries = [e for e in self.entries(container) if keys is None or e[0] in (None, *keys)]
        if keys is not None and len(keys) == 1:
            entries = latest(entries, scope, pos)
        found = {v for _, expr, owner, at in entries for v in self.eval(expr, owner, at)}
        return frozenset(found | self.spread(container))

    def spread(self, container: Value) -> set[Value]:
        """The items of what a list or tuple literal unpacks (`[first, *rest]`: rest's)."""
        found = self.container_at(container.name)
        if found is None:
            return set()
        node, scope = found
        if not isinstance(node, ast.List | ast.Tuple):
            return set()
        at = (node.lineno, node.col_offset)
        starred = [e.value for e in node.elts if isinstance(e, ast.Starred)]
        return {v for expr in starred for v in self.iterate(self.eval(expr, scope, at))}

    def entries(self, container: Value) -> list[Entry]:
        """(key repr or None, value expression, scope, position) of a literal and its stores."""
        found = self.container_at(container.name)
        if found is None:
            return []
        node, scope = found
        at = (node.lineno, node.col_offset)
        out: list[Entry] = []
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if key is not None:
                    out.append((self.const_key(key, scope), value, scope, at))
        elif isinstance(node, ast.List | ast.Tuple):  # after an unpacked item, no index holds
            plain = [e for e in node.elts if not isinstance(e, ast.Starred)]
            exact = len(plain) == len(node.elts)
            out += [(repr(i) if exact else None, e, scope, at) for i, e in enumerate(plain)]
        return out + self.stores(scope.module_scope()).get(container.name, [])

    def stores(self, module: Scope) -> dict[str, list[Entry]]:
        """Entries added by `c[k] = v` / `c.update(...)` in `module`, by container token."""
        if module.path not in self.store_memo:
            table: dict[str, list[Entry]] = {}
            self.store_memo[module.path] = table
            for scope in module.walk():
                for store in scope.stores:
                    key = self.const_key(store.key, scope) if store.key is not None else None
                    for value in self.eval(store.container, scope, store.pos):
                        if value.kind in ("list", "dict"):
                            entry = (key, store.value, scope, store.pos)
                            table.setdefault(value.name, []).append(entry)
        return self.store_memo[module.path]

    def const_key(self, node: ast.expr, scope: Scope) -> str | None:
        consts = [v.name for v in self.eval(node, scope, END) if v.kind == "const"]
        return consts[0] if len(consts) == 1 else None

    def lambda_value(self, node: ast.Lambda, scope: Scope) -> Iterator[Value]:
        for child in scope.children:
            if child.node is node:
                yield Value("func", child.qualname)

    # -- names -----------------------------------------------------------------------------
    def lookup(self, name: str, scope: Scope, pos: Pos | None) -> Values:
        for current, at in enclosing(scope, pos):
            found = self.scope_lookup(name, current, at)
            if found is not None:
                return found
        return EMPTY

    def scope_lookup(self, name: str, scope: Scope, pos: Pos | None) -> Values | None:
        bindings = scope.bindings.get(name)
        if bindings:
            return frozenset(v for b in visible(bindings, pos) for v in self.binding(b, scope))
        if name in scope.params:
            return self.param(scope, name)
        if scope.kind == "module":
            return self.star_lookup(name, scope)
        return None

    def star_lookup(self, name: str, module: Scope) -> Values | None:
        for base, _line in module.star_imports:
            target = self.resolve_module(base, module)
            if self.module_of(target) is not None:
                found = self.module_attr(target, name)
                if found:
                    return found
        return None

    def binding(self, b: Binding, scope: Scope) -> Values:
        return self.cached(("binding", id(b)), lambda: self._binding(b, scope))

    def _binding(self, b: Binding, scope: Scope) -> Iterable[Value]:
        if b.kind == "def" and b.scope is not None:
            return self.decorated(b.scope, 0)
        if b.kind == "class" and b.scope is not None:
            return [Value("class", b.scope.qualname)]
        if b.kind == "import":
            return self.imported(b, scope)
        if b.kind == "iter":
            return self.iterate(self.eval(b.node, scope, b.pos))  # type: ignore[arg-type]
        if b.kind == "enter":
            return self.entered(self.eval(b.node, scope, b.pos))  # type: ignore[arg-type]
        if b.kind == "value":
            return self.eval(b.node, scope, b.pos)  # type: ignore[arg-type]
        return EMPTY

    def param(self, scope: Scope, name: str) -> Values:
        return self.cached(("param", id(scope), name), lambda: self._param(scope, name))

    def _param(self, scope: Scope, name: str) -> Iterator[Value]:
        owner = scope.parent
        if owner is not None and owner.kind == "class" and scope.params[0] == name:
            decorators = scope.decorator_names()
            if "staticmethod" not in decorators:
                kind = "class" if "classmethod" in decorators else "inst"
                yield Value(kind, owner.qualname)
                return
        if name in scope.annotations and owner is not None:
            yield from self.annotation(scope.annotations[name], owner)
        if name in scope.defaults and owner is not None:
            yield from self.eval(scope.defaults[name], owner, END)
        yield from self.param_values((scope.qualname, name))

    def annotation(self, node: ast.expr, scope: Scope) -> Iterator[Value]:
        """Classes named by an annotation, through strings, Optional/Union and `X | None`."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            parsed = self.parsed_string(node)
            if parsed is None:
                return
            node = parsed
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            yield from self.annotation(node.left, scope)
            yield from self.annotation(node.right, scope)
        elif isinstance(node, ast.Subscript):
            if _tail_name(node.value) in {"Optional", "Union", "Annotated"}:
                elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                for elt in elts:
                    yield from self.annotation(elt, scope)
        else:
            for value in self.eval(node, scope, END):
                if value.kind == "class":
                    yield Value("inst", value.name)

    def parsed_string(self, node: ast.Constant) -> ast.expr | None:
        """A string annotation's expression, parsed once per evaluation and kept, with the
        string: memo keys hold node ids, and the id of a parse let go could be reused by
        the next (the annotations 'A' and 'B' of one scope answered for each other)."""
        if id(node) not in self.strings:
            try:
                parsed: ast.expr | None = ast.parse(str(node.value), mode="eval").body
            except SyntaxError:
                parsed = None
            for child in ast.walk(parsed) if parsed is not None else ():
                child.lineno, child.col_offset = END  # type: ignore[attr-defined]
            self.strings[id(node)] = (node, parsed)
        return self.strings[id(node)][1]

    # -- imports and modules ---------------------------------------------------------------
    def resolve_module(self, dotted: str, scope: Scope) -> str:
        """Absolute module name of `dotted`, relative (`..pkg`) or not."""
        level = len(dotted) - len(dotted.lstrip("."))
        if not level:
            return dotted
        module = scope.module
        parts = module.split(".") if self.is_package(module) else module.split(".")[:-1]
        parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
        rest = dotted[level:]
        return ".".join([*parts, rest] if rest else parts)

    def imported(self, b: Binding, scope: Scope) -> Iterable[Value]:
        module = self.resolve_module(b.target, scope)
        if not b.name:
            return [Value("module", module)] if self.has_module(module) else EMPTY
        return self.module_attr(module, b.name)

    def module_attr(self, module: str, name: str) -> Values:
        return self.cached(("modattr", module, name), lambda: self._module_attr(module, name))

    def _module_attr(self, module: str, name: str) -> Iterable[Value]:
        scope = self.module_of(module)
        if scope is not None:
            found = self.scope_lookup(name, scope, END)
            if found:
                return found
        child = f"{module}.{name}"
        return [Value("module", child)] if self.has_module(child) else EMPTY

    # -- attributes and classes ------------------------------------------------------------
    def attribute(self, value: Value, name: str) -> Values:
        if value.kind == "module":
            return self.module_attr(value.name, name)
        if value.kind in ("class", "inst"):
            return self.class_attr(value.name, name, value.kind == "inst")
        if value.kind == "super":
            return self.class_attr(value.name, name, True, skip_first=True)
        return EMPTY

    def class_attr(
        self, cls: str, name: str, on_instance: bool, skip_first: bool = False
    ) -> Values:
        key = ("attr", cls, name, on_instance, skip_first)
        return self.cached(key, lambda: self._class_attr(cls, name, on_instance, skip_first))

    def _class_attr(
        self, cls: str, name: str, on_instance: bool, skip_first: bool
    ) -> Iterable[Value]:
        """Instance attributes set by any class in the MRO, else those annotated there
        (with what subclasses define: a mixin's `state: State` is the app's property),
        else the first class attribute found along the MRO; subclasses are searched only
        when nothing is found."""
        mro = self.mro(cls)[1:] if skip_first else self.mro(cls)
        if on_instance:
            descriptor = self.data_descriptor(mro, name)
            if descriptor:
                return descriptor
            found = {v for klass in mro for v in self.inst_attr(klass, name)}
            if any(v.kind != "const" for v in found):
                return found
            annotated = {v for klass in mro for v in self.annotated(klass, name)}
            if annotated:  # and `self.x: T = None` assigned a constant only
                return found | self._declared(cls, name, mro, annotated, skip_first)
            if found:
                return found
        for klass in mro:
            found = self.own_attr(klass, name, on_instance)
            if found:
                return found
        if on_instance and not skip_first:
            subs = self.subclasses(cls)
            return {v for s in subs for v in self.own_attr(s, name, True) | self.inst_attr(s, name)}
        return EMPTY

    def data_descriptor(self, mro: list[str], name: str) -> set[Value]:
        """A `property` that the first class along the MRO defining `name` defines: it wins
        over the instance's attributes (`self.total = v` in `__init__` runs its setter)."""
        for klass in mro:
            scopes = [s for s in self.scopes_of(klass) if s.kind == "class"]
            bindings = [b for s in scopes for b in s.bindings.get(name, [])]
            if not bindings:
                continue
            if any(b.kind == "def" and _is_property(b.scope) for b in bindings):
                return self.own_attr(klass, name, True)
            return set()
        return set()

    def _declared(
        self, cls: str, name: str, mro: list[str], annotated: set[Value], skip_first: bool
    ) -> set[Value]:
        """An annotated attribute: a function the hierarchy defines under its name wins (a
        mixin's `state: State` beside the app's `state` property), else the annotation,
        with what subclasses define under it (looked up only then: a subclass lookup is a
        read that re-resolves this file when the hierarchy changes)."""
        for klass in mro:
            defined = self.own_attr(klass, name, True)
            if any(v.kind == "func" for v in defined):
                return defined
        subs = () if skip_first else self.subclasses(cls)
        return annotated | {v for s in subs for v in self.own_attr(s, name, True)}

    def own_attr(self, cls: str, name: str, on_instance: bool) -> set[Value]:
        out: set[Value] = set()
        for scope in self.scopes_of(cls):
            if scope.kind not in ("class", "module"):
                self.reads.texts.add(scope.path)  # a function's locals: beyond its interface
            for b in scope.bindings.get(name, []):
                for value in self.binding(b, scope):
                    out.add(self.bind_method(value, b, on_instance))
        return out

    def inst_attr(self, cls: str, name: str) -> set[Value]:
        out: set[Value] = set()
        for scope in self.scopes_of(cls):
            for expr, method, pos in scope.inst_attrs.get(name, []):
                out |= self.eval(expr, method, pos)
        return out

    def annotated(self, cls: str, name: str) -> set[Value]:
        """Instances of what an attribute's annotation names (`name: T` in the class body,
        `self.name: T` in a method): a dataclass's or a model's fields are annotations alone."""
        out: set[Value] = set()
        for scope in self.scopes_of(cls):
            if scope.kind == "class" and name in scope.annotations:
                out.update(self.annotation(scope.annotations[name], scope))
        return out

    @staticmethod
    def bind_method(value: Value, b: Binding, on_instance: bool) -> Value:
        if value.kind != "func" or b.kind != "def" or b.scope is None:
            return value
        decorators = b.scope.decorator_names()
        if "staticmethod" in decorators:
            return value
        return value._replace(bound=on_instance or "classmethod" in decorators)

    def class_scope(self, cls: str) -> Scope | None:
        scopes = [s for s in self.scopes_of(cls) if s.kind == "class"]
        return scopes[0] if scopes else None

    def bases(self, cls: str) -> list[str]:
        scope = self.class_scope(cls)
        if scope is None or scope.parent is None:
            return []
        out: list[str] = []
        for base in scope.bases:
            pos = (scope.line, 0)
            out += sorted(v.name for v in self.eval(base, scope.parent, pos) if v.kind == "class")
        return [b for b in dict.fromkeys(out) if b != cls]

    def mro(self, cls: str, seen: frozenset[str] = frozenset()) -> list[str]:
        if cls not in self.mros:
            if cls in seen:
                return [cls]
            linear = [self.mro(base, seen | {cls}) for base in self.bases(cls)]
            self.mros[cls] = [cls, *c3_merge([*linear, self.bases(cls)])]
        return self.mros[cls]

    def subclasses(self, cls: str) -> list[str]:
        """Workspace classes below `cls`, nearest first (from the previous round's world)."""
        if cls not in self.subs:
            self.subs[cls] = tuple(descendants(self.world.derived, cls))
        self.reads.subclasses[cls] = self.subs[cls]
        return list(self.subs[cls])

    def init_of(self, cls: str) -> list[str]:
        """The `__init__` that instantiating `cls` runs, if it is defined in the workspace."""
        funcs = self.class_attr(cls, "__init__", False)
        return sorted(v.name for v in funcs if v.kind == "func")

    # -- calls -----------------------------------------------------------------------------
    def call_result(self, node: ast.Call, scope: Scope, pos: Pos | None) -> Iterator[Value]:
        if isinstance(node.func, ast.Name) and node.func.id == "super":
            yield from self.super_value(node, scope, pos)
            return
        for value in self.eval(node.func, scope, pos):
            yield from self.returns(value)
        if node.args and self.is_partial(node.func, scope, pos or (node.lineno, node.col_offset)):
            for value in self.eval(node.args[0], scope, pos):
                if value.kind == "func":  # calling the partial calls the function
                    yield Value("partial", value.name, value.bound)

    def is_partial(self, func: ast.expr, scope: Scope, pos: Pos) -> bool:
        """`functools.partial` (or `partial` imported from functools), which lives outside
        the workspace and so resolves to nothing."""
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            return func.attr == "partial" and _imports(func.value.id, scope, pos, "functools", "")
        return isinstance(func, ast.Name) and _imports(func.id, scope, pos, "functools", "partial")

    def super_value(self, node: ast.Call, scope: Scope, pos: Pos | None) -> Iterator[Value]:
        if node.args:
            for value in self.eval(node.args[0], scope, pos):
                if value.kind == "class":
                    yield Value("super", value.name)
            return
        method = scope
        while method.parent is not None and method.parent.kind != "class":
            method = method.parent
        if method.parent is not None:
            yield Value("super", method.parent.qualname)

    def returns(self, value: Value) -> Values:
        plain = value._replace(wraps="")  # what a wrapper returns is one for every function
        return self.cached(("returns", plain), lambda: self._returns(plain))

    def _returns(self, value: Value) -> Iterable[Value]:
        if value.kind == "class":
            return [Value("inst", value.name)]
        if value.kind == "inst":
            return frozenset(
                r for f in self.class_attr(value.name, "__call__", True) for r in self.returns(f)
            )
        if value.kind == "partial":
            return self.returns(Value("func", value.name))
        if value.kind != "func":
            return EMPTY
        out: set[Value] = set()
        for scope in self.scopes_of(value.name):
            if scope.yields and scope.kind == "function":
                out.add(Value("gen", scope.qualname))
                continue
            for expr in scope.returns:
                out |= _no_partials(self.eval(expr, scope, END))
            if "return" in scope.annotations and scope.parent is not None:
                out |= set(self.annotation(scope.annotations["return"], scope.parent))
        return out

    def iterate(self, values: Values) -> Iterator[Value]:
        for value in values:
            if value.kind == "gen":
                for scope in self.scopes_of(value.name):
                    for y in scope.yields:
                        yield from self.eval(getattr(y, "value", None), scope, END)
            elif value.kind in ("list", "dict"):
                found = self.container_at(value.name)
                if found is not None:
                    yield from self.items(value, None, found[1], END)
            elif value.kind == "inst":
                iterators = self.call_method(value, "__iter__") or {value}
                for it in iterators:
                    yield from self.call_method(it, "__next__")

    def entered(self, values: Values) -> Iterator[Value]:
        """What `with x as y` binds: what `x.__enter__()` returns (`self`: x itself, not its
        base class), what a `@contextmanager` generator yields; x when neither resolves."""
        for value in values:
            found: set[Value] = set()
            if value.kind == "gen":
                found = set(self.iterate(frozenset({value})))
            elif value.kind == "inst":
                mro = self.mro(value.name)
                for entered in self.call_method(value, "__enter__"):
                    is_self = entered.kind == "inst" and entered.name in mro
                    found.add(value if is_self else entered)
            yield from found or (value,)

    def call_method(self, value: Value, name: str) -> set[Value]:
        out: set[Value] = set()
        for func in self.attribute(value, name):
            out |= self.returns(func)
        return out

    def decorated(self, scope: Scope, start: int) -> Values:
        """What a decorated name holds: the return values of `scope.decorators[start:]`
        applied innermost first; an unresolved decorator is assumed to return its argument."""
        return self.cached(("decorated", id(scope), start), lambda: self._decorated(scope, start))

    def _decorated(self, scope: Scope, start: int) -> Values:
        kind = "class" if scope.kind == "class" else "func"
        current: Values = frozenset({Value(kind, scope.qualname)})
        if scope.parent is None:
            return current
        for decorator in reversed(scope.decorators[start:]):
            results: set[Value] = set()
            for value in self.eval(decorator, scope.parent, (decorator.lineno, 0)):
                if value.kind in ("func", "class"):
                    results |= self.applied(value, current)
            current = frozenset(results) or current
        return frozenset(_standing_in(value, scope.qualname) for value in current)

    def applied(self, decorator: Value, argument: Values) -> set[Value]:
        """What applying `decorator` to `argument` returns. A decorator that returns what it
        is given returns, by the workspace's flow, every function it decorates anywhere
        (a call of one then reached them all): at this application it returns `argument`.
        Instances stay: one stands for its class, whichever application passed it."""
        results = set(self.returns(decorator))
        passed = {v for v in results & self.received(decorator) if v.kind == "func"}
        return (results - passed) | argument if passed else results

    def received(self, func: Value) -> Values:
        """What the calls of `func` anywhere pass to its first parameter."""
        if func.kind != "func":
            return EMPTY
        offset = 1 if func.bound else 0
        found: set[Value] = set()
        for scope in self.scopes_of(func.name):
            if len(scope.params) > offset:
                found |= self.param_values((scope.qualname, scope.params[offset]))
        return frozenset(found)

    def targets(self, values: Values) -> Iterator[str]:
        """The functions that calling one of `values` runs."""
        for value in values:
            if value.kind in ("func", "partial"):
                yield value.name
            elif value.kind == "class":
                yield from self.init_of(value.name)
            elif value.kind == "inst":
                funcs = self.class_attr(value.name, "__call__", True)
                yield from (f.name for f in funcs if f.kind == "func")

    # -- per-file passes -------------------------------------------------------------------
    @staticmethod
    def guarded(method, site: Site, scope: Scope) -> list:  # type: ignore[no-untyped-def]
        """A site too deeply nested to evaluate is left unresolved rather than failing the file."""
        try:
            return list(method(site, scope))
        except RecursionError:
            return []

    def site_wrapped(self, site: Site, scope: Scope) -> list[str]:
        """The decorated functions a call reaches through the wrappers that stand in for
        them (the call's target is the wrapper: `site_targets`)."""
        if site.kind != "call":
            return []
        values = self.eval(site.node.func, scope, (site.node.lineno, site.node.col_offset))  # type: ignore[attr-defined]
        return sorted({value.wraps for value in values if value.wraps})

    def site_getters(self, site: Site, scope: Scope) -> list[str]:
        """The property getters an attribute read runs (`obj.total`, `obj.session.get()`)."""
        node = site.node.func if site.kind == "call" else site.node  # type: ignore[attr-defined]
        if site.kind not in ("read", "call") or not isinstance(node, ast.Attribute):
            return []
        return self.getters(node, scope)

    def getters(self, node: ast.Attribute, scope: Scope) -> list[str]:
        """The property getters `obj.name` names, read on an instance of what `obj` holds."""
        pos = (node.lineno, node.col_offset)
        found = {
            getter.name
            for value in self.eval(node.value, scope, pos)
            for getter in self.attribute(value, node.attr)
            if self.is_getter(getter)
        }
        return sorted(found)

    def site_instances(self, site: Site, scope: Scope) -> list[str]:
        """The workspace classes a call or a raise makes an instance of that run no
        `__init__` of their own (a dataclass, an exception, a subclass keeping its base's):
        their `__init__` call edge, if any, names another class, which left them callerless."""
        node = site.node.func if site.kind == "call" else site.node  # type: ignore[attr-defined]
        if site.kind not in ("call", "raise") or (
            site.kind == "raise" and isinstance(node, ast.Call)
        ):
            return []
        pos = (site.node.lineno, site.node.col_offset)
        made = {v.name for v in self.eval(node, scope, pos) if v.kind == "class"}
        return sorted(c for c in made if f"{c}.__init__" not in self.init_of(c))

    def site_setters(self, site: Site, scope: Scope) -> list[str]:
        """The property setters an attribute write runs (`order.total = 0`): a property
        read on an instance whose class defines a setter under its name."""
        node = site.node
        if site.kind != "write" or not isinstance(node, ast.Attribute):
            return []
        return [getter for getter in self.getters(node, scope) if self.has_setter(getter)]

    def has_setter(self, qualname: str) -> bool:
        return any("setter" in s.decorator_names() for s in self.scopes_of(qualname))

    def is_getter(self, value: Value) -> bool:
        """A property's function read on an instance: reading it runs the function."""
        return (
            value.kind == "func"
            and value.bound
            and any(s.decorator_names() & PROPERTIES for s in self.scopes_of(value.name))
        )

    def site_targets(self, site: Site, scope: Scope) -> list[str]:
        pos = (site.node.lineno, site.node.col_offset)
        if site.kind in ("read", "write"):
            return []
        if site.kind == "call":
            return list(self.targets(self.eval(site.node.func, scope, pos)))  # type: ignore[attr-defined]
        values = self.eval(site.node, scope, pos)
        if site.kind == "raise":
            return [t for v in values if v.kind == "class" for t in self.init_of(v.name)]
        if site.kind == "iter":
            return [
                f.name
                for v in values
                if v.kind == "inst"
                for name in ("__iter__", "__next__")
                for f in self.attribute(v, name)
                if f.kind == "func"
            ]
        return list(self.targets(values))

    def own_module(self, path: str) -> Scope | None:
        """The module scope of `path` when the file is its module's file."""
        module = self.module_of(self.index.names(path))
        return module if module is not None and module.path == path else None

    def file_bases(self, path: str) -> dict[str, tuple[str, ...]]:
        """The bases of each class `path` holds the first definition of: its share of the
        workspace's class hierarchy."""
        module = self.own_module(path)
        found: dict[str, tuple[str, ...]] = {}
        for scope in module.walk() if module is not None else ():
            if scope.kind == "class" and self.scopes_of(scope.qualname)[0] is scope:
                found[scope.qualname] = tuple(self.bases(scope.qualname))
        return found

    def file_flow(self, path: str) -> dict[ParamKey, Values]:
        """Values each call site of `path` passes to the parameters of its targets."""
        flow: dict[ParamKey, set[Value]] = {}
        module = self.own_module(path)
        if module is None:
            return {}
        for scope in module.walk():
            for site in scope.sites:
                for key, values in self.guarded(self.site_flow, site, scope):
                    flow.setdefault(key, set()).update(values)
        return {key: frozenset(values) for key, values in flow.items() if values}

    def site_flow(self, site: Site, scope: Scope) -> Iterator[tuple[ParamKey, Values]]:
        pos = (site.node.lineno, site.node.col_offset)
        if site.kind == "decorator" and site.decorated is not None:
            for value in self.eval(site.node, scope, pos):
                yield from self.bind_args(value, [self.decorated_before(site)], {})
        elif site.kind == "call":
            call: ast.Call = site.node  # type: ignore[assignment]
            # a partial's arguments bind other parameters than the call's
            positional = [
                _no_partials(self.eval(a, scope, pos))
                for a in call.args
                if not isinstance(a, ast.Starred)
            ]
            keywords = {
                k.arg: _no_partials(self.eval(k.value, scope, pos)) for k in call.keywords if k.arg
            }
            for value in self.eval(call.func, scope, pos):
                yield from self.bind_args(value, positional, keywords)

    def decorated_before(self, site: Site) -> Values:
        """The value a decorator receives: the function with the decorators below it applied."""
        scope = site.decorated
        assert scope is not None
        index = next(i for i, d in enumerate(scope.decorators) if d is site.node)
        return self.decorated(scope, index + 1)

    def bind_args(
        self, value: Value, positional: list[Values], keywords: dict[str, Values]
    ) -> Iterator[tuple[ParamKey, Values]]:
        offset = 1 if value.bound else 0
        if value.kind == "class":
            value, offset = Value("func", next(iter(self.init_of(value.name)), "")), 1
        if value.kind != "func" or not value.name:
            return
        for scope in self.scopes_of(value.name):
            params = scope.params[offset:]
            for name, values in zip(params, positional, strict=False):
                yield (scope.qualname, name), values
            for name, values in keywords.items():
                if name in scope.params:
                    yield (scope.qualname, name), values


def visible(bindings: list[Binding], pos: Pos | None) -> list[Binding]:
    """Bindings that can reach `pos`: the last unconditional one before it and any later
    conditional ones; all of them when `pos` is unknown or nothing precedes it."""
    if pos is None:
        return bindings
    before = [b for b in bindings if b.pos <= pos]
    if not before:
        return bindings
    start = max((i for i, b in enumerate(before) if not b.conditional), default=0)
    return before[start:]


def latest(entries: list[Entry], scope: Scope, pos: Pos) -> list[Entry]:
    """A keyed read sees the last entry its own scope wrote before it, plus other scopes'."""
    mine = [e for e in entries if e[2] is scope and e[3] <= pos and e[0] is not None]
    if not mine:
        return entries
    last = max(mine, key=lambda e: e[3])
    return [e for e in entries if e is last or e[2] is not scope or e[0] is None]


def c3_merge(sequences: list[list[str]]) -> list[str]:
    """C3 linearisation; on an inconsistent hierarchy falls back to first-seen order."""
    seqs = [list(s) for s in sequences if s]
    out: list[str] = []
    while seqs:
        head = next((s[0] for s in seqs if not any(s[0] in t[1:] for t in seqs)), None)
        if head is None:
            rest = [c for s in seqs for c in s]
            return out + [c for c in dict.fromkeys(rest) if c not in out]
        out.append(head)
        seqs = [[c for c in s if c != head] for s in seqs]
        seqs = [s for s in seqs if s]
    return out


def _no_partials(values: Values) -> Values:
    return frozenset(v for v in values if v.kind != "partial")


def enclosing(scope: Scope, pos: Pos | None) -> Iterator[tuple[Scope, Pos | None]]:
    """Python's LEGB walk from `scope`: the scopes a name read there may find its binding
    in (class bodies only as the reading scope), with the position each is read at (only
    the reading scope is read flow-sensitively)."""
    current: Scope | None = scope
    while current is not None:
        if current is scope or current.kind != "class":
            yield current, pos if current is scope else None
        current = current.parent


def _imports(name: str, scope: Scope, pos: Pos | None, module: str, imported: str) -> bool:
    """Whether `name`, read in `scope` at `pos`, is bound by an import of `imported` from
    `module` ("": the module itself), as `Evaluator.lookup` finds its binding."""
    for current, at in enclosing(scope, pos):
        bindings = current.bindings.get(name)
        if bindings:
            return any(
                b.kind == "import" and b.target == module and b.name == imported
                for b in visible(bindings, at)
            )
        if name in current.params:
            return False
    return False


def _is_property(scope: Scope | None) -> bool:
    return scope is not None and "property" in scope.decorator_names()


def _standing_in(value: Value, decorated: str) -> Value:
    """`value` as what a decorated name holds: a function other than the decorated one
    is a wrapper standing in for it (or for what it already stood in for)."""
    if value.kind != "func" or value.name == decorated or value.wraps:
        return value
    return value._replace(wraps=decorated)


def _tail_name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _position(node: ast.AST) -> str:
    names = ("lineno", "col_offset", "end_lineno", "end_col_offset")
    return ":".join(str(getattr(node, name, 0)) for name in names)


def descendants(derived: dict[str, list[str]], cls: str) -> list[str]:
    """Classes below `cls` in a direct-subclass map, nearest first."""
    out: list[str] = []
    queue = list(derived.get(cls, []))
    while queue:
        sub = queue.pop(0)
        if sub not in out and sub != cls:
            out.append(sub)
            queue += derived.get(sub, [])
    return out


def resolve_file(
    index: ModuleIndex, path: str, world: World | None = None
) -> tuple[list[Edge], Reads]:
    """All edges whose source lies in `path`, read against the rest of the index and the
    world of the last round; and what the resolution read."""
    evaluator = Evaluator(index, world)
    module = evaluator.own_module(path)
    edges: set[Edge] = set()
    for scope in module.walk() if module is not None else ():
        edges.update(_scope_edges(evaluator, scope))
    return sorted(edges, key=lambda e: (e.line, e.src, e.kind, e.dst)), evaluator.reads


def _scope_edges(evaluator: Evaluator, scope: Scope) -> Iterator[Edge]:
    for site in scope.sites:
        for target in evaluator.guarded(evaluator.site_targets, site, scope):
            yield Edge(scope.qualname, target, "call", scope.path, site.line)
            if site.kind == "decorator" and site.decorated is not None:
                yield Edge(site.decorated.qualname, target, "decorate", scope.path, site.line)
        for wrapped in evaluator.guarded(evaluator.site_wrapped, site, scope):
            yield Edge(scope.qualname, wrapped, "wrapped", scope.path, site.line)
        for getter in evaluator.guarded(evaluator.site_getters, site, scope):
            yield Edge(scope.qualname, getter, "property", scope.path, site.line)
        for setter in evaluator.guarded(evaluator.site_setters, site, scope):
            yield Edge(scope.qualname, setter, "setter", scope.path, site.line)
        for made in evaluator.guarded(evaluator.site_instances, site, scope):
            yield Edge(scope.qualname, made, "new", scope.path, site.line)
    if scope.kind == "class":
        for base in evaluator.bases(scope.qualname):
            yield Edge(scope.qualname, base, "inherit", scope.path, scope.line)
    for b in scope.imports:
        for target in _import_targets(evaluator, b, scope):
            yield Edge(scope.qualname, target, "import", scope.path, b.node.lineno)  # type: ignore[union-attr]


def _import_targets(evaluator: Evaluator, b: Binding, scope: Scope) -> Iterator[str]:
    module = evaluator.resolve_module(b.target, scope)
    values = evaluator.imported(b, scope) if b.name else EMPTY
    named = sorted(v.name for v in values if v.kind in ("func", "class", "module"))
    if named:
        yield from named
    elif evaluator.has_module(module):
        yield module
