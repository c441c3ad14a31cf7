"""Swift: one name space per module, types grown by extensions, implicit `self`.

Swift has no per-file imports inside a module: every top-level declaration of a module is
visible in all its files (a `private` or `fileprivate` one only in its own). A module is a
SwiftPM target's directory (`Package.swift`: `path:`, else `Sources/<Name>`, `Tests/<Name>`
for a test target); files in no target, and all files of a workspace without a manifest,
form one module. `import X` adds target X's declarations after the module's own.

A type is one name however many files extend it: an `extension Cart` (a chunk of its own
file) adds methods to the Cart its name resolves to, and its properties and conformances
through a hidden declaration hooked into Cart's bases. An extension of a type declared
nowhere in the workspace (`extension String`) makes that library type known by name, so
`title.slugified()` on a `String` finds it. `Foo(...)` calls Foo's `init`s (a class without
one runs its superclass's); `super.init`/`self.init` are calls of `init`. A bare `m()` is a
local, else a member of the enclosing type (its extensions, bases and protocols), else a
top-level function. Enum cases and implicit-member calls (`.walk(…)`, `.init(…)`) are no
calls. A call of a value whose type the text does not show has no edge.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from codekith.chunking.treesitter import Definition
from codekith.graph.frontend import (
    Extractor,
    Frontend,
    child_of_type,
    children,
    config_ancestors,
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
    Instance,
    Known,
    Member,
    Name,
    New,
    Scope,
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
from codekith.syntax import Node, text

if TYPE_CHECKING:
    from codekith.graph.syntax_engine import Evaluator


LIBRARY = "<library>"  # the qualname prefix of library types that the workspace extends
_OFF = Known(Value("unknown", ""))  # a field of no known type: it still hides outer names
_MEMBERS = {"init_declaration": "init", "deinit_declaration": "deinit"}
_FUNCTIONS = (
    "function_declaration",
    "init_declaration",
    "deinit_declaration",
    "subscript_declaration",
    "protocol_function_declaration",
)
_TYPES = ("class_declaration", "protocol_declaration")
_TYPE_NODES = frozenset(
    {
        "user_type",
        "optional_type",
        "array_type",
        "dictionary_type",
        "opaque_type",
        "existential_type",
        "function_type",
        "tuple_type",
        "metatype",
        "protocol_composition_type",
    }
)
_COLLECTIONS = frozenset({"Array", "Set", "ContiguousArray", "ArraySlice", "Dictionary"})
# collection methods whose closure's parameters (by index) are elements
_ELEMENT_CLOSURES = {
    **dict.fromkeys(
        words(
            "forEach map compactMap flatMap filter first last contains allSatisfy drop",
            "prefix firstIndex lastIndex removeAll partition sum count",
        ),
        (0,),
    ),
    "reduce": (1,),
    **dict.fromkeys(words("sorted sort min max elementsEqual"), (0, 1)),
}
_SAME_COLLECTION = words("filter sorted reversed shuffled dropFirst dropLast prefix suffix lazy")
_ELEMENT_CALLS = words("first last removeFirst removeLast popFirst popLast randomElement min max")
_ELEMENT_PROPERTIES = frozenset({"first", "last"})
_LITERALS = {
    "line_string_literal": "String",
    "multi_line_string_literal": "String",
    "raw_string_literal": "String",
    "integer_literal": "Int",
    "real_literal": "Double",
    "boolean_literal": "Bool",
}
# operators tree-sitter-swift binds tighter than a call: `a + f(x)`, `!a.b(x)` are read as
# calls of `a + f`, `!a.b`; the call is of the last operand
_OPERATORS = frozenset(
    {
        "additive_expression",
        "multiplicative_expression",
        "comparison_expression",
        "equality_expression",
        "conjunction_expression",
        "disjunction_expression",
        "nil_coalescing_expression",
        "range_expression",
        "infix_expression",
        "bitwise_operation",
        "prefix_expression",
        "try_expression",
        "await_expression",
    }
)


@dataclass(eq=False)
class SwiftFacts(FileFacts):
    """What a file adds to its module: its imports, private names, extended type names."""

    modules: list[str] = field(default_factory=list)  # `import X`
    private: set[str] = field(default_factory=set)  # `private`/`fileprivate` top-level names
    extended: set[str] = field(default_factory=set)  # `extension Name` at the top level


class SwiftExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        module = self.facts
        self.swift = SwiftFacts(module.path, module.language, module.module, module.scope)
        self.swift.definitions = module.definitions
        self.facts = self.swift
        self.receivers: dict[int, Expr] = {}  # type body scope id -> the type (`Self`)
        self.handlers.update(
            {
                "import_declaration": self.import_,
                "class_declaration": self.type_declaration,
                "protocol_declaration": self.type_declaration,
                "function_declaration": self.function_declaration,
                "property_declaration": self.property_declaration,
                "typealias_declaration": self.typealias,
                "call_expression": self.call_expression,
                "lambda_literal": self.lambda_literal,
                "if_statement": self.conditional,
                "guard_statement": self.conditional,
                "while_statement": self.conditional,
                "for_statement": self.for_statement,
                "switch_entry": self.switch_entry,
                "catch_block": self.catch_block,
                "selector_expression": self.skip,  # `#selector(m)` names m, calls nothing
            }
        )

    def skip(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        return None

    # -- imports and top-level names -------------------------------------------------------
    def import_(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        named = child_of_type(node, "identifier")
        if named is not None and named.named_children:
            self.swift.modules.append(text(named.named_children[0]))
        return None

    def bind(self, scope: Scope, name: str, at: tuple[int, int], expr: Expr, node: Node) -> None:
        scope.bind(name, Binding(at, expr, typed=True))
        if scope is self.facts.scope and _is_private(node):
            self.swift.private.add(name)

    def typealias(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        names = [c for c in node.named_children if c.type == "type_identifier"]
        target = next((c for c in node.named_children if c.type in _TYPE_NODES), None)
        ref = type_ref(target)
        if names and ref is not None:
            self.bind(scope, text(names[0]), pos(node), ref, node)
        return None

    # -- types -----------------------------------------------------------------------------
    def type_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.declare_type(node, scope, owner, None)
        return None

    def declare_type(
        self, node: Node, scope: Scope, owner: str, outer: TypeDecl | None
    ) -> TypeDecl | None:
        """A class, struct, enum, actor, protocol or extension and its members."""
        kind = _declaration_kind(node)
        definition = self.definition(node)
        named = node.child_by_field_name("name")
        if kind == "extension":
            self.extension(node, scope, owner, definition, named)
            return None
        name = text(named)
        if not name:
            return None
        if definition is not None:
            qualname = definition.qualname
        elif outer is not None:
            qualname = f"{outer.qualname}.{name}"
        else:
            qualname = f"{owner}.<{name}>"
        own = Known(Value("type", qualname))
        if outer is not None:  # `Cart.Line`, and `Line` inside Cart
            outer.add_field(name, own, outer.scope)
            outer.scope.bind(name, Binding(pos(node), own))
        else:
            self.bind(scope, name, pos(node), own, node)
        body_scope = Scope("type", scope, type_qualname=qualname)
        self.receivers[id(body_scope)] = own
        self.type_parameters(node, body_scope)
        decl = TypeDecl(qualname, body_scope, line(node), is_class=kind == "class")
        decl.bases = [r for r in map(type_ref, _inherited(node)) if r is not None]
        self.facts.types.append(decl)
        self.members(node, decl, own, owner)
        return decl

    def extension(
        self,
        node: Node,
        scope: Scope,
        owner: str,
        definition: Definition | None,
        named: Node | None,
    ) -> None:
        """`extension Cart: P`: methods of Cart; its properties sit in a hidden declaration
        that becomes one of Cart's bases, as do the protocols it conforms Cart to. A
        constrained one (`extension Wrapper where Base: UIImageView`) adds its members
        only to values known to meet the constraint, which the text never shows: they
        stay the hidden declaration's, seen from inside it (its bases: the type's)."""
        extended = type_ref(named)
        if extended is None:
            return
        if scope is self.facts.scope and isinstance(extended, Name):
            self.swift.extended.add(extended.id)
        chunk = definition.qualname if definition is not None else f"{owner}.<extension>"
        hidden = f"{chunk}<extension@{line(node)}>"
        body_scope = Scope("type", scope, type_qualname=hidden)
        decl = TypeDecl(hidden, body_scope, line(node), is_class=False)
        self.facts.types.append(decl)
        at = line(node)
        own: Expr = Known(Value("type", hidden))
        if child_of_type(node, "type_constraints") is not None:
            self.facts.impls.append(TraitImpl(own, extended, scope, at))
        else:
            self.facts.impls.append(TraitImpl(extended, own, scope, at))
            own = extended
        self.receivers[id(body_scope)] = own
        for base in filter(None, map(type_ref, _inherited(node))):
            self.facts.impls.append(TraitImpl(extended, base, scope, at))
        self.members(node, decl, own, owner)

    def type_parameters(self, node: Node, scope: Scope) -> None:
        for parameter in children(child_of_type(node, "type_parameters")):
            names = [c for c in parameter.named_children if c.type == "type_identifier"]
            if not names:
                continue
            bound = type_ref(next((c for c in parameter.named_children if c != names[0]), None))
            scope.bind(text(names[0]), Binding(pos(parameter), bound or UNKNOWN))
            scope.type_params.add(text(names[0]))

    def members(self, node: Node, decl: TypeDecl, own: Expr, owner: str) -> None:
        body = node.child_by_field_name("body")
        type_scope = decl.scope
        initializers = Scope("function", type_scope, this=Instance(own))
        for member in children(body):
            kind = member.type
            self.current = initializers
            if kind in _FUNCTIONS:
                self.function(member, type_scope, owner, own)
            elif kind in ("property_declaration", "protocol_property_declaration"):
                for name, value in self.declared(member, initializers):  # an unknown field
                    decl.add_field(name, value if value is not UNKNOWN else _OFF, initializers)
                self.visit_values(member, initializers, owner)
            elif kind in _TYPES:
                self.declare_type(member, type_scope, owner, decl)
            elif kind == "enum_entry":
                for entry in children(member):
                    if entry.type == "simple_identifier":
                        decl.add_field(text(entry), Instance(own), type_scope)
                    else:
                        self.visit(entry, initializers, owner)
            elif kind == "typealias_declaration":
                names = [c for c in member.named_children if c.type == "type_identifier"]
                target = next((c for c in member.named_children if c.type in _TYPE_NODES), None)
                ref = type_ref(target)
                if names and ref is not None:
                    decl.add_field(text(names[0]), ref, type_scope)
            elif kind not in ("associatedtype_declaration", "directive"):
                self.visit(member, initializers, owner)

    # -- functions -------------------------------------------------------------------------
    def function_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A top-level function, or a local one (no chunk: its calls are its owner's)."""
        self.function(node, scope, owner, None)
        return None

    def function(self, node: Node, scope: Scope, owner: str, own: Expr | None) -> None:
        definition = self.definition(node)
        name = _MEMBERS.get(node.type) or (
            "subscript" if node.type == "subscript_declaration" else field_name(node)
        )
        if not name:
            return
        if definition is not None:
            qualname, inner_owner = definition.qualname, definition.qualname
        else:
            qualname, inner_owner = f"{owner}.<{name}>", owner
        body = Scope("function", scope, this=Instance(own) if own is not None else None)
        self.current = body
        self.type_parameters(node, body)
        self.parameters(node, body, inner_owner)
        if own is None:
            self.bind(scope, name, pos(node), Known(Value("func", qualname)), node)
        declared = declared_type(_return_type(node))
        returns: Expr | None
        if node.type == "init_declaration" and own is not None:
            returns = Instance(own)
        else:
            returns = returned(declared, body) if declared is not None else UNKNOWN
        self.facts.functions.append(
            FuncDecl(qualname, name, body, returns, own, scope if own is not None else None)
        )
        code = node.child_by_field_name("body") or child_of_type(node, "computed_property")
        self.visit(code, body, inner_owner)

    def parameters(self, node: Node, scope: Scope, owner: str) -> None:
        for parameter in node.named_children:
            if parameter.type == "parameter":
                names = [
                    c
                    for i, c in enumerate(parameter.children)
                    if c.type == "simple_identifier"
                    and parameter.field_name_for_child(i) != "external_name"
                ]
                kind = next((c for c in parameter.named_children if c.type in _TYPE_NODES), None)
                declared = declared_type(kind)
                if names:
                    scope.bind(text(names[-1]), Binding(pos(parameter), declared or UNKNOWN, True))
            elif parameter.type not in _TYPE_NODES and parameter.type not in (
                "type_parameters",
                "type_constraints",
                "modifiers",
                "simple_identifier",
                "function_body",
                "computed_property",
                "throws",
            ):
                self.visit(parameter, scope, owner)  # default values

    # -- properties and locals -------------------------------------------------------------
    def property_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A local variable, or a top-level one (module scope)."""
        at = end(node) if scope.kind == "function" else pos(node)
        for name, value in self.declared(node, scope):
            self.bind(scope, name, at, value, node)
        self.visit_values(node, scope, owner)
        return None

    def declared(self, node: Node, scope: Scope) -> list[tuple[str, Expr]]:
        """(name, value) of each variable a property declaration declares: its declared
        type, else its initializer's value."""
        found: list[tuple[str, Expr]] = []
        pending: list[str] = []
        for i, child in enumerate(node.children):
            role = node.field_name_for_child(i)
            if role == "name" and child.type == "pattern":
                found += [(n, UNKNOWN) for n in pending]
                pending = _pattern_names(child)
            elif child.type == "type_annotation" and pending:
                kind = next((c for c in child.named_children if c.type in _TYPE_NODES), None)
                declared = declared_type(kind)
                found += [(n, declared or UNKNOWN) for n in pending]
                pending = [] if declared is not None else pending
            elif role == "value" and pending:
                value = self.expr(child) if len(pending) == 1 else UNKNOWN
                found += [(n, value) for n in pending]
                pending = []
        found += [(n, UNKNOWN) for n in pending]
        result: dict[str, Expr] = {}
        for name, value in found:  # a declared type wins over the initializer
            if name not in result or result[name] is UNKNOWN:
                result[name] = value
        return list(result.items())

    def visit_values(self, node: Node, scope: Scope, owner: str) -> None:
        for i, child in enumerate(node.children):
            role = node.field_name_for_child(i)
            if role == "value":
                self.visit(child, scope, owner)
            elif child.type in ("computed_property", "willset_didset_block"):
                self.visit(child, Scope("function", scope), owner)

    def conditional(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`if let x = e`, `guard let x = e`: x holds e's value (an optional's is its
        own), in the body or after the guard; `if let x` and `let x = x` rebind nothing."""
        guard = node.type == "guard_statement"
        inner = scope if guard and scope.kind == "function" else Scope("function", scope)
        pending = ""
        for i, child in enumerate(node.children):
            role = node.field_name_for_child(i)
            if role == "bound_identifier":
                pending = text(child)
            elif role == "condition" and child.is_named and child.type != "value_binding_pattern":
                self.visit(child, inner if not guard else scope, owner)
                if pending and not (child.type == "simple_identifier" and text(child) == pending):
                    at = end(node) if guard else pos(child)
                    inner.bind(pending, Binding(at, self.expr(child)))
                pending = ""
            elif role == "bound_identifier" or child.type == "value_binding_pattern":
                continue
            elif child.is_named:
                self.visit(child, scope if guard else inner, owner)
        return None

    def for_statement(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        body = Scope("function", scope)
        item = node.child_by_field_name("item")
        collection = node.child_by_field_name("collection")
        names = _pattern_names(item) if item is not None else []
        element: Expr = Unwrap(self.expr(collection)) if collection is not None else UNKNOWN
        for name in names:
            body.bind(name, Binding(pos(node), element if len(names) == 1 else UNKNOWN))
        for child in node.named_children:
            if child != item:
                self.visit(child, body, owner)
        return None

    def switch_entry(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`case let .walk(direction, steps):` binds names of no known type."""
        body = Scope("function", scope)
        for pattern in node.named_children:
            if pattern.type == "switch_pattern":
                for name in _bound_in_pattern(pattern):
                    body.bind(name, Binding(pos(node), UNKNOWN))
        for child in node.named_children:
            self.visit(child, body, owner)
        return None

    def catch_block(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        body = Scope("function", scope)
        body.bind("error", Binding(pos(node), UNKNOWN))
        pattern = node.child_by_field_name("error")
        if pattern is not None:
            kind = next((c for c in pattern.named_children if c.type in _TYPE_NODES), None)
            declared = declared_type(kind) or UNKNOWN
            for name in _bound_in_pattern(pattern):
                body.bind(name, Binding(pos(node), declared))
        for child in node.named_children:
            if child != pattern:
                self.visit(child, body, owner)
        return None

    # -- closures and calls ----------------------------------------------------------------
    def lambda_literal(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.closure(node, scope, owner, {})
        return None

    def closure(self, node: Node, scope: Scope, owner: str, given: dict[int, Expr]) -> None:
        """A closure's calls are its owner's; `$0` or a named parameter may be an element
        of the collection it iterates (`given`, by index)."""
        body = Scope("function", scope)
        kind = node.child_by_field_name("type")
        declared = children(child_of_type(kind, "lambda_function_type_parameters"))
        if declared:
            for n, parameter in enumerate(declared):
                ident = child_of_type(parameter, "simple_identifier")
                kinds = [c for c in parameter.named_children if c.type in _TYPE_NODES]
                value = declared_type(kinds[0]) if kinds else None
                body.bind(text(ident), Binding(pos(node), value or given.get(n, UNKNOWN)))
        else:
            for n in range(4):
                body.bind(f"${n}", Binding(pos(node), given.get(n, UNKNOWN)))
        for child in node.named_children:
            if child.type not in ("lambda_function_type", "capture_list"):
                self.visit(child, body, owner)

    def call_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        callee, suffix = _call_parts(node)
        if callee is None or suffix is None:
            return scope
        callee = self.split(callee, scope, owner)
        arguments = child_of_type(suffix, "value_arguments")
        if arguments is not None and text(arguments).startswith("["):
            obj = self.expr(callee)
            self.facts.sites.append(
                Site(owner, scope, New(Member(obj, "subscript")), line(node), "new")
            )
            self.visit(callee, scope, owner)
            self.visit(arguments, scope, owner)
            return None
        if not _is_implicit_member(callee):
            target = self.expr(callee)
            self.facts.sites.append(Site(owner, scope, New(target), line(node), "new"))
        if callee.type == "navigation_expression":
            self.visit(callee.child_by_field_name("target"), scope, owner)
        elif callee.type not in ("simple_identifier", "prefix_expression"):
            self.visit(callee, scope, owner)
        given = self.closure_elements(callee)
        for part in suffix.named_children:
            if part.type == "lambda_literal":
                self.closure(part, scope, owner, given)
            else:
                self.visit(part, scope, owner)
        return None

    def split(self, callee: Node, scope: Scope, owner: str) -> Node:
        """The called operand of a callee tree-sitter read with an operator (`a + f`):
        the operand, the other parts visited as code of their own."""
        while callee.type in _OPERATORS and callee.named_children:
            if callee.type == "prefix_expression" and _is_implicit_member(callee):
                return callee
            last = callee.named_children[-1]
            for part in callee.named_children[:-1]:
                self.visit(part, scope, owner)
            callee = last
        return callee

    def closure_elements(self, callee: Node) -> dict[int, Expr]:
        if callee.type != "navigation_expression":
            return {}
        name, target = _navigation(callee)
        indexes = _ELEMENT_CLOSURES.get(name, ())
        if target is None or not indexes:
            return {}
        element = Unwrap(self.expr(target))
        return dict.fromkeys(indexes, element)

    # -- expressions -----------------------------------------------------------------------
    def bare(self, name: str, at: tuple[int, int], scope: Scope) -> Expr:
        """A name: a local, else a member of the enclosing types (innermost first), else a
        top-level declaration."""
        if name == "Self":
            return self.self_type(scope)
        options: list[Expr] = []
        current: Scope | None = scope
        while current is not None:
            bindings = current.bindings.get(name, [])
            if current.kind == "function" and any(b.pos <= at for b in bindings):
                break
            receiver = self.receivers.get(id(current))
            if receiver is not None:
                options.append(receiver)
            current = current.parent
        found: Expr = Name(name, at)
        for receiver in reversed(options):
            found = Either(Member(receiver, name), found)
        return found

    def self_type(self, scope: Scope) -> Expr:
        current: Scope | None = scope
        while current is not None:
            receiver = self.receivers.get(id(current))
            if receiver is not None:
                return receiver
            current = current.parent
        return UNKNOWN

    def convert(self, node: Node) -> Expr:
        kind = node.type
        if kind == "simple_identifier":
            return self.bare(text(node).strip("`"), pos(node), self.current)
        if kind == "self_expression":
            return This()
        if kind == "super_expression":
            return Super()
        if kind == "navigation_expression":
            name, target = _navigation(node)
            if target is None or not name:
                return UNKNOWN
            obj = self.expr(target)
            if name in _ELEMENT_PROPERTIES:
                return Either(Member(obj, name), Unwrap(obj))
            return Member(obj, name)
        if kind == "call_expression":
            return self.call_value(node)
        if kind in ("try_expression", "await_expression", "postfix_expression"):
            inner = node.child_by_field_name("expr") or node.child_by_field_name("target")
            return self.expr(inner)
        if kind == "as_expression":
            kinds = [c for c in node.named_children if c.type in _TYPE_NODES]
            return (declared_type(kinds[-1]) if kinds else None) or UNKNOWN
        if kind == "ternary_expression":
            options = (node.child_by_field_name("if_true"), node.child_by_field_name("if_false"))
            return Union(tuple(self.expr(o) for o in options))
        if kind == "nil_coalescing_expression":
            options = (node.child_by_field_name("value"), node.child_by_field_name("if_nil"))
            return Union(tuple(self.expr(o) for o in options))
        if kind in ("tuple_expression", "parenthesized_expression"):
            parts = node.named_children
            return self.expr(parts[0]) if len(parts) == 1 else UNKNOWN
        if kind in _LITERALS:
            return Instance(Name(_LITERALS[kind]))
        return UNKNOWN

    def call_value(self, node: Node) -> Expr:
        callee, suffix = _call_parts(node)
        if callee is None or suffix is None:
            return UNKNOWN
        while callee.type in ("try_expression", "await_expression") and callee.named_children:
            callee = callee.named_children[-1]
        if _is_implicit_member(callee) or callee.type in _OPERATORS:
            return UNKNOWN
        arguments = child_of_type(suffix, "value_arguments")
        if arguments is not None and text(arguments).startswith("["):
            obj = self.expr(callee)
            return Either(Call(Member(obj, "subscript")), Unwrap(obj))
        if callee.type == "navigation_expression":
            name, target = _navigation(callee)
            if target is not None and name in _SAME_COLLECTION:
                return Either(Call(self.expr(callee)), self.expr(target))
            if target is not None and name in _ELEMENT_CALLS:
                return Either(Call(self.expr(callee)), Unwrap(self.expr(target)))
        return Call(self.expr(callee))


def field_name(node: Node) -> str:
    return text(node.child_by_field_name("name"))


def _call_parts(node: Node) -> tuple[Node | None, Node | None]:
    parts = node.named_children
    if len(parts) < 2 or parts[-1].type != "call_suffix":
        return None, None
    return parts[0], parts[-1]


def _navigation(node: Node) -> tuple[str, Node | None]:
    """(`m`, the target node) of `x.m`, `x?.m`, `x!.m`."""
    suffix = node.child_by_field_name("suffix")
    named = suffix.child_by_field_name("suffix") if suffix is not None else None
    target = node.child_by_field_name("target")
    if named is None or named.type != "simple_identifier":
        return "", target
    return text(named).strip("`"), target


def _is_implicit_member(node: Node) -> bool:
    """`.walk`, `.init`: a member of a type the context gives, not the text."""
    return node.type == "prefix_expression" and any(
        c.type == "." for c in node.children if not c.is_named
    )


def type_ref(node: Node | None) -> Expr | None:
    """The type a type node names: `Cart.Line` as a member chain; an optional, `some P`,
    `any P` name what they wrap."""
    while node is not None and node.type in ("optional_type", "opaque_type", "existential_type"):
        node = node.child_by_field_name("wrapped") or _first_type(node)
    if node is None or node.type != "user_type":
        return None
    parts = [text(c) for c in node.named_children if c.type == "type_identifier"]
    if not parts:
        return None
    expr: Expr = Name(parts[0], pos(node))
    for part in parts[1:]:
        expr = Member(expr, part)
    return expr


def declared_type(node: Node | None) -> Expr | None:
    """A value of a declared type; `[T]`, `Set<T>`, `[K: V]` hold elements of T or V."""
    while node is not None and node.type in ("optional_type", "opaque_type", "existential_type"):
        node = node.child_by_field_name("wrapped") or _first_type(node)
    if node is None:
        return None
    if node.type in ("array_type", "dictionary_type"):
        kinds = [c for c in node.named_children if c.type in _TYPE_NODES]
        element = type_ref(kinds[-1]) if kinds else None
        return Wrapped(element) if element is not None else None
    if node.type != "user_type":
        return None
    names = [c for c in node.named_children if c.type == "type_identifier"]
    if names and text(names[-1]) in _COLLECTIONS:
        arguments = child_of_type(node, "type_arguments")
        kinds = [c for c in children(arguments) if c.type in _TYPE_NODES]
        element = type_ref(kinds[-1]) if kinds else None
        return Wrapped(element) if element is not None else None
    ref = type_ref(node)
    return Instance(ref) if ref is not None else None


def _first_type(node: Node) -> Node | None:
    return next((c for c in node.named_children if c.type in _TYPE_NODES), None)


def _return_type(node: Node) -> Node | None:
    """The type after `->`."""
    arrow = False
    for child in node.children:
        if child.type == "->":
            arrow = True
        elif arrow and child.type in _TYPE_NODES:
            return child
    return None


def _inherited(node: Node) -> list[Node]:
    found = []
    for child in node.named_children:
        if child.type == "inheritance_specifier":
            base = child.child_by_field_name("inherits_from")
            if base is not None:
                found.append(base)
    return found


def _declaration_kind(node: Node) -> str:
    if node.type == "protocol_declaration":
        return "protocol"
    kind = node.child_by_field_name("declaration_kind")
    return text(kind) if kind is not None else "class"


def _is_private(node: Node) -> bool:
    modifiers = child_of_type(node, "modifiers")
    return any(
        text(m).startswith(("private", "fileprivate"))
        for m in children(modifiers)
        if m.type == "visibility_modifier"
    )


def _pattern_names(node: Node) -> list[str]:
    """The names a `let` pattern binds: `x`, `(a, b)`."""
    ident = node.child_by_field_name("bound_identifier")
    if ident is not None:
        return [text(ident).strip("`")]
    names = []
    for child in node.named_children:
        if child.type == "pattern":
            names += _pattern_names(child)
        elif child.type == "simple_identifier":
            names.append(text(child).strip("`"))
    return names


def _bound_in_pattern(node: Node) -> list[str]:
    """Lowercase names a `case`/`catch` pattern may bind (not the `.case` it matches)."""
    found: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        previous = ""
        for child in current.children:
            if child.type == "simple_identifier":
                name = text(child)
                if previous != "." and name[:1].islower():
                    found.append(name)
            elif child.type not in _TYPE_NODES and child.is_named:
                stack.append(child)
            previous = child.type
    return found


# -- modules ---------------------------------------------------------------------------------
_TARGET = re.compile(r"\.(target|executableTarget|testTarget|macro)\s*\(")
_NAME = re.compile(r'\bname\s*:\s*"([^"]+)"')
_PATH = re.compile(r'\bpath\s*:\s*"([^"]*)"')
_SOURCE_DIRS = ("Sources", "Source", "src", "srcs")


class SwiftFrontend(Frontend):
    languages = ("swift",)
    extractor = SwiftExtractor
    inherits_constructors = True

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.targets: list[tuple[str, str]] = []  # (directory, target name), longest first

    def config_files(self, paths: Iterable[str]) -> set[str]:
        found = config_ancestors(paths, ("Package.swift",))
        return {p for p in found if (self.root / p).is_file()}

    def configure(self, paths: Iterable[str]) -> None:
        targets: list[tuple[str, str]] = []
        for manifest in sorted(self.config_files(paths)):
            try:
                source = (self.root / manifest).read_text("utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            targets += self.read_manifest(str(PurePosixPath(manifest).parent), source)
        self.targets = sorted(targets, key=lambda t: -len(t[0]))

    def read_manifest(self, package: str, source: str) -> list[tuple[str, str]]:
        """(directory, name) of each target a `Package.swift` declares."""
        found = []
        starts = list(_TARGET.finditer(source))
        for n, start in enumerate(starts):
            stop = starts[n + 1].start() if n + 1 < len(starts) else len(source)
            part = source[start.end() : stop]
            named = _NAME.search(part)
            if named is None:
                continue
            name = named.group(1)
            path = _PATH.search(part)
            if path is not None:
                directory = path.group(1)
            elif start.group(1) == "testTarget":
                directory = f"Tests/{name}"
            else:
                directory = next(
                    (
                        f"{d}/{name}"
                        for d in _SOURCE_DIRS
                        if (self.root / package / d / name).is_dir()
                    ),
                    f"Sources/{name}",
                )
            full = PurePosixPath(package, directory).as_posix() if package != "." else directory
            found.append((full.strip("/").removeprefix("./"), name))
        return found

    def module_of(self, path: str) -> str:
        """The target directory a file belongs to; "" for the files in no target."""
        for directory, _ in self.targets:
            if not directory or path.startswith(directory + "/"):
                return directory
        return ""

    def rows(self, facts: FileFacts) -> Iterator[tuple[str, str, object]]:
        """A module's top-level names (key `module:name`; a private one is its file's only)
        and the type names the file extends."""
        if not isinstance(facts, SwiftFacts):
            return
        module = self.module_of(facts.path)
        for name, bindings in facts.scope.bindings.items():
            if name not in facts.private:
                for binding in bindings:
                    yield "swift.names", f"{module}:{name}", (binding.expr, facts.scope)
        for name in sorted(facts.extended):
            yield "swift.extended", name, name

    def constructor_names(self, type_qualname: str) -> tuple[str, ...]:
        return ("init",)

    def fallback(self, name: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """The module's other files, then the modules it imports, then a library type the
        workspace extends."""
        if not isinstance(facts, SwiftFacts):
            return EMPTY
        own = self.module_of(facts.path)
        found = self.top_level(own, name, facts, evaluator)
        if found:
            return found
        for imported in facts.modules:
            for directory, target in self.targets:
                if target == imported and directory != own:
                    found |= self.top_level(directory, name, facts, evaluator)
        if found:
            return found
        if name[:1].isupper() and name in evaluator.tables.of("swift.extended"):
            return frozenset({Value("type", f"{LIBRARY}.{name}")})
        return EMPTY

    @staticmethod
    def top_level(module: str, name: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """What the other files of `module` bind `name` to at their top level."""
        found: set[Value] = set()
        for expr, scope in evaluator.tables.of("swift.names").get(f"{module}:{name}"):
            if scope is not facts.scope:
                found |= evaluator.eval(expr, scope)
        return frozenset(found)
