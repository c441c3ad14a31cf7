"""JavaScript and TypeScript (and TSX/JSX): ES imports and re-exports, CommonJS, tsconfig.

Imports resolve like TypeScript's bundler resolution: relative paths with or without an
extension (`./x.js` may name `x.ts`), index files, `compilerOptions.paths` and `baseUrl` of
the nearest tsconfig.json/jsconfig.json (following a relative `extends`), and packages of
the workspace by their package.json name. Types come from annotations, `new`, return types
(declared, or what `return` gives), class fields and `this.x = …` assignments.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codekith.chunking.treesitter import Definition, is_function_field, object_members
from codekith.graph.frontend import (
    Extractor,
    Frontend,
    config_ancestors,
    end,
    field_text,
    first_named,
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
    Name,
    New,
    Scope,
    SelfType,
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

EXTENSIONS = (".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
WRAPPERS = frozenset({"Promise", "PromiseLike"})
CONFIG_NAMES = ("tsconfig.json", "jsconfig.json", "package.json")
_FUNCTIONS = ("function_declaration", "generator_function_declaration")
_ANONYMOUS_FUNCTIONS = ("arrow_function", "function_expression", "function", "generator_function")
_CLASSES = ("class_declaration", "abstract_class_declaration", "class", "interface_declaration")
_METHODS = ("method_definition", "method_signature", "abstract_method_signature")
_FIELDS = ("public_field_definition", "field_definition", "property_signature")
_MEMBERS = ("pair", "method_definition")  # a function of an object literal
_TRANSPARENT = ("parenthesized_expression", "non_null_expression", "satisfies_expression")
_JSONC = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', re.S)


class TsExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        self.types: dict[str, TypeDecl] = {}
        self.handlers.update(
            {
                "import_statement": self.import_statement,
                "export_statement": self.export_statement,
                "variable_declarator": self.variable_declarator,
                "assignment_expression": self.assignment,
                "call_expression": self.call,
                "new_expression": self.new,
                "return_statement": self.return_statement,
                "jsx_opening_element": self.jsx,
                "jsx_self_closing_element": self.jsx,
                "catch_clause": self.catch_clause,
                "for_in_statement": self.for_in,
                **dict.fromkeys(_FUNCTIONS, self.function_declaration),
                **dict.fromkeys(_ANONYMOUS_FUNCTIONS, self.anonymous_function),
                **dict.fromkeys(_CLASSES, self.class_declaration),
                "method_definition": self.anonymous_function,  # in an object literal
            }
        )

    # -- imports and exports ---------------------------------------------------------------
    def import_statement(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        source = _string(node.child_by_field_name("source"))
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        if not source or clause is None:
            return None
        module = Import(source)
        for part in clause.named_children:
            if part.type == "identifier":
                default = Either(Member(module, "default"), module)  # CommonJS: the module
                self.bind_import(scope, text(part), default, node)
            elif part.type == "namespace_import":
                self.bind_import(scope, text(first_named(part)), module, node)
            elif part.type == "named_imports":
                for spec in (s for s in part.named_children if s.type == "import_specifier"):
                    name = field_text(spec, "name")
                    alias = field_text(spec, "alias") or name
                    self.bind_import(scope, alias, Member(module, name), node)
        return None

    def bind_import(self, scope: Scope, name: str, expr: Expr, node: Node) -> None:
        scope.bind(name, Binding(end(node), expr, imported=True))
        self.facts.imports.append((expr, line(node)))

    def export_statement(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        facts = self.facts
        source = _string(node.child_by_field_name("source"))
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        default = any(c.type == "default" for c in node.children)
        if source:
            module = Import(source)
            namespace = next((c for c in node.named_children if c.type == "namespace_export"), None)
            if namespace is not None:
                facts.exports.setdefault(text(first_named(namespace)), []).append(module)
            elif clause is None:
                facts.export_stars.append(module)
            for spec in _specifiers(clause):
                name = field_text(spec, "name")
                alias = field_text(spec, "alias") or name
                facts.exports.setdefault(alias, []).append(Member(module, name))
            facts.imports.append((module, line(node)))
            return None
        for spec in _specifiers(clause):
            name = field_text(spec, "name")
            alias = field_text(spec, "alias") or name
            facts.exports.setdefault(alias, []).append(Name(name))
        declaration = node.child_by_field_name("declaration")
        value = node.child_by_field_name("value")
        if default and declaration is not None and field_text(declaration, "name"):
            facts.exports.setdefault("default", []).append(Name(field_text(declaration, "name")))
        elif default and value is not None:
            facts.exports.setdefault("default", []).append(self.expr(value))
            for _, name, _, function in object_members(node):  # `export default {get() {…}}`:
                facts.exports.setdefault(name, []).append(self.expr(function))  # the module's
        return scope

    # -- bindings --------------------------------------------------------------------------
    def variable_declarator(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        target, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if target is None:
            return scope
        declared = self.declared(node.child_by_field_name("type"))
        if target.type == "identifier":
            name = text(target)
            if value is not None and value.type in _ANONYMOUS_FUNCTIONS:
                definition = self.definition(node)
                qualname = definition.qualname if definition else f"{owner}.<{name}>"
                scope.bind(name, Binding(pos(node), Known(Value("func", qualname))))
                self.function(value, scope, owner, qualname, name, self.this_of(value))
                return None
            if declared is not None:
                scope.bind(name, Binding(end(node), declared, typed=True))
            elif (holder := self.object_holder(node)) is not None:
                scope.bind(name, Binding(end(node), holder))
            elif value is not None:
                scope.bind(name, Binding(end(node), self.expr(value)))
            else:
                scope.bind(name, Binding(end(node), UNKNOWN))
        else:
            source = self.expr(value) if value is not None else UNKNOWN
            self.bind_pattern(target, scope, source, end(node))
        return scope

    def object_holder(self, declarator: Node) -> Expr | None:
        """`helpers` of `const helpers = {trim(v) {…}}`: what holds the methods `helpers.trim`
        (chunked as a type's methods), or None for another value."""
        statement = declarator.parent
        for _, _, _, function in object_members(statement) if statement is not None else ():
            definition = self.definition(function)
            if definition is not None and definition.parent == self.module_qualname(declarator):
                return Known(Value("type", definition.parent))
        return None

    def module_qualname(self, declarator: Node) -> str:
        return f"{self.facts.module}.{field_text(declarator, 'name')}"

    def bind_pattern(self, pattern: Node, scope: Scope, source: Expr, at: tuple) -> None:
        """`{a, b: c} = source` binds a and c to members of source; other names to nothing."""
        if pattern.type == "object_pattern" and source is not UNKNOWN:
            for part in pattern.named_children:
                if part.type == "shorthand_property_identifier_pattern":
                    scope.bind(text(part), Binding(at, Member(source, text(part))))
                    continue
                key, value = part.child_by_field_name("key"), part.child_by_field_name("value")
                pair = part.type == "pair_pattern" and key is not None and value is not None
                if pair and value is not None and value.type == "identifier":
                    scope.bind(text(value), Binding(at, Member(source, text(key))))
                    continue
                self.bind_pattern(part, scope, UNKNOWN, at)
            return
        for name in _pattern_names(pattern):
            scope.bind(name, Binding(at, UNKNOWN))

    def assignment(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return scope
        value = self.expr(right)
        if left.type == "identifier":
            holder = scope.declaring(text(left))
            if holder is not None:
                holder.bind(text(left), Binding(end(node), value))
        elif left.type == "member_expression":
            obj, prop = left.child_by_field_name("object"), field_text(left, "property")
            if obj is not None and obj.type == "this" and scope.enclosing_type():
                decl = self.types.get(scope.enclosing_type())
                if decl is not None:
                    decl.add_field(prop, value, scope)
            elif obj is not None and text(obj) == "module" and prop == "exports":
                self.module_exports(right, value)
            elif obj is not None and text(obj) in ("exports", "module.exports"):
                self.facts.exports.setdefault(prop, []).append(value)
        return scope

    def module_exports(self, right: Node, value: Expr) -> None:
        """`module.exports = {a, b: c}` exports a and b; any other value is the default."""
        exports = self.facts.exports
        if right.type != "object":
            exports.setdefault("default", []).append(value)
            return
        for part in right.named_children:
            if part.type == "shorthand_property_identifier":
                exports.setdefault(text(part), []).append(Name(text(part)))
            elif part.type == "pair":
                key, item = part.child_by_field_name("key"), part.child_by_field_name("value")
                if key is not None and item is not None:
                    exports.setdefault(text(key), []).append(self.expr(item))
            elif part.type == "method_definition":  # `get(field) {…}`
                exports.setdefault(field_text(part, "name"), []).append(self.expr(part))

    def catch_clause(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        parameter = node.child_by_field_name("parameter")
        if parameter is not None:
            for name in _pattern_names(parameter):
                scope.bind(name, Binding(pos(parameter), UNKNOWN))
        return scope

    def for_in(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        left = node.child_by_field_name("left")
        if left is not None:
            for name in _pattern_names(left):
                scope.bind(name, Binding(end(left), UNKNOWN))
        return scope

    # -- functions -------------------------------------------------------------------------
    def function_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = field_text(node, "name")
        definition = self.definition(node)
        qualname = definition.qualname if definition else f"{owner}.<{name}>"
        scope.bind(name, Binding(pos(node), Known(Value("func", qualname))))
        made = Instance(Known(Value("type", qualname)))  # `new F()`: F's prototype methods
        self.function(node, scope, owner, qualname, name, made)
        return None

    def anonymous_function(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A function value, or `get(field) {…}` in an object literal: a closure unless it
        was chunked (assigned, exported, or an object literal's member)."""
        definition = self.definition(node)
        if definition is None:
            self.function(node, scope, owner, "", "", self.this_of(node))
        elif definition.kind == "method":
            # `View.prototype.render = function …` or `trim` of `const helpers = {…}`:
            # `this` is a View, or `helpers`
            container = Known(Value("type", definition.parent))
            instance = None if node.type == "arrow_function" else Instance(container)
            name = definition.name
            self.function(node, scope, owner, definition.qualname, name, instance, container)
        else:  # `export default supported && function httpAdapter(config) {…}`
            name, this = definition.name, self.this_of(node)
            if this is not None and definition.outer.type in _MEMBERS:  # `module.exports = {`
                this = self.exported_this()  # `is() {…}}`: `this` is the module's exports
            self.function(node, scope, owner, definition.qualname, name, this)
        return None

    def exported_this(self) -> Expr:
        """`this` in a function of what a module exports: the module's exports."""
        return Known(Value("module", self.facts.path))

    @staticmethod
    def this_of(node: Node) -> Expr | None:
        """Arrow functions see the `this` around them; other functions have their own."""
        return None if node.type == "arrow_function" else UNKNOWN

    def function(
        self,
        node: Node,
        outer: Scope,
        owner: str,
        qualname: str,
        name: str,
        this: Expr | None,
        container: Expr | None = None,
    ) -> Scope:
        """A function scope with its type parameters and parameters; its body is queued."""
        body = Scope("function", outer, this=this)
        self.type_parameters(node, body)
        self.parameters(node.child_by_field_name("parameters"), body)
        single = node.child_by_field_name("parameter")
        if single is not None:
            body.bind(text(single), Binding(pos(single), UNKNOWN))
        returns = returned(self.declared(node.child_by_field_name("return_type")), body)
        if qualname:
            decl = FuncDecl(qualname, name, body, returns, container, outer)
            self.facts.functions.append(decl)
        content = node.child_by_field_name("body")
        if content is not None and content.type != "statement_block" and node.type != "class":
            body.returns.append(self.expr(content))
        for child in node.named_children:
            if child.type not in ("formal_parameters", "type_parameters", "type_annotation"):
                self.visit(child, body, owner)
        return body

    def type_parameters(self, node: Node, scope: Scope) -> None:
        parameters = node.child_by_field_name("type_parameters")
        for parameter in parameters.named_children if parameters is not None else []:
            constraint = next((c for c in parameter.named_children if c.type == "constraint"), None)
            bound = self.type_ref(first_named(constraint))
            name = field_text(parameter, "name")
            scope.bind(name, Binding(pos(parameter), bound or UNKNOWN))
            scope.type_params.add(name)

    def parameters(self, node: Node | None, scope: Scope, fields: TypeDecl | None = None) -> None:
        for parameter in node.named_children if node is not None else []:
            pattern = parameter.child_by_field_name("pattern") or parameter
            if pattern.type == "assignment_pattern":
                pattern = pattern.child_by_field_name("left") or pattern
            declared = self.declared(parameter.child_by_field_name("type"))
            if pattern.type == "identifier":
                name = text(pattern)
                expr = declared or UNKNOWN
                scope.bind(name, Binding(pos(parameter), expr, typed=declared is not None))
                modifiers = {c.type for c in parameter.children}
                if fields is not None and modifiers & {"accessibility_modifier", "readonly"}:
                    fields.add_field(name, expr, scope)
            else:
                for name in _pattern_names(pattern):
                    scope.bind(name, Binding(pos(parameter), UNKNOWN))

    def return_statement(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        if node.named_children:
            scope.returns.append(self.expr(node.named_children[0]))
        return scope

    # -- classes ---------------------------------------------------------------------------
    def class_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = field_text(node, "name")
        definition = self.definition(node)
        qualname = definition.qualname if definition else f"{owner}.<{name or 'class'}>"
        if name:
            scope.bind(name, Binding(pos(node), Known(Value("type", qualname))))
        body_scope = Scope("type", scope, type_qualname=qualname)
        self.type_parameters(node, body_scope)
        decl = TypeDecl(
            qualname, body_scope, line(node), is_class=node.type != "interface_declaration"
        )
        decl.bases = [r for r in map(self.type_ref, self.heritage(node)) if r is not None]
        self.types[qualname] = decl
        self.facts.types.append(decl)
        instance = Instance(Known(Value("type", qualname)))
        initializers = Scope("function", body_scope, this=instance)
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else []:
            if member.type in _METHODS:
                self.method(member, body_scope, owner, decl, instance)
            elif is_function_field(member):
                self.function_field(member, body_scope, owner, decl, instance)
            elif member.type in _FIELDS:
                self.field(member, initializers, owner, decl)
            else:
                self.visit(member, initializers, owner)
        return None

    def heritage(self, node: Node) -> list[Node]:
        found: list[Node] = []
        for child in node.named_children:
            if child.type == "class_heritage":
                for clause in child.named_children:
                    if clause.type in ("extends_clause", "implements_clause"):
                        found += [c for c in clause.named_children if c.type != "type_arguments"]
                    else:
                        found.append(clause)
            elif child.type == "extends_type_clause":
                found += child.named_children
        return found

    def method(self, node: Node, scope: Scope, owner: str, decl: TypeDecl, instance: Expr) -> None:
        definition = self.definition(node)
        name = field_text(node, "name")
        qualname = definition.qualname if definition else f"{decl.qualname}.<{name}>"
        tokens = {c.type for c in node.children}
        this = Known(Value("type", decl.qualname)) if "static" in tokens else instance
        method_owner = definition.qualname if definition else owner
        container = Known(Value("type", decl.qualname))
        body = self.function(node, scope, method_owner, qualname, name, this, container)
        if name == "constructor":
            self.parameters(node.child_by_field_name("parameters"), body, decl)
        if "get" in tokens:
            decl.add_field(name, Call(Known(Value("func", qualname))), scope)

    def function_field(
        self, node: Node, scope: Scope, owner: str, decl: TypeDecl, instance: Expr
    ) -> None:
        """`handle = () => {…}`: a method whose `this` is the instance, like an arrow's."""
        definition = self.definition(node)
        value = node.child_by_field_name("value")
        name = field_text(node, "name") or field_text(node, "property")
        if value is None:
            return
        qualname = definition.qualname if definition else f"{decl.qualname}.<{name}>"
        method_owner = definition.qualname if definition else owner
        container = Known(Value("type", decl.qualname))
        self.function(value, scope, method_owner, qualname, name, instance, container)

    def field(self, node: Node, scope: Scope, owner: str, decl: TypeDecl) -> None:
        name = field_text(node, "name") or field_text(node, "property")
        value = node.child_by_field_name("value")
        declared = self.declared(node.child_by_field_name("type"))
        if declared is not None:
            decl.add_field(name, declared, scope)
        elif value is not None:
            decl.add_field(name, self.expr(value), scope)
        if value is not None:
            self.visit(value, scope, owner)

    # -- calls -----------------------------------------------------------------------------
    def call(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        function = node.child_by_field_name("function")
        if function is None or function.type == "import":
            return scope
        if function.type == "super":
            self.facts.sites.append(Site(owner, scope, Call(Super()), line(node), "super"))
        elif not _is_require(node):
            self.facts.sites.append(Site(owner, scope, Call(self.expr(function)), line(node)))
        return scope

    def new(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        constructor = node.child_by_field_name("constructor")
        if constructor is not None:
            expr = New(self.expr(constructor))
            self.facts.sites.append(Site(owner, scope, expr, line(node), "new"))
        return scope

    def jsx(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`<Widget …/>` renders (calls) the component Widget; `<div>` is no call."""
        name = node.child_by_field_name("name")
        if name is not None and (name.type == "member_expression" or text(name)[:1].isupper()):
            self.facts.sites.append(Site(owner, scope, Call(self.expr(name)), line(node)))
        return scope

    # -- expressions and types -------------------------------------------------------------
    def convert(self, node: Node) -> Expr:
        kind = node.type
        if kind in _ANONYMOUS_FUNCTIONS or kind in ("method_definition", "class"):
            definition = self.definition(node)  # a chunked one is a value: `exports.words =
            kind = "type" if kind == "class" else "func"  # function words(…)`
            return Known(Value(kind, definition.qualname)) if definition else UNKNOWN
        if kind in ("identifier", "shorthand_property_identifier"):
            return Name(text(node), pos(node))
        if kind == "this":
            return This()
        if kind == "super":
            return Super()
        if kind == "member_expression":
            obj = node.child_by_field_name("object")
            return Member(self.expr(obj), field_text(node, "property")) if obj else UNKNOWN
        if kind == "call_expression":
            if _is_require(node):
                return Import(_require_spec(node))
            function = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            if text(function) == "Object.create" and arguments and arguments.named_children:
                return self.expr(arguments.named_children[0])  # has the members of its proto
            return Call(self.expr(function)) if function is not None else UNKNOWN
        if kind == "new_expression":
            constructor = node.child_by_field_name("constructor")
            return New(self.expr(constructor)) if constructor is not None else UNKNOWN
        if kind == "await_expression" and node.named_children:
            return Unwrap(self.expr(node.named_children[0]))
        if kind in ("as_expression", "type_assertion") and len(node.named_children) == 2:
            value, kind_node = node.named_children
            if kind == "type_assertion":
                value, kind_node = kind_node, value
            return self.declared(kind_node) or self.expr(value)
        if kind in _TRANSPARENT and node.named_children:
            return self.expr(node.named_children[0])
        if kind == "ternary_expression":
            options = [node.child_by_field_name(f) for f in ("consequence", "alternative")]
            return Union(tuple(self.expr(o) for o in options if o is not None))
        if kind == "binary_expression" and field_text(node, "operator") in ("||", "??"):
            options = [node.child_by_field_name(f) for f in ("left", "right")]
            return Union(tuple(self.expr(o) for o in options if o is not None))
        return UNKNOWN

    def type_ref(self, node: Node | None) -> Expr | None:
        """The type a type expression names (generic arguments dropped)."""
        if node is None:
            return None
        kind = node.type
        if kind in ("type_identifier", "identifier"):
            return Name(text(node), pos(node))
        if kind in ("nested_type_identifier", "member_expression"):
            parts = text(node).split(".")
            expr: Expr = Name(parts[0], pos(node))
            for part in parts[1:]:
                expr = Member(expr, part.strip())
            return expr
        if kind == "generic_type":
            return self.type_ref(node.child_by_field_name("name"))
        if kind in ("type_annotation", "parenthesized_type", "readonly_type", "constraint"):
            return self.type_ref(node.named_children[0]) if node.named_children else None
        if kind == "this_type":
            return SelfType()
        if kind == "call_expression":  # `extends mixin(Base)`: unknown
            return None
        return None

    def declared(self, node: Node | None) -> Expr | None:
        """The value a type annotation promises: an instance, a Promise of one, a union."""
        if node is None:
            return None
        if node.type in ("type_annotation", "parenthesized_type", "readonly_type"):
            return self.declared(node.named_children[0]) if node.named_children else None
        if node.type == "generic_type" and field_text(node, "name") in WRAPPERS:
            arguments = node.child_by_field_name("type_arguments")
            inner = arguments.named_children[0] if arguments and arguments.named_children else None
            ref = self.type_ref(inner)
            return Wrapped(ref) if ref is not None else None
        if node.type == "union_type":
            options = [d for d in map(self.declared, node.named_children) if d is not None]
            return options[0] if len(options) == 1 else Union(tuple(options)) if options else None
        ref = self.type_ref(node)
        return Instance(ref) if ref is not None else None


def _specifiers(clause: Node | None) -> list[Node]:
    if clause is None:
        return []
    return [s for s in clause.named_children if s.type == "export_specifier"]


def _string(node: Node | None) -> str:
    if node is None:
        return ""
    fragment = next((c for c in node.named_children if c.type == "string_fragment"), None)
    return text(fragment)


def _is_require(node: Node) -> bool:
    function = node.child_by_field_name("function")
    return function is not None and text(function) == "require" and bool(_require_spec(node))


def _require_spec(node: Node) -> str:
    arguments = node.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments and arguments.named_children else None
    return _string(first) if first is not None and first.type == "string" else ""


def _pattern_names(node: Node) -> list[str]:
    """Every name a destructuring pattern (or a plain identifier) binds."""
    if node.type in ("identifier", "shorthand_property_identifier_pattern"):
        return [text(node)]
    names: list[str] = []
    for child in node.named_children:
        if node.type == "pair_pattern" and child == node.child_by_field_name("key"):
            continue
        if node.type == "assignment_pattern" and child == node.child_by_field_name("right"):
            continue
        names += _pattern_names(child)
    return names


class TsFrontend(Frontend):
    languages = ("javascript", "typescript")
    extractor = TsExtractor
    inherits_constructors = True

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.configs: dict[str, _TsConfig] = {}  # directory -> its tsconfig/jsconfig
        self.packages: dict[str, _Package] = {}  # package.json name -> package

    def config_files(self, paths: Iterable[str]) -> set[str]:
        return {p for p in config_ancestors(paths, CONFIG_NAMES) if (self.root / p).is_file()}

    def configure(self, paths: Iterable[str]) -> None:
        self.configs, self.packages = {}, {}
        for path in sorted(self.config_files(paths)):
            directory = posixpath.dirname(path)
            data = _read_jsonc(self.root / path)
            if path.endswith("package.json"):
                name = data.get("name")
                if isinstance(name, str) and name:
                    self.packages[name] = _Package(directory, data)
            elif directory not in self.configs or path.endswith("tsconfig.json"):
                self.configs[directory] = _TsConfig.load(self.root, path)

    def constructor_names(self, type_qualname: str) -> tuple[str, ...]:
        return ("constructor",)

    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        files = evaluator.files
        for base in self.bases(spec, facts.path):
            found = _first_file(base, files)
            if found:
                return frozenset({Value("module", found)})
        return EMPTY

    def bases(self, spec: str, importer: str) -> list[str]:
        """Workspace paths (without extension) that `spec` may name, most likely first."""
        if spec.startswith("."):
            return [_join(posixpath.dirname(importer), spec)]
        found: list[str] = []
        config = self.config_for(importer)
        if config is not None:
            found += config.candidates(spec)
        names = sorted(self.packages, key=len, reverse=True)
        for name in names:
            if spec == name or spec.startswith(name + "/"):
                found += self.packages[name].candidates(spec[len(name) + 1 :])
                break
        return found

    def config_for(self, path: str) -> _TsConfig | None:
        directory = posixpath.dirname(path)
        while True:
            if directory in self.configs:
                return self.configs[directory]
            if not directory:
                return None
            directory = posixpath.dirname(directory)


class _TsConfig:
    def __init__(self, base_url: str | None, paths: dict[str, list[str]]):
        self.base_url = base_url
        self.paths = paths

    @classmethod
    def load(cls, root: Path, path: str, depth: int = 0) -> _TsConfig:
        data = _read_jsonc(root / path)
        directory = posixpath.dirname(path)
        inherited = cls(None, {})
        parent = data.get("extends")
        if isinstance(parent, str) and parent.startswith(".") and depth < 5:
            target = _join(directory, parent)
            target = target if target.endswith(".json") else target + ".json"
            if (root / target).is_file():
                inherited = cls.load(root, target, depth + 1)
        options = data.get("compilerOptions") or {}
        base = options.get("baseUrl")
        base_url = _join(directory, base) if isinstance(base, str) else inherited.base_url
        paths = options.get("paths")
        if isinstance(paths, dict):
            anchor = base_url if base_url is not None else directory
            mapped = {
                k: [_join(anchor, t) for t in v if isinstance(t, str)]
                for k, v in paths.items()
                if isinstance(v, list)
            }
            return cls(base_url, mapped)
        return cls(base_url, inherited.paths)

    def candidates(self, spec: str) -> list[str]:
        found: list[str] = []
        for pattern, targets in self.paths.items():
            head, star, tail = pattern.partition("*")
            if star and spec.startswith(head) and spec.endswith(tail):
                middle = spec[len(head) : len(spec) - len(tail)]
                found += [t.replace("*", middle, 1) for t in targets]
            elif not star and spec == pattern:
                found += targets
        if self.base_url is not None:
            found.append(_join(self.base_url, spec))
        return found


class _Package:
    """A workspace package.json: where `import "name/sub"` leads."""

    def __init__(self, directory: str, data: dict[str, Any]):
        self.directory = directory
        self.entries = [
            v
            for v in (data.get(k) for k in ("source", "types", "typings", "module", "main"))
            if isinstance(v, str)
        ]

    def candidates(self, sub: str) -> list[str]:
        if sub:
            return [_join(self.directory, sub), _join(self.directory, "src/" + sub)]
        found = [_join(self.directory, e) for e in self.entries]
        return [*found, _join(self.directory, "src/index"), _join(self.directory, "index")]


def _join(directory: str, relative: str) -> str:
    joined = posixpath.normpath(posixpath.join(directory, relative))
    return "" if joined.startswith("..") else joined.removeprefix("./")


def _first_file(base: str, files: Mapping[str, Any]) -> str:
    """The workspace file an import of `base` loads: itself, with an extension, or its index;
    `./x.js` may name `x.ts` (TypeScript's ESM convention), `.d.ts` types fall back to source."""
    if not base:
        return ""
    stem = base
    for suffix in (".d.ts", ".js", ".jsx", ".mjs", ".cjs"):
        if base.endswith(suffix):
            stem = base[: -len(suffix)]
            break
    candidates = [base, *(stem + e for e in EXTENSIONS), *(f"{base}/index{e}" for e in EXTENSIONS)]
    return next((c for c in candidates if c in files), "")


def _read_jsonc(path: Path) -> dict[str, Any]:
    """tsconfig.json allows comments and trailing commas; unreadable files count as empty."""
    try:
        raw = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    stripped = _JSONC.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "", raw)
    stripped = re.sub(r",(\s*[}\]])", r"\1", stripped)
    try:
        data = json.loads(stripped)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
