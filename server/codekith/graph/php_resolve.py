"""PHP: namespaces and `use` imports, classes, interfaces, traits and enums, functions.

A class or function is found by its fully qualified name, not by its path (PSR-4 layouts
vary; several classes may share a file): the extractor resolves each name the text writes
as PHP does (`use` imports and aliases, the current namespace, `\\A\\B` fully qualified,
`namespace\\A` relative) and the front end looks it up among the names each file declares
(`PhpFrontend.rows`: a recorded table, so an edit re-resolves only the files that looked
up a name it declared or dropped). Class names are case-insensitive, as in PHP. An
unqualified function call is the current namespace's function, else the global one
(PHP's fallback).

Members: `$this->m()`, `self::m()` and `static::m()` are the class's (or inherited) method,
`parent::m()` the parent class's, `Foo::m()` Foo's; a class using a trait has its methods,
ahead of the parent's. Values get a class from typed parameters and properties (promoted
ones too), `@param`/`@var`/`@return` docblocks where the code declares nothing, `new`,
declared return types, `instanceof` in an `if` or before `&&`, and, for an untyped
property, what the class's methods assign to `$this->prop`. `new Foo` runs Foo's
`__construct`, else its parent's. Variables are the function's: a function or method never
sees the variables of the code around it; closures and arrow functions see their
definition's, and their calls count for it. A call on a value of unknown class has no edge.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from codekith.chunking.treesitter import Definition
from codekith.graph.frontend import Extractor, Frontend, children, end, field_text, line, pos
from codekith.graph.syntax_model import (
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
from codekith.qualnames import module_name
from codekith.syntax import Node, text

if TYPE_CHECKING:
    from codekith.graph.syntax_engine import Evaluator

_TYPES = ("class_declaration", "interface_declaration", "trait_declaration", "enum_declaration")
_NAMES = ("name", "qualified_name", "relative_name")
_CALLS = ("member_call_expression", "nullsafe_member_call_expression")
_ACCESSES = ("member_access_expression", "nullsafe_member_access_expression")
# names a type position may hold that are no class
_BUILTIN_TYPES = frozenset(
    " ".join(
        (
            "array bool boolean callable false float double int integer iterable mixed never",
            "null object resource scalar string true void list non-empty-array non-empty-list",
            "class-string positive-int negative-int non-empty-string numeric-string array-key",
            "closure-string callable-string numeric number",
        )
    ).split()
)
_DOC_PARAM = re.compile(r"@(?:phpstan-|psalm-)?param\s+([^\s$]+)\s+(?:&\s*)?(?:\.\.\.)?\$(\w+)")
_DOC_VAR = re.compile(r"@(?:phpstan-|psalm-)?var\s+([^\s$]+)(?:\s+\$(\w+))?")
_DOC_RETURN = re.compile(r"@(?:phpstan-|psalm-)?return\s+([^\s$]+)")
_DOC_ELEMENT = re.compile(r"^(?:array|list|iterable|non-empty-array|non-empty-list)<(.+)>$")
CONSTRUCTOR = "__construct"


@dataclass(eq=False)
class PhpFacts(FileFacts):
    """A PHP file's facts plus the fully qualified names it declares: "class:a\\b\\c" or
    "function:a\\f" (lowercased) -> the chunk's value."""

    declared: dict[str, list[Value]] = field(default_factory=dict)


@dataclass
class Context:
    """The namespace at hand and its `use` imports (alias, lowercased -> full name)."""

    namespace: str = ""
    classes: dict[str, str] = field(default_factory=dict)
    functions: dict[str, str] = field(default_factory=dict)

    def qualify(self, raw: str) -> str:
        """The full name of a class name, or of a qualified function name."""
        if raw.startswith("\\"):
            return raw[1:]
        if raw[:10].lower() == "namespace\\":
            return _join(self.namespace, raw[10:])
        head, sep, rest = raw.partition("\\")
        imported = self.classes.get(head.lower())
        if imported is not None:
            return imported + sep + rest
        return _join(self.namespace, raw)


