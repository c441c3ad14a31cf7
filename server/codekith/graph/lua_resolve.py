"""Lua: locals by lexical scope, modules by `require`, tables and metatables as classes.

Every local (variable, `local function`, parameter, loop variable) is resolved while the
file is read, as Lua scopes it: visible from the statement after its declaration to the
end of its block. Each declaration gets a name of its own (`x#3`), so the evaluator never
confuses a block's `x` with an outer one; a use in the function that declares it sees the
value last assigned before it, a use from a nested function (an upvalue) every value ever
assigned (a forward-declared `local f` set later by `function f() … end`). Names not
declared are globals (`G:name`): seen in the file that assigns them, and from another
file only when exactly one workspace file assigns them. The files assigning a global and
the module names `require` finds a file by are rows of recorded tables (`LuaFrontend.rows`):
an edit re-resolves only the files that looked up a name it added or dropped.

Values are tables: each table constructor is a type (`path@n`, the file's n-th: not its
line, so that a line added above leaves the names and the files reading them alone) whose
fields are its keys and the `T.k = v` assignments the text shows; a function `function
M.f` belongs to whatever table `M` evaluates to (the chunker names it `module.M.f`).
`require("a.b")` is what `a/b.lua` (or `a/b/init.lua`, under the root, `src/`, `lua/` or
`lib/`) returns.
Metatables make classes: `setmetatable(o, C)` is an instance of C's `__index` (C itself in
the `self.__index = self` idiom), a field set on such an instance is C's, `self` in
`function C:m()` is C, and `setmetatable(D, {__index = C})` at the top of a file makes C a
base of D. A method returning `setmetatable(o, self)` called on a subclass makes a
subclass instance. Anything else (parameters, loop variables, strings) is unknown: no edge.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from codekith.chunking.treesitter import Definition
from codekith.graph.frontend import Extractor, Frontend, end, field_text, line, pos
from codekith.graph.syntax_model import (
    EMPTY,
    UNKNOWN,
    Binding,
    Call,
    Expr,
    FileFacts,
    FuncDecl,
    Import,
    Known,
    Member,
    Name,
    Pos,
    Scope,
    Site,
    TypeDecl,
    Union,
    Value,
    Values,
)
from codekith.qualnames import module_name
from codekith.syntax import Node, text

if TYPE_CHECKING:
    from codekith.graph.syntax_engine import Evaluator

GLOBAL = "G:"  # how globals are named in scopes (apart from the `x#n` locals)
UPVALUE: Pos = (-1, -1)  # a use from a nested function: every value the local ever held
ROOTS = ("src", "lua", "lib")  # directories `package.path` commonly starts from
# Lua's own globals (and Neovim's `vim`): a workspace file assigning one is a shim or a
# test double, not what other files call
_BUILTIN_NAMES = """
_G _VERSION _ENV assert collectgarbage dofile error getmetatable ipairs load loadfile
loadstring next pairs pcall print rawequal rawget rawlen rawset require select setmetatable
tonumber tostring type xpcall unpack module setfenv getfenv coroutine debug io math os
package string table utf8 bit bit32 jit ngx vim arg self
"""
BUILTINS = frozenset(_BUILTIN_NAMES.split())
_FUNCTIONS = ("function_declaration", "function_definition")
_INDEXES = ("dot_index_expression", "bracket_index_expression")
_MAX_STATIC = 32  # static table lookups nested deeper are unknown
_MAX_FIELDS = 500  # a table constructor with more entries is data: its keys are not read


class Local(NamedTuple):
    """A local declared in a block: visible from `pos` on, bound under `unique` (a
    position named `pos` is a position to the digest, which keeps only its rank)."""

    pos: Pos
    unique: str


@dataclass(eq=False)
class LuaScope(Scope):
    """A block: its locals by name; bindings of the unique names live in the function's
    own scope, where `return`s are read."""

    decls: dict[str, list[Local]] = field(default_factory=dict)
    function: LuaScope | None = None  # the function (or file) this block is part of

    def owner(self) -> LuaScope:
        return self.function or self


class SetMeta(NamedTuple):
    """`setmetatable(t, meta)`: an instance of meta's `__index`."""

    meta: Expr
    literal: bool  # meta is a table constructor: only its `__index` counts
    of_self: bool  # meta is `self` (or `{__index = self}`): an instance of the receiver
    scope: Scope


