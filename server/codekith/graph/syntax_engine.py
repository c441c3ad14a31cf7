"""Call, inherit and import edges for the tree-sitter languages, one evaluator for all.

`SyntaxIndex` keeps the facts of every file of a language with a front end (`FRONTENDS`;
each file's extracted from that file alone) and resolves a file's call sites against all
of them. Like
the Python fast resolver it follows only what the text shows: imports, scopes, declared
and constructed types, fields, `this`/`self`/`super`, bases, embedded types and trait
impls. A call whose receiver has no known type is left out: never the "only method named m".
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path, PurePosixPath
from typing import Any, TypeVar, cast

from codekith.graph.c_resolve import CFrontend
from codekith.graph.cpp_resolve import CppFrontend
from codekith.graph.csharp_resolve import CsFrontend
from codekith.graph.digest import DECL, Digest, digest, home_scope
from codekith.graph.frontend import Frontend
from codekith.graph.go_resolve import GoFrontend
from codekith.graph.java_resolve import JavaFrontend
from codekith.graph.kotlin_resolve import KotlinFrontend
from codekith.graph.lua_resolve import LuaFrontend
from codekith.graph.model import Edge
from codekith.graph.php_resolve import PhpFrontend
from codekith.graph.reads import (
    FILE_GROUPS,
    Interner,
    ReadGraph,
    Reads,
    RecordedFiles,
    Recorder,
    Table,
    changed_reads,
    part_read,
)
from codekith.graph.ruby_resolve import RubyFrontend
from codekith.graph.rust_resolve import RustFrontend
from codekith.graph.scala_resolve import ScalaFrontend
from codekith.graph.shell_resolve import ShellFrontend
from codekith.graph.swift_resolve import SwiftFrontend
from codekith.graph.syntax_model import (
    EMPTY,
    Binding,
    Call,
    Either,
    Expr,
    FileFacts,
    FuncDecl,
    Import,
    Instance,
    Known,
    Member,
    Method,
    Name,
    New,
    Pos,
    Scope,
    SelfType,
    Site,
    Super,
    This,
    TraitImpl,
    TypeDecl,
    Union,
    Unwrap,
    Value,
    Values,
    Wrapped,
)
from codekith.graph.ts_resolve import TsFrontend
from codekith.languages import language_at
from codekith.workspace import cap_long_lines, read_source

log = logging.getLogger(__name__)
FRONTENDS: tuple[type[Frontend], ...] = (
    TsFrontend,
    GoFrontend,
    RustFrontend,
    JavaFrontend,
    KotlinFrontend,
    CFrontend,
    CsFrontend,
    SwiftFrontend,
    RubyFrontend,
    PhpFrontend,
    LuaFrontend,
    ScalaFrontend,
    CppFrontend,
    ShellFrontend,
)
LANGUAGES = frozenset(lang for frontend in FRONTENDS for lang in frontend.languages)
T = TypeVar("T")
HANDED_COPIED = 16  # reads an answer's reuse copies at most (`handed`)
MAX_GRAPH_LINE_CHARS = 100_000  # longer lines (minified or generated code) are cut: a
# megabyte line costs tree-sitter and the front ends hundreds of megabytes


class SyntaxIndex:
    """The facts of every tree-sitter-language file of a workspace, kept up to date."""

    def __init__(
        self, root: Path, paths: Iterable[str] = (), loaded: Callable[[str], None] | None = None
    ) -> None:
        """`loaded` hears of each file parsed."""
        self.root = root
        self.frontends: dict[str, Frontend] = {}
        for kind in FRONTENDS:
            frontend = kind(root)
            self.frontends.update(dict.fromkeys(kind.languages, frontend))
        self.files: dict[str, FileFacts] = {}
        self.digests: dict[str, Digest] = {}
        self.broken: set[str] = set()
        self.interner = Interner()  # reads as ints, the same across evaluators
        self.graph = ReadGraph()  # what each file and memoised answer read
        self.scope_reads_by_id: dict[int, frozenset[int]] = {}  # `scope_reads`, by id(scope)
        self._scope_ids: dict[str, list[int]] = {}  # path -> its scopes cached there
        self._evaluator: Evaluator | None = None
        wanted = [p for p in paths if language_at(root, p) in LANGUAGES]
        self.configure(wanted)
        for path in wanted:
            self._load(path, None)
            if loaded is not None:
                loaded(path)

    def configure(self, paths: Iterable[str]) -> None:
        """(Re)read project files: tsconfig paths, go.mod modules, Cargo crates."""
        languages = self._languages(paths)
        for frontend in set(self.frontends.values()):
            frontend.configure([p for p, lang in languages if lang in frontend.languages])
        self._evaluator = None
        self.graph = ReadGraph()

    def config_files(self, paths: Iterable[str]) -> set[str]:
        languages = self._languages(paths)
        found: set[str] = set()
        for frontend in set(self.frontends.values()):
            mine = [p for p, lang in languages if lang in frontend.languages]
            found |= frontend.config_files(mine)
        return found

    def _languages(self, paths: Iterable[str]) -> list[tuple[str, str | None]]:
        return [(p, language_at(self.root, p)) for p in paths]

    def update(self, path: str, source: str | None = None) -> set[int]:
        """Read `path` again; the reads (interned, among those ever read) this changed."""
        before = self.state(path)
        self._load(path, source)
        return self._changed(path, before)

    def remove(self, path: str) -> set[int]:
        before = self.state(path)
        self._forget(path)
        self.broken.discard(path)
        self.graph.forget(path)
        return self._changed(path, before)

    def readers(self, changed: set[int]) -> set[str]:
        """The files whose last resolution read any of `changed` (reads an update or a
        removal returned), directly or through memoised answers."""
        return {r for r in self.graph.reached(changed) if isinstance(r, str)}

    def _changed(self, path: str, before: tuple[FileFacts, Digest] | None) -> set[int]:
        """What replacing `path`'s facts `before` with its present ones changed
        (`reads.changed_reads`). The evaluator forgets those answers, and every answer that
        read any part of the file: they hold the old facts' object ids in their keys."""
        after = self.state(path)
        changed = self.interner.known(changed_reads(path, before, after, self.row_keys))
        if self._evaluator is not None:
            bodies = max((len(side[1].bodies) for side in (before, after) if side), default=0)
            every = [("file", path), ("exists", path), part_read(path, DECL)]
            every += [part_read(path, part) for part in range(bodies)]
            stale = self._evaluator.stale or set()
            self._evaluator.stale = stale | changed | self.interner.known(every)
            self._evaluator.edited.add(path)
        return changed

    def _forget(self, path: str) -> None:
        self.files.pop(path, None)
        self.digests.pop(path, None)
        for scope_id in self._scope_ids.pop(path, []):  # the scopes of facts let go of:
            del self.scope_reads_by_id[scope_id]  # their ids may come back for new ones

    def paths(self) -> list[str]:
        return sorted(self.files)

    def qualnames(self) -> set[str]:
        """Modules, functions and methods: the keys PyCG lists."""
        names: set[str] = set()
        for facts in self.files.values():
            names.add(facts.module)
            names.update(q for q, kind in facts.definitions.items() if kind != "class")
        return names

    def defined(self) -> set[str]:
        return {q for facts in self.files.values() for q in facts.definitions}

    def resolve(self, path: str) -> list[Edge]:
        """All edges held by `path`, read against the rest of the workspace; what that
        read is kept (`readers`)."""
        facts = self.files.get(path)
        if facts is None:
            return []
        if self._evaluator is None:
            self._evaluator = Evaluator(self)
        elif self._evaluator.stale is not None:
            self._evaluator.refresh()
        recorder = self._evaluator.recorder
        outer = recorder.begin()
        try:
            edges = sorted(set(self._evaluator.file_edges(facts)), key=_order)
        finally:
            self.graph.record(path, recorder.end(outer))
        return edges

    def rows(self, facts: FileFacts) -> Iterator[Row]:
        """The rows a file puts in the evaluator's tables and its front end's."""
        yield from Tables.rows(facts)
        frontend = self.frontends.get(facts.language)
        if frontend is not None:
            yield from frontend.rows(facts)

    def row_keys(self, facts: FileFacts) -> Iterator[tuple[str, str]]:
        return ((table, key) for table, key, _ in self.rows(facts))

    def state(self, path: str) -> tuple[FileFacts, Digest] | None:
        facts = self.files.get(path)
        return (facts, self.digests[path]) if facts is not None else None

    def scope_reads(self, path: str, scope: Scope) -> frozenset[int]:
        """What evaluating in `scope` of `path` reads: the part of the file it is in (a
        body's reads include the declarations it sees), or the whole file."""
        found = self.scope_reads_by_id.get(id(scope))
        if found is None:
            part = self.digests[path].parts.get(id(scope))
            keys = (
                [("file", path)] if part is None else {part_read(path, DECL), part_read(path, part)}
            )
            found = self.scope_reads_by_id[id(scope)] = frozenset(self.interner.id(k) for k in keys)
            self._scope_ids.setdefault(path, []).append(id(scope))
        return found

    def decl_read(self, path: str) -> int:
        return self.interner.id(part_read(path, DECL))

    def _load(self, path: str, source: str | None) -> None:
        language = language_at(self.root, path)
        frontend = self.frontends.get(language or "")
        if frontend is None or language is None:
            return
        try:
            text = read_source(self.root, path) if source is None else source
            text, _ = cap_long_lines(text, MAX_GRAPH_LINE_CHARS)
            facts = frontend.extract(path, language, text.encode("utf-8"))
        except (OSError, ValueError):  # gone, or not text (workspace.NotIndexableError)
            self._forget(path)
            self.broken.add(path)
            return
        except Exception:  # a front-end bug must cost one file's edges, not the index run
            log.warning("call graph: could not read %s", path, exc_info=True)
            self._forget(path)
            self.broken.add(path)
            return
        self.broken.discard(path)
        self._forget(path)
        self.files[path] = facts
        self.digests[path] = digest(facts)


