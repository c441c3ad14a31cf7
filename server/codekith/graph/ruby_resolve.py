"""Ruby: constants by lexical nesting, methods by ancestors, locals typed by `Foo.new`.

A class or module is named by its constant path (`module Rack; class Request` is
`Rack::Request` in whichever files define or reopen it), and a constant reference is
looked up as Ruby looks it up: the lexical nesting innermost first (`A::B::X`, `A::X`),
the ancestors of the innermost class, then the top level. Instances and class objects
are two types: `Rack::Request` holds the instance methods (its bases are the included
modules, last first, then the superclass) and `#<Class:Rack::Request>` the singleton
methods (`def self.x`, `class << self`, `module_function`; its bases are the extended
modules, then the superclass's singleton), so `Foo.m` and `foo.m` never mix. A
`prepend`ed module goes first through the view `Rack::Request%prepended`.

Ruby is dynamic, so only what the text shows is followed: a bare `m` is a method of self
(or a top-level `def` of the file or a file it requires) unless it is a local assigned
earlier or a parameter; a receiver's class is known from `Foo.new`, from `@x = Foo.new`
in the class, from `attr_reader :x` of such an `@x`, or from what a method returns (its
last expression or a `return`); anything else gets no edge. `attr_*` and `alias_method`
make no chunks: an attribute shadows inherited methods of its name, an alias calls the
aliased method. Calls in blocks, procs and lambdas count for the definition around them;
a block given to `instance_eval`, `define_method` or a class-body DSL call has an unknown
self. Nodes are the chunker's (`module.Name.method`), so a constant's methods are
found through each method's container, not through its qualname.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from codekith.chunking.treesitter import Definition
from codekith.graph.frontend import (
    Extractor,
    Frontend,
    children,
    end,
    field_text,
    line,
    pos,
    shared_prefix,
)
from codekith.graph.syntax_model import (
    EMPTY,
    UNKNOWN,
    Binding,
    Call,
    Either,
    Expr,
    FileFacts,
    FuncDecl,
    Import,
    Known,
    Member,
    Name,
    New,
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

_DEF = "def:"  # how top-level `def`s are bound in the module scope (apart from locals)
_PREPENDED = "%prepended"
_CONSTANTS = ("constant", "scope_resolution")
_MIXINS = ("include", "extend", "prepend")
_ATTRIBUTES = ("attr_reader", "attr_accessor", "attr")
# calls whose block runs with another self (`instance_eval`, a method body, a new class)
_SELF_CHANGING = frozenset(
    {
        "instance_eval",
        "instance_exec",
        "class_eval",
        "class_exec",
        "module_eval",
        "module_exec",
        "define_method",
        "define_singleton_method",
        "new",
    }
)
_CLOSURES = ("lambda", "proc")  # blocks that keep self even in a class body
# class-body calls whose block becomes an instance method (test cases, routes, filters)
_INSTANCE_BLOCKS = frozenset(
    {
        "it",
        "specify",
        "test",
        "setup",
        "teardown",
        "before",
        "after",
        "get",
        "post",
        "put",
        "patch",
        "delete",
        "head",
        "options",
    }
)
_BOUND = ("identifier", "rest_assignment", "destructured_left_assignment")
_VARIABLES = ("constant", "instance_variable", "global_variable", "class_variable")
_NOT_EXPRESSIONS = ("alias", "undef", "method_parameters", "block_parameters", "lambda_parameters")


def meta(path: str) -> str:
    """The singleton class of the class or module `path`."""
    return f"#<Class:{path}>"


class Ctx(NamedTuple):
    """What `self`, `super` and constants mean in a stretch of code."""

    crefs: tuple[str, ...] = ()  # lexical nesting, innermost first
    klass: str = ""  # the class or module self belongs to ("" at the top or unknown)
    side: str = ""  # inst: an instance of klass; meta: klass itself; "": unknown
    is_module: bool = False
    method: str = ""  # the method whose body this is (for `super`)


_TOP = Ctx()


@dataclass(eq=False)
class RubyScope(Scope):
    ctx: Ctx = _TOP
    is_def: bool = False  # a method body or the top level: locals stop here


@dataclass(eq=False)
class RubyFacts(FileFacts):
    """A Ruby file's facts plus its constants: path -> class/module chunk qualnames, or
    None for a constant holding a value (it hides outer constants of its name)."""

    constants: dict[str, list[str] | None] = field(default_factory=dict)


class _Method(NamedTuple):
    klass: str
    side: str
    is_module: bool
    module_function: bool


class RubyExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        self.ruby = RubyFacts(path, language, module_name(path), self.facts.scope)
        self.ruby.definitions = self.facts.definitions
        self.facts = self.ruby
        self.here: RubyScope = RubyScope("function", self.facts.scope, is_def=True)
        self.decls: dict[str, TypeDecl] = {}
        self.methods: dict[int, _Method] = {}
        self.tails: list[tuple[Node, RubyScope, Scope]] = []  # returned values, read last
        self.handlers.update(
            {
                "program": self.program,
                "class": self.type_definition,
                "module": self.type_definition,
                "singleton_class": self.singleton_class,
                "method": self.method,
                "singleton_method": self.method,
                "call": self.call,
                "identifier": self.identifier,
                "super": self.super_call,
                "assignment": self.assignment,
                "operator_assignment": self.assignment,
                "block": self.block,
                "do_block": self.block,
                "lambda": self.lambda_,
                "exception_variable": self.bind_names,
                "for": self.for_loop,
                "in_clause": self.in_clause,
                "return": self.return_,
                **dict.fromkeys(_NOT_EXPRESSIONS, self.skip),
                **dict.fromkeys(_CONSTANTS, self.skip),
            }
        )

    def run(self) -> FileFacts:
        super().run()
        for node, scope, body in self.tails:
            self.here = scope
            body.returns.append(self.expr(node))
        return self.facts

    def skip(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        return None

    def program(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """Top-level code has its locals in a scope of its own, below the module's
        (where the top-level `def`s are bound, for the files that require this one)."""
        return self.here

    # -- classes and modules ---------------------------------------------------------------
    def type_definition(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        ctx = _ctx(scope)
        name = node.child_by_field_name("name")
        ref = const_ref(name)
        if ref is None:
            return scope
        path = _defined_path(ref, ctx.crefs)
        is_module = node.type == "module"
        definition = self.definition(node)
        chunks = self.ruby.constants.get(path) or []
        if definition is not None and definition.qualname not in chunks:
            chunks.append(definition.qualname)
        self.ruby.constants[path] = chunks
        self.decl(path, not is_module)
        self.decl(meta(path), False)
        body_ctx = Ctx((path, *ctx.crefs), path, "meta", is_module)
        body = RubyScope("type", scope, type_qualname=path, ctx=body_ctx)
        superclass = next((c for c in node.named_children if c.type == "superclass"), None)
        if superclass is not None and superclass.named_children:
            self.superclass(superclass.named_children[0], path, ctx, definition)
            self.visit(superclass, scope, owner)
        self.body(node.child_by_field_name("body"), body, owner, "inst", definition)
        return None

    def superclass(self, node: Node, path: str, ctx: Ctx, definition: Definition | None) -> None:
        ref = const_ref(node)
        if ref is None:
            return
        self.decls[path].bases.append(_spec("base", ctx.crefs, ref))
        self.decls[meta(path)].bases.append(_spec("mbase", ctx.crefs, ref))
        if definition is not None:
            self.chunk_decl(definition).bases.append(_spec("chunk", ctx.crefs, ref))

    def decl(self, name: str, is_class: bool) -> TypeDecl:
        found = self.decls.get(name)
        if found is None:
            found = self.decls[name] = TypeDecl(name, self.facts.scope, 0, is_class=is_class)
            self.facts.types.append(found)
        return found

    def chunk_decl(self, definition: Definition) -> TypeDecl:
        """A class chunk's inherit edges: its bases resolve to chunk qualnames."""
        found = self.decl(definition.qualname, True)
        found.line = found.line or line(definition.node)
        return found

    def singleton_class(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`class << obj` outside a class body: self and its methods are unknown."""
        inner = RubyScope("type", scope, ctx=_ctx(scope)._replace(klass="", side=""))
        self.visit(node.child_by_field_name("body"), inner, owner)
        return None

    def body(
        self,
        node: Node | None,
        scope: RubyScope,
        owner: str,
        side: str,
        definition: Definition | None,
    ) -> None:
        """A class, module or `class << self` body: mixins, attributes and aliases are
        read here, in order; methods and other code are queued (in source order)."""
        ctx = scope.ctx
        queued: list[tuple[Node, Scope]] = []
        module_function = False
        named: set[str] = set()  # `module_function :a, :b`
        methods: list[Node] = []
        for statement in _statements(node):
            kind, name = statement.type, _bare_call(statement)
            if kind in ("method", "singleton_method"):
                methods.append(statement)
                self.methods[statement.id] = _Method(
                    ctx.klass, side, ctx.is_module, module_function and side == "inst"
                )
                queued.append((statement, scope))
            elif kind == "singleton_class" and field_text(statement, "value") == "self":
                inner = RubyScope("type", scope, type_qualname=ctx.klass, ctx=ctx)
                self.body(statement.child_by_field_name("body"), inner, owner, "meta", None)
            elif name in _MIXINS:
                self.mixin(statement, name, side, ctx, definition)
                queued.append((statement, scope))
            elif name == "module_function":
                symbols = _symbols(statement)
                module_function = module_function or not symbols
                named.update(symbols)
            elif name in _ATTRIBUTES:
                for attribute in _symbols(statement):
                    self.attribute(ctx, side, attribute, f"@{attribute}")
            elif name == "alias_method" and len(_symbols(statement)) == 2:
                new, old = _symbols(statement)
                self.attribute(ctx, side, new, old)
            elif kind == "alias":
                new, old = field_text(statement, "name"), field_text(statement, "alias")
                self.attribute(ctx, side, new, old)
            else:
                if kind == "assignment":
                    self.constant(statement, ctx)
                queued.append((statement, scope))
        for method in methods:
            if field_text(method, "name") in named and ctx.is_module:
                self.methods[method.id] = self.methods[method.id]._replace(module_function=True)
        for statement, where in reversed(queued):
            self.visit(statement, where, owner)

    def mixin(
        self, node: Node, name: str, side: str, ctx: Ctx, definition: Definition | None
    ) -> None:
        """`include M` and `prepend M` add M to the instance side, `extend M` to the
        singleton side (`extend self` too); the last one written is looked up first."""
        klass, crefs = ctx.klass, ctx.crefs
        arguments = node.child_by_field_name("arguments")
        for argument in reversed(children(arguments)):
            target: Expr | None
            if argument.type == "self" and name == "extend":
                target = Known(Value("type", klass))
            else:
                ref = const_ref(argument)
                target = _spec("base", crefs, ref) if ref is not None else None
            if target is None:
                continue
            if name == "prepend" and side == "inst":
                view = self.decl(klass + _PREPENDED, True)
                if not view.bases:
                    view.bases.append(Known(Value("type", klass)))
                view.bases.insert(0, target)
            elif name == "extend" or side == "meta":
                self.decls[meta(klass)].bases.insert(0, target)
            else:
                self.decls[klass].bases.insert(0, target)
            ref = const_ref(argument)
            if definition is not None and ref is not None and name != "extend":
                self.chunk_decl(definition).bases.append(_spec("chunk", crefs, ref))

    def attribute(self, ctx: Ctx, side: str, name: str, source: str) -> None:
        """An attribute reader or alias: what `source` (`@x`, or the aliased method)
        gives, and in any case a name that hides inherited methods."""
        klass = ctx.klass
        owner = klass if side == "inst" else meta(klass)
        this = _self_expr(Ctx(klass=klass, side=side))
        marker = Known(Value("attr", name))
        self.decls[owner].add_field(name, Union((Member(this, source), marker)), self.facts.scope)

    def constant(self, node: Node, ctx: Ctx) -> None:
        """`X = …` in a body: a constant holding a value, hiding outer `X`s."""
        left = node.child_by_field_name("left")
        if left is not None and left.type == "constant" and ctx.klass:
            self.ruby.constants.setdefault(f"{ctx.klass}::{text(left)}", None)
        elif left is not None and left.type == "constant":
            self.ruby.constants.setdefault(text(left), None)

    # -- methods ---------------------------------------------------------------------------
    def method(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        ctx = _ctx(scope)
        name = field_text(node, "name")
        info = self.methods.get(node.id)
        definition = self.definition(node)
        if node.type == "singleton_method":
            side = "meta" if field_text(node, "object") == "self" and ctx.klass else ""
            info = _Method(ctx.klass, side, ctx.is_module, False) if side else None
        elif info is None and scope.kind == "type" and ctx.klass:
            info = _Method(ctx.klass, "inst", ctx.is_module, False)
        if info is not None:
            method_ctx = ctx._replace(klass=info.klass, side=info.side, method=name)
        else:
            method_ctx = ctx._replace(klass="", side="", method="")
        body = RubyScope("function", scope, ctx=method_ctx, is_def=True)
        if definition is not None:
            self.declare(definition, name, body, info, scope)
        self.parameters(node.child_by_field_name("parameters"), body, owner)
        code = node.child_by_field_name("body")
        if code is not None:
            self.visit(code, body, owner)
            tail = _tail(code)
            if tail is not None:
                self.tails.append((tail, body, body))
        return None

    def declare(
        self, definition: Definition, name: str, body: RubyScope, info: _Method | None, outer: Scope
    ) -> None:
        """A chunk's FuncDecl: a method of its class's instance or singleton side (both
        for `module_function`), or a top-level function bound for bare calls."""
        if definition.kind == "function" or info is None:
            known = Known(Value("func", definition.qualname))
            self.facts.scope.bind(_DEF + name, Binding(pos(definition.node), known))
            self.facts.functions.append(FuncDecl(definition.qualname, name, body))
            return
        sides = ["inst", "meta"] if info.module_function else [info.side]
        for side in sides:
            owner = info.klass if side == "inst" else meta(info.klass)
            container = Known(Value("type", owner))
            self.facts.functions.append(
                FuncDecl(definition.qualname, name, body, None, container, outer)
            )

    def parameters(self, node: Node | None, scope: RubyScope, owner: str) -> None:
        """Parameters are locals of unknown class; default values are code."""
        for parameter in children(node):
            if parameter.type == "identifier":
                scope.bind(text(parameter), Binding(pos(parameter), UNKNOWN))
                continue
            for name in _names(parameter.child_by_field_name("name") or parameter):
                scope.bind(text(name), Binding(pos(name), UNKNOWN))
            value = parameter.child_by_field_name("value")
            if value is not None:
                self.visit(value, scope, owner)

    # -- locals ----------------------------------------------------------------------------
    def assignment(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        self.here = _ruby(scope)
        value = self.expr(right)
        ctx = _ctx(scope)
        if left is None:
            return scope
        if left.type == "identifier":
            target = _declaring(text(left), pos(left), _ruby(scope)) or scope
            target.bind(text(left), Binding(end(node), value))
        elif left.type == "instance_variable" and ctx.side and ctx.klass:
            owner_type = ctx.klass if ctx.side == "inst" else meta(ctx.klass)
            self.decl(owner_type, not ctx.is_module).add_field(text(left), value, self.facts.scope)
        elif left.type == "call":
            self.setter(left, scope, owner)
        elif left.type in ("left_assignment_list", "destructured_left_assignment"):
            self.bind_names(left, scope, owner)
            for child in left.named_children:
                if child.type not in _BOUND:
                    self.visit(child, scope, owner)
        elif left.type not in _VARIABLES:
            self.visit(left, scope, owner)
        self.visit(right, scope, owner)
        return None

    def setter(self, node: Node, scope: Scope, owner: str) -> None:
        """`obj.name = v` calls `name=` (an attribute writer: no chunk, no edge)."""
        receiver, method = node.child_by_field_name("receiver"), node.child_by_field_name("method")
        if receiver is None or method is None:
            return
        fn = Member(self.receiver(receiver), text(method) + "=")
        self.facts.sites.append(Site(owner, scope, Call(fn), line(node)))
        self.visit(receiver, scope, owner)

    def bind_names(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """Every identifier under `node` becomes a local (of unknown class)."""
        for name in _names(node):
            target = _declaring(text(name), pos(name), _ruby(scope)) or scope
            target.bind(text(name), Binding(end(name), UNKNOWN))
        return None

    def for_loop(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        pattern = node.child_by_field_name("pattern")
        if pattern is not None:
            self.bind_names(pattern, scope, owner)
        for child in (node.child_by_field_name("value"), node.child_by_field_name("body")):
            self.visit(child, scope, owner)
        return None

    def in_clause(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        pattern = node.child_by_field_name("pattern")
        if pattern is not None:
            self.bind_names(pattern, scope, owner)
        for child in node.named_children:
            if child != pattern:
                self.visit(child, scope, owner)
        return None

    def block(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A block's parameters are its own locals; its self is the enclosing code's,
        unless the call it is given to evaluates it elsewhere."""
        ctx = _ctx(scope)
        parent = node.parent
        called = ""
        if parent is not None and parent.type == "call":
            called = field_text(parent, "method")
        elif parent is not None and parent.type == "lambda":
            called = "lambda"
        in_body = scope.kind == "type" and ctx.side == "meta"
        bare = parent is not None and _bare_call(parent) == called
        if in_body and bare and called in _INSTANCE_BLOCKS:
            ctx = ctx._replace(side="inst", method="")
        elif called in _SELF_CHANGING or (scope.kind == "type" and called not in _CLOSURES):
            ctx = ctx._replace(klass="", side="", method="")
        inner = RubyScope("function", scope, ctx=ctx)
        parameters = node.child_by_field_name("parameters")
        if parameters is not None:
            self.parameters(parameters, inner, owner)
        self.visit(node.child_by_field_name("body"), inner, owner)
        return None

    def lambda_(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        inner = RubyScope("function", scope, ctx=_ctx(scope))
        self.parameters(node.child_by_field_name("parameters"), inner, owner)
        self.visit(node.child_by_field_name("body"), inner, owner)
        return None

    def return_(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        value = next(iter(children(first(node))), None)
        body = _method_scope(_ruby(scope))
        if value is not None and body is not None:
            self.tails.append((value, _ruby(scope), body))
        return scope

    # -- calls -----------------------------------------------------------------------------
    def identifier(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A bare name that is no local is a call of a method of self."""
        self.here = _ruby(scope)
        if not _is_local(text(node), pos(node), self.here):
            value = self.expr(node)
            kind = "new" if isinstance(value, New) else "call"
            self.facts.sites.append(Site(owner, scope, value, line(node), kind))
        return None

    def super_call(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.here = _ruby(scope)
        self.facts.sites.append(Site(owner, scope, self.expr(node), line(node)))
        return None

    def call(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.here = _ruby(scope)
        method = node.child_by_field_name("method")
        receiver = node.child_by_field_name("receiver")
        name = text(method)
        if receiver is None and name in ("require", "require_relative"):
            self.require(node, name)
            return None
        value = self.expr(node)
        if isinstance(value, New):
            self.facts.sites.append(Site(owner, scope, value, line(node), "new"))
        elif isinstance(value, Call):
            self.facts.sites.append(Site(owner, scope, value, line(node)))
        if receiver is None and name == "method":
            symbols = _symbols(node)
            if len(symbols) == 1:  # `each(&method(:record))` calls record
                fn = Member(_self_expr(self.here.ctx), symbols[0])
                self.facts.sites.append(Site(owner, scope, Call(fn), line(node)))
        for child in reversed(node.named_children):
            if child != method:
                self.visit(child, scope, owner)
        return None

    def require(self, node: Node, name: str) -> None:
        """`require "a/b"` (a load path) and `require_relative "b"`: import edges, and
        the top-level `def`s of those files become visible."""
        argument = first(node.child_by_field_name("arguments"))
        if argument is None or argument.type != "string" or len(argument.named_children) != 1:
            return
        content = argument.named_children[0]
        if content.type != "string_content":
            return
        kind = "relative" if name == "require_relative" else "require"
        target = Import(f"{kind}:{text(content)}")
        self.facts.imports.append((target, line(node)))
        self.facts.import_stars.append(target)

    # -- expressions -----------------------------------------------------------------------
    def convert(self, node: Node) -> Expr:
        kind = node.type
        ctx = self.here.ctx
        if kind == "identifier":
            name = text(node)
            if _is_local(name, pos(node), self.here):
                return Name(name, pos(node))
            if name == "new":
                made = self.instantiated(None, ctx)
                return New(made) if made is not None else UNKNOWN
            return Call(Either(Member(_self_expr(ctx), name), Name(_DEF + name, pos(node))))
        if kind == "self":
            return _self_expr(ctx)
        if kind in _CONSTANTS:
            ref = const_ref(node)
            return _spec("meta", ctx.crefs, ref) if ref is not None else UNKNOWN
        if kind == "instance_variable":
            return Member(_self_expr(ctx), text(node)) if ctx.side and ctx.klass else UNKNOWN
        if kind == "call":
            return self.call_expr(node, ctx)
        if kind == "super":
            return Call(_super(ctx))
        if kind in ("assignment", "operator_assignment"):
            return self.expr(node.child_by_field_name("right"))
        if kind in ("parenthesized_statements", "begin_block") and node.named_children:
            return self.expr(node.named_children[-1])
        return UNKNOWN

    def call_expr(self, node: Node, ctx: Ctx) -> Expr:
        method = node.child_by_field_name("method")
        receiver = node.child_by_field_name("receiver")
        if method is None or method.type not in ("identifier", "super"):
            return UNKNOWN
        name = text(method)
        if method.type == "super":
            return Call(_super(ctx))
        if name == "new":
            made = self.instantiated(receiver, ctx)
            return New(made) if made is not None else UNKNOWN
        if name == "class" and receiver is not None and receiver.type == "self":
            return Known(Value("type", meta(ctx.klass))) if ctx.side == "inst" else UNKNOWN
        if receiver is None:
            return Call(Either(Member(_self_expr(ctx), name), Name(_DEF + name, pos(node))))
        return Call(Member(self.receiver(receiver), name))

    def receiver(self, node: Node) -> Expr:
        return self.expr(node)

    def instantiated(self, receiver: Node | None, ctx: Ctx) -> Expr | None:
        """The class `….new` makes: a constant, `self` in a singleton method or class
        body, `self.class` in an instance method; anything else is unknown."""
        if receiver is None or receiver.type == "self":
            return _spec_self("type", ctx.klass) if ctx.side == "meta" and ctx.klass else None
        if receiver.type in _CONSTANTS:
            ref = const_ref(receiver)
            return _spec("type", ctx.crefs, ref) if ref is not None else None
        if receiver.type == "call" and field_text(receiver, "method") == "class":
            inner = receiver.child_by_field_name("receiver")
            if inner is not None and inner.type == "self" and ctx.side == "inst" and ctx.klass:
                return _spec_self("type", ctx.klass)
        return None


# -- helpers ---------------------------------------------------------------------------------
def _ctx(scope: Scope) -> Ctx:
    return scope.ctx if isinstance(scope, RubyScope) else Ctx()


def _ruby(scope: Scope) -> RubyScope:
    return scope if isinstance(scope, RubyScope) else RubyScope("function", scope, is_def=True)


def _self_expr(ctx: Ctx) -> Expr:
    if not ctx.klass or not ctx.side:
        return UNKNOWN
    if ctx.side == "meta":
        return Known(Value("type", meta(ctx.klass)))
    return _spec_self("inst", ctx.klass)


def _super(ctx: Ctx) -> Expr:
    """The same-named method of the next ancestor; in a module the includer decides."""
    if not ctx.method or not ctx.klass or not ctx.side or ctx.is_module:
        return UNKNOWN
    owner = ctx.klass if ctx.side == "inst" else meta(ctx.klass)
    return Member(Known(Value("super", owner)), ctx.method)


def _spec(kind: str, crefs: tuple[str, ...], ref: str) -> Import:
    return Import(f"{kind}:{','.join(crefs)}|{ref}")


def _spec_self(kind: str, klass: str) -> Import:
    return Import(f"{kind}:|::{klass}")


def const_ref(node: Node | None) -> str | None:
    """`A::B` of a constant or scope resolution, `::A` for the top level; None for a
    dynamic scope (`obj::A`)."""
    if node is None:
        return None
    if node.type == "constant":
        return text(node)
    if node.type != "scope_resolution":
        return None
    name = node.child_by_field_name("name")
    scope = node.child_by_field_name("scope")
    if name is None or name.type != "constant":
        return None
    if scope is None:
        return "::" + text(name)
    inner = const_ref(scope)
    return f"{inner}::{text(name)}" if inner is not None else None


def _defined_path(ref: str, crefs: tuple[str, ...]) -> str:
    """The constant a `class`/`module` statement defines: `X` inside `A::B` is `A::B::X`."""
    if ref.startswith("::"):
        return ref[2:]
    return f"{crefs[0]}::{ref}" if crefs else ref


def _is_local(name: str, at: Pos, scope: RubyScope) -> bool:
    """Whether `name` is a local at `at`: assigned (or a parameter) earlier in the same
    method, block or top-level code, as Ruby's parser decides."""
    current: Scope | None = scope
    while current is not None:
        if any(b.pos <= at for b in current.bindings.get(name, ())):
            return True
        if current.kind != "function" or (isinstance(current, RubyScope) and current.is_def):
            return False
        current = current.parent
    return False


def _declaring(name: str, at: Pos, scope: RubyScope) -> Scope | None:
    """The scope an assignment to a visible local rebinds (a block assigns the method's)."""
    current: Scope | None = scope
    while current is not None:
        if any(b.pos <= at for b in current.bindings.get(name, ())):
            return current
        if current.kind != "function" or (isinstance(current, RubyScope) and current.is_def):
            return None
        current = current.parent
    return None


def _method_scope(scope: RubyScope) -> RubyScope | None:
    current: Scope | None = scope
    while isinstance(current, RubyScope):
        if current.is_def:
            return current
        current = current.parent
    return None


def _names(node: Node) -> list[Node]:
    """The identifiers a parameter or pattern binds (not those of default values)."""
    found: list[Node] = []
    pending = [node]
    while pending:
        current = pending.pop()
        if current.type == "identifier":
            found.append(current)
        elif current.type not in ("pair", "optional_parameter", "keyword_parameter"):
            pending.extend(current.named_children)
        else:
            named = current.child_by_field_name("name") or current.child_by_field_name("value")
            if named is not None and named.type == "identifier":
                found.append(named)
    return found


def first(node: Node | None) -> Node | None:
    return node.named_children[0] if node is not None and node.named_children else None


def _statements(body: Node | None) -> list[Node]:
    """A body's statements; `private def x` counts as its def."""
    found: list[Node] = []
    for child in children(body):
        arguments = child.child_by_field_name("arguments") if child.type == "call" else None
        inner = children(arguments)
        if len(inner) == 1 and inner[0].type in ("method", "singleton_method"):
            found.append(inner[0])
        else:
            found.append(child)
    return found


def _bare_call(node: Node) -> str:
    """The name of a receiver-less call or bare identifier statement (`include M`)."""
    if node.type == "identifier":
        return text(node)
    if node.type == "call" and node.child_by_field_name("receiver") is None:
        return field_text(node, "method")
    return ""


def _symbols(node: Node) -> list[str]:
    """The names a call lists as symbols or strings (`attr_reader :a, "b"`)."""
    found: list[str] = []
    for argument in children(node.child_by_field_name("arguments")):
        if argument.type == "simple_symbol":
            found.append(text(argument)[1:])
        elif argument.type in ("string", "delimited_symbol") and len(argument.named_children) == 1:
            found.append(text(argument.named_children[0]))
    return found


def _tail(body: Node) -> Node | None:
    """The statement whose value a method returns (not a `rescue`/`ensure` clause)."""
    if body.type != "body_statement":
        return body
    statements = [c for c in body.named_children if c.type not in ("rescue", "else", "ensure")]
    statements = [c for c in statements if c.type != "comment"]
    return statements[-1] if statements else None


class _Table:
    """Constants and files (`RubyFrontend.rows`), looked up through the evaluator's
    recorded tables: what specs resolve against."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.tables = tables = evaluator.tables
        self.types = tables.of("ruby.types")  # constant path -> each file's chunks
        self.values = tables.of("ruby.values")  # constants holding values
        self.by_suffix = tables.of("ruby.suffix")  # "rack/utils" -> file paths
        self.paths = tables.of("ruby.paths")

    def names(self, constant: str) -> bool:
        """Whether `constant` names a class, a module or a value (hiding outer ones)."""
        return constant in self.types or constant in self.values

    def chunks(self, constant: str) -> list[str]:
        """The class chunks of every file that defines or reopens `constant` (path order)."""
        return [q for chunks in self.types.get(constant) for q in chunks]

    def prepended(self, constant: str) -> bool:
        """Whether a class prepends a module (its view is a type): one key's read."""
        return constant + _PREPENDED in self.tables.types


class RubyFrontend(Frontend):
    languages = ("ruby",)
    extractor = RubyExtractor
    inherits_constructors = True

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self._table: _Table | None = None

    def table(self, evaluator: Evaluator) -> _Table:
        """The lookups of the evaluator's tables (made again when they are built again)."""
        if self._table is None or self._table.tables is not evaluator.tables:
            self._table = _Table(evaluator)
        return self._table

    def rows(self, facts: FileFacts) -> Iterator[tuple[str, str, object]]:
        """The file's constants (classes and modules with their chunks, and values), its
        path and every suffix of it a `require` may name."""
        if not isinstance(facts, RubyFacts):
            return
        for constant, chunks in facts.constants.items():
            if chunks is None:
                yield "ruby.values", constant, constant
            else:
                yield "ruby.types", constant, tuple(chunks)
        yield "ruby.paths", facts.path, facts.path
        parts = facts.path.removesuffix(".rb").split("/")
        for start in range(len(parts)):
            yield "ruby.suffix", "/".join(parts[start:]), facts.path

    def constructor_names(self, type_qualname: str) -> tuple[str, ...]:
        return ("initialize",)

    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        kind, _, rest = spec.partition(":")
        table = self.table(evaluator)
        if kind in ("require", "relative"):
            return self.required(kind, rest, facts.path, table)
        cref_text, _, ref = rest.partition("|")
        crefs = tuple(c for c in cref_text.split(",") if c)
        lexical = kind in ("base", "mbase", "chunk")
        path = self.lookup(crefs, ref, table, None if lexical else evaluator)
        if path is None:
            return EMPTY
        if kind == "chunk":
            return frozenset(Value("type", q) for q in table.chunks(path))
        if kind in ("meta", "mbase"):
            return frozenset({Value("type", meta(path))})
        view = path + _PREPENDED if table.prepended(path) else path
        return frozenset({Value("inst" if kind == "inst" else "type", view)})

    def lookup(
        self, crefs: tuple[str, ...], ref: str, table: _Table, evaluator: Evaluator | None
    ) -> str | None:
        """The class or module `ref` names in the nesting `crefs`: lexically, then (with
        an evaluator) through the ancestors of the innermost class, then at the top."""
        if ref.startswith("::"):
            return ref[2:] if ref[2:] in table.types else None
        head, _, tail = ref.partition("::")
        found = None
        for cref in crefs:
            if table.names(f"{cref}::{head}"):
                found = f"{cref}::{head}"
                break
        if found is None and crefs and evaluator is not None:
            for ancestor in evaluator.mro(crefs[0])[1:]:
                candidate = f"{ancestor.removesuffix(_PREPENDED)}::{head}"
                if table.names(candidate):
                    found = candidate
                    break
        if found is None and table.names(head):
            found = head
        if found is None:
            return None
        full = f"{found}::{tail}" if tail else found
        return full if full in table.types else None

    def required(self, kind: str, spec: str, here: str, table: _Table) -> Values:
        spec = spec.removesuffix(".rb")
        if kind == "relative":
            target = posixpath.normpath(posixpath.join(posixpath.dirname(here), spec)) + ".rb"
            return frozenset({Value("module", target)}) if target in table.paths else EMPTY
        candidates = table.by_suffix.get(spec, [])
        if len(candidates) > 1:  # a load path: `lib/`, else the nearest to the requirer
            in_lib = [c for c in candidates if c[: -len(spec) - 3].endswith("lib/")]
            candidates = in_lib or candidates
        if len(candidates) > 1:
            folders = here.split("/")[:-1]
            near = {c: shared_prefix(c.split("/")[:-1], folders) for c in candidates}
            candidates = [c for c in candidates if near[c] == max(near.values())]
        return frozenset({Value("module", candidates[0])}) if len(candidates) == 1 else EMPTY