class MethodCall(NamedTuple):
    """`obj:m(…)` / `obj.m(…)`: what m returns, `setmetatable(o, self)` made for obj."""

    fn: Expr
    obj: Expr
    colon: bool
    scope: Scope


class Held(NamedTuple):
    """An expression read by the front end itself (`index:`, `instbase:`, `noninst:`)."""

    expr: Expr
    literal: bool
    scope: Scope


@dataclass(eq=False)
class LuaFacts(FileFacts):
    top: Scope | None = None  # the file's own function scope: what it returns
    records: list[SetMeta | MethodCall | Held] = field(default_factory=list)


class LuaExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        self.lua = LuaFacts(path, language, module_name(path), self.facts.scope)
        self.lua.definitions = self.facts.definitions
        self.facts = self.lua
        self.top = LuaScope("function", self.facts.scope)
        self.lua.top = self.top
        self.here: LuaScope = self.top
        self.count = 0
        self.chunks = _function_chunks(found)
        self.decls: dict[str, TypeDecl] = {}
        self.statics: dict[str, str] = {}  # unique name -> the table it holds (as read)
        self.homes: dict[str, LuaScope] = {}  # unique name -> the function binding it
        self.static_fields: dict[tuple[str, str], str] = {}
        self.tids: dict[int, str] = {}
        self.tables_made = 0
        self.handlers.update(
            {
                "chunk": self.chunk,
                "variable_declaration": self.local,
                "assignment_statement": self.assignment,
                "function_declaration": self.function,
                "function_definition": self.function,
                "function_call": self.call,
                "return_statement": self.return_,
                "for_statement": self.for_loop,
                "repeat_statement": self.repeat,
                "block": self.block,
            }
        )

    # -- scopes ----------------------------------------------------------------------------
    def chunk(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        return self.top

    def block(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        return self.child(scope)

    def child(self, scope: Scope) -> LuaScope:
        outer = _lua(scope, self.top)
        return LuaScope("function", outer, function=outer.owner())

    def declare(self, name: str, visible: Pos, scope: LuaScope) -> str:
        self.count += 1
        unique = f"{name}#{self.count}"
        scope.decls.setdefault(name, []).append(Local(visible, unique))
        self.homes[unique] = scope.owner()
        return unique

    def resolve(self, name: str, at: Pos, scope: LuaScope) -> tuple[str, bool] | None:
        """The unique name of the local `name` seen at `at`, and whether it is the same
        function's (else an upvalue); None for a global."""
        current: Scope | None = scope
        while isinstance(current, LuaScope):
            for start, unique in reversed(current.decls.get(name, ())):  # the last first:
                if start <= at:  # generated code redeclares a name thousands of times
                    return unique, current.owner() is scope.owner()
            current = current.parent
        return None

    def bind(self, target: Node, expr: Expr, at: Pos, scope: LuaScope) -> str:
        """Assign to the name `target`: a local seen here, else a global."""
        name = text(target)
        local = self.resolve(name, pos(target), scope)
        if local is not None:
            self.homes[local[0]].bind(local[0], Binding(at, expr))
            return local[0]
        self.facts.scope.bind(GLOBAL + name, Binding(at, expr))
        return GLOBAL + name

    def is_global_table(self, node: Node) -> bool:
        """`_G` (not a local of that name): `_G.x` is the global x."""
        if node.type != "identifier" or text(node) != "_G":
            return False
        return self.resolve("_G", pos(node), self.here) is None

    def at_top(self, scope: LuaScope) -> bool:
        return scope.owner() is self.top

    # -- statements ------------------------------------------------------------------------
    def local(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`local a, b = x, y`: the values are read before the names exist."""
        here = self.here = _lua(scope, self.top)
        assignment = next(
            (c for c in node.named_children if c.type == "assignment_statement"), None
        )
        names_node = (
            assignment.named_children[0] if assignment is not None else node.named_children[0]
        )
        values_node = assignment.named_children[-1] if assignment is not None else None
        names = [c for c in names_node.named_children if c.type == "identifier"]
        values = list(values_node.named_children) if values_node is not None else []
        exprs = [self.value(v, here, single=len(names) == 1 and len(values) == 1) for v in values]
        for index, name in enumerate(names):
            unique = self.declare(text(name), end(node), here)
            expr = exprs[index] if index < len(exprs) else UNKNOWN
            here.owner().bind(unique, Binding(end(node), expr))
            static = self.static(values[index]) if index < len(values) else None
            if index == 0 and len(values) == 1 and isinstance(expr, Union):
                static = _made_table(expr) or static
            if static is not None:
                self.statics[unique] = static
        if values_node is not None:
            self.visit(values_node, here, owner)
        return None

    def value(self, node: Node, scope: LuaScope, single: bool) -> Expr:
        """What a declaration or assignment gives a name: at the top of a file, a call
        that makes an instance (`local Dog = Animal:extend()`) makes a table of its own,
        inheriting the instance's class, so methods defined on it stay its own."""
        expr = self.expr(node)
        if not (single and self.at_top(scope) and node.type == "function_call"):
            return expr
        if not (isinstance(expr, Call) or (isinstance(expr, Import) and "mcall:" in expr.spec)):
            return expr
        tid = self.table_id(node)
        decl = self.decl(tid)
        decl.bases.append(self.record("instbase", Held(expr, False, scope)))
        return Union((Known(Value("type", tid)), self.record("noninst", Held(expr, False, scope))))

    def assignment(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        here = self.here = _lua(scope, self.top)
        targets, values_node = node.named_children[0], node.named_children[-1]
        names = list(targets.named_children)
        values = list(values_node.named_children)
        single = len(names) == 1 and len(values) == 1
        exprs = [self.value(v, here, single) for v in values]
        for index, target in enumerate(names):
            expr = exprs[index] if index < len(exprs) else UNKNOWN
            value = values[index] if index < len(values) else None
            self.assign(target, expr, value, node, here)
        self.visit_children(node, here, owner)
        return None

    def assign(
        self, target: Node, expr: Expr, value: Node | None, node: Node, scope: LuaScope
    ) -> None:
        static = self.static(value) if value is not None else None
        if isinstance(expr, Union):
            static = _made_table(expr) or static
        if target.type == "identifier":
            unique = self.bind(target, expr, end(node), scope)
            if static is not None:
                self.statics[unique] = static
            return
        key = _key(target)
        table = target.child_by_field_name("table")
        if key is None or table is None:
            return
        if self.is_global_table(table):
            self.facts.scope.bind(GLOBAL + key, Binding(end(node), expr))
            return
        owner = self.static(table)
        if owner is not None:
            self.decl(owner).add_field(key, expr, scope.owner())
            if static is not None:
                self.static_fields[(owner, key)] = static

    def function(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        outer = self.here = _lua(scope, self.top)
        chunk = self.chunks.get(node.id)
        if chunk is not None:
            owner = chunk.qualname
        named = node.child_by_field_name("name") if node.type == "function_declaration" else None
        target = _assigned_to(node) if node.type == "function_definition" else named
        container, colon = self.container(target)
        is_local = any(c.type == "local" for c in node.children)
        made: Expr = Known(Value("func", chunk.qualname)) if chunk is not None else UNKNOWN
        if named is not None and named.type == "identifier":
            if is_local:
                unique = self.declare(text(named), pos(named), outer)
                outer.owner().bind(unique, Binding(pos(node), made))
            else:
                self.bind(named, made, pos(node), outer)
        body = LuaScope("function", outer)
        table = target.child_by_field_name("table") if container is not None and target else None
        self.parameters(node, body, container, colon, self.static(table))
        if chunk is not None:
            self.facts.functions.append(
                FuncDecl(
                    chunk.qualname, chunk.name, body, None, container, outer if container else None
                )
            )
        self.visit(node.child_by_field_name("body"), body, owner)
        return None

    def container(self, target: Node | None) -> tuple[Expr | None, bool]:
        """The table a function is stored in (`M` of `function M.f`, `M.f = function`)."""
        if target is None or target.type not in (*_INDEXES, "method_index_expression"):
            return None, False
        table = target.child_by_field_name("table")
        if table is None:
            return None, False
        return self.expr(table), target.type == "method_index_expression"

    def parameters(
        self, node: Node, body: LuaScope, container: Expr | None, colon: bool, static: str | None
    ) -> None:
        """Parameters hide outer names; `self` (implicit in `function M:f`, or a first
        parameter so named) is the table the function is stored in."""
        start = pos(node)
        if colon:
            unique = self.declare("self", start, body)
            body.bind(unique, Binding(start, container or UNKNOWN))
            if static is not None:
                self.statics[unique] = static
        parameters = node.child_by_field_name("parameters")
        for index, parameter in enumerate(parameters.named_children if parameters else []):
            if parameter.type != "identifier":
                continue
            name = text(parameter)
            unique = self.declare(name, start, body)
            is_self = index == 0 and name == "self" and container is not None and not colon
            body.bind(unique, Binding(start, container if is_self and container else UNKNOWN))
            if is_self and static is not None:
                self.statics[unique] = static

    def return_(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        here = self.here = _lua(scope, self.top)
        values = node.named_children[0] if node.named_children else None
        if values is not None and values.named_children:
            here.owner().returns.append(self.expr(values.named_children[0]))
        return here

    def for_loop(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        here = self.here = _lua(scope, self.top)
        clause = node.child_by_field_name("clause")
        body = node.child_by_field_name("body")
        inner = self.child(here)
        if body is not None:
            self.visit_children(body, inner, owner)
        if clause is not None:
            self.visit(clause, here, owner)  # pushed last: read first
            names = clause.named_children[0] if clause.type == "for_generic_clause" else clause
            start = pos(body) if body is not None else end(node)
            for name in _loop_names(clause, names):
                unique = self.declare(name, start, inner)
                inner.owner().bind(unique, Binding(start, UNKNOWN))
        return None

    def repeat(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`repeat … until cond`: cond sees the body's locals."""
        inner = self.child(scope)
        body = node.child_by_field_name("body")
        condition = node.child_by_field_name("condition")
        self.visit(condition, inner, owner)
        if body is not None:
            self.visit_children(body, inner, owner)
        return None

    # -- calls -----------------------------------------------------------------------------
    def call(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        here = self.here = _lua(scope, self.top)
        callee = node.child_by_field_name("name")
        builtin = self.builtin(callee, here)
        if builtin == "require":
            spec = _literal(_arguments(node)[:1])
            if spec:
                self.facts.imports.append((Import("file:" + spec), line(node)))
        elif builtin in ("pcall", "xpcall") and _arguments(node):
            called = self.expr(_arguments(node)[0])
            self.facts.sites.append(Site(owner, here.owner(), Call(called), line(node)))
        elif (
            builtin == "setmetatable"
            and node.parent is not None
            and node.parent.type in ("chunk", "block")
        ):
            self.reset_metatable(node, here)
        if callee is not None and builtin is None:
            self.facts.sites.append(Site(owner, here.owner(), Call(self.expr(callee)), line(node)))
        return here

    def reset_metatable(self, node: Node, scope: LuaScope) -> None:
        """A statement `setmetatable(x, meta)`: at the top of a file a base of x's table
        (read by `expr`); in a function x becomes an instance of meta's class."""
        made = self.expr(node)
        arguments = _arguments(node)
        target = arguments[0] if arguments else None
        if not isinstance(made, Import) or target is None or target.type != "identifier":
            return
        unique = self.bind(target, made, end(node), scope)
        static = self.static_index(arguments[1]) if len(arguments) > 1 else None
        if static is not None:
            self.statics[unique] = static

    def builtin(self, callee: Node | None, scope: LuaScope) -> str | None:
        """The name of a Lua builtin called (not hidden by a local), else None."""
        if callee is None or callee.type != "identifier":
            return None
        name = text(callee)
        if name not in ("require", "pcall", "xpcall", "setmetatable", "assert"):
            return None
        return name if self.resolve(name, pos(callee), scope) is None else None

    # -- expressions -----------------------------------------------------------------------
    def convert(self, node: Node) -> Expr:
        kind = node.type
        if kind == "identifier":
            return self.name(node)
        if kind in _INDEXES or kind == "method_index_expression":
            return self.index(node)
        if kind == "function_call":
            return self.call_expr(node)
        if kind == "parenthesized_expression" and node.named_children:
            return self.expr(node.named_children[0])
        if kind == "binary_expression":
            operator = field_text(node, "operator")
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if operator == "or":
                return Union((self.expr(left), self.expr(right)))
            if operator == "and":
                return self.expr(right)
            return UNKNOWN
        if kind == "table_constructor":
            return Known(Value("type", self.table(node)))
        if kind == "function_definition":
            chunk = self.chunks.get(node.id)
            return Known(Value("func", chunk.qualname)) if chunk is not None else UNKNOWN
        return UNKNOWN

    def name(self, node: Node) -> Expr:
        at = pos(node)
        found = self.resolve(text(node), at, self.here)
        if found is None:
            return Name(GLOBAL + text(node), at)
        unique, same_function = found
        return Name(unique, at if same_function else UPVALUE)

    def index(self, node: Node) -> Expr:
        table = node.child_by_field_name("table")
        key = _key(node)
        if key is None or table is None:
            return UNKNOWN
        if self.is_global_table(table):
            return Name(GLOBAL + key, pos(node))
        return Member(self.expr(table), key)

    def call_expr(self, node: Node) -> Expr:
        callee = node.child_by_field_name("name")
        if callee is None:
            return UNKNOWN
        arguments = _arguments(node)
        builtin = self.builtin(callee, self.here)
        if builtin == "require":
            spec = _literal(arguments[:1])
            return Import("require:" + spec) if spec else UNKNOWN
        if builtin == "assert":
            return self.expr(arguments[0]) if arguments else UNKNOWN
        if builtin == "setmetatable":
            return self.set_metatable(arguments) if len(arguments) == 2 else UNKNOWN
        if builtin is not None:
            return UNKNOWN
        fn = self.expr(callee)
        if callee.type in _INDEXES or callee.type == "method_index_expression":
            table = callee.child_by_field_name("table")
            colon = callee.type == "method_index_expression"
            return self.record("mcall", MethodCall(fn, self.expr(table), colon, self.here))
        return Call(fn)

    def set_metatable(self, arguments: list[Node]) -> Expr:
        target, meta = arguments
        literal = meta.type == "table_constructor"
        if self.at_top(self.here):
            self.expr(target)  # a table constructor's fields
            static = self.static(target)
            if static is not None:
                held = Held(self.expr(meta), literal, self.here)
                self.decl(static).bases.append(self.record("index", held))
                return Known(Value("type", static))
        if target.type == "table_constructor":
            self.expr(target)  # its fields, made the class's
        of_self = self.is_self(meta) or (literal and self.is_self(_field(meta, "__index")))
        return self.record("setmt", SetMeta(self.expr(meta), literal, of_self, self.here))

    def is_self(self, node: Node | None) -> bool:
        if node is None or node.type != "identifier" or text(node) != "self":
            return False
        found = self.resolve("self", pos(node), self.here)
        return found is not None

    def record(self, kind: str, held: SetMeta | MethodCall | Held) -> Import:
        self.lua.records.append(held)
        return Import(f"{kind}:{len(self.lua.records) - 1}")

    # -- tables ----------------------------------------------------------------------------
    def table(self, node: Node) -> str:
        """A table constructor's type, its fields recorded; one made to be an instance
        (`setmetatable({…}, C)` in a function) is C's."""
        tid = self.table_id(node)
        decl = self.decl(tid)
        if node.named_child_count > _MAX_FIELDS:
            return tid  # data (generated tables): its calls are still sites, its keys unknown
        for entry in node.named_children:
            if entry.type != "field":
                continue
            key = _key(entry)
            value = entry.child_by_field_name("value")
            if key is None or value is None:
                continue
            decl.add_field(key, self.expr(value), self.here.owner())
            static = self.static(value)
            if static is not None:
                self.static_fields[(tid, key)] = static
        return tid

    def table_id(self, node: Node) -> str:
        if node.id not in self.tids:
            tid = None
            made = _made_instance(node)
            if made is not None and not self.at_top(self.here):
                tid = self.static_index(made)
            if tid is None:
                self.tables_made += 1
                tid = f"{self.facts.path}@{self.tables_made}"
            self.tids[node.id] = tid
        return self.tids[node.id]

    def decl(self, tid: str) -> TypeDecl:
        found = self.decls.get(tid)
        if found is None:
            found = self.decls[tid] = TypeDecl(tid, self.top, 0)
            self.facts.types.append(found)
        return found

    def static(self, node: Node | None, depth: int = 0) -> str | None:
        """The table of this file an expression holds, as read (for `T.k = v`)."""
        if node is None or depth > _MAX_STATIC:
            return None
        kind = node.type
        if kind == "table_constructor":
            return self.table_id(node)
        if kind == "identifier":
            found = self.resolve(text(node), pos(node), self.here)
            return self.statics.get(found[0] if found else GLOBAL + text(node))
        if kind == "parenthesized_expression" and node.named_children:
            return self.static(node.named_children[0], depth + 1)
        if kind == "binary_expression" and field_text(node, "operator") == "or":
            left = self.static(node.child_by_field_name("left"), depth + 1)
            return left or self.static(node.child_by_field_name("right"), depth + 1)
        if kind == "dot_index_expression":
            owner = self.static(node.child_by_field_name("table"), depth + 1)
            key = _key(node)
            return self.static_fields.get((owner, key)) if owner and key else None
        if (
            kind == "function_call"
            and self.builtin(node.child_by_field_name("name"), self.here) == "setmetatable"
        ):
            arguments = _arguments(node)
            if len(arguments) == 2:
                if self.at_top(self.here):
                    return self.static(arguments[0], depth + 1)
                return self.static_index(arguments[1], depth + 1)
        return None

    def static_index(self, meta: Node, depth: int = 0) -> str | None:
        """The class a metatable makes instances of: its `__index`, else itself."""
        if meta.type == "table_constructor":
            return self.static(_field(meta, "__index"), depth + 1)
        table = self.static(meta, depth + 1)
        if table is None:
            return None
        return self.static_fields.get((table, "__index"), table)


def _made_table(expr: Union) -> str | None:
    """The table `LuaExtractor.value` made for a top-level `local X = C:extend()`."""
    first = expr.options[0]
    if isinstance(first, Known) and first.value.kind == "type":
        return first.value.name
    return None


def _lua(scope: Scope, top: LuaScope) -> LuaScope:
    return scope if isinstance(scope, LuaScope) else top


def _function_chunks(found: list[Definition]) -> dict[int, Definition]:
    """Chunks by the function node that holds their code (`local f = function` is
    chunked by its assignment)."""
    chunks: dict[int, Definition] = {}
    for definition in found:
        node = definition.node
        if node.type in _FUNCTIONS:
            chunks[node.id] = definition
        elif node.type == "assignment_statement":
            values = node.named_children[-1].named_children
            if values and values[0].type == "function_definition":
                chunks[values[0].id] = definition
    return chunks


def _assigned_to(function: Node) -> Node | None:
    """The single target a function value is assigned to (`M.f = function … end`)."""
    values = function.parent
    statement = values.parent if values is not None else None
    if values is None or statement is None or statement.type != "assignment_statement":
        return None
    targets = statement.named_children[0].named_children
    if len(targets) != 1 or len(values.named_children) != 1:
        return None
    return targets[0]


def _key(node: Node) -> str | None:
    """The key of `t.k`, `t["k"]`, `t:k` or a table field `k = v` / `["k"] = v`."""
    key = node.child_by_field_name("field") or node.child_by_field_name("method")
    if node.type == "field":
        key = node.child_by_field_name("name")
    if key is None:
        return None
    if key.type == "identifier":
        return text(key)
    if key.type == "string":
        content = key.child_by_field_name("content")
        return text(content) if content is not None else ""
    return None


def _field(table: Node, name: str) -> Node | None:
    """The value of the field `name` of a table constructor."""
    for entry in table.named_children:
        if entry.type == "field" and _key(entry) == name:
            return entry.child_by_field_name("value")
    return None


def _arguments(call: Node) -> list[Node]:
    arguments = call.child_by_field_name("arguments")
    return list(arguments.named_children) if arguments is not None else []


def _literal(nodes: list[Node]) -> str:
    """The text of a plain string literal (`"a.b"`, `'a.b'`, `[[a.b]]`), else ""."""
    if len(nodes) != 1 or nodes[0].type != "string":
        return ""
    content = nodes[0].child_by_field_name("content")
    return text(content) if content is not None else ""


def _made_instance(table: Node) -> Node | None:
    """The metatable of `setmetatable(<table>, meta)`, when table is its first argument."""
    arguments = table.parent
    call = arguments.parent if arguments is not None else None
    if arguments is None or call is None or call.type != "function_call":
        return None
    if field_text(call, "name") != "setmetatable":
        return None
    listed = arguments.named_children
    return listed[1] if len(listed) == 2 and listed[0] == table else None


def _loop_names(clause: Node, names: Node) -> list[str]:
    if clause.type == "for_generic_clause":
        return [text(c) for c in names.named_children if c.type == "identifier"]
    name = clause.child_by_field_name("name")
    return [text(name)] if name is not None else []


def _chosen(found: list[tuple[str, str, bool]], requirer: str) -> str | None:
    """Of the files a module name may load (root, path, is an init.lua; in path order), the
    one `require` from `requirer` loads: `a/b.lua` before `a/b/init.lua` under a root;
    only roots of a project (the directory holding the root) the requirer is in, the
    innermost one; several: none."""
    by_root: dict[str, str] = {}
    for root, path, _ in sorted(found, key=lambda f: f[2]):
        by_root.setdefault(root, path)
    projects = {r: _project(r) for r in by_root}
    mine = [r for r in by_root if requirer.startswith(projects[r])]
    if not mine:
        return None
    longest = max(len(projects[r]) for r in mine)
    chosen = [r for r in mine if len(projects[r]) == longest]
    return by_root[chosen[0]] if len(chosen) == 1 else None


def _project(root: str) -> str:
    """The directory a root belongs to: `plugins/x/` for `plugins/x/lua/`."""
    return posixpath.dirname(root.rstrip("/")) + "/" if "/" in root.rstrip("/") else ""


def _module_names(path: str) -> list[tuple[str, str, bool]]:
    """(module name, root, is an init.lua) under which `require` may load `path`: from
    the workspace root and from each `src/`, `lua/` or `lib/` directory above it."""
    if not path.endswith(".lua"):
        return []
    parts = path[: -len(".lua")].split("/")
    is_init = parts[-1] == "init" and len(parts) > 1
    found: list[tuple[str, str, bool]] = []
    for start in range(len(parts)):
        if start and parts[start - 1] not in ROOTS:
            continue
        rest = parts[start:]
        if is_init:
            rest = rest[:-1]
        if rest and all(p and "." not in p for p in rest):
            root = "".join(p + "/" for p in parts[:start])
            found.append((".".join(rest), root, is_init))
    return found


class LuaFrontend(Frontend):
    languages = ("lua",)
    extractor = LuaExtractor

    def rows(self, facts: FileFacts) -> Iterator[tuple[str, str, object]]:
        """The module names `require` may load the file by ("lua.modules": (root, path,
        is an init.lua)) and the globals it assigns ("lua.globals": its path)."""
        if not isinstance(facts, LuaFacts):
            return
        for name, root, is_init in _module_names(facts.path):
            yield "lua.modules", name, (root, facts.path, is_init)
        for key in facts.scope.bindings:
            if key.startswith(GLOBAL) and key[len(GLOBAL) :] not in BUILTINS:
                yield "lua.globals", key, facts.path

    def fallback(self, name: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """A global no local hides and the file does not assign: the one file assigning it."""
        if not name.startswith(GLOBAL):
            return EMPTY
        files: list[str] = evaluator.tables.of("lua.globals").get(name)
        if len(files) != 1 or files[0] == facts.path:
            return EMPTY
        other = evaluator.index.files[files[0]]  # its declarations: read by the lookup
        return frozenset(
            v for b in other.scope.bindings[name] for v in evaluator.eval(b.expr, other.scope)
        )

    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        kind, _, rest = spec.partition(":")
        if kind in ("require", "file"):
            return self.required(kind, rest, facts, evaluator)
        if not isinstance(facts, LuaFacts) or not rest.isdigit():
            return EMPTY
        held = facts.records[int(rest)]
        if isinstance(held, SetMeta):
            made = _index(held.meta, held.literal, held.scope, evaluator)
            found = {Value("inst", t) for t in made}
            return frozenset(
                found | {Value("selfinst", t) for t in made} if held.of_self else found
            )
        if isinstance(held, MethodCall):
            return _method_call(held, evaluator)
        if kind == "index":
            return frozenset(
                Value("type", t) for t in _index(held.expr, held.literal, held.scope, evaluator)
            )
        values = evaluator.eval(held.expr, held.scope)
        if kind == "instbase":
            return frozenset(Value("type", v.name) for v in values if v.kind == "inst")
        return frozenset(v for v in values if v.kind not in ("inst", "selfinst"))

    def required(self, kind: str, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        name = spec.replace("/", ".").removesuffix(".lua") if "/" in spec else spec
        path = _chosen(evaluator.tables.of("lua.modules").get(name), facts.path)
        if path is None or path == facts.path:
            return EMPTY
        if kind == "file":
            return frozenset({Value("module", path)})
        other = evaluator.index.files[path]  # its declarations: read by the lookup
        if not isinstance(other, LuaFacts) or other.top is None:
            return EMPTY
        top = other.top
        return frozenset(v for e in top.returns for v in evaluator.eval(e, top))


def _index(meta: Expr, literal: bool, scope: Scope, evaluator: Evaluator) -> list[str]:
    """The tables a metatable's `__index` gives; a table without `__index` is its own
    (`setmetatable(o, self)` before `self.__index = self`), unless written as a literal."""
    found: list[str] = []
    for table in evaluator.eval(meta, scope):
        if table.kind not in ("type", "inst"):
            continue
        decls = evaluator.tables.types.get(table.name, [])
        if any("__index" in decl.fields for decl, _ in decls):
            index = evaluator.fields(table.name, "__index")
            found += [v.name for v in index if v.kind in ("type", "inst")]
        elif not literal:
            found.append(table.name)
    return sorted(set(found))


def _method_call(held: MethodCall, evaluator: Evaluator) -> Values:
    found: set[Value] = set()
    for fn in evaluator.eval(held.fn, held.scope):
        if fn.kind == "func":
            found |= evaluator.returns(fn)
        elif fn.kind in ("type", "inst"):  # a table with `__call`: a class called
            found.add(Value("inst", fn.name))
    markers = {v for v in found if v.kind == "selfinst"}
    if not markers:
        return frozenset(found)
    found -= markers
    receivers = evaluator.eval(held.obj, held.scope) if held.colon else EMPTY
    classes = {Value("inst", r.name) for r in receivers if r.kind in ("type", "inst")}
    if classes:
        found -= {Value("inst", m.name) for m in markers}
        found |= classes
    return frozenset(found)