Row = tuple[str, str, object]  # (table, key, value)


class Tables:
    """Cross-file lookups, built once and brought up to date file by file; lookups are
    recorded. The evaluator's own tables are attributes; a front end's (`Frontend.rows`)
    are in `of`."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self._tables: dict[str, Table[Any]] = {}
        self.module_scopes: dict[int, FileFacts] = {}
        self._written: dict[str, tuple[FileFacts, set[tuple[str, str]]]] = {}  # path ->
        # the facts its rows came from, and the (table, key) of each
        self.functions: Table[FuncDecl] = self.of("functions")
        self.methods_by_name: Table[FuncDecl] = self.of("methods_by_name")
        self.types: Table[tuple[TypeDecl, FileFacts]] = self.of("types")
        self.impls_by_name: Table[TraitImpl] = self.of("impls_by_name")
        self.dirs: Table[FileFacts] = self.of("dirs")
        self.packages: Table[FileFacts] = self.of("packages")  # "java:a.b" -> files
        self.definitions: Table[str] = self.of("definitions")

    def of(self, name: str) -> Table[Any]:
        """The table `name` (empty when no file has rows in it: its lookups still count)."""
        found = self._tables.get(name)
        if found is None:
            found = self._tables[name] = Table(name, self.recorder)
        return found

    @classmethod
    def build(cls, index: SyntaxIndex, recorder: Recorder) -> Tables:
        tables = cls(recorder)
        for path, facts in sorted(index.files.items()):
            tables.module_scopes[id(facts.scope)] = facts
            keys: set[tuple[str, str]] = set()
            for name, key, value in index.rows(facts):
                tables.of(name).add(key, path, value, _row_reads(index, path, name, value))
                keys.add((name, key))
            tables._written[path] = (facts, keys)
        return tables

    def replace(self, index: SyntaxIndex, path: str) -> None:
        """`path`'s rows as the index now holds the file (none when it is gone)."""
        old, keys = self._written.pop(path, (None, set()))
        if old is not None:
            del self.module_scopes[id(old.scope)]
        new: dict[tuple[str, str], list[tuple[object, Iterable[int]]]] = {k: [] for k in keys}
        facts = index.files.get(path)
        if facts is not None:
            self.module_scopes[id(facts.scope)] = facts
            for name, key, value in index.rows(facts):
                reads = _row_reads(index, path, name, value)
                new.setdefault((name, key), []).append((value, reads))
            self._written[path] = (facts, {k for k, rows in new.items() if rows})
        for (name, key), rows in new.items():
            self.of(name).replace(key, path, rows)

    @staticmethod
    def rows(facts: FileFacts) -> Iterator[Row]:
        """The rows a file puts in the evaluator's own tables, in order."""
        yield "dirs", str(PurePosixPath(facts.path).parent), facts
        for qualname in facts.definitions:
            yield "definitions", qualname, qualname
        if facts.package:
            yield "packages", f"{facts.language}:{facts.package}", facts
        for function in facts.functions:
            yield "functions", function.qualname, function
            if function.container is not None:
                yield "methods_by_name", function.name, function
        for decl in facts.types:
            yield "types", decl.qualname, (decl, facts)
        for impl in facts.impls:
            yield "impls_by_name", _simple_name(impl.type), impl


