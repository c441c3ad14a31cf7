"""Kotlin: packages and imports, top-level functions, classes, objects, companions.

As in Java a declaration is found by its package and simple name, not by its path. A
companion object's members are chunks of its class, so `Foo.create()` is `Foo`'s method
`create`; an `object`'s methods are its own. No constructor is a chunk: the primary
constructor, `init` blocks and property initializers are the class chunk's code, so
`Foo(...)` and a supertype call `: Base(...)` call the class itself. A bare `m()` is a
method of the innermost implicit receiver (a `with(x)` / `x.apply` / `x.run` lambda's x,
an extension's receiver, the class and its bases), else a local or top-level function;
inside a lambda whose receiver is a library's (`buildString { … }`, DSL builders) a bare
call is never a method of an enclosing class. A top-level extension `fun Foo.ext()` is a
method of Foo for the evaluator, so `foo.ext()` finds it. A call of a value whose type the
text does not show has no edge.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from codekith.chunking.treesitter import Definition
from codekith.graph.frontend import (
    Extractor,
    Frontend,
    child_of_type,
    children,
    end,
    line,
    pos,
    returned,
    words,
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
    Name,
    New,
    Scope,
    Site,
    Super,
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
    from codekith.graph.syntax_engine import Evaluator


CONSTRUCTOR = "<init>"  # the class chunk stands for its constructors
# declared types whose values are collections of their (last) type argument
_COLLECTIONS = words(
    "List MutableList ArrayList Set MutableSet HashSet LinkedHashSet Collection ",
    "MutableCollection Iterable Sequence Array ArrayDeque Map MutableMap HashMap ",
    "LinkedHashMap",
)
_COLLECTION_MAKERS = (
    words(
        "listOf mutableListOf arrayListOf setOf mutableSetOf hashSetOf linkedSetOf mapOf ",
        "mutableMapOf hashMapOf linkedMapOf arrayOf emptyList emptySet emptyMap sequenceOf",
    )
    | _COLLECTIONS
)
# collection calls whose lambda's `it` is an element
_ELEMENT_LAMBDAS = words(
    "forEach onEach map mapNotNull flatMap filter filterNot any all none count first ",
    "firstOrNull last lastOrNull find single singleOrNull sortedBy sortedByDescending ",
    "groupBy associateBy associateWith partition sumOf maxByOrNull minByOrNull takeWhile ",
    "dropWhile distinctBy removeIf removeAll",
)
_SAME_COLLECTION = words(  # the result: the same collection
    "filter filterNot sortedBy sortedByDescending sortedWith onEach takeWhile dropWhile ",
    "distinctBy distinct reversed toList toMutableList toSet toMutableSet asSequence ",
    "asIterable take drop",
)
_IT_IS_RECEIVER = frozenset({"let", "also", "takeIf", "takeUnless"})
_RECEIVER_IS_RECEIVER = frozenset({"apply", "run"})
_RETURNS_RECEIVER = frozenset({"apply", "also", "takeIf", "takeUnless"})
# library functions whose lambda has a receiver of the library's: a bare call inside is
# never a method of an enclosing class (`buildString { append(…) }`)
_LIBRARY_RECEIVERS = words(
    "sequence iterator flow channelFlow callbackFlow produce runBlocking launch async ",
    "withContext coroutineScope supervisorScope runTest dependencies plugins ",
    "configure tasks",
)
_BUILDER = re.compile(r"build[A-Z]")
_OFF = Known(Value("unknown", ""))  # a receiver whose members the text does not show


class KotlinExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        self.receivers: dict[int, Expr] = {}  # scope id -> its implicit receiver
        self.lambda_receivers: set[int] = set()
        self.handlers.update(
            {
                "package_header": self.package_header,
                "import": self.import_,
                "class_declaration": self.class_declaration,
                "object_declaration": self.class_declaration,
                "object_literal": self.class_declaration,
                "function_declaration": self.function_declaration,
                "property_declaration": self.property_declaration,
                "for_statement": self.for_statement,
                "catch_block": self.catch_block,
                "lambda_literal": self.lambda_literal,
                "call_expression": self.call_expression,
                "when_expression": self.when_expression,
                "if_expression": self.if_expression,
                "ERROR": self.error,
            }
        )

    def error(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """Where tree-sitter gave up (a class it could not read), the chunker makes the
        class's methods top-level functions: they stay this file's, not the package's."""
        return Scope("error", scope) if scope.kind == "module" else scope

    # -- package and imports ---------------------------------------------------------------
    def package_header(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = _qualified(node)
        if name:
            self.facts.package = name
        return None

    def import_(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = _qualified(node)
        if not name:
            return None
        tokens = {c.type for c in node.children}
        if "*" in tokens:
            self.facts.import_stars.append(Import("star:" + name))
            return None
        alias = node.named_children[-1] if "as" in tokens else None
        target = Import("name:" + name)
        bound = text(alias) if alias is not None else name.rpartition(".")[2]
        scope.bind(bound, Binding((node.start_point[0], 0), target, imported=True))
        self.facts.imports.append((target, line(node)))
        return None

    # -- types -----------------------------------------------------------------------------
    def class_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        definition = self.definition(node)
        name = text(node.child_by_field_name("name"))
        if node.type == "object_literal":
            qualname = f"{owner}.<object@{line(node)}>"
        else:
            qualname = definition.qualname if definition else f"{owner}.<{name}>"
        keywords = _keywords(node)
        if name and not _is_actual(node):
            scope.bind(name, Binding(pos(node), Known(Value("type", qualname))))
        body_scope = Scope("type", scope, type_qualname=qualname)
        self.receivers[id(body_scope)] = Known(Value("type", qualname))
        self.type_parameters(node, body_scope)
        is_class = not ({"interface", "enum", "annotation"} & keywords) and node.type == (
            "class_declaration"
        )
        decl = TypeDecl(qualname, body_scope, line(node), is_class=is_class)
        self.facts.types.append(decl)
        instance = Instance(Known(Value("type", qualname)))
        initializers = Scope("function", body_scope, this=instance)
        if is_class:
            container = Known(Value("type", qualname))
            constructor = FuncDecl(qualname, CONSTRUCTOR, initializers, None, container, scope)
            self.facts.functions.append(constructor)
        self.heritage(node, decl, initializers, owner)
        self.class_parameters(node, decl, initializers, owner)
        body = next((c for c in node.named_children if c.type in _BODIES), None)
        self.members(body, decl, initializers, owner, instance)
        return None

    def heritage(self, node: Node, decl: TypeDecl, scope: Scope, owner: str) -> None:
        """Bases; a supertype call `: Base(...)` constructs Base (a call of the class)."""
        specifiers = next(
            (c for c in node.named_children if c.type == "delegation_specifiers"), None
        )
        for specifier in children(specifiers):
            inner = specifier.named_children[0] if specifier.named_children else specifier
            kind = child_of_type(inner, "user_type") if inner.type != "user_type" else inner
            ref = type_ref(kind)
            if ref is None:
                continue
            decl.bases.append(ref)
            if inner.type == "constructor_invocation":
                self.facts.sites.append(Site(owner, scope, New(ref), line(inner), "new"))
                self.visit(child_of_type(inner, "value_arguments"), scope, owner)
            elif inner.type == "explicit_delegation":
                self.visit(inner.named_children[-1], scope, owner)

    def class_parameters(self, node: Node, decl: TypeDecl, scope: Scope, owner: str) -> None:
        """Primary-constructor parameters: visible to initializers, fields when val/var."""
        constructor = child_of_type(node, "primary_constructor")
        for parameter in children(child_of_type(constructor, "class_parameters")):
            name = text(child_of_type(parameter, "identifier"))
            declared = declared_type(_type_child(parameter))
            scope.bind(name, Binding(pos(parameter), declared or UNKNOWN, typed=bool(declared)))
            tokens = {c.type for c in parameter.children}
            if declared is not None and tokens & {"val", "var"}:
                decl.add_field(name, declared, decl.scope)
            for child in parameter.named_children:
                if child.type not in _TYPE_NODES and child.type not in ("identifier", "modifiers"):
                    self.visit(child, scope, owner)

    def members(
        self, body: Node | None, decl: TypeDecl, scope: Scope, owner: str, instance: Expr
    ) -> None:
        type_scope = decl.scope
        for member in children(body):
            kind = member.type
            if kind == "function_declaration":
                self.function(member, type_scope, owner, decl.qualname)
            elif kind == "property_declaration":
                self.field(member, decl, scope, owner)
            elif kind == "companion_object":
                name = text(member.child_by_field_name("name")) or "Companion"
                decl.add_field(name, Known(Value("type", decl.qualname)), type_scope)
                self.members(child_of_type(member, "class_body"), decl, scope, owner, instance)
            elif kind == "enum_entry":
                entry = text(child_of_type(member, "identifier"))
                decl.add_field(entry, instance, type_scope)
                for child in member.named_children:
                    if child.type == "class_body":
                        self.visit(child, Scope("function", scope, this=instance), owner)
                    elif child.type != "identifier":
                        self.visit(child, scope, owner)
            elif kind == "secondary_constructor":
                self.secondary_constructor(member, scope, owner)
            elif kind in ("class_declaration", "object_declaration"):
                self.visit(member, type_scope, owner)
                nested = text(member.child_by_field_name("name"))
                definition = self.definition(member)
                qualname = definition.qualname if definition else f"{owner}.<{nested}>"
                decl.add_field(nested, Known(Value("type", qualname)), type_scope)
            else:
                self.visit(member, scope, owner)

    def secondary_constructor(self, node: Node, scope: Scope, owner: str) -> None:
        body = Scope("function", scope)
        self.parameters(child_of_type(node, "function_value_parameters"), body, owner)
        delegation = child_of_type(node, "constructor_delegation_call")
        if delegation is not None:
            if any(c.type == "super" for c in delegation.children):
                self.facts.sites.append(Site(owner, body, Call(Super()), line(delegation), "super"))
            self.visit(child_of_type(delegation, "value_arguments"), body, owner)
        self.visit(child_of_type(node, "block"), body, owner)

    def type_parameters(self, node: Node, scope: Scope) -> None:
        for parameter in children(child_of_type(node, "type_parameters")):
            name = text(child_of_type(parameter, "identifier"))
            ref = type_ref(_type_child(parameter))
            scope.bind(name, Binding(pos(parameter), ref or UNKNOWN))
            scope.type_params.add(name)

    # -- functions -------------------------------------------------------------------------
    def function_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A top-level function, an extension, a local function (no chunk: its calls are
        the enclosing definition's)."""
        self.function(node, scope, owner, "")
        return None

    def function(self, node: Node, scope: Scope, owner: str, klass: str) -> None:
        definition = self.definition(node)
        name = text(node.child_by_field_name("name"))
        receiver = self.receiver_type(node)
        if definition is not None:
            qualname, inner_owner = definition.qualname, definition.qualname
        else:
            qualname, inner_owner = f"{klass or owner}.<{name}>", owner
        this: Expr | None = None
        container: Expr | None = None
        if receiver is not None:  # an `actual` extension: its `expect` is the one found
            this, container = Instance(receiver), None if _is_actual(node) else receiver
        elif klass:
            this, container = Instance(Known(Value("type", klass))), Known(Value("type", klass))
        if not klass and not _is_actual(node):
            scope.bind(name, Binding(pos(node), Known(Value("func", qualname))))
        body = Scope("function", scope, this=this)
        if receiver is not None:
            self.receivers[id(body)] = Instance(receiver)
        self.type_parameters(node, body)
        self.parameters(child_of_type(node, "function_value_parameters"), body, inner_owner)
        code = child_of_type(node, "function_body")
        declared = declared_type(_return_type(node))
        if declared is not None:
            returns: Expr | None = returned(declared, body)
        elif code is not None and any(c.type == "=" for c in code.children) and code.named_children:
            returns = self.expr(code.named_children[0])
        else:
            returns = UNKNOWN  # a block body without a declared type returns Unit
        outer = scope if container is not None else None
        self.facts.functions.append(FuncDecl(qualname, name, body, returns, container, outer))
        self.visit(code, body, inner_owner)

    @staticmethod
    def receiver_type(node: Node) -> Expr | None:
        """The receiver of an extension, `Foo` of `fun Foo.ext()`: a type before the name."""
        name = node.child_by_field_name("name")
        for child in node.named_children:
            if name is not None and child.start_byte >= name.start_byte:
                break
            if child.type in _TYPE_NODES:
                return type_ref(child)
        return None

    def parameters(self, node: Node | None, scope: Scope, owner: str) -> None:
        for parameter in children(node):
            if parameter.type != "parameter":
                continue
            declared = declared_type(_type_child(parameter))
            name = text(child_of_type(parameter, "identifier"))
            scope.bind(name, Binding(pos(parameter), declared or UNKNOWN, typed=bool(declared)))
            for child in parameter.named_children:  # default values
                if child.type not in _TYPE_NODES and child.type != "identifier":
                    self.visit(child, scope, owner)

    # -- properties and locals -------------------------------------------------------------
    def field(self, node: Node, decl: TypeDecl, scope: Scope, owner: str) -> None:
        for name, value in self.declared(node):
            decl.add_field(name, value, scope)
        self.visit_values(node, scope, owner)

    def property_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A local variable, or a top-level property (module scope)."""
        if scope.kind == "module" and _is_actual(node):
            self.visit_values(node, scope, owner)
            return None
        at = end(node) if scope.kind == "function" else pos(node)
        for name, value in self.declared(node):
            typed = (
                declared_type(_type_child(child_of_type(node, "variable_declaration"))) is not None
            )
            scope.bind(name, Binding(at, value, typed=typed))
        self.visit_values(node, scope, owner)
        return None

    def declared(self, node: Node) -> list[tuple[str, Expr]]:
        """(name, value) of each variable a property declaration declares."""
        variable = child_of_type(node, "variable_declaration")
        if variable is None:
            many = child_of_type(node, "multi_variable_declaration")
            return [(text(child_of_type(v, "identifier")), UNKNOWN) for v in children(many)]
        name = text(child_of_type(variable, "identifier"))
        declared = declared_type(_type_child(variable))
        if declared is not None:
            return [(name, declared)]
        value = self.initializer(node)
        return [(name, self.expr(value) if value is not None else UNKNOWN)]

    def initializer(self, node: Node) -> Node | None:
        for child in node.named_children:
            if child.type == "property_delegate":  # `by lazy { Foo() }`: the lambda's value
                lam = _lambda_of(child_of_type(child, "call_expression"))
                return _last_statement(lam)
            if child.type not in _NOT_VALUES:
                return child
        return None

    def visit_values(self, node: Node, scope: Scope, owner: str) -> None:
        for child in node.named_children:
            if child.type in ("getter", "setter"):
                self.visit(child, Scope("function", scope), owner)
            elif child.type not in ("variable_declaration", "multi_variable_declaration"):
                self.visit(child, scope, owner)

    def for_statement(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        body = Scope("function", scope)
        variable = child_of_type(node, "variable_declaration")
        iterated = next(
            (c for c in node.named_children if c.type not in _LOOP_PARTS and c.type != "block"),
            None,
        )
        if variable is not None:
            declared = declared_type(_type_child(variable))
            element = declared or (Unwrap(self.expr(iterated)) if iterated else UNKNOWN)
            body.bind(text(child_of_type(variable, "identifier")), Binding(pos(node), element))
        for part in children(child_of_type(node, "multi_variable_declaration")):
            body.bind(text(child_of_type(part, "identifier")), Binding(pos(node), UNKNOWN))
        for child in node.named_children:
            if child.type not in _LOOP_PARTS:
                self.visit(child, body, owner)
        return None

    def catch_block(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        body = Scope("function", scope)
        declared = declared_type(_type_child(node))
        body.bind(text(child_of_type(node, "identifier")), Binding(pos(node), declared or UNKNOWN))
        self.visit(child_of_type(node, "block"), body, owner)
        return None

    def when_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`when (x) { is T -> … }`: x is a T in that branch (a smart cast)."""
        subject = child_of_type(node, "when_subject")
        named = subject.named_children[-1] if subject and subject.named_children else None
        name = text(named) if named is not None and named.type == "identifier" else ""
        self.visit(subject, scope, owner)
        for entry in node.named_children:
            if entry.type != "when_entry":
                continue
            inner = scope
            condition = entry.child_by_field_name("condition")
            if name and condition is not None and condition.type == "type_test":
                declared = declared_type(_type_child(condition))
                if declared is not None:
                    inner = Scope("function", scope)
                    inner.bind(name, Binding(pos(entry), declared, typed=True))
            self.visit_children(entry, inner, owner)
        return None

    def if_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`if (x is T) …`: x is a T in the first branch."""
        condition = node.child_by_field_name("condition")
        if condition is None or condition.type != "is_expression":
            return scope
        subject = condition.child_by_field_name("left")
        declared = declared_type(condition.child_by_field_name("right"))
        negated = any(c.type == "!is" for c in condition.children)
        if subject is None or subject.type != "identifier" or declared is None or negated:
            return scope
        self.visit(condition, scope, owner)
        branches = [c for c in node.named_children if c != condition]
        for n, branch in enumerate(branches):
            inner = scope
            if n == 0:
                inner = Scope("function", scope)
                inner.bind(text(subject), Binding(pos(branch), declared, typed=True))
            self.visit(branch, inner, owner)
        return None

    # -- lambdas and calls -----------------------------------------------------------------
    def lambda_literal(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A lambda not passed to a call: its implicit receivers are the enclosing ones."""
        self.lambda_body(node, scope, owner, None, None)
        return None

    def lambda_body(
        self, node: Node, scope: Scope, owner: str, receiver: Expr | None, it: Expr | None
    ) -> None:
        body = Scope("function", scope, this=receiver if receiver is not _OFF else UNKNOWN)
        if receiver is not None:
            self.receivers[id(body)] = receiver
            self.lambda_receivers.add(id(body))
        names = children(child_of_type(node, "lambda_parameters"))
        if not names:
            body.bind("it", Binding(pos(node), it or UNKNOWN))
        for variable in names:
            if variable.type == "variable_declaration":
                declared = declared_type(_type_child(variable))
                value = declared or (it if len(names) == 1 and it is not None else UNKNOWN)
                body.bind(
                    text(child_of_type(variable, "identifier")), Binding(pos(variable), value)
                )
            for part in children(variable):  # `(key, value) ->`
                if part.type == "variable_declaration":
                    body.bind(text(child_of_type(part, "identifier")), Binding(pos(part), UNKNOWN))
        for child in node.named_children:
            if child.type != "lambda_parameters":
                self.visit(child, body, owner)

    def call_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        callee, arguments, lambdas = _call_parts(node)
        if callee is None:
            return scope
        self.facts.sites.append(
            Site(owner, scope, New(self.callee(callee, scope)), line(node), "new")
        )
        if callee.type == "navigation_expression" and callee.named_children:
            self.visit(callee.named_children[0], scope, owner)
        elif callee.type not in ("identifier",):
            self.visit(callee, scope, owner)
        for argument in arguments:
            self.visit(argument, scope, owner)
        receiver, it = self.lambda_context(callee, arguments)
        for lam in lambdas:
            self.lambda_body(lam, scope, owner, receiver, it)
        return None

    def lambda_context(
        self, callee: Node, arguments: list[Node]
    ) -> tuple[Expr | None, Expr | None]:
        """The implicit receiver and `it` of a lambda passed to this call."""
        name, obj = _callee_name(callee)
        if obj is not None:
            value = self.expr(obj)
            if name in _RECEIVER_IS_RECEIVER:
                return value, None
            if name in _IT_IS_RECEIVER:
                return None, value
            if name in _ELEMENT_LAMBDAS:
                return None, Unwrap(value)
        elif name == "with" and arguments:
            first = child_of_type(arguments[0], "value_argument")
            return (
                self.expr(first.named_children[-1]) if first and first.named_children else _OFF
            ), None
        if name in _LIBRARY_RECEIVERS or _BUILDER.match(name):
            return _OFF, None
        return None, None

    def callee(self, node: Node, scope: Scope) -> Expr:
        if node.type == "identifier":
            return self.bare(text(node), pos(node), scope)
        if node.type == "navigation_expression" and len(node.named_children) == 2:
            obj, name = node.named_children
            return Member(self.expr(obj), text(name))
        return self.expr(node)

    def bare(self, name: str, at: tuple[int, int], scope: Scope) -> Expr:
        """`m()`: a local, else a member of the innermost implicit receiver that has one,
        else a top-level function or a class (through imports and the package)."""
        options: list[Expr] = []
        current: Scope | None = scope
        while current is not None:
            bindings = current.bindings.get(name, [])
            if current.kind == "function" and any(b.pos <= at for b in bindings):
                break
            receiver = self.receivers.get(id(current))
            if receiver is _OFF:
                break
            if receiver is not None:
                options.append(receiver)
                if id(current) in self.lambda_receivers:
                    break  # `x.apply { m() }`: m is x's, or a function (x's type may be unknown)
            current = current.parent
        found: Expr = Name(name, at)
        for receiver in reversed(options):
            found = Either(Member(receiver, name), found)
        return found

    def convert(self, node: Node) -> Expr:
        kind = node.type
        if kind == "identifier":
            return Name(text(node), pos(node))
        if kind == "this_expression":
            return self.this(node)
        if kind == "super_expression":
            ref = type_ref(child_of_type(node, "user_type"))
            return Instance(ref) if ref is not None else Super()
        if kind == "navigation_expression":
            if len(node.named_children) != 2 or any(c.type == "::" for c in node.children):
                return UNKNOWN
            obj, name = node.named_children
            return Member(self.expr(obj), text(name))
        if kind == "call_expression":
            return self.call_value(node)
        if kind == "as_expression":
            return declared_type(node.child_by_field_name("right")) or UNKNOWN
        if kind == "unary_expression" and any(c.type == "!!" for c in node.children):
            return self.expr(node.child_by_field_name("argument"))
        if kind == "parenthesized_expression" and node.named_children:
            return self.expr(node.named_children[0])
        if kind == "index_expression" and node.named_children:
            return Unwrap(self.expr(node.named_children[0]))
        if kind == "binary_expression" and any(c.type == "?:" for c in node.children):
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            return Union((self.expr(left), self.expr(right)))
        if kind == "if_expression":
            condition = node.child_by_field_name("condition")
            branches = [c for c in node.named_children if c != condition]
            return Union(tuple(self.expr(_last_statement(b) or b) for b in branches))
        return UNKNOWN

    def this(self, node: Node) -> Expr:
        label = child_of_type(node, "identifier")
        if label is None:
            return This()
        return Name(text(label), pos(node))  # `this@Outer`: an instance of the class Outer

    def call_value(self, node: Node) -> Expr:
        callee, _, _ = _call_parts(node)
        if callee is None:
            return UNKNOWN
        name, obj = _callee_name(callee)
        if obj is not None and name in _RETURNS_RECEIVER:
            return self.expr(obj)
        if obj is not None and name in _SAME_COLLECTION:  # unless a method of the workspace
            return Either(Call(self.callee(callee, self.current)), self.expr(obj))
        if obj is None and name in _COLLECTION_MAKERS:
            element = _type_arguments(node, callee)
            return Wrapped(element) if element is not None else UNKNOWN
        return Call(self.callee(callee, self.current))


def _call_parts(node: Node) -> tuple[Node | None, list[Node], list[Node]]:
    """(callee, value arguments, trailing lambdas) of a call; `f(x) { … }` is one call
    (tree-sitter nests the call with arguments inside the one with the lambda)."""
    parts = node.named_children
    if not parts:
        return None, [], []
    callee = parts[0]
    rest = parts[1:]
    lambdas = [first for p in rest if p.type == "annotated_lambda" for first in _lambdas(p)]
    arguments = [p for p in rest if p.type == "value_arguments"]
    if callee.type == "call_expression" and not arguments and lambdas:
        inner, inner_arguments, inner_lambdas = _call_parts(callee)
        return inner, inner_arguments, inner_lambdas + lambdas
    return callee, arguments, lambdas


def _lambdas(node: Node) -> list[Node]:
    return [c for c in node.named_children if c.type == "lambda_literal"]


def _callee_name(callee: Node) -> tuple[str, Node | None]:
    """`m` and the receiver node of `obj.m` / `obj?.m`; `m` and None of a bare `m`."""
    if callee.type == "identifier":
        return text(callee), None
    if callee.type == "navigation_expression" and len(callee.named_children) == 2:
        return text(callee.named_children[1]), callee.named_children[0]
    return "", None


def _type_arguments(node: Node, callee: Node) -> Expr | None:
    """`Item` of `mutableListOf<Item>()`, the value type of `linkedMapOf<String, Item>()`."""
    arguments = child_of_type(node, "type_arguments") or child_of_type(callee, "type_arguments")
    projections = [c for c in children(arguments) if c.type == "type_projection"]
    if not projections:
        return None
    return type_ref(_type_child(projections[-1]))


_BODIES = ("class_body", "enum_class_body")
_TYPE_NODES = ("user_type", "nullable_type", "function_type", "parenthesized_type")
_NOT_VALUES = (
    "modifiers",
    "variable_declaration",
    "multi_variable_declaration",
    "getter",
    "setter",
    "type_constraints",
    "type_parameters",
)
_LOOP_PARTS = ("variable_declaration", "multi_variable_declaration", "label")


def type_ref(node: Node | None) -> Expr | None:
    """The class a type names; `a.b.C` with a lowercase head is a fully qualified name."""
    if node is None:
        return None
    if node.type in ("nullable_type", "parenthesized_type"):
        return type_ref(node.named_children[0]) if node.named_children else None
    if node.type != "user_type":
        return None
    parts = [text(c) for c in node.named_children if c.type == "identifier"]
    if not parts:
        return None
    if len(parts) > 1 and parts[0][:1].islower():
        return Import("name:" + ".".join(parts))
    expr: Expr = Name(parts[0], pos(node))
    for part in parts[1:]:
        expr = Member(expr, part)
    return expr


def declared_type(node: Node | None) -> Expr | None:
    """An instance of a declared type; a collection's elements are its last type argument."""
    while node is not None and node.type in ("nullable_type", "parenthesized_type"):
        node = node.named_children[0] if node.named_children else None
    if node is None or node.type != "user_type":
        return None
    names = [c for c in node.named_children if c.type == "identifier"]
    if names and text(names[-1]) in _COLLECTIONS:
        arguments = child_of_type(node, "type_arguments")
        projections = [c for c in children(arguments) if c.type == "type_projection"]
        element = type_ref(_type_child(projections[-1])) if projections else None
        return Wrapped(element) if element is not None else None
    ref = type_ref(node)
    return Instance(ref) if ref is not None else None


def _type_child(node: Node | None) -> Node | None:
    return next((c for c in children(node) if c.type in _TYPE_NODES), None)


def _return_type(node: Node) -> Node | None:
    """The declared result: a type after the parameters."""
    parameters = child_of_type(node, "function_value_parameters")
    if parameters is None:
        return None
    for child in node.named_children:
        if child.start_byte > parameters.start_byte and child.type in _TYPE_NODES:
            return child
    return None


def _qualified(node: Node) -> str:
    found = child_of_type(node, "qualified_identifier") or child_of_type(node, "identifier")
    return "".join(text(found).split()) if found is not None else ""


def _keywords(node: Node) -> set[str]:
    found = {c.type for c in node.children if not c.is_named}
    modifiers = child_of_type(node, "modifiers")
    found |= {text(m) for m in children(modifiers)}
    return found


def _is_actual(node: Node) -> bool:
    """An `actual` declaration: the `expect` one stands for it (as the common code sees it)."""
    return "actual" in _keywords(node)


def _lambda_of(call: Node | None) -> Node | None:
    if call is None:
        return None
    _, _, lambdas = _call_parts(call)
    return lambdas[-1] if lambdas else None


def _last_statement(node: Node | None) -> Node | None:
    """The value of a lambda or block: its last statement."""
    if node is None or node.type not in ("lambda_literal", "block", "statements"):
        return None
    found = [c for c in node.named_children if c.type not in ("lambda_parameters", "label")]
    if not found:
        return None
    last = found[-1]
    return _last_statement(last) if last.type == "statements" else last


class KotlinFrontend(Frontend):
    languages = ("kotlin",)
    extractor = KotlinExtractor
    implicit_this = True

    def extract(self, path: str, language: str, source: bytes) -> FileFacts:
        facts = super().extract(path, language, source)
        if not facts.package and not path.endswith(".kts"):
            facts.package = "<root>"  # files without a package see each other
        return facts

    def constructor_names(self, type_qualname: str) -> tuple[str, ...]:
        return (CONSTRUCTOR,)

    def package_files(self, key: str, evaluator: Evaluator) -> list[str]:
        return [f.path for f in evaluator.tables.packages.get(key, [])]

    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        kind, _, name = spec.partition(":")
        key = "kotlin:" + name
        if kind == "star":
            if self.package_files(key, evaluator):
                return frozenset({Value("package", key)})
            return frozenset(v for v in self.named(name, evaluator) if v.kind == "type")
        return self.named(name, evaluator)

    def named(self, name: str, evaluator: Evaluator) -> Values:
        """`a.b.C`: C at the top of package a.b, else the member C of the type `a.b`
        (an object's method, an enum entry, a nested class)."""
        holder, _, simple = name.rpartition(".")
        if not holder:
            return EMPTY
        found = evaluator.package_member("kotlin:" + holder, simple)
        if found:
            return found
        members: set[Value] = set()
        for owner in self.named(holder, evaluator):
            if owner.kind == "type":
                members |= evaluator.member(owner, simple)
        return frozenset(members)

    def fallback(self, name: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """Declarations of the same package."""
        if not facts.package:
            return EMPTY
        return evaluator.package_member("kotlin:" + facts.package, name)
