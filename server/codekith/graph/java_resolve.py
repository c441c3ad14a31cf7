"""Java: imports (single, on-demand, static), classes of the same package, members.

A class is found by its package declaration and simple name, not by its path, so source
roots (`src/main/java`, …) need no configuration. An unqualified call is a method of the
enclosing class or its bases, else a statically imported one; an unqualified name may be a
field. Methods and fields live apart, so `x.m()` only ever looks at methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codekith.chunking.treesitter import Definition
from codekith.graph.frontend import Extractor, Frontend, children, field_text, line, pos, returned
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
    Super,
    This,
    TypeDecl,
    Value,
    Values,
)
from codekith.syntax import Node, text

if TYPE_CHECKING:
    from codekith.graph.syntax_engine import Evaluator

_TYPES = ("class_declaration", "interface_declaration", "enum_declaration", "record_declaration")
_METHODS = ("method_declaration", "constructor_declaration", "compact_constructor_declaration")
_FIELDS = ("field_declaration", "constant_declaration")
_STATIC = "static:"  # how statically imported members are bound (methods and names are apart)


class JavaExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        self.handlers.update(
            {
                "package_declaration": self.package_declaration,
                "import_declaration": self.import_declaration,
                **dict.fromkeys(_TYPES, self.type_declaration),
                "local_variable_declaration": self.local_variable,
                "enhanced_for_statement": self.enhanced_for,
                "catch_formal_parameter": self.catch_parameter,
                "lambda_expression": self.lambda_expression,
                "method_invocation": self.method_invocation,
                "object_creation_expression": self.object_creation,
                "explicit_constructor_invocation": self.constructor_invocation,
            }
        )

    def package_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.facts.package = text(node.named_children[0]) if node.named_children else ""
        return None

    def import_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        tokens = {c.type for c in node.children}
        name = text(next((c for c in node.named_children if c.type != "asterisk"), None))
        static, star = "static" in tokens, "asterisk" in tokens
        at = (node.start_point[0], 0)
        if star:
            target = Import(("class:" if static else "package:") + name)
            (self.facts.member_stars if static else self.facts.import_stars).append(target)
        elif static:
            holder, _, member = name.rpartition(".")
            bound = Method(Import("class:" + holder), member)
            scope.bind(_STATIC + member, Binding(at, bound, imported=True))
        else:
            target = Import("class:" + name)
            scope.bind(name.rpartition(".")[2], Binding(at, target, imported=True))
            self.facts.imports.append((target, line(node)))
        return None

    # -- types -----------------------------------------------------------------------------
    def type_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = field_text(node, "name")
        definition = self.definition(node)
        qualname = definition.qualname if definition else f"{owner}.<{name}>"
        scope.bind(name, Binding(pos(node), Known(Value("type", qualname))))
        body_scope = Scope("type", scope, type_qualname=qualname)
        self.type_parameters(node, body_scope)
        is_class = node.type != "interface_declaration"
        decl = TypeDecl(qualname, body_scope, line(node), is_class=is_class)
        decl.bases = [r for r in map(type_ref, self.heritage(node)) if r is not None]
        self.facts.types.append(decl)
        instance = Instance(Known(Value("type", qualname)))
        initializers = Scope("function", body_scope, this=instance)
        for parameter in children(node.child_by_field_name("parameters")):  # record components
            declared = declared_type(parameter.child_by_field_name("type"))
            if declared is not None:
                decl.add_field(field_text(parameter, "name"), declared, body_scope)
        for member in _members(node.child_by_field_name("body")):
            if member.type in _METHODS:
                self.method(member, body_scope, owner, qualname, instance)
            elif member.type in _FIELDS:
                self.field(member, decl, initializers, owner)
            else:
                self.visit(member, initializers, owner)
        return None

    @staticmethod
    def heritage(node: Node) -> list[Node]:
        found: list[Node] = []
        for child in node.named_children:
            if child.type == "superclass":
                found += child.named_children
            elif child.type in ("super_interfaces", "extends_interfaces"):
                for types in child.named_children:
                    found += types.named_children if types.type == "type_list" else [types]
        return found

    def type_parameters(self, node: Node, scope: Scope) -> None:
        for parameter in children(node.child_by_field_name("type_parameters")):
            names = [c for c in parameter.named_children if c.type == "type_identifier"]
            bound = next((c for c in parameter.named_children if c.type == "type_bound"), None)
            ref = type_ref(bound.named_children[0]) if bound and bound.named_children else None
            if names:
                scope.bind(text(names[0]), Binding(pos(parameter), ref or UNKNOWN))
                scope.type_params.add(text(names[0]))

    def method(self, node: Node, scope: Scope, owner: str, klass: str, instance: Expr) -> None:
        definition = self.definition(node)
        name = field_text(node, "name")
        qualname = definition.qualname if definition else f"{klass}.<{name}>"
        method_owner = definition.qualname if definition else owner
        body = Scope("function", scope, this=instance)
        self.type_parameters(node, body)
        self.parameters(node.child_by_field_name("parameters"), body)
        returns = returned(declared_type(node.child_by_field_name("type")), body)
        container = Known(Value("type", klass))
        self.facts.functions.append(FuncDecl(qualname, name, body, returns, container, scope))
        self.visit(node.child_by_field_name("body"), body, method_owner)

    def field(self, node: Node, decl: TypeDecl, scope: Scope, owner: str) -> None:
        declared = declared_type(node.child_by_field_name("type"))
        for declarator in node.children_by_field_name("declarator"):
            if declared is not None:
                decl.add_field(field_text(declarator, "name"), declared, decl.scope)
            self.visit(declarator.child_by_field_name("value"), scope, owner)

    # -- locals ----------------------------------------------------------------------------
    def parameters(self, node: Node | None, scope: Scope) -> None:
        for parameter in children(node):
            declared = declared_type(parameter.child_by_field_name("type"))
            name = field_text(parameter, "name")
            if parameter.type == "spread_parameter":
                declarator = next(
                    (c for c in parameter.named_children if c.type == "variable_declarator"), None
                )
                name, declared = field_text(declarator, "name") if declarator else "", None
            scope.bind(name, Binding(pos(parameter), declared or UNKNOWN, typed=bool(declared)))

    def local_variable(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        kind = node.child_by_field_name("type")
        declared = None if text(kind) == "var" else declared_type(kind)
        for declarator in node.children_by_field_name("declarator"):
            value = declarator.child_by_field_name("value")
            name = field_text(declarator, "name")
            at = (declarator.end_point[0], declarator.end_point[1])
            if declared is not None:
                scope.bind(name, Binding(at, declared, typed=True))
            else:
                scope.bind(name, Binding(at, self.expr(value) if value is not None else UNKNOWN))
        return scope

    def enhanced_for(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        kind = node.child_by_field_name("type")
        declared = None if text(kind) == "var" else declared_type(kind)
        name = field_text(node, "name")
        scope.bind(name, Binding(pos(node), declared or UNKNOWN, typed=bool(declared)))
        return scope

    def catch_parameter(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        types = next((c for c in node.named_children if c.type == "catch_type"), None)
        kinds = types.named_children if types is not None else []
        declared = declared_type(kinds[0]) if len(kinds) == 1 else None
        scope.bind(field_text(node, "name"), Binding(pos(node), declared or UNKNOWN))
        return scope

    def lambda_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        body = Scope("function", scope)
        parameters = node.child_by_field_name("parameters")
        if parameters is not None and parameters.type == "identifier":
            body.bind(text(parameters), Binding(pos(parameters), UNKNOWN))
        elif parameters is not None and parameters.type == "formal_parameters":
            self.parameters(parameters, body)
        else:
            for name in children(parameters):
                body.bind(text(name), Binding(pos(name), UNKNOWN))
        self.visit(node.child_by_field_name("body"), body, owner)
        return None

    # -- calls -----------------------------------------------------------------------------
    def method_invocation(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.facts.sites.append(Site(owner, scope, Call(self.callee(node)), line(node)))
        return scope

    def object_creation(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        ref = type_ref(node.child_by_field_name("type"))
        if ref is not None:
            self.facts.sites.append(Site(owner, scope, New(ref), line(node), "new"))
        for child in node.named_children:
            inner = Scope("function", scope, this=UNKNOWN) if child.type == "class_body" else scope
            self.visit(child, inner, owner)
        return None

    def constructor_invocation(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        constructor = node.child_by_field_name("constructor")
        kind = "super" if constructor is not None and constructor.type == "super" else "this"
        self.facts.sites.append(Site(owner, scope, Call(SelfType()), line(node), kind))
        return scope

    def callee(self, node: Node) -> Expr:
        """`obj.m`, or for a bare `m`: the class's (inherited) method, else a static import."""
        name = field_text(node, "name")
        obj = node.child_by_field_name("object")
        if obj is not None:
            return Method(self.expr(obj), name)
        return Either(Method(SelfType(), name), Name(_STATIC + name, pos(node)))

    def convert(self, node: Node) -> Expr:
        kind = node.type
        if kind == "identifier":
            return Name(text(node), pos(node))
        if kind == "this":
            return This()
        if kind == "super":
            return Super()
        if kind == "field_access":
            obj = node.child_by_field_name("object")
            return Member(self.expr(obj), field_text(node, "field")) if obj else UNKNOWN
        if kind == "method_invocation":
            return Call(self.callee(node))
        if kind == "object_creation_expression":
            ref = type_ref(node.child_by_field_name("type"))
            return New(ref) if ref is not None else UNKNOWN
        if kind == "cast_expression":
            return declared_type(node.child_by_field_name("type")) or UNKNOWN
        if kind == "parenthesized_expression" and node.named_children:
            return self.expr(node.named_children[0])
        return UNKNOWN