class Evaluator:
    """Abstract evaluation over one state of the index. Results are memoised, except those
    computed while a cycle was cut short, so the answer never depends on which file asked
    first: a warm update and a cold run give the same edges."""

    def __init__(self, index: SyntaxIndex) -> None:
        self.index = index
        self.recorder = Recorder(index.interner)
        self.files = RecordedFiles(index.files, self.recorder)
        self.tables = Tables.build(index, self.recorder)
        self.graph = index.graph
        self.memo: dict[tuple, tuple[Any, Reads]] = {}  # key -> (answer, what whoever
        # reuses it reads: `handed`)
        self.active: dict[tuple, int] = {}
        self.low = 1 << 30
        self.made_by: dict[str, tuple[list[str], Reads]] = {}  # class -> the
        # constructors `new` runs, and what whoever reuses them reads
        self._memo_keys: dict[int, tuple] = {}  # node -> its memo key
        self._made_keys: dict[int, list[str]] = {}  # node -> its made_by keys
        self._scope_reads = index.scope_reads_by_id  # read inline on the hot path
        self.stale: set[int] | None = None  # reads changed since the last refresh
        self.edited: set[str] = set()  # files whose rows changed since then

    def refresh(self) -> None:
        """Forget the answers that read anything `stale`; keep the rest (an answer depends
        on what it read and nothing else), so an edit recomputes what it reaches."""
        stale, self.stale = self.stale or set(), None
        for path in sorted(self.edited):
            self.tables.replace(self.index, path)
        self.edited.clear()
        for node in self.graph.reached(stale):
            if isinstance(node, int):  # not a file; a node forgotten before has no keys
                key = self._memo_keys.pop(node, None)
                if key is not None:
                    del self.memo[key]
                for name in self._made_keys.pop(node, []):
                    del self.made_by[name]
                self.graph.drop(node)

    # -- memoised, cycle-safe evaluation ---------------------------------------------------
    def cached(self, key: tuple, compute: Callable[[], Iterable[Value]]) -> Values:
        found = self.memo.get(key)
        if found is not None:  # the hot path, inline: most evaluations are answered here
            self.recorder.reads.update(found[1])
            return cast(Values, found[0])
        return self.memoised(key, lambda: frozenset(compute()), EMPTY)

    def memoised(self, key: tuple, compute: Callable[[], T], cut: T) -> T:
        """`compute()` once per key, with what it read; `cut` for a key asked for while
        it is being computed (a cycle), and nothing memoised that such a cut reached."""
        found = self.memo.get(key)
        if found is not None:
            self.recorder.reads.update(found[1])
            return cast(T, found[0])
        if key in self.active:
            self.low = min(self.low, self.active[key])
            return cut
        depth = len(self.active)
        self.active[key] = depth
        outer_low, self.low = self.low, depth + 1
        recorder = self.recorder
        outer, recorder.reads = recorder.reads, set()  # Recorder.begin/end, inline: hot
        try:
            result = compute()
        except BaseException:
            outer |= recorder.reads  # what it read before it failed is still read
            raise
        finally:
            del self.active[key]
            reads, recorder.reads = recorder.reads, outer
        low, self.low = self.low, min(outer_low, self.low)
        if low >= depth:
            kept = tuple(reads)
            node = self.graph.node(kept)
            self._memo_keys[node] = key
            reused = handed(kept, node)
            self.memo[key] = (result, reused)
            outer.update(reused)
        else:
            outer |= reads
        return result

    def eval(self, expr: Expr, scope: Scope) -> Values:
        key = ("eval", id(expr), id(scope))
        found = self.memo.get(key)
        if found is not None:
            self.recorder.reads.update(found[1])
            return cast(Values, found[0])
        return self.memoised(key, lambda: frozenset(self._eval_in(expr, scope)), EMPTY)

    def _eval_in(self, expr: Expr, scope: Scope) -> Iterable[Value]:
        reads = self._scope_reads.get(id(scope))
        if reads is None:
            path = self.facts_of(scope).path
            reads = self.index.scope_reads(path, scope)
        self.recorder.reads |= reads
        return self._eval(expr, scope)

    def _eval(self, expr: Expr, scope: Scope) -> Iterable[Value]:
        if isinstance(expr, Name):
            return self.lookup(expr.id, expr.pos, scope)
        if isinstance(expr, Member):
            return {v for base in self.eval(expr.obj, scope) for v in self.member(base, expr.name)}
        if isinstance(expr, Method):
            return {v for base in self.eval(expr.obj, scope) for v in self.method(base, expr.name)}
        if isinstance(expr, Call):
            return {v for fn in self.eval(expr.fn, scope) for v in self.returns(fn)}
        if isinstance(expr, New | Instance):
            inner = expr.cls if isinstance(expr, New) else expr.type
            values = self.eval(inner, scope)
            made = self.types_of(values)
            if isinstance(expr, New):  # `new View(name)` of a JavaScript function makes a
                made += self.of_kind(values, "func")  # View: `View.prototype.render = …`
            return {Value("inst", t.name) for t in made}
        if isinstance(expr, Wrapped):
            return {Value("wrap", t.name) for t in self.types_of(self.eval(expr.type, scope))}
        if isinstance(expr, Unwrap):
            values = self.eval(expr.inner, scope)
            return {Value("inst", v.name) if v.kind == "wrap" else v for v in values}
        if isinstance(expr, This):
            return self.this(scope)
        if isinstance(expr, SelfType | Super):
            owner = scope.enclosing_type()
            kind = "type" if isinstance(expr, SelfType) else "super"
            return {Value(kind, owner)} if owner else EMPTY
        if isinstance(expr, Union):
            return {v for option in expr.options for v in self.eval(option, scope)}
        if isinstance(expr, Either):
            return self.eval(expr.first, scope) or self.eval(expr.second, scope)
        if isinstance(expr, Known):
            return {expr.value}
        if isinstance(expr, Import):
            facts = self.facts_of(scope)
            return self.frontend(facts).resolve(expr.spec, facts, self)
        return EMPTY

    def types_of(self, values: Values) -> list[Value]:
        return self.of_kind(values, "type")

    def of_kind(self, values: Values, kind: str) -> list[Value]:
        """Values of `kind` among `values`; a module stands for its default export
        (CommonJS)."""
        found = [v for v in values if v.kind == kind]
        for module in (v for v in values if v.kind == "module"):
            found += [v for v in self.member(module, "default") if v.kind == kind]
        return found

    def this(self, scope: Scope) -> Values:
        current: Scope | None = scope
        while current is not None:
            if current.this is not None:
                return self.eval(current.this, current)
            current = current.parent
        return EMPTY

    # -- names -----------------------------------------------------------------------------
    def facts_of(self, scope: Scope) -> FileFacts:
        while scope.parent is not None:
            scope = scope.parent
        return self.tables.module_scopes[id(scope)]

    def frontend(self, facts: FileFacts) -> Frontend:
        return self.index.frontends[facts.language]

    def lookup(self, name: str, at: Pos, scope: Scope) -> Values:
        facts = self.facts_of(scope)
        frontend = self.frontend(facts)
        current: Scope | None = scope
        while current is not None:
            bindings = current.bindings.get(name)
            if bindings:
                return self.bound(bindings, at if current.kind == "function" else None, current)
            if current.kind == "type" and frontend.implicit_this and current.type_qualname:
                found = self.fields(current.type_qualname, name, inherited=True)
                if found:
                    return found
            current = current.parent
        found = self.from_stars(facts.import_stars, facts.scope, name)
        return found or frontend.fallback(name, facts, self)

    def bound(self, bindings: list[Binding], at: Pos | None, scope: Scope) -> Values:
        """What a name holds at `at`: its declared type if it has one, else the last value
        given before `at`; every binding when `at` is unknown or precedes them all."""
        chosen = bindings
        if at is not None:
            before = [b for b in bindings if b.pos <= at]
            typed = [b for b in before if b.typed]
            if typed:
                chosen = typed[-1:]
            elif before:
                chosen = before[-1:]
        return frozenset(v for b in chosen for v in self.eval(b.expr, scope))

    def from_stars(self, stars: list[Expr], scope: Scope, name: str) -> Values:
        found: set[Value] = set()
        for star in stars:
            for target in self.eval(star, scope):
                found |= self.member(target, name)
        return frozenset(found)

    # -- members ---------------------------------------------------------------------------
    def member(self, value: Value, name: str) -> Values:
        return self.cached(("member", value, name), lambda: self._member(value, name))

    def _member(self, value: Value, name: str) -> Iterable[Value]:
        if value.kind == "module":
            return self.module_member(value.name, name)
        if value.kind == "package":
            return self.package_member(value.name, name)
        if value.kind in ("type", "inst"):
            return self.inherited(self.mro(value.name), name)
        if value.kind == "super":
            return self.inherited(self.mro(value.name)[1:], name)
        return EMPTY

    def method(self, value: Value, name: str) -> Values:
        """Only methods: the methods of the first type in the MRO that has any."""
        if value.kind not in ("type", "inst", "super"):
            return self.member(value, name)
        mro = self.mro(value.name)
        for owner in mro[1:] if value.kind == "super" else mro:
            found = self.methods(owner, name)
            if found:
                return found
        return EMPTY

    def module_member(self, path: str, name: str) -> Values:
        self.recorder.read(("exists", path))
        facts = self.index.files.get(path)
        if facts is None:
            return EMPTY
        self.recorder.reads.add(self.index.decl_read(path))
        scope = facts.scope
        found = {v for b in scope.bindings.get(name, []) for v in self.eval(b.expr, scope)}
        found |= {v for e in facts.exports.get(name, []) for v in self.eval(e, scope)}
        if found:
            return frozenset(found)
        found = set(self.from_stars(facts.export_stars, scope, name))
        for other in self.exported_modules(facts):  # CommonJS `module.exports = require(…)`
            found |= self.member(other, name)
        return frozenset(found) or self.frontend(facts).submodule(path, name, self)

    def exported_modules(self, facts: FileFacts) -> list[Value]:
        defaults = facts.exports.get("default", [])
        return [v for e in defaults for v in self.eval(e, facts.scope) if v.kind == "module"]

    def package_member(self, key: str, name: str) -> Values:
        """A name declared at the top of any file of a Go package or Java package."""
        language, _, _ = key.partition(":")
        found: set[Value] = set()
        for path in self.index.frontends[language].package_files(key, self):
            scope = self.index.files[path].scope  # read: package_files' table lookup
            for b in scope.bindings.get(name, []):
                if not b.imported:
                    found |= self.eval(b.expr, scope)
        return frozenset(found)

    def inherited(self, mro: Sequence[str], name: str) -> Values:
        """Methods or fields called `name` of the first type in `mro` that has any."""
        for owner in mro:
            found = self.methods(owner, name) | self.fields(owner, name)
            if found:
                return found
        return EMPTY

    def methods(self, owner: str, name: str) -> Values:
        return self.cached(("methods", owner, name), lambda: self._methods(owner, name))

    def _methods(self, owner: str, name: str) -> Iterator[Value]:
        wanted = Value("type", owner)
        for method in self.tables.methods_by_name.get(name, []):
            assert method.container is not None and method.outer is not None
            if wanted in self.eval(method.container, method.outer):
                yield Value("func", method.qualname)

    def fields(self, owner: str, name: str, inherited: bool = False) -> Values:
        found: set[Value] = set()
        for klass in self.mro(owner) if inherited else [owner]:
            for decl, _ in self.tables.types.get(klass, []):
                for expr, scope in decl.fields.get(name, []):
                    found |= self.eval(expr, scope)
            if found:
                break
        return frozenset(found)

    def bases(self, owner: str) -> list[str]:
        """Declared bases (extends, implements, embedded types), then traits implemented."""
        found: list[str] = []
        for decl, _ in self.tables.types.get(owner, []):
            for base in decl.bases:
                found += sorted(t.name for t in self.types_of(self.eval(base, decl.scope)))
        wanted = Value("type", owner)
        for impl in self.tables.impls_by_name.get(owner.rsplit(".", 1)[-1], []):
            if wanted in self.eval(impl.type, impl.scope):
                found += sorted(t.name for t in self.types_of(self.eval(impl.trait, impl.scope)))
        return [b for b in dict.fromkeys(found) if b != owner]

    def mro(self, owner: str) -> tuple[str, ...]:
        """`owner`, then its bases depth first (a superclass chain before interfaces),
        each type once. One walk from `owner` (not its bases' orders joined), so a cyclic
        hierarchy (C#'s partial classes are each other's bases) gives one order whichever
        type is asked first, and no answer inside the cycle is left unmemoised."""
        return self.memoised(("mro", owner), lambda: self._mro(owner), (owner,))

    def _mro(self, owner: str) -> tuple[str, ...]:
        order: dict[str, None] = {}
        pending = [owner]
        while pending:
            current = pending.pop()
            if current not in order:
                order[current] = None
                pending += reversed([b for b in self.bases(current) if b not in order])
        return tuple(order)

    def is_class(self, owner: str) -> bool:
        decls = self.tables.types.get(owner, [])
        return any(decl.is_class for decl, _ in decls)

    # -- calls -----------------------------------------------------------------------------
    def returns(self, value: Value) -> Values:
        return self.cached(("returns", value), lambda: self._returns(value))

    def _returns(self, value: Value) -> Iterable[Value]:
        if value.kind == "type":
            return [Value("inst", value.name)]
        if value.kind == "module":
            return {r for f in self.member(value, "default") for r in self.returns(f)}
        if value.kind != "func":
            return EMPTY
        found: set[Value] = set()
        for decl in self.tables.functions.get(value.name, []):
            body = self.facts_of(decl.body).path  # its `return`s are read, even if none
            self.recorder.reads |= self.index.scope_reads(body, decl.body)
            if decl.returns is not None:
                found |= self.eval(decl.returns, decl.body)
            else:
                for expr in decl.body.returns:
                    found |= self.eval(expr, decl.body)
        return found

    def constructors(self, owner: str) -> list[str]:
        """The constructors `new owner(...)` runs: its own, or (where the language inherits
        them) the nearest class base's. Kept per class: `new` sites all over a generated
        chain of a thousand subclasses walk each class once, not once a site."""
        known = self.made_by.get(owner)
        if known is not None:
            self.recorder.reads.update(known[1])
            return known[0]
        outer = self.recorder.begin()
        try:
            chain, found = self._constructor_chain(owner)
        except BaseException:
            outer |= self.recorder.end(outer)
            raise
        kept = tuple(self.recorder.end(outer))
        node = self.graph.node(kept)
        reads = handed(kept, node)
        for name in chain:  # a later class of the chain keeps the reads of the whole walk
            self.made_by[name] = (found, reads)
        self._made_keys[node] = chain
        outer.update(reads)
        return found

    def _constructor_chain(self, owner: str) -> tuple[list[str], list[str]]:
        """The classes walked from `owner` to the constructors found."""
        chain: list[str] = []
        found: list[str] = []
        current = owner
        while current not in chain:
            known = self.made_by.get(current)
            if known is not None:
                self.recorder.reads.update(known[1])
                return chain, known[0]
            decls = self.tables.types.get(current, [])
            if not decls:
                break
            chain.append(current)
            frontend = self.frontend(decls[0][1])
            names = frontend.constructor_names(current)
            found = sorted(v.name for n in names for v in self.methods(current, n))
            if found or not frontend.inherits_constructors:
                break
            current = next((b for b in self.bases(current) if self.is_class(b)), "")
        return chain, found

    def targets(self, site: Site) -> list[str]:
        if site.kind == "call" and isinstance(site.expr, Call):
            return [f.name for f in self.of_kind(self.eval(site.expr.fn, site.scope), "func")]
        if site.kind == "new" and isinstance(site.expr, New):
            values = self.eval(site.expr.cls, site.scope)
            made = [c for t in self.types_of(values) for c in self.constructors(t.name)]
            return made + [f.name for f in self.of_kind(values, "func")]  # a function runs
        owner = site.scope.enclosing_type()
        if site.kind == "this" and owner:
            return self.constructors(owner)
        if site.kind == "super" and owner:
            for base in self.bases(owner):
                if self.is_class(base):
                    return self.constructors(base)
        return []

    def instances(self, site: Site) -> list[str]:
        """The workspace types a `new` site makes that run no constructor of their own
        (Java's default one, a TypeScript class without one, one keeping its base's): the
        call edge, if any, names another type's constructor, which left them callerless."""
        if site.kind != "new" or not isinstance(site.expr, New):
            return []
        made = self.types_of(self.eval(site.expr.cls, site.scope))
        return [
            t.name
            for t in made
            if all(c.rpartition(".")[0] != t.name for c in self.constructors(t.name))
        ]

    # -- edges of one file -----------------------------------------------------------------
    def file_edges(self, facts: FileFacts) -> Iterator[Edge]:
        known = self.tables.definitions
        for site in facts.sites:
            try:
                targets = self.targets(site)
                made = self.instances(site)
            except RecursionError:  # absurdly deep code: leave the site unresolved
                self.low = 1 << 30
                continue
            for target in targets:
                if target in known:
                    yield Edge(site.owner, target, "call", facts.path, site.line)
            for made_type in made:
                if made_type in known:
                    yield Edge(site.owner, made_type, "new", facts.path, site.line)
        for decl in facts.types:
            for base in self.declared_bases(decl):
                if base in known:
                    yield Edge(decl.qualname, base, "inherit", facts.path, decl.line)
        for impl in facts.impls:
            for kind in self.types_of(self.eval(impl.type, impl.scope)):
                for trait in self.types_of(self.eval(impl.trait, impl.scope)):
                    if kind.name in known and trait.name in known:
                        yield Edge(kind.name, trait.name, "inherit", facts.path, impl.line)
        for expr, line in facts.imports:
            for target in self.import_targets(expr, facts.scope):
                yield Edge(facts.module, target, "import", facts.path, line)

    def declared_bases(self, decl: TypeDecl) -> list[str]:
        return [t.name for base in decl.bases for t in self.types_of(self.eval(base, decl.scope))]

    def import_targets(self, expr: Expr, scope: Scope) -> Iterator[str]:
        for value in self.eval(expr, scope):
            if value.kind in ("func", "type") and value.name in self.tables.definitions:
                yield value.name
            elif value.kind == "module" and value.name in self.files:
                yield self.index.files[value.name].module  # a path's module name


