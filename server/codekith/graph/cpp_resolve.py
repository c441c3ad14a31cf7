"""C++: namespaces, classes and their members, constructors, linked through `#include`.

A name that is not a local is looked up the way C++ looks it up: a member of the enclosing
class or its bases (implicit `this`), else in the enclosing namespaces, innermost first,
with what `using namespace`, `using ns::f` and namespace aliases bring in; `ns::f` and
`Foo::make` are followed as written. Names are kept with their namespace context in the
facts (`Import("n:…")`) and resolved against the workspace's names by fully qualified
name (`CppLinker`: rows of the evaluator's recorded tables, each lookup memoised with what
it read), so a file's facts still depend on its text alone. Which definition of a
qualified function is meant follows C's linking (own file, included files, the one
definition, the one implementing an included header); a class must be defined in the
file or in a file it includes.

Values get their class from declarations (`Foo x`, `Foo* p`, `const Foo&`, smart pointers
and containers as wrappers: `->` and range `for` reach the element), `auto x = Foo(…)`,
`new Foo`, `std::make_unique<Foo>`, and declared return types; a value of unknown class, or
of a template parameter's type, gets no edge. Out-of-line methods (`void Foo::bar()`) are
methods of the class `Foo` names there. `Foo(…)`, `Foo x(…)`, `new Foo` and `: Base(…)`
call the constructor. Macros hide names, as in C.

A `.h` header holding C++ is read by this front end (`c_resolve` hands it over, with its C
reading's linking facts) and its C++ parts resolve only when the workspace has C++ sources:
in a C-only workspace they are left out, as the C front end leaves them.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from codekith.chunking.treesitter import Definition, definitions
from codekith.graph.c_resolve import _COMMENTS, _LIBC, _MENTIONS, CFacts, Linker, c_rows
from codekith.graph.frontend import (
    Extractor,
    Frontend,
    Handler,
    children,
    end,
    extracted,
    field_text,
    line,
    one_function,
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
    Site,
    This,
    TypeDecl,
    Union,
    Unwrap,
    Value,
    Values,
    Wrapped,
)
from codekith.languages import language_of
from codekith.qualnames import module_name
from codekith.syntax import Node, grammar_of, parse, text

if TYPE_CHECKING:
    from codekith.graph.syntax_engine import Evaluator

# std templates whose `->`, `*`, `[i]` or range `for` gives a value of the first argument
_WRAPPERS = frozenset(
    {
        "unique_ptr",
        "shared_ptr",
        "optional",
        "vector",
        "list",
        "deque",
        "set",
        "multiset",
        "unordered_set",
        "unordered_multiset",
        "array",
        "span",
        "initializer_list",
        "forward_list",
    }
)
_MAKERS = frozenset({"make_unique", "make_shared"})
_CASTS = frozenset({"static_cast", "dynamic_cast", "const_cast", "reinterpret_cast"})
_INJECTED = "::"  # a class's pseudo-fields: its own and its bases' names, as C++ injects them
_GROUPS = ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "labeled_statement")
_LABELS = ("identifier", "statement_identifier")
_CLASSES = ("class_specifier", "struct_specifier", "union_specifier")
_DECLARATORS = frozenset(
    {
        "pointer_declarator",
        "reference_declarator",
        "array_declarator",
        "parenthesized_declarator",
        "init_declarator",
        "attributed_declarator",
    }
)
# C++ in a `.h` header: it is read by this front end
_CPP_MARKS = frozenset(
    {
        "namespace_definition",
        "class_specifier",
        "template_declaration",
        "using_declaration",
        "alias_declaration",
        "namespace_alias_definition",
    }
)
_CONTAINERS = frozenset(
    {
        "preproc_if",
        "preproc_ifdef",
        "preproc_else",
        "preproc_elif",
        "preproc_elifdef",
        "linkage_specification",
        "declaration_list",
        "ERROR",
    }
)


@dataclass(frozen=True)
class Context:
    """Where names are looked up: the enclosing namespaces, the `using namespace` directives
    (the namespace as written, and the namespace the directive is in), using-declarations
    and namespace aliases (name -> qualified name as written)."""

    namespace: tuple[str, ...] = ()
    usings: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()
    cpp_only: bool = False  # inside C++ constructs (a header's C reading skips these)


class Entity(NamedTuple):
    """A namespace-level name a file defines or declares, by fully qualified name."""

    fqn: str
    kind: str  # func | type | decl | alias
    qualname: str = ""
    local: bool = False  # `static`, or in an anonymous namespace: seen in its file only
    expr: Expr | None = None  # what an alias names, read in `scope`
    scope: Scope | None = None


@dataclass(eq=False)
class CppFacts(CFacts):
    """A C++ file's facts: its name contexts, the names it defines, the namespaces it opens."""

    contexts: list[Context] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    namespaces: set[str] = field(default_factory=set)
    gated: bool = False  # a `.h` header: its C++ resolves only beside C++ sources


class CppExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        self.cpp = CppFacts(path, language, module_name(path), Scope("module", None))
        self.cpp.definitions = self.facts.definitions
        self.cpp.gated = language == "c"
        self.cpp.contexts.append(Context())
        self.facts = self.cpp
        self.here: Scope = self.facts.scope
        self.context_of: dict[int, int] = {id(self.facts.scope): 0}
        self.classes: dict[int, Expr] = {}  # method body scope -> the class (a type)
        self.local_scopes: set[int] = set()  # anonymous namespaces, for `local`
        self.extern_c: set[int] = set()
        handlers = {
            "namespace_definition": self.namespace,
            "ERROR": self.error,
            "linkage_specification": self.linkage,
            "preproc_ifdef": self.ifdef,
            "template_declaration": self.template,
            "function_definition": self.function_definition,
            "declaration": self.declaration,
            "using_declaration": self.using,
            "namespace_alias_definition": self.namespace_alias,
            "alias_declaration": self.alias,
            "type_definition": self.typedef,
            "call_expression": self.call,
            "new_expression": self.new,
            "compound_literal_expression": self.new,
            "lambda_expression": self.lambda_expression,
            "for_range_loop": self.range_for,
            "catch_clause": self.catch,
            "preproc_include": self.include,
            "preproc_def": self.macro,
            "preproc_function_def": self.macro,
            **dict.fromkeys(_CLASSES, self.class_specifier),
        }
        for kind, handler in handlers.items():
            self.handlers[kind] = self._at(handler)

    def _at(self, handler: Handler) -> Handler:
        def run(node: Node, scope: Scope, owner: str) -> Scope | None:
            self.here = scope
            return handler(node, scope, owner)

        return run

    # -- contexts --------------------------------------------------------------------------
    def context(self, scope: Scope | None = None) -> int:
        current: Scope | None = scope or self.here
        while current is not None:
            found = self.context_of.get(id(current))
            if found is not None:
                return found
            current = current.parent
        return 0

    def child(self, scope: Scope, **changes: object) -> Scope:
        """A scope for a namespace body (or a block of C++), with its own context."""
        inner = Scope("block", scope)
        base = self.cpp.contexts[self.context(scope)]
        values = {
            "namespace": base.namespace,
            "usings": base.usings,
            "aliases": base.aliases,
            "cpp_only": base.cpp_only,
        }
        values.update(changes)
        self.cpp.contexts.append(Context(**values))  # type: ignore[arg-type]
        self.context_of[id(inner)] = len(self.cpp.contexts) - 1
        return inner

    def extend(self, scope: Scope, **changes: object) -> None:
        """A `using` in `scope`: later code there sees a context with it."""
        base = self.cpp.contexts[self.context(scope)]
        self.cpp.contexts.append(
            Context(
                base.namespace,
                base.usings + changes.get("usings", ()),  # type: ignore[operator]
                base.aliases + changes.get("aliases", ()),  # type: ignore[operator]
                base.cpp_only,
            )
        )
        self.context_of[id(scope)] = len(self.cpp.contexts) - 1

    def namespace_of(self, scope: Scope) -> tuple[str, ...]:
        return self.cpp.contexts[self.context(scope)].namespace

    def fqn(self, scope: Scope, name: str) -> str:
        return "::".join((*self.namespace_of(scope), name))

    def is_local(self, scope: Scope) -> bool:
        current: Scope | None = scope
        while current is not None:
            if id(current) in self.local_scopes:
                return True
            current = current.parent
        return False

    def in_extern_c(self, scope: Scope) -> bool:
        current: Scope | None = scope
        while current is not None:
            if id(current) in self.extern_c:
                return True
            current = current.parent
        return False

    def cpp_only(self, scope: Scope) -> bool:
        return self.cpp.contexts[self.context(scope)].cpp_only

    def lookup(self, name: str, types: bool = False) -> Import:
        """A name looked up in the current context, resolved against the workspace."""
        kind = "t" if types else "n"
        return Import(f"{kind}:{self.context()}:{name}")

    def class_type(self, qualname: str) -> Expr:
        """A class of this file; a header's is gated (see the module docstring)."""
        return Import(f"k:{qualname}") if self.cpp.gated else Known(Value("type", qualname))

    # -- file level ------------------------------------------------------------------------
    def namespace(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        named = node.child_by_field_name("name")
        parts = tuple(p for p in re.split(r"\s*::\s*", text(named)) if p) if named else ()
        inline = any(c.type == "inline" for c in node.children)
        inner = self.opened(scope, () if inline else parts)
        if named is None:
            self.local_scopes.add(id(inner))
        self.visit(node.child_by_field_name("body"), inner, owner)
        return None

    def error(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """Code tree-sitter could not read whole (`class API Foo {` after `namespace A {`):
        a `namespace a {` it left as tokens still opens a namespace for what follows."""
        scopes = [scope]
        children = node.children
        queued: list[tuple[Node, Scope]] = []
        at = 0
        while at < len(children):
            child = children[at]
            after = [c.type for c in children[at + 1 : at + 3]]
            if child.type == "namespace" and after in (
                ["identifier", "{"],
                ["namespace_identifier", "{"],
            ):
                scopes.append(self.opened(scopes[-1], (text(children[at + 1]),)))
                at += 3
                continue
            if child.type == "{":
                scopes.append(scopes[-1])
            elif child.type == "}" and len(scopes) > 1:
                scopes.pop()
            elif child.is_named:
                queued.append((child, scopes[-1]))
            at += 1
        for child, inner in reversed(queued):
            self._stack.append((child, inner, owner))
        return None

    def opened(self, scope: Scope, parts: tuple[str, ...]) -> Scope:
        """The scope of a namespace body: its names are `a::b::…`."""
        path = self.namespace_of(scope) + parts
        for n in range(1, len(path) + 1):
            self.cpp.namespaces.add("::".join(path[:n]))
        return self.child(scope, namespace=path, cpp_only=True)

    def linkage(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`extern "C" {…}` holds functions C calls; `extern "C++" {…}` in a header is C++."""
        cpp = "C++" in field_text(node, "value")
        inner = self.child(scope, cpp_only=True) if cpp else Scope("block", scope)
        if not cpp:
            self.extern_c.add(id(inner))
        self.visit(node.child_by_field_name("body"), inner, owner)
        return None

    def ifdef(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`#ifdef __cplusplus` in a header: C++ that C never reads."""
        if node.children[0].type == "#ifdef" and field_text(node, "name") == "__cplusplus":
            return self.child(scope, cpp_only=True)
        return scope

    def include(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        path = node.child_by_field_name("path")
        if path is None or path.type not in ("string_literal", "system_lib_string"):
            return None
        spec = text(path).strip().strip('"<>').strip()
        quoted = path.type == "string_literal"
        if spec:
            self.cpp.includes.append((spec, quoted))
            self.facts.imports.append((Import(("q:" if quoted else "a:") + spec), line(node)))
        return None

    def macro(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = text(node.child_by_field_name("name"))
        if name:
            self.cpp.macros.add(name)
        return None

    def using(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`using namespace ns;` and `using ns::f;` (a class's `using Base::f;` is skipped)."""
        target = node.named_children[0] if node.named_children else None
        name = _qualified(target)
        if not name:
            return None
        if any(c.type == "namespace" for c in node.children):
            written = tuple(p for p in name.split("::") if p)
            self.extend(scope, usings=((written, self.namespace_of(scope)),))
        elif "::" in name.strip(":"):
            self.extend(scope, aliases=((name.rsplit("::", 1)[1], name),))
        return None

    def namespace_alias(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        named = node.child_by_field_name("name")
        target = next((c for c in node.named_children if c != named), None)
        name = re.sub(r"\s+", "", text(target))
        if named is not None and name:
            self.extend(scope, aliases=((text(named), name),))
        return None

    def alias(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`using Ptr = std::shared_ptr<Foo>;`: Ptr is what the type is."""
        kind = node.child_by_field_name("type")
        inner = kind.child_by_field_name("type") if kind is not None else None
        value = self.value_type(inner, None)
        self.name_alias(text(node.child_by_field_name("name")), value, scope)
        return None

    def typedef(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        kind = node.child_by_field_name("type")
        for declarator in node.children_by_field_name("declarator"):
            self.name_alias(_declared_name(declarator), self.value_type(kind, declarator), scope)
        return scope  # `typedef struct {…} name;` holds a type

    def name_alias(self, name: str, value: Expr | None, scope: Scope) -> None:
        if not name or value is None:
            return
        if scope.kind == "function":
            scope.bind(name, Binding(pos_of(self.root), _as_type(value)))
            return
        entity = Entity(self.fqn(scope, name), "alias", expr=_as_type(value), scope=scope)
        self.cpp.entities.append(entity)

    def template(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """Template parameters are unknown types inside (no edge through them)."""
        inner, body = self.template_scope(node, scope)
        self.visit(body, inner, owner)
        return None

    def template_scope(self, node: Node, scope: Scope) -> tuple[Scope, Node]:
        """A scope binding the template's parameters, and what the template declares."""
        inner = Scope("block", scope)
        for parameter in children(node.child_by_field_name("parameters")):
            if parameter.type in ("parameter_declaration", "optional_parameter_declaration"):
                name = _declared_name(parameter.child_by_field_name("declarator"))
            else:
                named = parameter.child_by_field_name("name") or next(
                    (c for c in parameter.named_children if c.type == "type_identifier"), None
                )
                name = text(named)
            inner.bind(name, Binding(pos(parameter), UNKNOWN))
            inner.type_params.add(name)
        body = next(
            (c for c in reversed(node.named_children) if c.type != "template_parameter_list"),
            node,
        )
        return inner, body

    # -- classes ---------------------------------------------------------------------------
    def class_specifier(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        body = node.child_by_field_name("body")
        name = _qualified(node.child_by_field_name("name"))
        if body is None:  # `class Foo;`, `struct Foo x;`
            if name and scope.kind != "function" and scope.kind != "type":
                self.cpp.entities.append(Entity(self.fqn(scope, name), "decl"))
            return None
        definition = self.definition(node)
        if definition is None or definition.kind != "class":  # nested or unnamed: no node
            self.members(body, Scope("type", scope), owner, None)
            return None
        named = node.child_by_field_name("name")
        special = named is not None and named.type == "template_type"  # `struct X<int> {…}`
        self.define_class(node, body, scope, owner, definition, special)
        return None

    def define_class(
        self,
        node: Node,
        body: Node,
        scope: Scope,
        owner: str,
        definition: Definition,
        special: bool = False,
    ) -> None:
        """A class chunk: its name, bases (and their names, as pseudo-fields: `Base::m()`),
        fields and methods. A specialization is no class to look up by name (which of them
        a name means depends on its template arguments)."""
        qualname, name = definition.qualname, definition.name
        kind = self.class_type(qualname)
        if scope.kind != "type":
            local = self.is_local(scope)
            entity = Entity(self.fqn(scope, name), "spec" if special else "type", qualname, local)
            self.cpp.entities.append(entity)
        inner = self.child(scope, cpp_only=True)
        body_scope = Scope("type", inner, type_qualname=qualname)
        decl = TypeDecl(qualname, body_scope, line(node))
        decl.add_field(_INJECTED + name, kind, body_scope)
        for base in _bases(node):
            self.here = body_scope
            ref = self.type_ref(base, types=True)
            if ref is not None:
                decl.bases.append(ref)
                decl.add_field(_INJECTED + _qualified(base).rsplit("::", 1)[-1], ref, body_scope)
        self.facts.types.append(decl)
        self.members(body, body_scope, owner, (decl, kind))

    def members(
        self, body: Node, scope: Scope, owner: str, klass: tuple[TypeDecl, Expr] | None
    ) -> None:
        """A class body: inline methods, declared methods, fields; the rest as code."""
        pending = list(body.named_children)
        while pending:
            member = pending.pop(0)
            inner, wrapped = member, scope
            if member.type == "template_declaration":
                wrapped, inner = self.template_scope(member, scope)
            if inner.type in _GROUPS:  # `#if`, and `public:` in a misread class
                pending[:0] = [c for c in inner.named_children if c.type not in _LABELS]
            elif inner.type == "function_definition" and klass is not None:
                self.here = wrapped
                self.method(inner, wrapped, owner, klass[1])
            elif inner.type in ("field_declaration", "declaration") and klass is not None:
                self.here = wrapped
                self.field(inner, wrapped, owner, klass)
            elif inner.type not in ("access_specifier", "using_declaration", "friend_declaration"):
                self.visit(inner, wrapped, owner)
            elif inner.type == "friend_declaration":
                self.visit(inner, Scope("function", wrapped, this=UNKNOWN), owner)

    def field(self, node: Node, scope: Scope, owner: str, klass: tuple[TypeDecl, Expr]) -> None:
        decl, kind = klass
        type_node = node.child_by_field_name("type")
        for declarator in node.children_by_field_name("declarator"):
            function = _function_declarator(declarator)
            name = _declared_name(declarator)
            if function is not None and _is_function_name(function):
                qualname = f"{decl.qualname}.{name}"  # declared only: stops inherited lookups
                body = Scope("function", scope, this=Instance(kind))
                returns = self.returns(type_node, declarator, body)
                self.facts.functions.append(FuncDecl(qualname, name, body, returns, kind, scope))
            elif name:
                value = self.value_type(type_node, declarator)
                if value is not None:
                    decl.add_field(name, value, scope)
        default = node.child_by_field_name("default_value")
        if default is not None:
            self.visit(default, Scope("function", scope, this=Instance(kind)), owner)
        if type_node is not None and type_node.type in _CLASSES:
            self.visit(type_node, scope, owner)

    def method(self, node: Node, scope: Scope, owner: str, kind: Expr) -> None:
        definition = self.definition(node)
        name = definition.name if definition else _declared_name(node)
        qualname = definition.qualname if definition else ""
        body = Scope("function", scope, this=Instance(kind))
        self.classes[id(body)] = kind
        declarator = node.child_by_field_name("declarator")
        returns = self.returns(node.child_by_field_name("type"), declarator, body)
        deleted = any(c.type == "delete_method_clause" for c in node.children)
        if qualname and not deleted:  # `Foo(const Foo&) = delete;` is never called
            self.facts.functions.append(FuncDecl(qualname, name, body, returns, kind, scope))
        self.function_body(node, body, qualname or owner)

    # -- functions -------------------------------------------------------------------------
    def function_definition(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A free function, or a method defined out of line (`void Foo::bar() {…}`)."""
        definition = self.definition(node)
        body = node.child_by_field_name("body")
        if definition is not None and definition.kind == "class" and body is not None:
            self.define_class(node, body, scope, owner, definition)  # `class API Foo {…}`
            return None
        declarator = node.child_by_field_name("declarator")
        function = _function_declarator(declarator)
        written = _qualified(function.child_by_field_name("declarator")) if function else ""
        if definition is None or not written or scope.kind == "function":
            self.function_body(node, Scope("function", scope, this=UNKNOWN), owner)
            return None
        qualname, name = definition.qualname, definition.name
        body_parent = scope
        kind: Expr | None = None
        if "::" in written.strip(":"):  # Foo::bar, ns::Foo::bar, or ns::f
            holder = written.rsplit("::", 1)[0]
            kind = self.lookup(holder, types=True)
            space = tuple(p for p in holder.split("::")[:-1] if p)
            body_parent = self.child(scope, namespace=self.namespace_of(scope) + space)
            fqn = "::".join((*self.namespace_of(scope), *written.strip(":").split("::")))
            self.cpp.entities.append(Entity(fqn, "outer", qualname))
        else:
            static = any(
                c.type == "storage_class_specifier" and text(c) == "static" for c in node.children
            )
            local = static or self.is_local(scope)
            self.cpp.entities.append(Entity(self.fqn(scope, name), "func", qualname, local))
            if self.in_extern_c(scope) and not self.namespace_of(scope):
                self.cpp.defined.setdefault(name, (qualname, static))
        inner = Scope("function", body_parent, this=Instance(kind) if kind else None)
        if kind is not None:
            self.classes[id(inner)] = kind
        returns = self.returns(node.child_by_field_name("type"), declarator, inner)
        self.facts.functions.append(FuncDecl(qualname, name, inner, returns, kind, scope))
        self.function_body(node, inner, owner)
        return None

    def returns(self, type_node: Node | None, declarator: Node | None, body: Scope) -> Expr | None:
        """The declared result; `auto` leaves it to the return statements."""
        if type_node is not None and type_node.type == "placeholder_type_specifier":
            return None
        self.here = body
        return returned(self.value_type(type_node, declarator) or UNKNOWN, body)

    def function_body(self, node: Node, body: Scope, owner: str) -> None:
        function = _function_declarator(node.child_by_field_name("declarator"))
        if function is not None:
            self.parameters(function.child_by_field_name("parameters"), body)
        for child in reversed(node.named_children):
            if child.type == "field_initializer_list":
                self.initializers(child, body, owner)
        self.visit(node.child_by_field_name("body"), body, owner)

    def parameters(self, node: Node | None, scope: Scope) -> None:
        self.here = scope
        for parameter in children(node):
            if parameter.type not in (
                "parameter_declaration",
                "optional_parameter_declaration",
                "variadic_parameter_declaration",
            ):
                continue
            declarator = parameter.child_by_field_name("declarator")
            name = _declared_name(declarator)
            value = self.value_type(parameter.child_by_field_name("type"), declarator)
            scope.bind(name, Binding(pos(parameter), value or UNKNOWN, typed=value is not None))

    def initializers(self, node: Node, scope: Scope, owner: str) -> None:
        """`: Base(…)` runs the base's constructor (a member's `m_(…)` is no edge)."""
        self.here = scope
        for initializer in node.named_children:
            named = initializer.named_children[0] if initializer.named_children else None
            name = _qualified(named)
            if name:
                ref: Expr = self.lookup(name, types=True)
                klass = self.enclosing_class()
                if klass is not None and "::" not in name:
                    ref = Either(Member(klass, _INJECTED + name), ref)
                self.facts.sites.append(Site(owner, scope, New(ref), line(initializer), "new"))
            for argument in initializer.named_children[1:]:
                self.visit(argument, scope, owner)

    def lambda_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        body = Scope("function", scope)
        declarator = node.child_by_field_name("declarator")
        if declarator is not None:
            self.parameters(declarator.child_by_field_name("parameters"), body)
        self.visit(node.child_by_field_name("body"), body, owner)
        return None

    def catch(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.parameters(node.child_by_field_name("parameters"), scope)
        self.visit(node.child_by_field_name("body"), scope, owner)
        return None

    # -- declarations ----------------------------------------------------------------------
    def declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """Locals and globals with their types; `Foo x(…)` constructs; prototypes declare."""
        type_node = node.child_by_field_name("type")
        auto = type_node is not None and type_node.type == "placeholder_type_specifier"
        for declarator in node.children_by_field_name("declarator"):
            name = _declared_name(declarator)
            if _qualified_declarator(declarator):
                name = ""  # `int Foo::count = 0;` defines a member: no name here
            function = _function_declarator(declarator)
            if function is not None and _is_function_name(function):
                if scope.kind != "function":
                    self.prototype(function, scope)
                    continue
                if not self.vexing(function):
                    continue
                declarator = function  # `Store store(log);`: an object made of a local
            value = (
                declarator.child_by_field_name("value")
                if declarator.type == "init_declarator"
                else node.child_by_field_name("value")  # `if (Foo* p = find())`
            )
            declared = None if auto else self.value_type(type_node, declarator)
            at = end(declarator) if scope.kind == "function" else pos(node)
            if declared is not None:
                scope.bind(name, Binding(at, declared, typed=True))
                if _constructs(declarator, value) and isinstance(declared, Instance):
                    site = Site(owner, scope, New(declared.type), line(declarator), "new")
                    self.facts.sites.append(site)
            elif value is not None and value.type not in ("argument_list", "initializer_list"):
                held = self.expr(value) if auto or function is not None else UNKNOWN
                scope.bind(name, Binding(at, held))
            else:
                scope.bind(name, Binding(at, UNKNOWN))
            if value is not None:
                self.visit(value, scope, owner)
        if type_node is not None and type_node.type in _CLASSES:
            self.visit(type_node, scope, owner)
        return None

    def vexing(self, function: Node) -> bool:
        """Whether `T x(a, b)` in a body passes locals (an object), not types (a prototype)."""
        parameters = children(function.child_by_field_name("parameters"))
        for parameter in parameters:
            kind = parameter.child_by_field_name("type")
            if (
                parameter.type != "parameter_declaration"
                or parameter.child_by_field_name("declarator") is not None
                or kind is None
                or kind.type != "type_identifier"
            ):
                return False
            declaring = self.here.declaring(text(kind))
            if declaring is None or text(kind) in declaring.type_params:
                return False
        return bool(parameters)

    def prototype(self, function: Node, scope: Scope) -> None:
        written = _qualified(function.child_by_field_name("declarator"))
        if written and "::" not in written:
            self.cpp.entities.append(Entity(self.fqn(scope, written), "decl"))

    def range_for(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        type_node = node.child_by_field_name("type")
        declarator = node.child_by_field_name("declarator")
        right = node.child_by_field_name("right")
        auto = type_node is not None and type_node.type == "placeholder_type_specifier"
        declared = None if auto else self.value_type(type_node, declarator)
        value = declared or Unwrap(self.expr(right))
        name = _declared_name(declarator)
        scope.bind(name, Binding(pos(node), value, typed=declared is not None))
        for child in node.named_children:
            if child not in (type_node, declarator):
                self.visit(child, scope, owner)
        return None

    # -- types -----------------------------------------------------------------------------
    def value_type(self, type_node: Node | None, declarator: Node | None) -> Expr | None:
        """The value a declaration's type gives: Instance(class) or Wrapped(element)."""
        if declarator is not None and _function_declarator(declarator) is not None:
            function = _function_declarator(declarator)
            if function is not None and not _is_function_name(function):
                return None  # a function pointer
        return self.type_value(type_node)

    def type_value(self, node: Node | None) -> Expr | None:
        if node is None:
            return None
        wrapped = self.wrapped(node)
        if wrapped is not None:
            return wrapped
        ref = self.type_ref(node, types=True)
        return Instance(ref) if ref is not None else None

    def wrapped(self, node: Node) -> Expr | None:
        """`std::unique_ptr<Foo>`, `std::vector<Foo>`: a wrapper of Foo (of Foo's pointers)."""
        template = node
        space = ""
        if node.type == "qualified_identifier":
            space = field_text(node, "scope")
            template = node.child_by_field_name("name") or node
        if template.type != "template_type" or space not in ("", "std"):
            return None
        if field_text(template, "name") not in _WRAPPERS:
            return None
        arguments = children(template.child_by_field_name("arguments"))
        first = arguments[0] if arguments else None
        if first is None or first.type != "type_descriptor":
            return None
        inner = first.child_by_field_name("type")
        element = self.type_value(inner)
        if isinstance(element, Wrapped):
            return element  # a vector of smart pointers: `->` on an element reaches Foo
        return Wrapped(element.type) if isinstance(element, Instance) else None

    def type_ref(self, node: Node | None, types: bool = False) -> Expr | None:
        """The class a type names (template arguments dropped)."""
        if node is None:
            return None
        if node.type in _CLASSES or node.type == "enum_specifier":
            node = node.child_by_field_name("name")
            if node is None:
                return None
        name = _qualified(node)
        if not name or node.type in ("primitive_type", "sized_type_specifier"):
            return None
        if "::" not in name and self.here.declaring(name) is not None:
            return Name(name, pos(node))  # a template parameter or a local alias
        return self.lookup(name, types)

    # -- calls -----------------------------------------------------------------------------
    def call(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        function = node.child_by_field_name("function")
        made = self.made(function)
        if made is not None:
            self.facts.sites.append(Site(owner, scope, New(made), line(node), "new"))
        elif function is not None and function.type == "field_expression":
            self.facts.sites.append(Site(owner, scope, Call(self.callee(function)), line(node)))
        elif function is not None:
            self.facts.sites.append(
                Site(owner, scope, New(self.callee(function)), line(node), "new")
            )
        return scope

    def new(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        ref = self.type_ref(node.child_by_field_name("type"), types=True)
        if ref is not None:
            self.facts.sites.append(Site(owner, scope, New(ref), line(node), "new"))
        return scope

    def made(self, function: Node | None) -> Expr | None:
        """The class `std::make_unique<Foo>` makes."""
        if function is None:
            return None
        template = function
        if function.type == "qualified_identifier" and field_text(function, "scope") == "std":
            template = function.child_by_field_name("name") or function
        if template.type != "template_function" or field_text(template, "name") not in _MAKERS:
            return None
        arguments = children(template.child_by_field_name("arguments"))
        first = arguments[0] if arguments else None
        if first is None or first.type != "type_descriptor":
            return None
        return self.type_ref(first.child_by_field_name("type"), types=True)

    def callee(self, node: Node) -> Expr:
        """What is called: a member, a local, a member of `this`, or a name looked up."""
        if node.type == "field_expression":
            obj = self.expr(node.child_by_field_name("argument"))
            if text(node.child_by_field_name("operator")) == "->":
                obj = Unwrap(obj)
            return Method(obj, _member_name(node.child_by_field_name("field")))
        if node.type == "parenthesized_expression" and node.named_children:
            return self.callee(node.named_children[0])
        if node.type == "pointer_expression" and text(node.children[0]) == "*":
            return self.expr(node.child_by_field_name("argument"))
        name = _qualified(node)
        if not name:
            return UNKNOWN
        if "::" not in name and self.here.declaring(name) is not None:
            return Name(name, pos(node))
        found = self.lookup(name)
        klass = self.enclosing_class()
        if klass is not None and "::" not in name:
            return Either(Method(Instance(klass), name), found)
        head, _, last = name.partition("::")
        if klass is not None and head and "::" not in last:  # `Base::m()` of a base's name
            return Either(Method(Member(klass, _INJECTED + head), last), found)
        return found

    def enclosing_class(self) -> Expr | None:
        current: Scope | None = self.here
        while current is not None:
            found = self.classes.get(id(current))
            if found is not None:
                return found
            current = current.parent
        return None

    def convert(self, node: Node) -> Expr:
        kind = node.type
        if kind == "identifier":
            name = text(node)
            if self.here.declaring(name) is not None:
                return Name(name, pos(node))
            klass = self.enclosing_class()
            found = self.lookup(name)
            return Either(Member(Instance(klass), name), found) if klass is not None else found
        if kind == "qualified_identifier":
            made = self.made(node)
            return self.lookup(_qualified(node)) if made is None else UNKNOWN
        if kind == "this":
            return This()
        if kind == "field_expression":
            obj = self.expr(node.child_by_field_name("argument"))
            if text(node.child_by_field_name("operator")) == "->":
                obj = Unwrap(obj)
            return Member(obj, _member_name(node.child_by_field_name("field")))
        if kind == "call_expression":
            return self.call_value(node)
        if kind in ("new_expression", "compound_literal_expression"):
            ref = self.type_ref(node.child_by_field_name("type"), types=True)
            return New(ref) if ref is not None else UNKNOWN
        if kind == "parenthesized_expression" and node.named_children:
            return self.expr(node.named_children[0])
        if kind == "pointer_expression":
            inner = self.expr(node.child_by_field_name("argument"))
            return Unwrap(inner) if text(node.children[0]) == "*" else inner
        if kind == "subscript_expression":
            return Unwrap(self.expr(node.child_by_field_name("argument")))
        if kind == "conditional_expression":
            options = (
                node.child_by_field_name("consequence"),
                node.child_by_field_name("alternative"),
            )
            return Union(tuple(self.expr(o) for o in options if o is not None))
        return UNKNOWN

    def call_value(self, node: Node) -> Expr:
        function = node.child_by_field_name("function")
        made = self.made(function)
        if made is not None:
            return Wrapped(made)
        if (
            function is not None
            and function.type == "template_function"
            and field_text(function, "name") in _CASTS
        ):
            arguments = children(function.child_by_field_name("arguments"))
            first = arguments[0] if arguments else None
            if first is not None and first.type == "type_descriptor":
                return self.type_value(first.child_by_field_name("type")) or UNKNOWN
            return UNKNOWN
        if function is None:
            return UNKNOWN
        return Call(self.callee(function))


def pos_of(node: Node) -> tuple[int, int]:
    return node.start_point[0], node.start_point[1]


def _as_type(value: Expr) -> Expr:
    """What an alias names: the class of `Instance(class)`, a wrapper as it is."""
    return value.type if isinstance(value, Instance) else value


def _qualified(node: Node | None) -> str:
    """`a::b::c` of a (qualified) name without template arguments; "" for other nodes."""
    if node is None:
        return ""
    kind = node.type
    if kind in ("identifier", "type_identifier", "namespace_identifier", "field_identifier"):
        return text(node)
    if kind in ("template_type", "template_function", "template_method"):
        return _qualified(node.child_by_field_name("name"))
    if kind == "qualified_identifier":
        scope = node.child_by_field_name("scope")
        name = _qualified(node.child_by_field_name("name"))
        if not name:
            return ""
        if scope is None:
            return "::" + name
        head = _qualified(scope)
        return f"{head}::{name}" if head else ""
    if kind == "nested_namespace_specifier":
        return "::".join(text(c) for c in node.named_children)
    if kind in ("destructor_name", "operator_name"):
        return re.sub(r"\s+", "", text(node))
    return ""


def _member_name(node: Node | None) -> str:
    if node is not None and node.type == "dependent_name" and node.named_children:
        node = node.named_children[0]
    return _qualified(node) or text(node)


def _declared_name(declarator: Node | None) -> str:
    node = declarator
    while node is not None and node.type in _DECLARATORS | {"function_declarator"}:
        node = node.child_by_field_name("declarator") or (
            node.named_children[0] if node.named_children else None
        )
    if node is None:
        return ""
    if node.type in ("identifier", "field_identifier", "type_identifier"):
        return text(node)
    if node.type == "qualified_identifier":
        return _qualified(node).rsplit("::", 1)[-1]
    return ""


def _qualified_declarator(declarator: Node | None) -> bool:
    node = declarator
    while node is not None and node.type in _DECLARATORS:
        node = node.child_by_field_name("declarator") or (
            node.named_children[0] if node.named_children else None
        )
    return node is not None and node.type == "qualified_identifier"


def _function_declarator(declarator: Node | None) -> Node | None:
    node = declarator
    while node is not None and node.type in (
        "pointer_declarator",
        "reference_declarator",
        "attributed_declarator",
        "init_declarator",
    ):
        node = node.child_by_field_name("declarator") or (
            node.named_children[0] if node.named_children else None
        )
    return node if node is not None and node.type == "function_declarator" else None


def _is_function_name(function: Node) -> bool:
    """`f(int)` declares a function, `(*fp)(int)` a pointer."""
    inner = function.child_by_field_name("declarator")
    return inner is not None and inner.type in (
        "identifier",
        "field_identifier",
        "qualified_identifier",
        "operator_name",
        "destructor_name",
        "template_function",
    )


def _constructs(declarator: Node, value: Node | None) -> bool:
    """`Foo x(…)`, `Foo x{…}` and `Foo x;` run a constructor; pointers and references don't."""
    if declarator.type == "function_declarator":
        return True  # `Store store(log);`
    node = declarator.child_by_field_name("declarator") if value is not None else declarator
    if node is None or node.type not in ("identifier", "field_identifier"):
        return False
    return value is None or value.type in ("argument_list", "initializer_list")


def _bases(node: Node) -> list[Node]:
    clause = next((c for c in node.named_children if c.type == "base_class_clause"), None)
    return [c for c in children(clause) if c.type != "access_specifier"]


def holds_cpp(root: Node) -> bool:
    """Whether a header's top level (through `#if`s and `extern` blocks) holds C++."""
    pending = list(root.named_children)
    while pending:
        node = pending.pop()
        if node.type in _CPP_MARKS:
            return True
        if node.type == "linkage_specification" and "C++" in field_text(node, "value"):
            return True
        if node.type == "function_definition":
            function = _function_declarator(node.child_by_field_name("declarator"))
            inner = function.child_by_field_name("declarator") if function else None
            if inner is not None and inner.type == "qualified_identifier":
                return True
        if node.type in _CONTAINERS:
            pending += node.named_children
    return False


def cpp_header(path: str, root: Node, found: list[Definition], c_facts: CFacts) -> CFacts:
    """A `.h` header's facts: the C reading's when it holds no C++, else the C++ reading's
    with the C reading's linking facts (what C files calling into it see)."""
    if not holds_cpp(root):
        return c_facts
    facts = extracted(CppExtractor(path, "c", root, found))
    assert isinstance(facts, CppFacts)
    facts.language = "cpp"
    facts.includes, facts.macros = c_facts.includes, c_facts.macros
    facts.defined, facts.declared = c_facts.defined, c_facts.declared
    return facts


class Entry(NamedTuple):
    path: str
    kind: str
    qualname: str
    local: bool
    expr: Expr | None
    scope: Scope | None


class CppLinker(Linker):
    """The workspace's C and C++ names by fully qualified name, looked up in the
    evaluator's recorded tables (`CppFrontend.rows`, C files' `c.plain`); each lookup is
    memoised with what it read."""

    def __init__(self, evaluator: Evaluator) -> None:
        super().__init__(evaluator)
        self.by_fqn = evaluator.tables.of("cpp.by_fqn")  # fqn -> Entry
        self.plain = evaluator.tables.of("c.plain")  # a C file's functions by name
        self.namespaces = evaluator.tables.of("cpp.namespaces")
        self.sources = evaluator.tables.of("cpp.sources")  # "cpp" -> each C++ source

    @property
    def has_cpp(self) -> bool:
        """Whether the workspace has C++ sources (not only headers holding C++)."""
        return "cpp" in self.sources

    def entries(self, fqn: str) -> list[Entry]:
        """What `fqn` names: C++ entities, and C files' functions (C names have no `::`)."""
        found = self.by_fqn.get(fqn)
        if "::" in fqn:
            return found
        plain = [
            Entry(d.path, "func", d.qualname, d.static, None, None) for d in self.plain.get(fqn)
        ]
        return found + plain if plain else found

    def defines(self, fqn: str) -> bool:
        return fqn in self.by_fqn or ("::" not in fqn and fqn in self.plain)

    def exists(self, fqn: str) -> bool:
        return self.defines(fqn) or fqn in self.namespaces

    def macro(self, name: str, caller: str) -> bool:
        return name in self.facts(caller).macros or name in self.included_macros(caller)

    def functions(self, fqn: str, caller: str) -> Values:
        """Which definition of a function: see `c_resolve` for the order. C++ calls only
        what the file or a file it includes declares (or defines)."""
        everything = self.entries(fqn)
        entries = [e for e in everything if e.kind in ("func", "outer")]
        seen = self.closure(caller)
        if not self.declared_in(fqn, everything, caller, seen):
            return EMPTY
        visible = [e for e in entries if not e.local or e.path == caller or e.path in seen]
        own = {e.qualname for e in visible if e.path == caller}
        if own:
            return one_function(own)
        included = {e.qualname for e in visible if e.path in seen}
        name = fqn.rsplit("::", 1)[-1]
        if included or (name in _LIBC and "::" not in fqn):
            return one_function(included)
        candidates = [e for e in visible if not e.local]
        if len({e.qualname for e in candidates}) <= 1:
            return one_function({e.qualname for e in candidates})
        implementing = {e.qualname for e in candidates if self.implements(e.path, name, seen)}
        if len(implementing) == 1:
            return one_function(implementing)
        here = posixpath.dirname(caller)
        return one_function({e.qualname for e in candidates if posixpath.dirname(e.path) == here})

    def declared_in(
        self, fqn: str, entries: list[Entry], caller: str, seen: frozenset[str]
    ) -> bool:
        """Whether the caller's translation unit declares `fqn`: a prototype or definition
        in it or in a header it includes, a C header's prototype, or a qualified
        definition (`void A::f()`, declared where A is)."""
        if any(e.kind == "outer" or e.path == caller or e.path in seen for e in entries):
            return True
        if "::" in fqn:
            return False
        return any(
            fqn in facts.declared
            for facts in map(self.facts, seen)
            if not isinstance(facts, CppFacts)
        )

    def types(self, fqn: str, caller: str, evaluator: Evaluator) -> Values:
        """A class must be defined in the file or in one it includes (else: the one class of
        that name in a header, when includes could not be followed)."""
        entries = self.entries(fqn)
        seen = self.closure(caller)
        aliases = [e for e in entries if e.kind == "alias" and (e.path == caller or e.path in seen)]
        if aliases:
            found: set[Value] = set()
            for alias in aliases:
                if alias.expr is not None and alias.scope is not None:
                    found |= evaluator.eval(alias.expr, alias.scope)
            return frozenset(found)
        if any(e.kind == "spec" for e in entries):
            return EMPTY  # which specialization depends on the template arguments
        kinds = [e for e in entries if e.kind == "type"]
        for chosen in (
            [e for e in kinds if e.path == caller],
            [e for e in kinds if e.path in seen],
            [e for e in kinds if not e.local and language_of(e.path) != "cpp"]
            + [e for e in kinds if not e.local and posixpath.splitext(e.path)[1] == ".hpp"],
        ):
            names = {e.qualname for e in chosen}
            if names:
                return frozenset({Value("type", names.pop())}) if len(names) == 1 else EMPTY
        return EMPTY

    def qualified(
        self,
        space: tuple[str, ...],
        name: list[str],
        caller: str,
        types: bool,
        evaluator: Evaluator,
    ) -> Values | None:
        """What `a::b::c` names in namespace `space` when `a` exists there; else None."""
        if not self.exists("::".join((*space, name[0]))):
            return None
        parts = [*space, *name]
        fqn = "::".join(parts)
        holder = self.entries("::".join(parts[:-1])) if len(parts) > 1 else []
        if any(e.kind == "spec" for e in holder):
            return EMPTY  # `convert<T>::decode`: which specialization's depends on T
        if self.defines(fqn):
            found = self.types(fqn, caller, evaluator)
            if found or types:
                return found
            return self.functions(fqn, caller)
        if len(parts) > 1 and not types:
            owner = self.types("::".join(parts[:-1]), caller, evaluator)
            return frozenset(v for kind in owner for v in evaluator.method(kind, parts[-1]))
        return EMPTY

    def lookup(
        self, facts: CppFacts, index: int, name: str, types: bool, evaluator: Evaluator
    ) -> Values:
        return evaluator.memoised(
            ("cpp.lookup", facts.path, index, name, types),
            lambda: self.read_lookup(facts, index, name, types, evaluator),
            EMPTY,
        )

    def read_lookup(
        self, facts: CppFacts, index: int, name: str, types: bool, evaluator: Evaluator
    ) -> Values:
        """`_lookup` in the file's context `index`, the file's declarations read."""
        evaluator.recorder.reads.add(evaluator.index.decl_read(facts.path))
        return self._lookup(facts, facts.contexts[index], name, types, evaluator)

    def _lookup(
        self, facts: CppFacts, context: Context, name: str, types: bool, evaluator: Evaluator
    ) -> Values:
        absolute = name.startswith("::")
        parts = [p for p in name.split("::") if p]
        if not parts:
            return EMPTY
        if not absolute and len(parts) == 1 and self.macro(parts[0], facts.path):
            return EMPTY
        aliases = dict(context.aliases)
        if not absolute and parts[0] in aliases:
            target = [p for p in aliases.pop(parts[0]).split("::") if p]
            if target and target != parts[:1]:
                plain = Context(context.namespace, context.usings, tuple(aliases.items()))
                return self._lookup(facts, plain, "::".join(target + parts[1:]), types, evaluator)
        levels = (
            [()]
            if absolute
            else [context.namespace[:n] for n in range(len(context.namespace), -1, -1)]
        )
        usings = [] if absolute else self.usings(context)
        for level in levels:
            spaces = [level] + [u for u, at in usings if at == level]
            hits = [
                found
                for space in spaces
                if (found := self.qualified(space, parts, facts.path, types, evaluator)) is not None
            ]
            if hits:
                values = frozenset(v for hit in hits for v in hit)
                return values if len({v.name for v in values}) <= 1 or len(hits) == 1 else EMPTY
        return EMPTY

    def usings(self, context: Context) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """Each `using namespace` target (as a full path) and the namespace level where its
        names appear (the innermost one holding both the directive and the target)."""
        found = []
        for written, at in context.usings:
            full: tuple[str, ...] | None = None
            for n in range(len(at), -1, -1):
                candidate = at[:n] + written
                if "::".join(candidate) in self.namespaces:
                    full = candidate
                    break
            if full is None:
                continue
            shared = 0
            while shared < min(len(full), len(at)) and full[shared] == at[shared]:
                shared += 1
            found.append((full, at[:shared]))
        return found


class CppFrontend(Frontend):
    languages = ("cpp",)
    extractor = CppExtractor

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self._linker: CppLinker | None = None

    def extract(self, path: str, language: str, source: bytes) -> FileFacts:
        grammar = grammar_of(path, language)
        tree = parse(grammar, source)
        found = definitions(tree.root_node, path, grammar)
        facts = extracted(CppExtractor(path, language, tree.root_node, found))
        assert isinstance(facts, CppFacts)
        code = _COMMENTS.sub(b" ", source)
        facts.declared = {m.decode("utf-8", "replace") for m in _MENTIONS.findall(code)}
        return facts

    def linker(self, evaluator: Evaluator) -> CppLinker:
        """The lookups of the evaluator's tables (made again when they are built again)."""
        if self._linker is None or self._linker.tables is not evaluator.tables:
            self._linker = CppLinker(evaluator)
        return self._linker

    def constructor_names(self, type_qualname: str) -> tuple[str, ...]:
        return (type_qualname.rsplit(".", 1)[-1],)

    def rows(self, facts: FileFacts) -> Iterator[tuple[str, str, object]]:
        """C's rows (C files include C++ headers and link against their C functions), the
        names the file gives by fully qualified name, the namespaces it opens, and
        whether it is a C++ source (a C workspace leaves its headers' C++ out)."""
        if not isinstance(facts, CppFacts):
            return
        yield from c_rows(facts)
        for e in facts.entities:
            entry = Entry(facts.path, e.kind, e.qualname, e.local, e.expr, e.scope)
            yield "cpp.by_fqn", e.fqn, entry
        for namespace in sorted(facts.namespaces):
            yield "cpp.namespaces", namespace, namespace
        if not facts.gated:  # a C++ file, not a C header holding C++
            yield "cpp.sources", "cpp", facts.path

    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        kind, _, rest = spec.partition(":")
        linker = self.linker(evaluator)
        if kind in ("q", "a"):
            header = linker.include(facts.path, rest, kind == "q")
            if header is None or module_name(header) == facts.module:
                return EMPTY  # its own header is no import
            return frozenset({Value("module", header)})
        if not isinstance(facts, CppFacts):
            return EMPTY
        if kind == "k":
            return frozenset({Value("type", rest)}) if linker.has_cpp else EMPTY
        index, _, name = rest.partition(":")
        context = facts.contexts[int(index)]
        if facts.gated and (context.cpp_only or kind == "t") and not linker.has_cpp:
            return EMPTY  # a header's C++ in a C workspace: left out, as C leaves it
        found = EMPTY
        if not facts.gated or linker.has_cpp:  # only a header asks `has_cpp`
            found = linker.lookup(facts, int(index), name, kind == "t", evaluator)
        if found or not facts.gated or context.cpp_only or kind == "t":
            return found
        return self.as_c(name, facts, evaluator)

    def as_c(self, name: str, facts: CppFacts, evaluator: Evaluator) -> Values:
        """A header's C code: what the C front end finds when C++'s lookup finds nothing
        (C links without prototypes)."""
        if "::" in name or name in facts.macros:
            return EMPTY
        own = facts.defined.get(name)
        if own is not None:
            return frozenset({Value("func", own[0])})
        c_frontend = evaluator.index.frontends.get("c")
        return c_frontend.fallback(name, facts, evaluator) if c_frontend else EMPTY
