"""Go: package scope across the files of a directory, module-internal imports via go.mod.

A name not declared in a function or file is looked up in the other files of the same
package; an import path inside a module of the workspace (its go.mod `module` line plus the
directory) names that directory's package. Methods belong to their receiver's type wherever
they are declared; embedded struct fields and interfaces are bases, so their methods are
found through the embedding type (and get an inherit edge).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from codekith.chunking.treesitter import Definition
from codekith.graph.frontend import (
    Extractor,
    Frontend,
    config_ancestors,
    end,
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
    Expr,
    FileFacts,
    FuncDecl,
    Import,
    Instance,
    Known,
    Member,
    Name,
    Scope,
    Site,
    TypeDecl,
    Value,
    Values,
)
from codekith.syntax import Node, text

if TYPE_CHECKING:
    from codekith.graph.syntax_engine import Evaluator

_MODULE_LINE = re.compile(r"^\s*module\s+\"?([^\s\"]+)\"?", re.M)
_VERSION = re.compile(r"^v\d+$")
_TYPES_THROUGH = ("pointer_type", "parenthesized_type")


class GoExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        self.handlers.update(
            {
                "package_clause": self.package_clause,
                "import_spec": self.import_spec,
                "function_declaration": self.function_declaration,
                "method_declaration": self.method_declaration,
                "func_literal": self.func_literal,
                "type_spec": self.type_spec,
                "type_alias": self.type_alias,
                "var_spec": self.var_spec,
                "const_spec": self.var_spec,
                "short_var_declaration": self.short_var,
                "assignment_statement": self.assignment,
                "range_clause": self.range_clause,
                "type_switch_statement": self.type_switch,
                "call_expression": self.call,
            }
        )

    # -- file level ------------------------------------------------------------------------
    def package_clause(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.facts.package = text(node.named_children[0]) if node.named_children else ""
        return None

    def import_spec(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        path = text(node.child_by_field_name("path")).strip('"`')
        name = node.child_by_field_name("name")
        target = Import(path)
        if name is not None and name.type == "dot":
            self.facts.import_stars.append(target)
        elif name is not None and name.type != "blank_identifier":
            scope.bind(text(name), Binding(end(node), target, imported=True))
        elif name is None:
            scope.bind(default_package_name(path), Binding(end(node), target, imported=True))
            self.facts.unnamed_imports.append(target)
        return None

    def type_spec(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = field_text(node, "name")
        definition = self.definition(node)
        qualname = definition.qualname if definition else f"{owner}.<{name}>"
        scope.bind(name, Binding(pos(node), Known(Value("type", qualname))))
        body = Scope("type", scope, type_qualname=qualname)
        self.type_parameters(node, body)
        decl = TypeDecl(qualname, body, line(node), is_class=False)
        self.facts.types.append(decl)
        shape = node.child_by_field_name("type")
        if shape is not None and shape.type == "struct_type":
            self.struct_fields(shape, decl, body)
        elif shape is not None and shape.type == "interface_type":
            self.interface(shape, decl, body, owner)
        return None

    def struct_fields(self, shape: Node, decl: TypeDecl, scope: Scope) -> None:
        for fields in (c for c in shape.named_children if c.type == "field_declaration_list"):
            for item in (f for f in fields.named_children if f.type == "field_declaration"):
                kind = item.child_by_field_name("type")
                ref = type_ref(kind)
                names = [text(n) for n in item.children_by_field_name("name")]
                if ref is None:
                    continue
                if not names:  # an embedded type: a base, and a field named after it
                    decl.bases.append(ref)
                    names = [_simple(ref)]
                for name in names:
                    decl.add_field(name, Instance(ref), scope)

    def interface(self, shape: Node, decl: TypeDecl, scope: Scope, owner: str) -> None:
        container = Known(Value("type", decl.qualname))
        for item in shape.named_children:
            if item.type == "type_elem" and item.named_children:
                ref = type_ref(item.named_children[0])
                if ref is not None:
                    decl.bases.append(ref)
            elif item.type == "method_elem":
                definition = self.definition(item)
                if definition is not None:
                    body = Scope("function", scope)
                    returns = declared_result(item.child_by_field_name("result"))
                    self.facts.functions.append(
                        FuncDecl(
                            definition.qualname, definition.name, body, returns, container, scope
                        )
                    )

    def type_alias(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        ref = type_ref(node.child_by_field_name("type"))
        scope.bind(field_text(node, "name"), Binding(pos(node), ref or UNKNOWN))
        return None

    # -- functions -------------------------------------------------------------------------
    def function_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = field_text(node, "name")
        definition = self.definition(node)
        qualname = definition.qualname if definition else f"{owner}.<{name}>"
        scope.bind(name, Binding(pos(node), Known(Value("func", qualname))))
        self.function(node, Scope("function", scope), owner, qualname, name)
        return None

    def method_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A method belongs to its receiver's type, wherever that type is declared."""
        receiver = node.child_by_field_name("receiver")
        declaration = receiver.named_children[0] if receiver and receiver.named_children else None
        generic = declaration.child_by_field_name("type") if declaration is not None else None
        body = Scope("function", scope)
        for parameter in _receiver_type_parameters(generic):
            body.bind(parameter, Binding(pos(node), UNKNOWN))
            body.type_params.add(parameter)
        self.parameters(receiver, body)
        definition = self.definition(node)
        receiver_type = _receiver_type(receiver) if receiver is not None else ""
        container = Name(receiver_type) if receiver_type else UNKNOWN
        name = definition.name if definition else ""
        self.function(node, body, owner, definition.qualname if definition else "", name, container)
        return None

    def func_literal(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.function(node, Scope("function", scope), owner, "", "")
        return None

    def function(
        self,
        node: Node,
        body: Scope,
        owner: str,
        qualname: str,
        name: str,
        container: Expr | None = None,
    ) -> None:
        """Read a function into `body` (its own scope); a method's container is read in the
        scope around the function."""
        self.type_parameters(node, body)
        self.parameters(node.child_by_field_name("parameters"), body)
        if qualname:
            returns = returned(declared_result(node.child_by_field_name("result")), body)
            outer = body.parent if container is not None else None
            self.facts.functions.append(FuncDecl(qualname, name, body, returns, container, outer))
        self.visit(node.child_by_field_name("body"), body, owner)

    def type_parameters(self, node: Node, scope: Scope) -> None:
        parameters = node.child_by_field_name("type_parameters")
        for declaration in parameters.named_children if parameters is not None else []:
            constraint = declaration.child_by_field_name("type")
            inner = (
                constraint.named_children[0] if constraint and constraint.named_children else None
            )
            bound = type_ref(inner)
            for name in declaration.children_by_field_name("name"):
                scope.bind(text(name), Binding(pos(name), bound or UNKNOWN))
                scope.type_params.add(text(name))

    def parameters(self, node: Node | None, scope: Scope) -> None:
        for declaration in node.named_children if node is not None else []:
            ref = type_ref(declaration.child_by_field_name("type"))
            for name in declaration.children_by_field_name("name"):
                value: Expr = Instance(ref) if ref is not None else UNKNOWN
                scope.bind(text(name), Binding(pos(name), value, typed=ref is not None))

    # -- statements ------------------------------------------------------------------------
    def var_spec(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        ref = type_ref(node.child_by_field_name("type"))
        values = node.child_by_field_name("value")
        exprs = [self.expr(v) for v in values.named_children] if values is not None else []
        names = node.children_by_field_name("name")
        for index, name in enumerate(names):
            if ref is not None:
                scope.bind(text(name), Binding(end(node), Instance(ref), typed=True))
            elif len(exprs) == len(names) or (index == 0 and len(exprs) == 1):
                scope.bind(text(name), Binding(end(node), exprs[index]))
            else:
                scope.bind(text(name), Binding(end(node), UNKNOWN))
        return scope

    def short_var(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.pair(node, scope, scope)
        return scope

    def assignment(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.pair(node, scope, None)
        return scope

    def pair(self, node: Node, scope: Scope, holder: Scope | None) -> None:
        """`a, b := x, y` pairs names with values; `a, err := f()` gives `a` f's first result.
        A plain `=` rebinds the name where it was declared."""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        names = left.named_children if left is not None else []
        values = right.named_children if right is not None else []
        for index, target in enumerate(names):
            if target.type != "identifier":
                continue
            value: Expr = UNKNOWN
            if len(values) == len(names) or (index == 0 and len(values) == 1):
                value = self.expr(values[index])
            owner_scope = holder or scope.declaring(text(target))
            if owner_scope is not None:
                owner_scope.bind(text(target), Binding(end(node), value))

    def range_clause(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        left = node.child_by_field_name("left")
        for name in left.named_children if left is not None else []:
            scope.bind(text(name), Binding(end(node), UNKNOWN))
        return scope

    def type_switch(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`switch v := x.(type) { case *T: … }`: in a one-type case `v` has that type, in
        `default` and multi-type cases it keeps x's type."""
        alias = node.child_by_field_name("alias")
        names = [text(n) for n in alias.named_children] if alias is not None else []
        switched = node.child_by_field_name("value")
        fallback = self.expr(switched) if switched is not None else UNKNOWN
        for case in node.named_children:
            if case.type not in ("type_case", "default_case"):
                continue
            kinds = case.children_by_field_name("type")
            ref = type_ref(kinds[0]) if len(kinds) == 1 else None
            value: Expr = Instance(ref) if ref is not None else fallback
            for name in names:
                scope.bind(name, Binding(pos(case), value, typed=True))
        return scope

    def call(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        function = node.child_by_field_name("function")
        if function is not None:
            site = Site(owner, scope, Call(self.callee(function)), line(node))
            self.facts.sites.append(site)
        return scope

    # -- expressions -----------------------------------------------------------------------
    def callee(self, node: Node) -> Expr:
        """The function a call names; `F[int](…)` instantiates the generic F."""
        if node.type == "index_expression":
            operand = node.child_by_field_name("operand")
            return self.expr(operand) if operand is not None else UNKNOWN
        return self.expr(node)

    def convert(self, node: Node) -> Expr:
        kind = node.type
        if kind == "identifier":
            return Name(text(node), pos(node))
        if kind == "selector_expression":
            operand = node.child_by_field_name("operand")
            return Member(self.expr(operand), field_text(node, "field")) if operand else UNKNOWN
        if kind == "call_expression":
            function = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            if function is not None and text(function) == "new" and arguments is not None:
                ref = type_ref(arguments.named_children[0]) if arguments.named_children else None
                return Instance(ref) if ref is not None else UNKNOWN
            return Call(self.callee(function)) if function is not None else UNKNOWN
        if kind in ("composite_literal", "type_assertion_expression"):
            ref = type_ref(node.child_by_field_name("type"))
            return Instance(ref) if ref is not None else UNKNOWN
        if kind in ("unary_expression", "parenthesized_expression") and node.named_children:
            return self.expr(node.named_children[-1])
        return UNKNOWN


def type_ref(node: Node | None) -> Expr | None:
    """The named type of a type expression: pointers, parentheses and type arguments dropped."""
    while node is not None and node.type in _TYPES_THROUGH:
        node = node.named_children[0] if node.named_children else None
    if node is None:
        return None
    if node.type == "type_identifier":
        return Name(text(node), pos(node))
    if node.type == "qualified_type":
        package, name = node.child_by_field_name("package"), field_text(node, "name")
        return Member(Name(text(package), pos(node)), name) if package is not None else None
    if node.type == "generic_type":
        return type_ref(node.child_by_field_name("type"))
    return None


def declared_result(node: Node | None) -> Expr | None:
    """A function's (first) result: `*T`, or `(T, error)`."""
    if node is not None and node.type == "parameter_list":
        first = node.named_children[0] if node.named_children else None
        node = first.child_by_field_name("type") if first is not None else None
    ref = type_ref(node)
    return Instance(ref) if ref is not None else None


def default_package_name(path: str) -> str:
    """The name an unaliased import binds, when its package clause is not in the workspace:
    the last path element, skipping a `/v2` major version."""
    parts = [p for p in path.split("/") if p]
    while len(parts) > 1 and _VERSION.match(parts[-1]):
        parts.pop()
    name = parts[-1] if parts else path
    return re.sub(r"[^A-Za-z0-9_]", "_", name.removeprefix("go-").split(".")[0])


def _receiver_type(receiver: Node) -> str:
    declaration = receiver.named_children[0] if receiver.named_children else None
    ref = type_ref(declaration.child_by_field_name("type")) if declaration is not None else None
    return ref.id if isinstance(ref, Name) else ""


def _receiver_type_parameters(node: Node | None) -> list[str]:
    while node is not None and node.type in _TYPES_THROUGH:
        node = node.named_children[0] if node.named_children else None
    if node is None or node.type != "generic_type":
        return []
    arguments = node.child_by_field_name("type_arguments")
    return [text(a) for a in arguments.named_children] if arguments is not None else []


def _first_child(node: Node | None) -> Node | None:
    return node.named_children[0] if node is not None and node.named_children else None


def _simple(ref: Expr) -> str:
    if isinstance(ref, Member):
        return ref.name
    return ref.id if isinstance(ref, Name) else ""


class GoFrontend(Frontend):
    languages = ("go",)
    extractor = GoExtractor

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.modules: list[tuple[str, str]] = []  # (module path, directory), longest first

    def config_files(self, paths: Iterable[str]) -> set[str]:
        return {p for p in config_ancestors(paths, ("go.mod",)) if (self.root / p).is_file()}

    def configure(self, paths: Iterable[str]) -> None:
        modules = []
        for path in self.config_files(paths):
            try:
                found = _MODULE_LINE.search((self.root / path).read_text("utf-8"))
            except (OSError, UnicodeDecodeError):
                continue
            if found:
                modules.append((found.group(1), posixpath.dirname(path)))
        self.modules = sorted(modules, key=lambda m: -len(m[0]))

    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        for module, directory in self.modules:
            if spec == module or spec.startswith(module + "/"):
                rest = spec[len(module) + 1 :]
                target = posixpath.join(directory, rest) if rest else directory
                target = target or "."
                if self.package_files(f"go:{target}", evaluator):
                    return frozenset({Value("package", f"go:{target}")})
                return EMPTY
        return EMPTY

    def package_files(self, key: str, evaluator: Evaluator) -> list[str]:
        """The files of the package in a directory (test packages `x_test` left out)."""
        directory = key.removeprefix("go:")
        files = [f for f in evaluator.tables.dirs.get(directory, []) if f.language == "go"]
        return [f.path for f in files if not f.package.endswith("_test")]

    def fallback(self, name: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """The other files of this package, then imports bound by their package clause."""
        directory = posixpath.dirname(facts.path) or "."
        found: set[Value] = set()
        for other in evaluator.tables.dirs.get(directory, []):
            if other is facts or other.language != "go" or other.package != facts.package:
                continue
            for b in other.scope.bindings.get(name, []):
                if not b.imported:
                    found |= evaluator.eval(b.expr, other.scope)
        if found:
            return frozenset(found)
        for target in facts.unnamed_imports:
            for package in evaluator.eval(target, facts.scope):
                files = self.package_files(package.name, evaluator)
                if files and evaluator.files[files[0]].package == name:
                    return frozenset({package})
        return EMPTY