def handed(reads: Reads, node: int) -> Reads:
    """What reusing an answer that read `reads` (its node: `node`) reads: a small set of
    plain reads is copied (an answer's reads often repeat its parts': a file's
    declarations, read by a thousand small answers, are one read when copied, a thousand
    nodes when referenced); a larger one, or one holding nodes, is the node."""
    if len(reads) <= HANDED_COPIED and min(reads, default=0) >= 0:
        return reads
    return (node,)


def _row_reads(index: SyntaxIndex, path: str, table: str, row: object) -> frozenset[int]:
    """What reading a table row reads: the part of its file the row was written in."""
    if table == "definitions":  # a qualname: only whether it is defined, which the key says
        return frozenset()
    if table in FILE_GROUPS:  # a file of a folder or package: the key stands for the
        return frozenset()  # declarations of all of them
    if isinstance(row, tuple) and table == "types":  # (TypeDecl, FileFacts)
        return index.scope_reads(path, row[0].scope)
    home = home_scope(row)  # an impl, or a front end's record that holds one scope
    return index.scope_reads(path, home) if home is not None else frozenset({index.decl_read(path)})


def _simple_name(expr: Expr) -> str:
    """The last name of a type expression: impls are found by the name of their type."""
    while isinstance(expr, Instance | Wrapped):
        expr = expr.type
    if isinstance(expr, Name):
        return expr.id
    if isinstance(expr, Member):
        return expr.name
    if isinstance(expr, Known):
        return expr.value.name.rsplit(".", 1)[-1]
    return ""


def _order(edge: Edge) -> tuple[int, str, str, str]:
    return (edge.line, edge.src, edge.kind, edge.dst)
