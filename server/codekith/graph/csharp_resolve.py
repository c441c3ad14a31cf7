"""C#: namespaces and using directives, partial classes, extension methods, members.

A type is found by namespace and simple name, not by path: a name is looked up from the
innermost namespace (or type) outwards, each level's members before its `using`
directives, as the compiler does; `global using`s count in every file. Each extracted
name carries its context (`Ctx`, an index into the file's list) inside its `Import` spec,
since the evaluator asks the front end about imports without the scope they were met in.
The parts of a `partial` class are each other's bases (so a call on one part reaches the
methods, fields and bases of all); `base` is the first declared base when that is a class
of the workspace. `x.Ext()` is an extension method only when `x`'s type has no method Ext,
the extension's static class is in a namespace in scope and its `this` parameter's type is
one of x's type's bases. Property accessors, field initializers and nested types are no
chunks: their calls belong to the type around them.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codekith.chunking.treesitter import Definition
from codekith.graph.frontend import (
    Extractor,
    Frontend,
    children,
    config_ancestors,
    field_text,
    line,
    pos,
    returned,
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
    Instance,
    Known,
    Member,
    Method,
    Name,
    New,
    Scope,
    SelfType,
    Site,
    This,
    TypeDecl,
    Union,
    Unwrap,
    Value,
    Values,
    Wrapped,
)
from codekith.syntax import Node, text

if TYPE_CHECKING:
    from codekith.graph.reads import Table
    from codekith.graph.syntax_engine import Evaluator

_TYPES = (
    "class_declaration",
    "struct_declaration",
    "interface_declaration",
    "record_declaration",
    "enum_declaration",
)
_METHODS = (
    "method_declaration",
    "constructor_declaration",
    "destructor_declaration",
    "operator_declaration",
    "conversion_operator_declaration",
)
_RETURNING = (
    "method_declaration",
    "local_function_statement",
    "property_declaration",
    "operator_declaration",
    "lambda_expression",
    "anonymous_method_expression",
    "constructor_declaration",
    "accessor_declaration",
)
_NULLARY = ("nullable_type", "ref_type", "scoped_type")  # `Foo?`: still a Foo
_WRAPPERS = ("Task", "ValueTask")  # `await` gives their type argument
_OPERATORS = frozenset(
    ("+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "==", "!=", "<", ">", "<=", ">=")
)
_TEXTS = frozenset(  # `"a" + x` concatenates: no user-defined operator is that common
    {
        "string_literal",
        "verbatim_string_literal",
        "raw_string_literal",
        "interpolated_string_expression",
        "character_literal",
        "null_literal",
    }
)
_LITERALS = _TEXTS | {"integer_literal", "real_literal", "boolean_literal"}
_LEAVES = (  # hold no calls (an interpolated string may)
    frozenset({"identifier", "predefined_type", "modifier", "comment"})
    | _LITERALS - {"interpolated_string_expression", "raw_string_literal"}
)
_TYPE_PARAM = "<T>"  # how a generic parameter is bound (never a value's name)
_MAX_CHAIN = 32  # `a.b.c` read as a dotted name up to this many parts


@dataclass
class Ctx:
    """A namespace declaration or type body: where names are looked up from. `outer` is
    the namespace of the level around (a `namespace A.B.C` inside `A` also searches A.B)."""

    name: str
    kind: str  # unit | namespace | type
    parent: int
    outer: str = ""
    usings: list[str] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)
    statics: list[str] = field(default_factory=list)


@dataclass(eq=False)
class Extension:
    """`static R Name(this T x, …)` in a static class of `namespace`."""

    qualname: str
    namespace: str
    receiver: Expr
    scope: Scope


@dataclass(eq=False)
class CsFacts(FileFacts):
    contexts: list[Ctx] = field(default_factory=list)
    full_names: dict[str, str] = field(default_factory=dict)  # type qualname -> A.B.Type
    partial: set[str] = field(default_factory=set)
    namespaces: set[str] = field(default_factory=set)
    extensions: dict[str, list[Extension]] = field(default_factory=dict)
    globals: Ctx = field(default_factory=lambda: Ctx("", "global", -1))  # `global using`s
    receivers: list[tuple[Expr, Scope]] = field(default_factory=list)


class CsExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        module = self.facts
        self.cs = CsFacts(module.path, language, module.module, module.scope)
        self.cs.definitions = module.definitions
        self.cs.contexts.append(Ctx("", "unit", -1))
        self.facts = self.cs
        self.ctx_of: dict[int, int] = {id(self.facts.scope): 0}
        self.here: Scope = self.facts.scope
        self.handlers.update(
            {
                "compilation_unit": self.compilation_unit,
                "namespace_declaration": self.namespace_declaration,
                "using_directive": self.using_directive,
                **dict.fromkeys(_TYPES, self.type_declaration),
                "block": self.block,
                "variable_declaration": self.variable_declaration,
                "foreach_statement": self.foreach_statement,
                "catch_declaration": self.typed_name,
                "declaration_pattern": self.typed_name,
                "declaration_expression": self.typed_name,
                "lambda_expression": self.lambda_expression,
                "anonymous_method_expression": self.lambda_expression,
                "local_function_statement": self.local_function,
                "from_clause": self.range_variable,
                "let_clause": self.range_variable,
                "join_clause": self.range_variable,
                "query_continuation": self.range_variable,
                "invocation_expression": self.invocation,
                "object_creation_expression": self.object_creation,
                "implicit_object_creation_expression": self.implicit_creation,
                "binary_expression": self.binary_expression,
            }
        )

    def visit_children(self, node: Node, scope: Scope, owner: str) -> None:
        """Names and literals hold nothing to visit (generated code has millions)."""
        found = [c for c in reversed(node.named_children) if c.type not in _LEAVES]
        self._stack.extend((c, scope, owner) for c in found)

    # -- namespaces and usings -------------------------------------------------------------
    def compilation_unit(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A file-scoped `namespace X;` holds the declarations after it (its siblings)."""
        queued: list[tuple[Node, Scope]] = []
        current = scope
        for child in node.named_children:
            queued.append((child, current))
            if child.type == "file_scoped_namespace_declaration":
                current = self.namespace_scope(child, scope)
        for child, inner in reversed(queued):
            self.visit(child, inner, owner)
        return None

    def namespace_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        inner = self.namespace_scope(node, scope)
        body = node.child_by_field_name("body")
        if body is not None:
            self.visit_children(body, inner, owner)
        return None

    def namespace_scope(self, node: Node, scope: Scope) -> Scope:
        parent = self.context(scope)
        outer = self.cs.contexts[parent].name
        name = _dotted(node.child_by_field_name("name"))
        full = f"{outer}.{name}" if outer else name
        inner = Scope("namespace", scope)
        self.ctx_of[id(inner)] = len(self.cs.contexts)
        self.cs.contexts.append(Ctx(full, "namespace", parent, outer))
        parts = full.split(".")
        self.cs.namespaces.update(".".join(parts[:n]) for n in range(1, len(parts) + 1))
        return inner

    def using_directive(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        tokens = {c.type for c in node.children if not c.is_named}
        named = [c for c in node.named_children]
        if not named:
            return None
        target = _dotted(named[-1])
        alias = text(named[0]) if len(named) > 1 and named[0].type == "identifier" else ""
        level = self.cs.contexts[self.context(scope)]
        if "global" in tokens:
            level = self.cs.globals
        if alias:
            level.aliases[alias] = target
        elif "static" in tokens:
            level.statics.append(target)
        else:
            level.usings.append(target)
        return None

    def context(self, scope: Scope | None) -> int:
        while scope is not None:
            found = self.ctx_of.get(id(scope))
            if found is not None:
                return found
            scope = scope.parent
        return 0

    # -- types -----------------------------------------------------------------------------
    def type_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = field_text(node, "name")
        definition = self.definition(node)
        qualname = definition.qualname if definition else f"{owner}.<{name}>"
        parent = self.context(scope)
        outer = self.cs.contexts[parent].name
        full = f"{outer}.{name}" if outer else name
        self.cs.full_names[qualname] = full
        known: Expr = Known(Value("type", qualname))
        partial = any(text(c) == "partial" for c in node.children if c.type == "modifier")
        if partial:
            self.cs.partial.add(qualname)
            known = Union((known, Import("parts:" + qualname)))
        scope.bind(name, Binding(pos(node), known))
        body_scope = Scope("type", scope, type_qualname=qualname)
        self.ctx_of[id(body_scope)] = len(self.cs.contexts)
        self.cs.contexts.append(Ctx(full, "type", parent))
        self.here = body_scope
        self.type_parameters(node, body_scope)
        decl = TypeDecl(
            qualname, body_scope, line(node), is_class=node.type != "interface_declaration"
        )
        decl.bases = self.bases(node, qualname, partial)
        self.facts.types.append(decl)
        instance = Instance(Known(Value("type", qualname)))
        initializers = Scope("function", body_scope, this=instance)
        static = any(text(c) == "static" for c in node.children if c.type == "modifier")
        for parameter in children(_child_of_type(node, "parameter_list")):  # a record's
            self.here = body_scope
            self.member(decl, field_text(parameter, "name"), parameter.child_by_field_name("type"))
        for member in children(node.child_by_field_name("body")):
            if member.type in _METHODS:
                self.method(member, body_scope, owner, qualname, instance, static)
            elif member.type in ("field_declaration", "event_field_declaration"):
                self.field(member, decl, initializers, owner)
            elif member.type in ("property_declaration", "event_declaration"):
                self.here = body_scope
                self.member(decl, field_text(member, "name"), member.child_by_field_name("type"))
                self.visit_children(member, initializers, owner)
            elif member.type != "enum_member_declaration":
                self.visit(member, initializers, owner)
        return None

    def bases(self, node: Node, qualname: str, partial: bool) -> list[Expr]:
        """Declared bases; a partial part's other parts first, their bases last."""
        found: list[Expr] = [Import("parts:" + qualname)] if partial else []
        for child in children(_child_of_type(node, "base_list")):
            kind = (
                child.named_children[0] if child.type == "primary_constructor_base_type" else child
            )
            ref = self.type_ref(kind)
            if ref is not None:
                found.append(ref)
        return [*found, Import("pbases:" + qualname)] if partial else found

    def type_parameters(self, node: Node, scope: Scope) -> None:
        """`T` holds its first class or interface constraint, else nothing (never a type of
        the workspace that happens to be called T)."""
        bounds: dict[str, Node] = {}
        for clause in node.named_children:
            if clause.type == "type_parameter_constraints_clause" and clause.named_children:
                constraints = clause.named_children[1:]
                typed = [c.child_by_field_name("type") for c in constraints]
                kinds = [t for t in typed if t is not None]
                if kinds:
                    bounds[text(clause.named_children[0])] = kinds[0]
        listed = node.child_by_field_name("type_parameters")
        for parameter in children(listed or _child_of_type(node, "type_parameter_list")):
            name = field_text(parameter, "name") or text(parameter)
            bound = bounds.get(name)
            ref = self.type_ref(bound) if bound is not None else None
            scope.bind(_TYPE_PARAM + name, Binding(pos(parameter), ref or Known(Value("", name))))
            scope.type_params.add(_TYPE_PARAM + name)

    def member(self, decl: TypeDecl, name: str, kind: Node | None) -> None:
        """A field, property or record component: a name of the type body, typed."""
        declared = self.declared_type(kind) or UNKNOWN
        decl.add_field(name, declared, decl.scope)
        decl.scope.bind(name, Binding(pos(kind) if kind else (0, 0), declared, typed=True))

    def field(self, node: Node, decl: TypeDecl, scope: Scope, owner: str) -> None:
        declaration = _child_of_type(node, "variable_declaration")
        if declaration is None:
            return
        kind = declaration.child_by_field_name("type")
        for declarator in _declarators(declaration):
            self.here = decl.scope
            self.member(decl, field_text(declarator, "name"), kind)
            self.visit(_value(declarator), scope, owner)

    def method(
        self, node: Node, scope: Scope, owner: str, klass: str, instance: Expr, static: bool
    ) -> None:
        definition = self.definition(node)
        name = definition.name if definition else field_text(node, "name")
        qualname = definition.qualname if definition else f"{klass}.<{name}>"
        method_owner = definition.qualname if definition else owner
        body = Scope("function", scope, this=instance)
        self.here = body
        self.type_parameters(node, body)
        parameters = node.child_by_field_name("parameters")
        self.parameters(parameters, body)
        kind = node.child_by_field_name("returns") or node.child_by_field_name("type")
        returns = returned(self.declared_type(kind), body) if kind is not None else None
        container = Known(Value("type", klass))
        self.facts.functions.append(
            FuncDecl(qualname, name, body, returns or UNKNOWN, container, scope)
        )
        first = children(parameters)[:1]
        if static and node.type == "method_declaration" and first and _is_this(first[0]):
            self.extension(qualname, name, first[0], body)
        initializer = _child_of_type(node, "constructor_initializer")
        if initializer is not None:
            self.constructor_initializer(initializer, body, method_owner, klass)
        self.visit(
            node.child_by_field_name("body") or _child_of_type(node, "arrow_expression_clause"),
            body,
            method_owner,
        )

    def extension(self, qualname: str, name: str, parameter: Node, scope: Scope) -> None:
        self.here = scope
        receiver = self.declared_type(parameter.child_by_field_name("type"))
        if receiver is None:
            return
        holder = self.cs.contexts[self.context(scope)]  # the static class
        namespace = self.cs.contexts[holder.parent].name if holder.parent >= 0 else ""
        extension = Extension(qualname, namespace, receiver, scope)
        self.cs.extensions.setdefault(name, []).append(extension)

    def constructor_initializer(self, node: Node, scope: Scope, owner: str, klass: str) -> None:
        """`: base(…)` runs the base class's constructor, `: this(…)` one of the class's
        own, in whichever part of a partial class it is declared."""
        tokens = {c.type for c in node.children if not c.is_named}
        if "base" in tokens:
            made: Expr = Import("base:" + klass)
        else:
            made = Union((Known(Value("type", klass)), Import("parts:" + klass)))
        self.facts.sites.append(Site(owner, scope, New(made), line(node), "new"))
        self.visit_children(node, scope, owner)

    # -- locals ----------------------------------------------------------------------------
    def parameters(self, node: Node | None, scope: Scope) -> None:
        if node is None:
            return
        for index, child in enumerate(node.children):
            if child.type == "parameter":
                self.here = scope
                declared = self.declared_type(child.child_by_field_name("type"))
                name = field_text(child, "name")
                scope.bind(name, Binding(pos(child), declared or UNKNOWN, typed=bool(declared)))
            elif node.field_name_for_child(index) == "name":  # `params T[] xs`
                scope.bind(text(child), Binding(pos(child), UNKNOWN))

    def block(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """Local functions are in scope in their whole block, before their declaration."""
        for child in node.named_children:
            if child.type == "local_function_statement":
                scope.bind(field_text(child, "name"), Binding((0, 0), UNKNOWN))
        return scope

    def variable_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        kind = node.child_by_field_name("type")
        self.here = scope
        declared = None if _is_var(kind) else self.declared_type(kind)
        for declarator in _declarators(node):
            value = _value(declarator)
            name = field_text(declarator, "name")
            at = (declarator.end_point[0], declarator.end_point[1])
            if declared is not None:
                scope.bind(name, Binding(at, declared, typed=True))
            else:
                self.here = scope
                scope.bind(name, Binding(at, self.expr(value) if value is not None else UNKNOWN))
        return scope

    def foreach_statement(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        kind = node.child_by_field_name("type")
        left = node.child_by_field_name("left")
        self.here = scope
        declared = None if _is_var(kind) else self.declared_type(kind)
        if left is not None and left.type == "identifier":
            scope.bind(text(left), Binding(pos(node), declared or UNKNOWN, typed=bool(declared)))
        elif left is not None:
            for name in left.named_children:
                scope.bind(field_text(name, "name") or text(name), Binding(pos(node), UNKNOWN))
        return scope

    def typed_name(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`catch (Foo e)`, `x is Foo f`, `out Foo f` / `out var f`."""
        name = node.child_by_field_name("name")
        if name is not None and name.type == "identifier":
            self.here = scope
            kind = node.child_by_field_name("type")
            declared = None if _is_var(kind) else self.declared_type(kind)
            scope.bind(text(name), Binding(pos(node), declared or UNKNOWN, typed=bool(declared)))
        return scope

    def range_variable(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        for child in node.children_by_field_name("name"):
            scope.bind(text(child), Binding((0, 0), UNKNOWN))
        for child in node.named_children:
            if child.type == "identifier" and node.type == "query_continuation":
                scope.bind(text(child), Binding((0, 0), UNKNOWN))
        return scope

    def lambda_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        body = Scope("function", scope)
        parameters = node.child_by_field_name("parameters")
        if parameters is not None and parameters.type == "implicit_parameter":
            body.bind(text(parameters), Binding(pos(parameters), UNKNOWN))
        else:
            self.parameters(parameters, body)
        for child in node.named_children:
            if child != parameters:
                self.visit(child, body, owner)
        return None

    def local_function(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        scope.bind(field_text(node, "name"), Binding((0, 0), UNKNOWN))
        body = Scope("function", scope)
        self.type_parameters(node, body)
        self.parameters(node.child_by_field_name("parameters"), body)
        self.visit(node.child_by_field_name("body"), body, owner)
        return None

    # -- calls -----------------------------------------------------------------------------
    def invocation(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.here = scope
        call = self.expr(node)
        if isinstance(call, Call):
            self.facts.sites.append(Site(owner, scope, call, line(node)))
        return scope

    def object_creation(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.here = scope
        ref = self.type_ref(node.child_by_field_name("type"))
        if ref is not None:
            self.facts.sites.append(Site(owner, scope, New(ref), line(node), "new"))
        return scope

    def implicit_creation(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`Foo x = new(…)`, a field or property `= new()`, `=> new(…)` of a method that
        returns Foo: the declared type says what is made."""
        self.here = scope
        ref = self.type_ref(_target_type(node))
        if ref is not None:
            self.facts.sites.append(Site(owner, scope, New(ref), line(node), "new"))
        return scope

    def binary_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`a * b` calls a user-defined `operator *` of a's type, else of b's."""
        operator = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        symbol = text(operator)
        if left is None or right is None or symbol not in _OPERATORS:
            return scope
        if left.type in _TEXTS or right.type in _TEXTS:
            return scope
        if left.type in _LITERALS and right.type in _LITERALS:
            return scope
        self.here = scope
        name = "operator" + symbol
        callee = Either(Method(self.expr(left), name), Method(self.expr(right), name))
        self.facts.sites.append(Site(owner, scope, Call(callee), line(node)))
        return scope

    def callee(self, node: Node) -> Expr:
        """`obj.m` (else an extension method `m` for obj), or for a bare `m`: a local
        function or delegate, else the class's (inherited) method, else `using static`."""
        function = node.child_by_field_name("function")
        if function is None:
            return UNKNOWN
        if function.type == "generic_name":
            function = function.named_children[0] if function.named_children else function
        if function.type == "identifier":
            name = text(function)
            if _is_local(self.here, name):
                return Name(name, pos(function))
            ctx = self.context(self.here)
            return Either(Method(SelfType(), name), Import(f"static:{ctx}:{name}"))
        if function.type in ("member_access_expression", "conditional_access_expression"):
            obj, name = _receiver(function)
            if obj is not None and name:
                receiver = self.expr(obj)
                return Either(Method(receiver, name), self.extension_call(receiver, name))
        return self.expr(function)

    def extension_call(self, receiver: Expr, name: str) -> Expr:
        index = len(self.cs.receivers)
        self.cs.receivers.append((receiver, self.here))
        return Import(f"ext:{self.context(self.here)}:{index}:{name}")

    # -- expressions -----------------------------------------------------------------------
    def convert(self, node: Node) -> Expr:
        kind = node.type
        if kind == "identifier":
            return self.identifier(node)
        if kind == "this":
            return This()
        if kind == "base":
            return Instance(Import("base:" + self.here.enclosing_type()))
        if kind == "member_access_expression":
            return self.member_access(node)
        if kind == "conditional_access_expression":
            obj, name = _receiver(node)
            return Member(self.expr(obj), name) if obj is not None and name else UNKNOWN
        if kind == "invocation_expression":
            return Call(self.callee(node))
        if kind == "object_creation_expression":
            ref = self.type_ref(node.child_by_field_name("type"))
            return New(ref) if ref is not None else UNKNOWN
        if kind == "implicit_object_creation_expression":
            ref = self.type_ref(_target_type(node))
            return New(ref) if ref is not None else UNKNOWN
        if kind == "cast_expression":
            return self.declared_type(node.child_by_field_name("type")) or UNKNOWN
        if kind == "as_expression":
            return self.declared_type(node.child_by_field_name("right")) or UNKNOWN
        if kind == "await_expression" and node.named_children:
            return Unwrap(self.expr(node.named_children[0]))
        if kind in ("parenthesized_expression", "with_expression") and node.named_children:
            return self.expr(node.named_children[0])
        if kind == "postfix_unary_expression" and text(node).endswith("!"):
            return self.expr(node.named_children[0]) if node.named_children else UNKNOWN
        if kind in ("generic_name", "qualified_name", "alias_qualified_name"):
            return self.type_ref(node) or UNKNOWN
        return UNKNOWN

    def identifier(self, node: Node) -> Expr:
        """A local, parameter or member of the type; else a type or namespace by name."""
        name = text(node)
        if self.here.declaring(name) is not None:
            return Name(name, pos(node))
        return Either(Name(name, pos(node)), self.named(name))

    def member_access(self, node: Node) -> Expr:
        """`a.b.c`: members of the local or field `a`, else the dotted name of a type,
        namespace or static member."""
        obj, name = _receiver(node)
        if obj is None or not name:
            return UNKNOWN
        dotted = _identifier_chain(node)
        if dotted is None or self.here.declaring(dotted.split(".")[0]) is not None:
            return Member(self.expr(obj), name)
        return Either(Member(self.expr(obj), name), self.named(dotted))

    def named(self, dotted: str) -> Expr:
        return Import(f"t:{self.context(self.here)}:{dotted}")

    def type_ref(self, node: Node | None) -> Expr | None:
        """The type a type node names (a generic parameter: its constraint)."""
        while node is not None and node.type in _NULLARY:
            node = node.child_by_field_name("type") or _first(node)
        if node is None:
            return None
        if node.type == "generic_name":
            return self.type_ref(node.named_children[0]) if node.named_children else None
        if node.type == "identifier":
            name = text(node)
            if self.here.is_type_param(_TYPE_PARAM + name):
                return Name(_TYPE_PARAM + name, pos(node))
            return self.named(name)
        if node.type == "qualified_name":
            return self.named(_dotted(node))
        if node.type == "alias_qualified_name":
            return Import("t:0:" + _dotted(node))
        return None

    def declared_type(self, node: Node | None) -> Expr | None:
        """An instance of the declared type; `Task<T>` is a T once awaited."""
        inner = node
        while inner is not None and inner.type in _NULLARY:
            inner = inner.child_by_field_name("type") or _first(inner)
        if inner is not None and inner.type == "generic_name" and inner.named_children:
            head, arguments = inner.named_children[0], inner.named_children[1:]
            if text(head) in _WRAPPERS and arguments and len(arguments[0].named_children) == 1:
                ref = self.type_ref(arguments[0].named_children[0])
                return Wrapped(ref) if ref is not None else None
        ref = self.type_ref(node)
        return Instance(ref) if ref is not None else None


def _dotted(node: Node | None) -> str:
    """`A.B.C`, `global::A.B`, `A.B<int>`: the dotted name without type arguments."""
    if node is None:
        return ""
    if node.type == "generic_name":
        return text(node.named_children[0]) if node.named_children else ""
    if node.type in ("qualified_name", "alias_qualified_name"):
        parts = [_dotted(c) for c in node.named_children if text(c) != "global"]
        return ".".join(p for p in parts if p)
    return text(node)


def _receiver(node: Node) -> tuple[Node | None, str]:
    """The object and member name of `obj.name` / `obj?.name`."""
    if node.type == "member_access_expression":
        obj, name = node.child_by_field_name("expression"), node.child_by_field_name("name")
    else:
        obj = node.child_by_field_name("condition")
        binding = _child_of_type(node, "member_binding_expression")
        name = binding.child_by_field_name("name") if binding is not None else None
    if name is not None and name.type == "generic_name":
        name = name.named_children[0] if name.named_children else None
    return obj, text(name) if name is not None else ""


def _identifier_chain(node: Node) -> str | None:
    """`a.b.c` when it is identifiers only, else None."""
    parts: list[str] = []
    current: Node | None = node
    while current is not None and current.type == "member_access_expression":
        if len(parts) > _MAX_CHAIN:
            return None
        name = current.child_by_field_name("name")
        if name is None or name.type != "identifier":
            return None
        parts.append(text(name))
        current = current.child_by_field_name("expression")
    if current is None or current.type != "identifier":
        return None
    parts.append(text(current))
    return ".".join(reversed(parts))


def _is_local(scope: Scope, name: str) -> bool:
    """A local, parameter, local function or field: a bare call of it calls a delegate."""
    current: Scope | None = scope
    while current is not None and current.kind in ("function", "type"):
        if name in current.bindings:
            return True
        current = current.parent
    return False


def _target_type(node: Node) -> Node | None:
    """The declared type a target-typed `new(…)` makes."""
    parent = node.parent
    if parent is not None and parent.type == "variable_declarator":
        declaration = parent.parent
        kind = declaration.child_by_field_name("type") if declaration is not None else None
        return None if _is_var(kind) else kind
    if parent is not None and parent.type == "property_declaration":
        return parent.child_by_field_name("type")
    if parent is not None and parent.type in ("arrow_expression_clause", "return_statement"):
        current = parent.parent
        while current is not None and current.type not in _RETURNING:
            current = current.parent
        if current is not None and current.type != "lambda_expression":
            return current.child_by_field_name("returns") or current.child_by_field_name("type")
    return None


def _is_var(node: Node | None) -> bool:
    return node is None or node.type == "implicit_type" or text(node) == "var"


def _is_this(parameter: Node) -> bool:
    return any(c.type == "modifier" and text(c) == "this" for c in parameter.children)


def _first(node: Node) -> Node | None:
    return node.named_children[0] if node.named_children else None


def _child_of_type(node: Node, kind: str) -> Node | None:
    return next((c for c in node.named_children if c.type == kind), None)


def _declarators(node: Node) -> list[Node]:
    return [c for c in node.named_children if c.type == "variable_declarator"]


def _value(declarator: Node) -> Node | None:
    """A declarator's initializer: what follows its `=`."""
    seen = False
    for child in declarator.children:
        if seen and child.is_named:
            return child
        seen = seen or child.type == "="
    return None


class _Table:
    """The workspace's C# names (`CsFrontend.rows`), looked up through the evaluator's
    recorded tables: a full name's types, a type's full name and project, partial types,
    namespaces, extension methods by name, each project's `global using`s."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self.tables = tables = evaluator.tables
        self.types = tables.of("csharp.types")  # A.B.Type -> qualnames
        self.full_names = tables.of("csharp.full")  # qualname -> A.B.Type
        self.projects = tables.of("csharp.project")  # qualname -> project folder
        self.partial = tables.of("csharp.partial")
        self.namespaces = tables.of("csharp.namespaces")
        self.extensions = tables.of("csharp.extensions")  # name -> Extension
        self._globals = tables.of("csharp.globals")  # project -> each file's Ctx

    def last(self, table: Table[Any], key: str) -> Any:
        """The value of the last file (by path) that gives one: what a merged dict held."""
        found = table.get(key)
        return found[-1] if found else None

    def globals(self, project: str) -> Ctx:
        """The `global using`s of a project's files, merged in path order."""
        return self.evaluator.memoised(
            ("csharp.globals", project), lambda: _merged(self._globals.get(project)), _NO_CTX
        )


def _merged(parts: list[Ctx]) -> Ctx:
    merged = Ctx("", "global", -1)
    for part in parts:
        merged.usings += part.usings
        merged.aliases.update(part.aliases)
        merged.statics += part.statics
    return merged


_NO_CTX = Ctx("", "global", -1)


class CsFrontend(Frontend):
    languages = ("csharp",)
    extractor = CsExtractor
    implicit_this = True

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.projects: list[str] = []
        self._project_of: dict[str, str] = {}
        self._names: _Table | None = None

    def config_files(self, paths: Iterable[str]) -> set[str]:
        """The `*.csproj` files in the folders of `paths` and their parents."""
        dirs = {posixpath.dirname(p) for p in config_ancestors(paths, ("_",))}
        found: set[str] = set()
        for directory in dirs:
            try:
                entries = list((self.root / directory).glob("*.csproj"))
            except OSError:
                continue
            found |= {posixpath.join(directory, e.name) if directory else e.name for e in entries}
        return found

    def configure(self, paths: Iterable[str]) -> None:
        """A project is a folder holding a `.csproj`; its `global using`s are its own."""
        self.projects = sorted(
            {posixpath.dirname(p) for p in self.config_files(paths)}, key=len, reverse=True
        )
        self._project_of.clear()

    def project(self, path: str) -> str:
        """The innermost project folder holding `path` ("" without any .csproj)."""
        directory = posixpath.dirname(path)
        found = self._project_of.get(directory)
        if found is None:
            found = next((p for p in self.projects if _inside(directory, p)), "")
            self._project_of[directory] = found
        return found

    def constructor_names(self, type_qualname: str) -> tuple[str, ...]:
        return (type_qualname.rsplit(".", 1)[-1],)

    def table(self, evaluator: Evaluator) -> _Table:
        """The lookups of the evaluator's tables (made again when they are built again)."""
        if self._names is None or self._names.tables is not evaluator.tables:
            self._names = _Table(evaluator)
        return self._names

    def rows(self, facts: FileFacts) -> Iterator[tuple[str, str, object]]:
        if not isinstance(facts, CsFacts):
            return
        project = self.project(facts.path)
        for qualname, full in facts.full_names.items():
            yield "csharp.types", full, qualname
            yield "csharp.full", qualname, full
            yield "csharp.project", qualname, project
        for qualname in sorted(facts.partial):
            yield "csharp.partial", qualname, qualname
        for namespace in sorted(facts.namespaces):
            yield "csharp.namespaces", namespace, namespace
        for name, found in facts.extensions.items():
            for extension in found:
                yield "csharp.extensions", name, extension
        if facts.globals.usings or facts.globals.aliases or facts.globals.statics:
            yield "csharp.globals", project, facts.globals

    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        if not isinstance(facts, CsFacts):
            return EMPTY
        kind, _, rest = spec.partition(":")
        table = self.table(evaluator)
        if kind == "t":
            ctx, _, dotted = rest.partition(":")
            return self.dotted(dotted, int(ctx), facts, table, evaluator)
        if kind == "parts":
            return frozenset(Value("type", q) for q in self.parts(rest, table) if q != rest)
        if kind == "pbases":
            return self.part_bases(rest, table, evaluator)
        if kind == "base":
            return self.base_class(rest, table, evaluator)
        if kind == "static":
            ctx, _, name = rest.partition(":")
            return self.static_member(name, int(ctx), facts, table, evaluator)
        if kind == "ext":
            ctx, _, rest = rest.partition(":")
            index, _, name = rest.partition(":")
            return self.extension(name, int(ctx), int(index), facts, table, evaluator)
        return EMPTY

    # -- names -----------------------------------------------------------------------------
    def dotted(
        self, dotted: str, ctx: int, facts: CsFacts, table: _Table, evaluator: Evaluator
    ) -> Values:
        """Types, a namespace, or static members that a dotted name names."""
        parts = dotted.split(".")
        values, index = evaluator.memoised(
            ("csharp.named", facts.path, ctx, dotted),
            lambda: self.read_named(parts, ctx, facts, table, evaluator),
            (EMPTY, len(parts)),
        )
        for part in parts[index:]:
            values = frozenset(v for value in values for v in evaluator.member(value, part))
        return values

    def read_named(
        self, parts: list[str], ctx: int, facts: CsFacts, table: _Table, evaluator: Evaluator
    ) -> tuple[Values, int]:
        """`named`, with the file's contexts read (the answer is kept for the file's path)."""
        evaluator.recorder.reads.add(evaluator.index.decl_read(facts.path))
        return self.named(parts, ctx, facts, table)

    def named(
        self, parts: list[str], ctx: int, facts: CsFacts, table: _Table
    ) -> tuple[Values, int]:
        """The types or namespace the longest head of `parts` names, and how many parts
        that took (the rest are static members)."""
        names = self.head(parts[0], ctx, facts, table)
        index = 1
        while index < len(parts) and names:
            deeper = [f"{n}.{parts[index]}" for n in names]
            found = [n for n in deeper if n in table.types or n in table.namespaces]
            if not found:
                break
            names, index = found, index + 1
        values = frozenset(Value("type", q) for q in self.nearest(names, facts.path, table))
        if index == len(parts) and not values:
            values = frozenset(Value("package", "csharp:" + n) for n in names)
        return values, index

    def nearest(self, names: list[str], path: str, table: _Table) -> list[str]:
        """The types of these full names; those of the file's own project when the name is
        declared in several projects (each test project its own `Program`)."""
        found = [q for n in names for q in table.types.get(n, [])]
        project = self.project(path)
        own = [q for q in found if table.last(table.projects, q) == project]
        return own or found

    def levels(self, ctx: int, facts: CsFacts, table: _Table) -> Iterator[Ctx]:
        """Where names are looked up from `ctx`, innermost first; last the `global using`s
        of the file's project."""
        while ctx >= 0:
            level = facts.contexts[ctx]
            yield level
            ctx = level.parent
        yield table.globals(self.project(facts.path))

    def head(self, name: str, ctx: int, facts: CsFacts, table: _Table) -> list[str]:
        """The full names of the types or namespace `name` means at `ctx`."""
        for level in self.levels(ctx, facts, table):
            found = self.level(name, level, table)
            if found:
                return found
        return []

    def level(self, name: str, level: Ctx, table: _Table) -> list[str]:
        own = f"{level.name}.{name}" if level.name else name
        if level.kind != "global" and own in table.types:
            return [own]
        if level.kind in ("namespace", "unit") and own in table.namespaces:
            return [own]
        if level.kind == "type":
            return []
        if name in level.aliases:
            return self.absolute(level.aliases[name], level, table)
        found: list[str] = []
        for using in level.usings:
            for namespace in self.absolute(using, level, table):
                candidate = f"{namespace}.{name}"
                if candidate in table.types and candidate not in found:
                    found.append(candidate)
        if found:
            return found
        between = level.name.split(".")  # `namespace A.B.C` in A: A.B's members
        outer_parts = len(level.outer.split(".")) if level.outer else 0
        for size in range(len(between) - 1, outer_parts, -1):
            candidate = ".".join([*between[:size], name])
            if candidate in table.types or candidate in table.namespaces:
                return [candidate]
        return []

    def absolute(self, dotted: str, level: Ctx, table: _Table) -> list[str]:
        """A using directive's name: a full name, or one relative to its namespace."""
        prefixes = level.name.split(".") if level.name else []
        for size in range(len(prefixes), -1, -1):
            candidate = ".".join([*prefixes[:size], dotted])
            if candidate in table.types or candidate in table.namespaces:
                return [candidate]
        return []

    def static_member(
        self, name: str, ctx: int, facts: CsFacts, table: _Table, evaluator: Evaluator
    ) -> Values:
        """A method of a class named by `using static` around `ctx`."""
        found: set[Value] = set()
        for level in self.levels(ctx, facts, table):
            for target in level.statics:
                for qualname in self.nearest(
                    self.absolute(target, level, table), facts.path, table
                ):
                    found |= evaluator.method(Value("type", qualname), name)
        return frozenset(found)

    def visible(self, ctx: int, facts: CsFacts, table: _Table) -> set[str]:
        """The namespaces whose extension methods `ctx` sees."""
        found: set[str] = set()
        for level in self.levels(ctx, facts, table):
            parts = level.name.split(".") if level.name else []
            found |= {".".join(parts[:n]) for n in range(len(parts) + 1)}
            for using in level.usings:
                found |= set(self.absolute(using, level, table))
        return found

    # -- partial classes, base, extension methods ------------------------------------------
    def parts(self, qualname: str, table: _Table) -> list[str]:
        if qualname not in table.partial:
            return [qualname]
        full = table.last(table.full_names, qualname) or ""
        project = table.last(table.projects, qualname)
        found = table.types.get(full, [qualname])
        return [q for q in found if q in table.partial and table.last(table.projects, q) == project]

    def part_bases(self, qualname: str, table: _Table, evaluator: Evaluator) -> Values:
        """The declared bases of the other parts of a partial class."""
        found: set[Value] = set()
        for part in self.parts(qualname, table):
            for decl, _ in evaluator.tables.types.get(part, []) if part != qualname else []:
                for base in _declared(decl):
                    found |= set(evaluator.types_of(evaluator.eval(base, decl.scope)))
        return frozenset(found)

    def base_class(self, qualname: str, table: _Table, evaluator: Evaluator) -> Values:
        """`base`: the first declared base of any part, when it is a class we know."""
        for part in self.parts(qualname, table):
            for decl, _ in evaluator.tables.types.get(part, []):
                declared = _declared(decl)[:1]
                for base in declared:
                    found = evaluator.types_of(evaluator.eval(base, decl.scope))
                    classes = [t for t in found if evaluator.is_class(t.name)]
                    if classes:
                        return frozenset(classes)
        return EMPTY

    def extension(
        self,
        name: str,
        ctx: int,
        index: int,
        facts: CsFacts,
        table: _Table,
        evaluator: Evaluator,
    ) -> Values:
        candidates = table.extensions.get(name)
        if not candidates:
            return EMPTY
        receiver, scope = facts.receivers[index]
        instances = [v for v in evaluator.eval(receiver, scope) if v.kind == "inst"]
        if not instances:
            return EMPTY
        kinds = {t for v in instances for t in evaluator.mro(v.name)}
        visible = self.visible(ctx, facts, table)
        found: set[Value] = set()
        for candidate in candidates:
            if candidate.namespace not in visible:
                continue
            wanted = evaluator.eval(candidate.receiver, candidate.scope)
            if any(v.kind == "inst" and v.name in kinds for v in wanted):
                found.add(Value("func", candidate.qualname))
        return frozenset(found)


def _inside(directory: str, project: str) -> bool:
    return not project or directory == project or directory.startswith(project + "/")


def _declared(decl: TypeDecl) -> list[Expr]:
    """A type's own bases, without the parts of a partial class."""
    return [
        b
        for b in decl.bases
        if not (isinstance(b, Import) and b.spec.startswith(("parts:", "pbases:")))
    ]