@dataclass
class ClassInfo:
    """What the code of a class body needs: its parent and its documented array props."""

    parent: Expr | None = None
    wrapped: set[str] = field(default_factory=set)  # properties declared as `Foo[]`


class PhpExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        self.php = PhpFacts(path, language, module_name(path), Scope("module", None))
        self.php.definitions = self.facts.definitions
        self.facts = self.php
        self.main = Scope("function", self.php.scope)  # the code at the top of the file
        self.context = Context()
        self.current = self.main
        self.classes: dict[int, ClassInfo] = {}  # type scope id -> what its body needs
        self.decls: dict[str, TypeDecl] = {}
        self.typed_fields: set[tuple[str, str]] = set()
        self.assigned: list[tuple[str, str, Expr, Scope]] = []  # `$this->p = …` of methods
        self.handlers.update(
            {
                "namespace_definition": self.namespace_definition,
                "namespace_use_declaration": self.use_declaration,
                "function_definition": self.function_definition,
                **dict.fromkeys(_TYPES, self.type_declaration),
                "anonymous_function": self.closure,
                "arrow_function": self.closure,
                "assignment_expression": self.assignment,
                "augmented_assignment_expression": self.assignment,
                "foreach_statement": self.foreach,
                "catch_clause": self.catch_clause,
                "global_declaration": self.hide,
                "function_static_declaration": self.hide,
                "return_statement": self.return_statement,
                "if_statement": self.if_statement,
                "binary_expression": self.binary_expression,
                "conditional_expression": self.conditional,
                "comment": self.comment,
                **dict.fromkeys(_CALLS, self.call),
                "scoped_call_expression": self.call,
                "function_call_expression": self.call,
                "object_creation_expression": self.object_creation,
            }
        )

    def run(self) -> FileFacts:
        """The shared walk from the file's top-level code, keeping the scope at hand for
        `convert` (`parent::` and docblock names depend on it); then the fields of untyped
        properties from what the methods assign."""
        self.visit(self.root, self.main, self.facts.module)
        while self._stack:
            node, scope, owner = self._stack.pop()
            definition = self.defs.get(node.id)
            if definition is not None:
                owner = definition.qualname
            self.current = scope
            handler = self.handlers.get(node.type)
            inner = handler(node, scope, owner) if handler is not None else scope
            if inner is not None:
                self.visit_children(node, inner, owner)
        for klass, name, expr, scope in self.assigned:
            decl = self.decls.get(klass)
            if decl is not None and (klass, name) not in self.typed_fields:
                decl.add_field(name, expr, scope)
        return self.facts

    # -- namespaces and imports ------------------------------------------------------------
    def namespace_definition(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.context = Context(_bare(field_text(node, "name")))
        body = node.child_by_field_name("body")
        if body is not None:
            self.visit(body, self.main, owner)
        return None

    def use_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        kind = _keyword(node)
        prefix = next((c for c in node.named_children if c.type == "namespace_name"), None)
        group = node.child_by_field_name("body")
        clauses = group.named_children if group is not None else node.named_children
        for clause in clauses:
            if clause.type != "namespace_use_clause":
                continue
            named = next((c for c in clause.named_children if c.type in _NAMES), None)
            if named is None:
                continue
            full = _bare(text(named))
            if prefix is not None:
                full = _bare(text(prefix)) + "\\" + full
            alias = field_text(clause, "alias") or full.rpartition("\\")[2]
            self.import_name(_keyword(clause) or kind, full, alias, line(clause))
        return None

    def import_name(self, kind: str, full: str, alias: str, at: int) -> None:
        if kind == "const":
            return
        if kind == "function":
            self.context.functions[alias.lower()] = full
        else:
            self.context.classes[alias.lower()] = full
        self.facts.imports.append((Import(f"{kind or 'class'}:{full}"), at))

    def declare(self, kind: str, name: str, value: Value) -> None:
        key = f"{kind}:{_join(self.context.namespace, name)}".lower()
        self.php.declared.setdefault(key, []).append(value)

    # -- names -----------------------------------------------------------------------------
    def class_ref(self, node: Node | None) -> Expr | None:
        """The class a name node names (`self`, `static` and `parent` included)."""
        if node is None:
            return None
        if node.type == "relative_scope" or node.type == "name":
            return self.class_named(text(node))
        if node.type in ("qualified_name", "relative_name"):
            return Import("class:" + self.context.qualify(_squeeze(text(node))))
        return None

    def class_named(self, raw: str) -> Expr | None:
        """A class name written in code or a docblock."""
        lowered = raw.lower()
        if lowered in ("self", "static", "$this"):
            return SelfType()
        if lowered == "parent":
            return self.parent()
        if not raw or lowered in _BUILTIN_TYPES:
            return None
        return Import("class:" + self.context.qualify(raw))

    def parent(self) -> Expr | None:
        info = self.class_info(self.current)
        return info.parent if info is not None else None

    def class_info(self, scope: Scope | None) -> ClassInfo | None:
        while scope is not None:
            if scope.kind == "type":
                return self.classes.get(id(scope))
            scope = scope.parent
        return None

    def function_ref(self, node: Node) -> Expr:
        """`f` is the namespace's f, else the global one; `\\a\\f` and `a\\f` as classes."""
        raw = _squeeze(text(node))
        if node.type != "name":
            return Import("function:" + self.context.qualify(raw))
        imported = self.context.functions.get(raw.lower())
        if imported is not None:
            return Import("function:" + imported)
        if self.context.namespace:
            local = Import(f"function:{self.context.namespace}\\{raw}")
            return Either(local, Import("function:" + raw))
        return Import("function:" + raw)

    def declared_type(self, node: Node | None) -> Expr | None:
        """An instance of a declared type: `Foo`, `?Foo`, `Foo|Bar`, `static`."""
        if node is None:
            return None
        if node.type == "optional_type":
            return self.declared_type(node.named_children[0] if node.named_children else None)
        if node.type in ("union_type", "intersection_type", "disjunctive_normal_form_type"):
            parts = [p for p in map(self.declared_type, node.named_children) if p is not None]
            return _union(parts)
        if node.type == "named_type":
            ref = self.class_ref(node.named_children[0] if node.named_children else None)
            return Instance(ref) if ref is not None else None
        return None

    def doc_type(self, raw: str) -> Expr | None:
        """An instance of a docblock type; `Foo[]` and `array<int, Foo>` hold Foos."""
        parts = [p for p in _split_union(raw.lstrip("?")) if p.lower() not in ("null", "")]
        found: list[Expr] = []
        for part in parts:
            element = _DOC_ELEMENT.match(part)
            if part.endswith("[]") or element is not None:
                inner = part[:-2] if part.endswith("[]") else _last_argument(element)
                ref = self.class_named(inner) if "<" not in inner else None
                if ref is not None:
                    found.append(Wrapped(ref))
                continue
            ref = self.class_named(part.split("<")[0])
            if ref is not None:
                found.append(Instance(ref))
        return _union(found)

    # -- types -----------------------------------------------------------------------------
    def type_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = field_text(node, "name")
        definition = self.definition(node)
        qualname = definition.qualname if definition else f"{owner}.<{name}>"
        if definition is not None:
            self.declare("class", name, Value("type", qualname))
        type_scope = Scope("type", self.php.scope, type_qualname=qualname)
        decl = TypeDecl(qualname, type_scope, line(node), is_class=node.type == "class_declaration")
        self.decls[qualname] = decl
        self.facts.types.append(decl)
        extends = [r for c in _all(node, "base_clause") for r in self.refs(c)]
        info = ClassInfo(extends[0] if extends and decl.is_class else None)
        self.classes[id(type_scope)] = info
        self.current = type_scope
        traits = self.body(node.child_by_field_name("body"), decl, info, owner)
        decl.bases = (
            traits
            + extends
            + [r for c in _all(node, "class_interface_clause") for r in self.refs(c)]
        )
        return None

    def refs(self, node: Node) -> list[Expr]:
        return [r for r in map(self.class_ref, node.named_children) if r is not None]

    def body(self, body: Node | None, decl: TypeDecl, info: ClassInfo, owner: str) -> list[Expr]:
        """Members of a class body; the traits it uses."""
        klass = Known(Value("type", decl.qualname))
        instance = Instance(klass)
        initializers = Scope("function", decl.scope, this=instance)
        traits: list[Expr] = []
        for member in children(body):
            kind = member.type
            if kind == "method_declaration":
                self.method(member, decl, instance, owner)
            elif kind == "property_declaration":
                self.property(member, decl, info, initializers, owner)
            elif kind == "use_declaration":
                traits += self.refs(member)
            elif kind == "enum_case":
                decl.add_field(field_text(member, "name"), instance, decl.scope)
            elif kind not in ("comment", "const_declaration"):
                self.visit(member, initializers, owner)
        return traits

    def property(
        self, node: Node, decl: TypeDecl, info: ClassInfo, scope: Scope, owner: str
    ) -> None:
        declared = self.declared_type(node.child_by_field_name("type"))
        doc = _doc(node)
        documented = _DOC_VAR.search(doc)
        if documented is not None and (declared is None or _is_array(node)):
            declared = self.doc_type(documented.group(1)) or declared
        for element in node.named_children:
            if element.type != "property_element":
                continue
            name = field_text(element, "name")
            if declared is not None:
                decl.add_field(name, declared, decl.scope)
                self.typed_fields.add((decl.qualname, name))
                if isinstance(declared, Wrapped):
                    info.wrapped.add(name)
            self.visit(element.child_by_field_name("default_value"), scope, owner)

    def method(self, node: Node, decl: TypeDecl, instance: Expr, owner: str) -> None:
        definition = self.definition(node)
        name = field_text(node, "name")
        qualname = definition.qualname if definition else f"{decl.qualname}.<{name}>"
        static = any(c.type == "static_modifier" for c in node.children)
        body = Scope("function", decl.scope, this=UNKNOWN if static else instance)
        doc = _doc(node)
        self.parameters(node.child_by_field_name("parameters"), body, doc, decl, owner)
        returns = self.returns(node, doc)
        container = Known(Value("type", decl.qualname))
        self.facts.functions.append(FuncDecl(qualname, name, body, returns, container, decl.scope))
        self.visit(
            node.child_by_field_name("body"), body, definition.qualname if definition else owner
        )

    def function_definition(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A named function: its variables are its own (not the file's or a caller's)."""
        definition = self.definition(node)
        name = field_text(node, "name")
        qualname = definition.qualname if definition else f"{owner}.<{name}>"
        if definition is not None:
            self.declare("function", name, Value("func", qualname))
        body = Scope("function", self.php.scope)
        doc = _doc(node)
        self.parameters(node.child_by_field_name("parameters"), body, doc, None, owner)
        self.facts.functions.append(FuncDecl(qualname, name, body, self.returns(node, doc)))
        self.visit(node.child_by_field_name("body"), body, owner)
        return None

    def returns(self, node: Node, doc: str) -> Expr | None:
        """The declared result; a declared non-class type (`array`, `void`) is unknown,
        no declaration at all: a `@return` docblock, else what `return` statements give."""
        kind = node.child_by_field_name("return_type")
        declared = self.declared_type(kind)
        if declared is None or _is_array(node, "return_type"):
            documented = _DOC_RETURN.search(doc)
            if documented is not None:
                declared = self.doc_type(documented.group(1)) or declared
        if declared is not None:
            return declared
        return UNKNOWN if kind is not None else None

    def parameters(
        self, node: Node | None, body: Scope, doc: str, decl: TypeDecl | None, owner: str
    ) -> None:
        documented = {m.group(2): m.group(1) for m in _DOC_PARAM.finditer(doc)}
        for parameter in children(node):
            name = field_text(parameter, "name")
            if not name:
                continue
            kind = parameter.child_by_field_name("type")
            declared = self.declared_type(kind)
            if (
                kind is None or text(kind).lower() in ("array", "iterable", "mixed", "object")
            ) and (name[1:] in documented):
                declared = self.doc_type(documented[name[1:]]) or declared
            if parameter.type == "variadic_parameter" and isinstance(declared, Instance):
                declared = Wrapped(declared.type)
            body.bind(name, Binding(pos(parameter), declared or UNKNOWN, typed=bool(declared)))
            promoted = parameter.type == "property_promotion_parameter"
            if promoted and decl is not None and declared is not None:
                decl.add_field(name, declared, decl.scope)
                self.typed_fields.add((decl.qualname, name))
            self.visit(parameter.child_by_field_name("default_value"), body, owner)

    # -- closures and locals ---------------------------------------------------------------
    def closure(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A closure's calls are its definition's; it sees the variables around it."""
        static = node.child_by_field_name("static_modifier") is not None
        body = Scope("function", scope, this=UNKNOWN if static else None)
        self.parameters(node.child_by_field_name("parameters"), body, "", None, owner)
        self.visit(node.child_by_field_name("body"), body, owner)
        return None

    def assignment(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        value = self.expr(right)
        if node.type == "augmented_assignment_expression":
            if text(node.child_by_field_name("operator")) != "??=":
                return scope
            value = Union((self.expr(left), value))
        if left is not None and left.type == "variable_name":
            _home(scope).bind(text(left), Binding(end(node), value))
        elif left is not None and left.type == "list_literal":
            for variable in _variables(left):
                _home(scope).bind(text(variable), Binding(end(node), UNKNOWN))
        elif left is not None:
            self.property_assignment(left, value, scope)
        return scope

    def property_assignment(self, left: Node, value: Expr, scope: Scope) -> None:
        """`$this->p = v` / `self::$p = v` in a class's code: what an untyped p holds."""
        klass = scope.enclosing_type()
        if not klass or klass not in self.decls:
            return
        if left.type == "member_access_expression":
            obj, name = left.child_by_field_name("object"), left.child_by_field_name("name")
            if text(obj) == "$this" and name is not None and name.type == "name":
                self.assigned.append((klass, "$" + text(name), value, scope))
        elif left.type == "scoped_property_access_expression":
            holder = text(left.child_by_field_name("scope")).lower()
            if holder in ("self", "static"):
                self.assigned.append((klass, field_text(left, "name"), value, scope))

    def foreach(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """The loop variable holds an element when the text documents what the iterated
        array holds (`@var Foo[]`, `Foo ...$xs`)."""
        parts = [c for c in node.named_children if c != node.child_by_field_name("body")]
        subject = parts[0] if parts else None
        element = self.element(subject, scope)
        for part in parts[1:]:
            target = (
                part.named_children[-1] if part.type == "pair" and part.named_children else part
            )
            for index, variable in enumerate(_variables(target)):
                value = element if index == 0 and target.type != "list_literal" else UNKNOWN
                _home(scope).bind(text(variable), Binding(pos(target), value))
        return scope

    def element(self, subject: Node | None, scope: Scope) -> Expr:
        if subject is None:
            return UNKNOWN
        if subject.type == "variable_name":
            current: Scope | None = scope
            while current is not None:
                bindings = current.bindings.get(text(subject))
                if bindings:
                    found = bindings[-1].expr
                    return Unwrap(found) if isinstance(found, Wrapped) else UNKNOWN
                current = current.parent
            return UNKNOWN
        if subject.type == "member_access_expression":
            name = subject.child_by_field_name("name")
            info = self.class_info(scope)
            mine = text(subject.child_by_field_name("object")) == "$this"
            if mine and info is not None and name is not None and "$" + text(name) in info.wrapped:
                return Unwrap(self.expr(subject))
        return UNKNOWN

    def catch_clause(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        kinds = children(node.child_by_field_name("type"))
        declared = _union([t for t in map(self.declared_type, kinds) if t is not None])
        name = field_text(node, "name")
        _home(scope).bind(name, Binding(pos(node), declared or UNKNOWN, typed=bool(declared)))
        return scope

    def hide(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`global $x;` / `static $x;`: a variable whose value the function does not show."""
        for variable in _variables(node):
            _home(scope).bind(text(variable), Binding(pos(node), UNKNOWN))
        return scope

    def return_statement(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        if node.named_children:
            _home(scope).returns.append(self.expr(node.named_children[0]))
        return scope

    def comment(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`/** @var Foo $x */` types a variable from here on; without a name, the variable
        the next statement assigns."""
        found = _DOC_VAR.search(text(node))
        if found is None or scope.kind == "type":
            return None
        name = found.group(2)
        if name is None:
            name = _assigned_variable(node.next_named_sibling)
        declared = self.doc_type(found.group(1))
        if name and declared is not None:
            _home(scope).bind("$" + name.lstrip("$"), Binding(end(node), declared, typed=True))
        return None

    def if_statement(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        condition = node.child_by_field_name("condition")
        body = node.child_by_field_name("body")
        narrowed = self.narrowed(condition, scope)
        for child in node.named_children:
            self.visit(child, narrowed if child == body else scope, owner)
        self.guard(node, condition, body, scope)
        return None

    def guard(self, node: Node, condition: Node | None, body: Node | None, scope: Scope) -> None:
        """`if (!$x instanceof Foo) { throw …; }` without else: x is a Foo after it (an
        untyped binding: a declared type still wins)."""
        negated = _strip(condition)
        if negated is None or negated.type != "unary_op_expression":
            return
        if text(negated.child_by_field_name("operator")) != "!" or node.child_by_field_name(
            "alternative"
        ):
            return
        if not _exits(body):
            return
        for variable, ref in self.instance_tests(negated.child_by_field_name("argument")):
            _home(scope).bind(variable, Binding(end(node), Instance(ref)))

    def conditional(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`$x instanceof Foo ? $x->m() : …`: x is a Foo in the first branch."""
        condition = node.child_by_field_name("condition")
        first = node.child_by_field_name("body")
        for child in node.named_children:
            self.visit(child, self.narrowed(condition, scope) if child == first else scope, owner)
        return None

    def binary_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`$x instanceof Foo && $x->m()`: x is a Foo on the right."""
        if text(node.child_by_field_name("operator")).lower() not in ("&&", "and"):
            return scope
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        self.visit(left, scope, owner)
        self.visit(right, self.narrowed(left, scope), owner)
        return None

    def narrowed(self, condition: Node | None, scope: Scope) -> Scope:
        """A scope where the variables `condition` tests with instanceof have that class."""
        found = self.instance_tests(condition)
        if not found:
            return scope
        inner = Scope("narrow", scope)
        for variable, ref in found:
            inner.bind(
                variable,
                Binding(pos(condition) if condition else (0, 0), Instance(ref), typed=True),
            )
        return inner

    def instance_tests(self, node: Node | None) -> list[tuple[str, Expr]]:
        node = _strip(node)
        if node is None or node.type != "binary_expression":
            return []
        operator = text(node.child_by_field_name("operator")).lower()
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if operator in ("&&", "and"):
            return self.instance_tests(left) + self.instance_tests(right)
        if operator == "instanceof" and left is not None and left.type == "variable_name":
            ref = self.class_ref(right)
            if ref is not None and text(left) != "$this":
                return [(text(left), ref)]
        return []

    # -- calls -----------------------------------------------------------------------------
    def call(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        called = self.expr(node)
        if isinstance(called, Call):
            self.facts.sites.append(Site(owner, scope, called, line(node)))
        return scope

    def object_creation(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        first = node.named_children[0] if node.named_children else None
        if first is not None and first.type == "anonymous_class":
            self.anonymous_class(first, scope, owner)
            return None
        ref = self.class_ref(first)
        if ref is not None:
            self.facts.sites.append(Site(owner, scope, New(ref), line(node), "new"))
        return scope

    def anonymous_class(self, node: Node, scope: Scope, owner: str) -> None:
        """`new class(...) extends Base {…}`: its methods are no chunks, their calls are
        the enclosing definition's; its `$this` and `self` are unknown."""
        for child in node.named_children:
            if child.type != "declaration_list":
                self.visit(child, scope, owner)
        inner = Scope(
            "type", self.php.scope, this=UNKNOWN, type_qualname=f"{owner}.<class@{line(node)}>"
        )
        for member in children(node.child_by_field_name("body")):
            if member.type == "method_declaration":
                body = Scope("function", inner, this=UNKNOWN)
                self.parameters(member.child_by_field_name("parameters"), body, "", None, owner)
                self.visit(member.child_by_field_name("body"), body, owner)
            elif member.type == "property_declaration":
                self.visit(member, Scope("function", inner, this=UNKNOWN), owner)

    def convert(self, node: Node) -> Expr:
        kind = node.type
        if kind == "variable_name":
            return This() if text(node) == "$this" else Name(text(node), pos(node))
        if kind in _ACCESSES:
            name = node.child_by_field_name("name")
            if name is None or name.type != "name":
                return UNKNOWN
            return Member(self.expr(node.child_by_field_name("object")), "$" + text(name))
        if kind == "scoped_property_access_expression":
            holder = self.class_scope(node.child_by_field_name("scope"))
            return Member(holder, field_text(node, "name")) if holder is not None else UNKNOWN
        if kind == "class_constant_access_expression" and len(node.named_children) == 2:
            holder = self.class_scope(node.named_children[0])
            constant = text(node.named_children[1])
            if holder is None or constant.lower() == "class":
                return UNKNOWN
            return Member(holder, constant)
        if kind in _CALLS:
            name = node.child_by_field_name("name")
            if name is None or name.type != "name":
                return UNKNOWN
            return Call(Method(self.expr(node.child_by_field_name("object")), text(name)))
        if kind == "scoped_call_expression":
            name = node.child_by_field_name("name")
            holder = self.class_scope(node.child_by_field_name("scope"))
            if holder is None or name is None or name.type != "name":
                return UNKNOWN
            return Call(Method(holder, text(name)))
        if kind == "function_call_expression":
            function = node.child_by_field_name("function")
            if function is None or function.type not in _NAMES:
                return UNKNOWN
            return Call(self.function_ref(function))
        if kind == "object_creation_expression":
            ref = self.class_ref(node.named_children[0] if node.named_children else None)
            return New(ref) if ref is not None else UNKNOWN
        if kind in ("parenthesized_expression", "clone_expression") and node.named_children:
            return self.expr(node.named_children[-1])
        if kind == "assignment_expression":
            return self.expr(node.child_by_field_name("right"))
        if kind == "binary_expression" and text(node.child_by_field_name("operator")) == "??":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            return Union((self.expr(left), self.expr(right)))
        if kind == "conditional_expression":
            branches = [node.child_by_field_name(f) for f in ("body", "alternative")]
            if branches[0] is None:  # `a ?: b`
                branches[0] = node.child_by_field_name("condition")
            return Union(tuple(self.expr(b) for b in branches if b is not None))
        return UNKNOWN

    def class_scope(self, node: Node | None) -> Expr | None:
        """What is left of `::`: a class name, `self`/`static`/`parent`, or a value."""
        if node is None:
            return None
        if node.type in _NAMES or node.type == "relative_scope":
            return self.class_ref(node)
        found = self.expr(node)
        return None if found is UNKNOWN else found


def _join(namespace: str, name: str) -> str:
    return f"{namespace}\\{name}" if namespace else name


def _bare(name: str) -> str:
    return _squeeze(name).lstrip("\\")


def _squeeze(name: str) -> str:
    return "".join(name.split())


def _keyword(node: Node) -> str:
    """`function` / `const` of a `use function …` declaration or clause, else ""."""
    for child in node.children:
        if not child.is_named and child.type in ("function", "const"):
            return child.type
    return ""


def _doc(node: Node) -> str:
    """The docblock right above a declaration."""
    previous = node.prev_named_sibling
    if previous is not None and previous.type == "comment" and text(previous).startswith("/**"):
        return text(previous)
    return ""


def _is_array(node: Node, name: str = "type") -> bool:
    return text(node.child_by_field_name(name)).lower().lstrip("?") in ("array", "iterable")


def _split_union(raw: str) -> list[str]:
    """`Foo|array<int, Bar>|null` -> its parts (not splitting inside `<…>`)."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(raw):
        depth += {"<": 1, ">": -1, "(": 1, ")": -1}.get(char, 0)
        if char == "|" and depth == 0:
            parts.append(raw[start:index])
            start = index + 1
    parts.append(raw[start:])
    return [p.strip() for p in parts]


def _last_argument(match: re.Match[str] | None) -> str:
    return match.group(1).split(",")[-1].strip() if match is not None else ""


def _union(parts: list[Expr]) -> Expr | None:
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else Union(tuple(parts))


def _strip(node: Node | None) -> Node | None:
    while node is not None and node.type == "parenthesized_expression":
        node = node.named_children[0] if node.named_children else None
    return node


_EXITS = frozenset(
    {
        "return_statement",
        "continue_statement",
        "break_statement",
        "exit_statement",
        "throw_expression",
    }
)


def _exits(body: Node | None) -> bool:
    """Whether a block ends by leaving: return, throw, continue, break, exit."""
    last = body.named_children[-1] if body is not None and body.named_children else None
    if last is not None and last.type == "compound_statement":
        return _exits(last)
    if last is None or last.type in ("return_statement", "continue_statement", "break_statement"):
        return last is not None
    inner = last.named_children[0] if last.named_children else None
    return (
        last.type == "expression_statement"
        and inner is not None
        and (inner.type in ("throw_expression", "exit_statement"))
    )


def _home(scope: Scope) -> Scope:
    """Where an assignment binds: the function's scope, not an `instanceof` narrowing."""
    while scope.kind == "narrow" and scope.parent is not None:
        scope = scope.parent
    return scope


def _variables(node: Node | None) -> list[Node]:
    """The variables a target (`$x`, `&$x`, `[$a, 'k' => $b]`) or declaration binds."""
    if node is None:
        return []
    if node.type == "variable_name":
        return [node]
    found: list[Node] = []
    for child in node.named_children:
        if child.type in ("variable_name", "by_ref", "list_literal", "static_variable_declaration"):
            found += _variables(child) if child.type != "variable_name" else [child]
    return found


def _assigned_variable(node: Node | None) -> str:
    if node is None or node.type != "expression_statement" or not node.named_children:
        return ""
    assignment = node.named_children[0]
    if assignment.type != "assignment_expression":
        return ""
    left = assignment.child_by_field_name("left")
    return text(left) if left is not None and left.type == "variable_name" else ""


def _all(node: Node, kind: str) -> list[Node]:
    return [c for c in node.named_children if c.type == kind]


def is_test_path(path: str) -> bool:
    parts = path.lower().split("/")
    return any(p in _TEST_DIRS for p in parts[:-1]) or parts[-1].endswith("test.php")


_TEST_DIRS = frozenset({"test", "tests", "spec", "specs", "fixtures"})


class PhpFrontend(Frontend):
    languages = ("php",)
    extractor = PhpExtractor
    inherits_constructors = True  # a class without `__construct` runs its parent's

    def rows(self, facts: FileFacts) -> Iterator[tuple[str, str, object]]:
        """Each declared full name ("class:a\\b", lowercased): (its value, the file)."""
        if isinstance(facts, PhpFacts):
            for key, values in facts.declared.items():
                for value in values:
                    yield "php.names", key, (value, facts.path)

    def constructor_names(self, type_qualname: str) -> tuple[str, ...]:
        return (CONSTRUCTOR,)

    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """`class:A\\B` or `function:A\\f`: what the workspace declares under that name (a
        recorded table: the lookup reads the name and the declarations of the files
        declaring it). Code outside tests never reaches a test file's function
        (`tests/bootstrap.php` defining `GuzzleHttp\\Handler\\curl_setopt_array`
        intercepts the builtin only under test)."""
        found: list[tuple[Value, str]] = evaluator.tables.of("php.names").get(spec.lower())
        if spec.startswith("function:") and not is_test_path(facts.path):
            found = [(v, path) for v, path in found if not is_test_path(path)]
        return frozenset(v for v, _ in found)