def type_ref(node: Node | None) -> Expr | None:
    """The class a type names; `a.b.C` with a lowercase head is a fully qualified name."""
    if node is None:
        return None
    if node.type == "generic_type":
        return type_ref(node.named_children[0]) if node.named_children else None
    if node.type == "type_identifier":
        return Name(text(node), pos(node))
    if node.type == "scoped_type_identifier":
        parts = [p.strip() for p in text(node).split("<")[0].split(".")]
        if parts[0][:1].islower():
            return Import("class:" + ".".join(parts))
        expr: Expr = Name(parts[0], pos(node))
        for part in parts[1:]:
            expr = Member(expr, part)
        return expr
    return None


def declared_type(node: Node | None) -> Expr | None:
    ref = type_ref(node)
    return Instance(ref) if ref is not None else None


def _members(body: Node | None) -> list[Node]:
    """A type body's declarations; an enum keeps its methods after the constants."""
    found: list[Node] = []
    for child in children(body):
        found += child.named_children if child.type == "enum_body_declarations" else [child]
    return found


class JavaFrontend(Frontend):
    languages = ("java",)
    extractor = JavaExtractor
    implicit_this = True

    def constructor_names(self, type_qualname: str) -> tuple[str, ...]:
        return (type_qualname.rsplit(".", 1)[-1],)

    def package_files(self, key: str, evaluator: Evaluator) -> list[str]:
        return [f.path for f in evaluator.tables.packages.get(key, [])]

    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        kind, _, name = spec.partition(":")
        if kind == "package":
            key = "java:" + name
            return (
                frozenset({Value("package", key)}) if self.package_files(key, evaluator) else EMPTY
            )
        package, _, simple = name.rpartition(".")
        found = evaluator.package_member("java:" + package, simple)
        return frozenset(v for v in found if v.kind == "type")

    def fallback(self, name: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """Classes of the same package; names statically imported on demand."""
        if name.startswith(_STATIC):
            member = name[len(_STATIC) :]
            found: set[Value] = set()
            for star in facts.member_stars:
                found |= evaluator.eval(Method(star, member), facts.scope)
            return frozenset(found)
        return evaluator.package_member("java:" + facts.package, name)
