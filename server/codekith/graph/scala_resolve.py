"""Scala: packages and imports, classes, traits, objects and companions, Scala 3 enums.

As in Java a declaration is found by its package and simple name, not by its path. Terms
and types live apart, as in Scala: a class binds its name as a type (`TYPE` + name), an
object as a term. A companion object shares its class's chunk qualname but is a type of its
own for the evaluator (`Foo$`), so `Foo.m` reaches only the object's members and `foo.m`
only the class's. `Foo(...)` calls the companion's `apply`; a class whose companion declares
none gets a synthetic one that is the class itself (case classes, Scala 3 creator calls).
No primary constructor is a chunk: `new Foo(...)` and `extends Foo(...)` call the class
chunk, or the secondary constructor `def this` that alone takes that many arguments. A
member named without arguments (`x.size`, a bare `size`) is a call when it is a `def` of
the known type (a `val` is not). A call whose receiver's type the text does not show has
no edge; implicit conversions, givens and extension methods give none either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codekith.chunking.treesitter import Definition
from codekith.graph.frontend import (
    Extractor,
    Frontend,
    child_of_type,
    children,
    end,
    field_text,
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
    Pos,
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


TYPE = "type "  # the type namespace: `type Foo` is the class Foo, `Foo` the object Foo
COMPANION = "$"  # the evaluator's name of a companion object: its class's qualname + "$"
CTOR = "<ctor>"  # a class's field holding its constructors (a pseudo type `Foo#ctor`)
NEW = "<new>"  # the primary constructor; NEW + n: the secondary one taking n arguments
MAX_ARITY = 24
_OPAQUE = Known(Value("unknown", ""))  # a value whose members the text does not show
_TYPES = ("class_definition", "object_definition", "trait_definition", "enum_definition")
# declared types whose values hold elements of their (last) type argument
_WRAPPERS = words(
    "List Seq IndexedSeq Vector Set SortedSet Iterable Iterator Option Some Array ",
    "ArrayBuffer ListBuffer Buffer Queue Stack LazyList Stream NonEmptyList NonEmptySeq ",
    "NonEmptyVector Chain Future Try Either ArraySeq HashSet TreeSet LinkedHashSet",
    "ListBuffer ArrayBuffer",
)
# collection and Option methods whose lambda's parameter (or `_`) is an element
_ELEMENT_LAMBDAS = words(
    "foreach map flatMap filter filterNot withFilter exists forall find count collect ",
    "collectFirst sortBy groupBy partition takeWhile dropWhile span maxBy minBy ",
    "distinctBy tapEach foreachEntry reduce reduceLeft reduceOption",
)
_SAME_WRAPPER = words(  # their result: the same collection (or Option)
    "filter filterNot withFilter sortBy sortWith sorted reverse take drop takeWhile ",
    "dropWhile distinct distinctBy tail init toList toSeq toVector toSet toArray ",
    "toIndexedSeq find headOption lastOption slice orElse iterator view tapEach toOption ",
    "toBuffer",
)
_ELEMENT_RESULTS = words(  # their result: an element
    "head last get getOrElse apply reduce reduceLeft max min maxBy minBy next",
)
_NOT_VISITED = frozenset(
    {
        "modifiers",
        "annotation",
        "type_parameters",
        "type_arguments",
        "comment",
        "type_definition",
        "end_marker",
        "self_type",
        "type_identifier",
        "generic_type",
        "stable_type_identifier",
        "compound_type",
        "function_type",
        "tuple_type",
        "projected_type",
        "singleton_type",
        "lazy_parameter_type",
        "repeated_parameter_type",
        "annotated_type",
        "infix_type",
        "package_identifier",
    }
)


class ScalaExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        self.receivers: dict[int, list[Expr]] = {}  # scope id -> implicit receivers
        self.elements: dict[int, Expr] = {}  # node id -> the element a lambda receives
        self.visible: list[str] = []  # packages whose members the file sees unqualified
        self.types_in: dict[int, dict[tuple[bool, str], Node]] = {}  # body id -> its types
        self.handlers.update(
            {
                "package_clause": self.package_clause,
                "package_object": self.package_object,
                "import_declaration": self.import_declaration,
                **dict.fromkeys(_TYPES, self.type_definition),
                "function_definition": self.function_definition,
                "function_declaration": self.function_definition,
                "val_definition": self.val_definition,
                "var_definition": self.val_definition,
                "given_definition": self.given_definition,
                "extension_definition": self.extension_definition,
                "lambda_expression": self.lambda_expression,
                "colon_argument": self.lambda_expression,
                "for_expression": self.for_expression,
                "case_clause": self.case_clause,
                "call_expression": self.call_expression,
                "field_expression": self.field_expression,
                "identifier": self.identifier,
                "infix_expression": self.infix_expression,
                "instance_expression": self.instance_expression,
                "assignment_expression": self.assignment_expression,
                "generic_function": self.generic_function,
                "ERROR": self.error,
                **dict.fromkeys(_NOT_VISITED, self.skip),
            }
        )

    def skip(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        return None

    def error(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """Where tree-sitter gave up, the chunker makes a class's methods top-level
        functions: they stay this file's, not the package's."""
        return Scope("error", scope) if scope.kind == "module" else scope

    def site(self, owner: str, scope: Scope, fn: Expr, node: Node) -> None:
        self.facts.sites.append(Site(owner, scope, Call(fn), line(node)))

    # -- packages and imports --------------------------------------------------------------
    def package_clause(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`package a.b` (chained clauses add up: `package a` / `package b` is a.b and
        sees a's members too); a braced package's body is the file's top level."""
        name = "".join(text(node.child_by_field_name("name")).split())
        if name and scope.kind == "module":
            full = f"{self.facts.package}.{name}" if self.facts.package else name
            if self.facts.package:
                self.facts.import_stars.append(Import("star:" + self.facts.package))
            self.facts.package = full
            self.visible.insert(0, full)
        body = node.child_by_field_name("body")
        if body is not None:
            self.visit_children(body, scope, owner)
        return None

    def package_object(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`package object p`: its `def`s are chunks; its other code counts for the module."""
        body_scope = Scope("type", scope, type_qualname=f"{owner}.<package>")
        self.visit(node.child_by_field_name("body"), body_scope, owner)
        return None

    def import_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        at = (node.start_point[0], 0)
        path: list[str] = []
        for child in node.children:
            kind = child.type
            if kind == ",":
                if path:
                    self.import_name(path[:-1], path[-1], path[-1], scope, at, node)
                path = []
            elif kind == "identifier":
                path.append(text(child))
            elif kind == "namespace_wildcard":
                self.import_star(path, scope, child)
                path = []
            elif kind == "as_renamed_identifier":
                self.import_renamed(path, child, scope, at, node)
                path = []
            elif kind == "namespace_selectors":
                for selector in child.named_children:
                    if selector.type == "identifier":
                        name = text(selector)
                        self.import_name(path, name, name, scope, at, node)
                    elif selector.type == "namespace_wildcard":
                        self.import_star(path, scope, selector)
                    elif selector.type in ("as_renamed_identifier", "arrow_renamed_identifier"):
                        self.import_renamed(path, selector, scope, at, node)
                path = []
        if path:
            self.import_name(path[:-1], path[-1], path[-1], scope, at, node)
        return None

    def import_renamed(
        self, path: list[str], node: Node, scope: Scope, at: Pos, decl: Node
    ) -> None:
        alias = node.child_by_field_name("alias")
        if alias is not None and alias.type == "identifier":  # `C => _` hides C
            self.import_name(path, field_text(node, "name"), text(alias), scope, at, decl)

    def import_name(
        self, path: list[str], name: str, bound: str, scope: Scope, at: Pos, node: Node
    ) -> None:
        if not path or not name:
            return
        term, kind = self.import_ref(path, name, "term"), self.import_ref(path, name, "type")
        scope.bind(bound, Binding(at, term, imported=True))
        scope.bind(TYPE + bound, Binding(at, kind, imported=True))
        if scope.kind == "module":
            named = Either(
                Import(self.spec("type", [*path, name])), Import(self.spec("term", [*path, name]))
            )
            self.facts.imports.append((named, line(node)))

    def import_ref(self, path: list[str], name: str, kind: str) -> Expr:
        """A package's declaration (also relative to an enclosing package), else the member
        of an object the path names (`import Registry.register`)."""
        member = TYPE + name if kind == "type" else name
        return Either(Import(self.spec(kind, [*path, name])), Member(_path(path), member))

    def import_star(self, path: list[str], scope: Scope, node: Node) -> None:
        if not path or text(node) == "given":
            return
        target = Either(Import(self.spec("star", path)), _path(path))
        if scope.kind == "module":
            self.facts.import_stars.append(target)
        else:
            self.receivers.setdefault(id(scope), []).append(target)

    def spec(self, kind: str, path: list[str]) -> str:
        """`kind:a.b.C@p,q`: the name and the packages it may be relative to."""
        return f"{kind}:{'.'.join(path)}@{','.join(self.visible)}"

    # -- types -----------------------------------------------------------------------------
    def type_definition(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = field_text(node, "name")
        definition = self.definition(node)
        qualname = definition.qualname if definition else f"{owner}.<{name}>"
        companion = self.companion(node, name)
        is_object = node.type == "object_definition"
        kind = qualname + COMPANION if is_object and companion is not None else qualname
        known = Known(Value("type", kind))
        body_scope = Scope("type", scope, type_qualname=kind)
        self.receivers[id(body_scope)] = [known]
        self.type_parameters(node, body_scope)
        decl = TypeDecl(kind, body_scope, line(node), is_class=node.type == "class_definition")
        self.facts.types.append(decl)
        instance = Instance(known)
        initializers = Scope("function", body_scope, this=instance)
        if is_object:
            scope.bind(name, Binding(pos(node), known))
        else:
            scope.bind(TYPE + name, Binding(pos(node), known))
            self.class_terms(node, name, qualname, scope, companion)
        self.heritage(node, decl, initializers, owner, bool(is_object and companion))
        self.class_parameters(node, decl, initializers, owner)
        if node.type == "class_definition":
            self.constructors(node, qualname, decl, scope)
        elif node.type == "trait_definition":
            decl.add_field(CTOR, _OPAQUE, body_scope)
        self.members(node.child_by_field_name("body"), decl, initializers, owner, instance)
        return None

    def class_terms(
        self, node: Node, name: str, qualname: str, scope: Scope, companion: Node | None
    ) -> None:
        """The term `Foo` of a class, trait or enum: its companion (a synthetic one when
        none is written); `Foo(...)` calls the companion's `apply`, else the class."""
        kind = qualname + COMPANION
        known = Known(Value("type", kind))
        if companion is None:
            scope.bind(name, Binding(pos(node), known))
        if node.type == "enum_definition":
            holder = TypeDecl(
                kind, Scope("type", scope, type_qualname=kind), line(node), is_class=False
            )
            self.facts.types.append(holder)
            for case in _enum_cases(node.child_by_field_name("body")):
                holder.add_field(case, Instance(Known(Value("type", qualname))), scope)
        abstract = "abstract" in text(child_of_type(node, "modifiers")).split()
        if node.type != "class_definition" or abstract or _declares(companion, "apply"):
            return
        body = Scope("function", scope)
        made = Instance(Known(Value("type", qualname)))
        self.facts.functions.append(FuncDecl(qualname, "apply", body, made, known, scope))

    def constructors(self, node: Node, qualname: str, decl: TypeDecl, scope: Scope) -> None:
        """The primary constructor (the class chunk) and, for each argument count only
        secondary constructors take, `def this`."""
        holder = Known(Value("type", qualname + "#ctor"))
        decl.add_field(CTOR, holder, decl.scope)
        made = Instance(Known(Value("type", qualname)))
        body = Scope("function", scope)
        self.facts.functions.append(FuncDecl(qualname, NEW, body, made, holder, scope))
        lists = node.children_by_field_name("class_parameters")
        primary = _arity(lists[0]) if lists else (0, 0)
        secondary: list[tuple[str, tuple[int, int]]] = []
        for member in children(node.child_by_field_name("body")):
            definition = self.definition(member)
            if member.type == "function_definition" and field_text(member, "name") == "this":
                found = [c for c in member.children_by_field_name("parameters")]
                lists_of = [c for c in found if c.type == "parameters"]
                arity = _arity(lists_of[0]) if lists_of else (0, 0)
                if definition is not None:
                    secondary.append((definition.qualname, arity))
        for count in range(MAX_ARITY + 1):
            fits = {q for q, (low, high) in secondary if low <= count <= high}
            if len(fits) == 1 and not primary[0] <= count <= primary[1]:
                name = NEW + str(count)
                self.facts.functions.append(FuncDecl(fits.pop(), name, body, made, holder, scope))

    def heritage(
        self, node: Node, decl: TypeDecl, scope: Scope, owner: str, companion: bool
    ) -> None:
        """Bases; the first parent's constructor runs (`extends Base(...)`). A companion's
        bases give its members, but no inherit edge (its chunk is its class's)."""
        clause = node.child_by_field_name("extend")
        if clause is None:
            return
        arguments: Node | None = None
        refs: list[Expr] = []
        for child in clause.named_children:
            if child.type == "arguments":
                arguments = arguments or child
                self.visit(child, scope, owner)
            else:
                ref = type_ref(child)
                if ref is not None:
                    refs.append(ref)
        for ref in refs:
            if companion:
                self.facts.impls.append(
                    TraitImpl(Known(Value("type", decl.qualname)), ref, decl.scope, decl.line)
                )
            else:
                decl.bases.append(ref)
        if refs and node.type in ("class_definition", "object_definition"):
            count = len(arguments.named_children) if arguments is not None else 0
            self.site(owner, scope, _constructor(refs[0], count), clause)

    def class_parameters(self, node: Node, decl: TypeDecl, scope: Scope, owner: str) -> None:
        """Class parameters: fields of the class (visible to its methods), and of a case
        class the positions its patterns bind (`_1`, `_2`, ...)."""
        is_case = "case" in {c.type for c in node.children}
        for index, parameters in enumerate(node.children_by_field_name("class_parameters")):
            for n, parameter in enumerate(children(parameters)):
                if parameter.type != "class_parameter":
                    continue
                name = field_text(parameter, "name")
                declared = declared_type(parameter.child_by_field_name("type"))
                scope.bind(name, Binding(pos(parameter), declared or UNKNOWN, typed=bool(declared)))
                decl.add_field(name, _field(declared), decl.scope)
                if is_case and index == 0:
                    decl.add_field(f"_{n + 1}", _field(declared), decl.scope)
                self.visit(parameter.child_by_field_name("default_value"), scope, owner)

    def members(
        self, body: Node | None, decl: TypeDecl, scope: Scope, owner: str, instance: Expr
    ) -> None:
        type_scope = decl.scope
        for member in children(body):
            kind = member.type
            if kind in ("function_definition", "function_declaration"):
                self.method(member, type_scope, owner, decl.qualname, instance)
            elif kind in ("val_definition", "var_definition"):
                self.field(member, decl, scope, owner)
            elif kind in _TYPES:
                self.visit(member, type_scope, owner)
                self.nested(member, decl, type_scope, owner)
            elif kind == "self_type":
                self.self_type(member, decl)
            elif kind == "import_declaration":
                self.visit(member, type_scope, owner)
            elif kind == "enum_case_definitions":
                continue  # cases are the companion's fields (`class_terms`)
            else:
                self.visit(member, scope, owner)

    def companion(self, node: Node, name: str) -> Node | None:
        """The object of the same name beside a class, trait or enum (or the other way
        round); the types of a body are listed once."""
        parent = node.parent
        if parent is None or not name:
            return None
        listed = self.types_in.get(parent.id)
        if listed is None:
            listed = self.types_in[parent.id] = {}
            for sibling in parent.named_children:
                if sibling.type in _TYPES:
                    key = (sibling.type == "object_definition", field_text(sibling, "name"))
                    listed.setdefault(key, sibling)
        return listed.get((node.type != "object_definition", name))

    def nested(self, member: Node, decl: TypeDecl, scope: Scope, owner: str) -> None:
        """A nested class or object: a member of the type (`Outer.Inner`)."""
        name = field_text(member, "name")
        definition = self.definition(member)
        qualname = definition.qualname if definition else f"{owner}.<{name}>"
        if member.type == "object_definition":
            companion = self.companion(member, name) is not None
            decl.add_field(
                name, Known(Value("type", qualname + (COMPANION if companion else ""))), scope
            )
        else:
            decl.add_field(TYPE + name, Known(Value("type", qualname)), scope)

    def self_type(self, node: Node, decl: TypeDecl) -> None:
        """`self: Shape =>`: `self` is this instance; Shape's members are this's too."""
        names = [c for c in node.named_children if c.type == "identifier"]
        kinds = [c for c in node.named_children if c.type != "identifier"]
        this = Instance(Known(Value("type", decl.qualname)))
        if names:
            decl.scope.bind(text(names[0]), Binding(pos(node), this))
        for kind in kinds:
            parts = kind.named_children if kind.type == "compound_type" else [kind]
            for part in parts:
                ref = type_ref(part)
                if ref is not None:
                    self.receivers.setdefault(id(decl.scope), []).append(Instance(ref))

    def type_parameters(self, node: Node, scope: Scope) -> None:
        for parameters in node.named_children:
            if parameters.type != "type_parameters":
                continue
            for name in parameters.children_by_field_name("name"):
                scope.bind(TYPE + text(name), Binding(pos(name), UNKNOWN))
                scope.type_params.add(TYPE + text(name))

    # -- functions -------------------------------------------------------------------------
    def method(self, node: Node, scope: Scope, owner: str, klass: str, instance: Expr) -> None:
        if field_text(node, "name") == "this":  # a secondary constructor: `constructors`
            definition = self.definition(node)
            body = Scope("function", scope, this=instance)
            self.parameters(node, body, definition.qualname if definition else owner)
            self.visit(
                node.child_by_field_name("body"), body, definition.qualname if definition else owner
            )
            return
        self.function(node, scope, owner, Known(Value("type", klass)), instance)

    def function_definition(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A top-level `def` (Scala 3), or a local one (no chunk: its calls are the
        enclosing definition's)."""
        self.function(node, scope, owner, None, None)
        return None

    def function(
        self, node: Node, scope: Scope, owner: str, container: Expr | None, this: Expr | None
    ) -> None:
        definition = self.definition(node)
        name = field_text(node, "name")
        if definition is not None:
            qualname, inner_owner = definition.qualname, definition.qualname
        else:
            qualname, inner_owner = f"{owner}.<{name}>", owner
        if container is None:
            scope.bind(name, Binding(pos(node), Known(Value("func", qualname))))
        body = Scope("function", scope, this=this)
        self.type_parameters(node, body)
        for parameters in node.children_by_field_name("parameters"):
            if parameters.type == "type_parameters":
                for type_name in parameters.children_by_field_name("name"):
                    body.bind(TYPE + text(type_name), Binding(pos(type_name), UNKNOWN))
                    body.type_params.add(TYPE + text(type_name))
        self.parameters(node, body, inner_owner)
        code = node.child_by_field_name("body")
        declared = declared_type(node.child_by_field_name("return_type"))
        if declared is not None:
            returns: Expr | None = returned(declared, body)
        elif code is not None:
            returns = self.value_of(code, body)
        else:
            returns = UNKNOWN
        outer = scope if container is not None else None
        self.facts.functions.append(FuncDecl(qualname, name, body, returns, container, outer))
        self.visit(code, body, inner_owner)

    def value_of(self, node: Node, scope: Scope) -> Expr:
        saved, self.current = self.current, scope
        try:
            return self.expr(node)
        finally:
            self.current = saved

    def parameters(self, node: Node, body: Scope, owner: str) -> None:
        for parameters in node.children_by_field_name("parameters"):
            if parameters.type != "parameters":
                continue
            for parameter in parameters.named_children:
                if parameter.type != "parameter":
                    continue
                declared = declared_type(parameter.child_by_field_name("type"))
                name = field_text(parameter, "name")
                body.bind(name, Binding(pos(parameter), declared or UNKNOWN, typed=bool(declared)))
                self.visit(parameter.child_by_field_name("default_value"), body, owner)

    def given_definition(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A `given` (a chunk): its value's or body's calls count for it or its methods."""
        inner = Scope("function", scope)
        self.parameters(node, inner, owner)
        for child in node.named_children:
            if child.type in ("template_body", "with_template_body"):
                self.visit(child, Scope("function", inner, this=UNKNOWN), owner)
            elif child == node.child_by_field_name("body"):
                self.visit(child, inner, owner)
        return None

    def extension_definition(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`extension (s: String) def shout`: chunks no edges reach; their calls count for
        them. An indented extension's methods are all children of the node (its `body`
        field names the first), a braced one's are its body's."""
        inner = Scope("function", scope, this=UNKNOWN)
        self.parameters(node, inner, owner)
        body = node.child_by_field_name("body")
        members = [c for c in node.named_children if c.type.endswith("definition")]
        for child in members if members else children(body):
            if child.type in ("function_definition", "function_declaration"):
                self.function(child, inner, owner, None, None)
            else:
                self.visit(child, inner, owner)
        return None

    # -- values and locals -----------------------------------------------------------------
    def field(self, node: Node, decl: TypeDecl, scope: Scope, owner: str) -> None:
        """A `val`/`var` of a class or object: a field (reading it is no call)."""
        pattern = node.child_by_field_name("pattern")
        declared = declared_type(node.child_by_field_name("type"))
        value = node.child_by_field_name("value")
        if pattern is not None and pattern.type == "identifier":
            held = declared or (self.value_of(value, scope) if value is not None else None)
            decl.add_field(text(pattern), _field(held), scope)
        else:
            for name in _binders(pattern):
                decl.add_field(name, _OPAQUE, scope)
        self.visit(value, scope, owner)

    def val_definition(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A local or top-level `val`/`var`: `val x: Foo`, `val x = Foo(...)`."""
        declared = declared_type(node.child_by_field_name("type"))
        value = node.child_by_field_name("value")
        at = end(node) if scope.kind == "function" else pos(node)
        pattern = node.child_by_field_name("pattern")
        if pattern is not None and pattern.type == "identifier":
            held = declared or (self.expr(value) if value is not None else UNKNOWN)
            scope.bind(text(pattern), Binding(at, held, typed=declared is not None))
        elif pattern is not None:
            self.bind_pattern(
                pattern, scope, at, self.expr(value) if value is not None else UNKNOWN
            )
        self.visit(value, scope, owner)
        return None

    def bind_pattern(self, node: Node, scope: Scope, at: Pos, value: Expr) -> None:
        """The variables a pattern binds: `x`, `x: Foo`, `p @ Foo(...)`, `Foo(a, b)` (a
        case class's fields by position), anything else unknown."""
        kind = node.type
        if kind == "identifier":
            name = text(node)
            if name[:1].islower() or name[:1] == "_":
                scope.bind(name, Binding(at, value))
        elif kind == "typed_pattern":
            declared = declared_type(node.child_by_field_name("type"))
            inner = node.child_by_field_name("pattern")
            if inner is not None:
                self.bind_pattern(inner, scope, at, declared or UNKNOWN)
        elif kind == "capture_pattern":
            inner = node.child_by_field_name("pattern")
            name = field_text(node, "name")
            held = value
            if inner is not None and inner.type == "case_class_pattern":
                ref = type_ref(inner.child_by_field_name("type"))
                held = Instance(ref) if ref is not None else UNKNOWN
            elif inner is not None and inner.type == "typed_pattern":
                held = declared_type(inner.child_by_field_name("type")) or UNKNOWN
            scope.bind(name, Binding(at, held))
            if inner is not None:
                self.bind_pattern(inner, scope, at, value)
        elif kind == "case_class_pattern":
            ref = type_ref(node.child_by_field_name("type"))
            for n, part in enumerate(node.children_by_field_name("pattern")):
                held = Member(Instance(ref), f"_{n + 1}") if ref is not None else UNKNOWN
                self.bind_pattern(part, scope, at, held)
        else:
            for name in _binders(node):
                scope.bind(name, Binding(at, UNKNOWN))

    def lambda_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`x => …`, `(a: Foo, b) => …`, and Scala 3's `xs.map: x =>` (`colon_argument`):
        an untyped single parameter is the element a collection method passes."""
        body = Scope("function", scope)
        parameters = _field_child(
            node, "lambda_start" if node.type == "colon_argument" else "parameters"
        )
        if parameters is not None:
            self.lambda_parameters(parameters, body, self.elements.get(node.id))
        for child in node.named_children:
            if parameters is None or child.id != parameters.id:
                self.visit(child, body, owner)
        return None

    def lambda_parameters(self, node: Node, body: Scope, element: Expr | None) -> None:
        if node.type == "identifier":
            body.bind(text(node), Binding(pos(node), element or UNKNOWN))
            return
        bindings = [c for c in node.named_children if c.type == "binding"]
        for binding in bindings:
            declared = declared_type(binding.child_by_field_name("type"))
            single = element if element is not None and len(bindings) == 1 else UNKNOWN
            body.bind(field_text(binding, "name"), Binding(pos(binding), declared or single))
        if not bindings:
            for name in _binders(node):
                body.bind(name, Binding(pos(node), UNKNOWN))

    def for_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`for (x <- xs; y = f(x) if p)`: x is an element of xs."""
        body = Scope("function", scope)
        enumerators = child_of_type(node, "enumerators")
        for enumerator in children(enumerators):
            if enumerator.type != "enumerator":
                self.visit(enumerator, body, owner)
                continue
            parts = [c for c in enumerator.named_children if c.type != "guard"]
            tokens = {c.type for c in enumerator.children}
            if len(parts) >= 2:
                value = self.value_of(parts[1], body)
                held = Unwrap(value) if "<-" in tokens else value
                self.visit(parts[1], body, owner)
                self.bind_pattern(parts[0], body, pos(enumerator), held)
            for guard in enumerator.named_children:
                if guard.type == "guard":
                    self.visit(guard, body, owner)
        for child in node.named_children:
            if child != enumerators:
                self.visit(child, body, owner)
        return None

    def case_clause(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`case f: Foo =>`: f is a Foo; `case x =>` is the matched value."""
        inner = Scope("function", scope)
        subject: Expr = UNKNOWN
        block = node.parent
        if block is not None and block.id in self.elements:
            subject = self.elements[block.id]
        elif (
            block is not None
            and block.parent is not None
            and block.parent.type == "match_expression"
        ):
            matched = block.parent.child_by_field_name("value")
            subject = self.value_of(matched, scope) if matched is not None else UNKNOWN
        pattern = node.child_by_field_name("pattern")
        if pattern is not None:
            self.bind_pattern(pattern, inner, pos(node), subject)
        for child in node.named_children:
            if child != pattern:
                self.visit(child, inner, owner)
        return None

    # -- calls -----------------------------------------------------------------------------
    def call_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        callee = function
        if callee is not None and callee.type == "generic_function":
            callee = callee.child_by_field_name("function")
        if callee is None:
            return scope
        if callee.type == "identifier" and text(callee) == "this":  # `this(...)`: the primary
            klass = scope.enclosing_type()
            if klass:
                self.site(owner, scope, Known(Value("func", klass)), node)
        elif callee.type not in ("call_expression", "instance_expression"):
            # `f(a)(b)`, `new Foo(a)(b)`: one call, the inner node is the site
            self.site(owner, scope, _applied(self.callee(callee, scope)), node)
        if callee.type == "field_expression":
            self.visit(callee.child_by_field_name("value"), scope, owner)
        elif callee.type not in ("identifier", "operator_identifier"):
            self.visit(callee, scope, owner)
        if arguments is not None:
            self.lambda_context(callee, arguments)
            self.visit(arguments, scope, owner)
        return None

    def lambda_context(self, callee: Node, arguments: Node) -> None:
        """`xs.foreach(x => …)`, `xs.map(_.m)`, `xs.collect { case … }`: an element of xs."""
        if callee.type != "field_expression" or field_text(callee, "field") not in _ELEMENT_LAMBDAS:
            return
        receiver = callee.child_by_field_name("value")
        if receiver is None:
            return
        element = Unwrap(self.expr(receiver))
        self.elements[arguments.id] = element
        for child in arguments.named_children:
            self.elements[child.id] = element
            if child.type == "block" and len(child.named_children) == 1:
                self.elements[child.named_children[0].id] = element

    def callee(self, node: Node, scope: Scope) -> Expr:
        if node.type in ("identifier", "operator_identifier"):
            return self.bare(text(node), pos(node), scope)
        if node.type == "field_expression":
            return Member(self.receiver(node), field_text(node, "field"))
        return self.expr(node)

    def receiver(self, node: Node) -> Expr:
        value = node.child_by_field_name("value")
        if value is not None and _last_name(value) == "super":
            return Super()
        if value is not None and value.type == "generic_function":  # `super[Base].m`
            inner = value.child_by_field_name("function")
            if inner is not None and _last_name(inner) == "super":
                return Super()
        return self.expr(value)

    def bare(self, name: str, at: Pos, scope: Scope) -> Expr:
        """`m` / `m(...)`: a local, else a member of the innermost enclosing type (its
        bases, its self type) or a wildcard import of a block, else an imported or package
        declaration."""
        options: list[Expr] = []
        current: Scope | None = scope
        while current is not None:
            bindings = current.bindings.get(name, [])
            if current.kind == "function" and any(b.pos <= at for b in bindings):
                break
            for receiver in self.receivers.get(id(current), []):
                options.append(Member(receiver, name))
            current = current.parent
        found: Expr = Name(name, at)
        for option in reversed(options):
            found = Either(option, found)
        return found

    def is_local(self, name: str, at: Pos, scope: Scope) -> bool:
        current: Scope | None = scope
        while current is not None:
            bindings = current.bindings.get(name)
            if bindings:
                return current.kind == "function" and any(b.pos <= at for b in bindings)
            if current.kind != "function":
                return False
            current = current.parent
        return False

    def field_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`x.size`: a call when size is a parameterless `def` of x's type."""
        name = field_text(node, "field")
        if name:
            self.site(owner, scope, Member(self.receiver(node), name), node)
        self.visit(node.child_by_field_name("value"), scope, owner)
        return None

    def identifier(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A name in an expression: a call of a parameterless `def`, or eta-expansion."""
        name, at = text(node), pos(node)
        if name in ("this", "super") or self.is_local(name, at, scope):
            return None
        self.site(owner, scope, self.bare(name, at, scope), node)
        return None

    def infix_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`a max b`, `a + b`: a's method; `a :: b` (a colon last): b's."""
        target = self.infix_target(node)
        if target is not None:
            self.site(owner, scope, target, node)
        self.visit(node.child_by_field_name("left"), scope, owner)
        self.visit(node.child_by_field_name("right"), scope, owner)
        return None

    def infix_target(self, node: Node) -> Expr | None:
        operator = field_text(node, "operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if not operator or left is None or right is None:
            return None
        receiver = right if operator.endswith(":") else left
        return Member(self.expr(receiver), operator)

    def instance_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`new Foo(...)`, `new Foo { … }` (an anonymous subclass: `this` is a Foo)."""
        kind = next((c for c in node.named_children if c.type not in _NOT_TYPES), None)
        ref = type_ref(kind)
        arguments = node.child_by_field_name("arguments")
        count = len(arguments.named_children) if arguments is not None else 0
        if ref is not None:
            self.site(owner, scope, _constructor(ref, count), node)
        for child in node.named_children:
            if child.type == "template_body":
                this = Instance(ref) if ref is not None else UNKNOWN
                self.visit(child, Scope("function", scope, this=this), owner)
            elif child.type == "arguments":
                self.visit(child, scope, owner)
        return None

    def assignment_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`x.f = v` sets (no call of f), `f(name = v)` names an argument."""
        left = node.child_by_field_name("left")
        if left is not None and left.type == "field_expression":
            self.visit(left.child_by_field_name("value"), scope, owner)
        elif left is not None and left.type == "call_expression":  # `a(i) = v`: update
            for child in left.named_children:
                self.visit(child, scope, owner)
        self.visit(node.child_by_field_name("right"), scope, owner)
        return None

    def generic_function(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        self.visit(node.child_by_field_name("function"), scope, owner)
        return None

    # -- values ----------------------------------------------------------------------------
    def convert(self, node: Node) -> Expr:
        kind = node.type
        if kind == "identifier":
            name, at = text(node), pos(node)
            if name == "this":
                return This()
            if name == "super":
                return Super()
            if self.is_local(name, at, self.current):
                return Name(name, at)
            found = self.bare(name, at, self.current)
            return Either(Call(found), found)
        if kind == "field_expression":
            return self.member_value(node)
        if kind == "call_expression":
            return self.call_value(node)
        if kind == "instance_expression":
            made = next((c for c in node.named_children if c.type not in _NOT_TYPES), None)
            ref = type_ref(made)
            return New(ref) if ref is not None else UNKNOWN
        if kind == "generic_function":
            return self.generic_value(node)
        if kind == "infix_expression":
            target = self.infix_target(node)
            return Call(target) if target is not None else UNKNOWN
        if kind in ("parenthesized_expression", "block", "indented_block", "try_expression"):
            inner = node.child_by_field_name("body") if kind == "try_expression" else node
            return self.expr(_last_value(inner))
        if kind == "if_expression":
            branches = [node.child_by_field_name(f) for f in ("consequence", "alternative")]
            return Union(tuple(self.expr(b) for b in branches if b is not None))
        if kind == "match_expression":
            clauses = children(node.child_by_field_name("body"))
            bodies = [c.child_by_field_name("body") for c in clauses]
            return Union(tuple(self.expr(_last_value(b)) for b in bodies if b is not None))
        if kind == "ascription_expression":
            return declared_type(node.named_children[-1]) or UNKNOWN
        if kind == "wildcard":
            return self.placeholder(node)
        return UNKNOWN

    def member_value(self, node: Node) -> Expr:
        """`x.m`: what a parameterless `def` returns, else the field's value; an element of
        a collection for `head`/`get`, the collection for `filter`/`sorted`."""
        name = field_text(node, "field")
        obj = self.receiver(node)
        member = Member(obj, name)
        found: Expr = Either(Call(member), member)
        path = self.qualified(node)
        if path:  # `y.Tools`: the object Tools of package y, unless y is a value
            found = Either(found, Import(self.spec("term", path)))
        if name in _SAME_WRAPPER:
            return Either(found, obj)
        if name in _ELEMENT_RESULTS:
            return Either(found, Unwrap(obj))
        return found

    def qualified(self, node: Node) -> list[str]:
        """`a.b.C` as names, when its head is a lower-case name no local holds (a package)."""
        parts: list[str] = []
        current: Node | None = node
        while current is not None and current.type == "field_expression":
            if len(parts) > 16:  # no package path is this long (generated code may be)
                return []
            parts.append(field_text(current, "field"))
            current = current.child_by_field_name("value")
        if current is None or current.type != "identifier":
            return []
        head = text(current)
        if not head[:1].islower() or self.is_local(head, pos(current), self.current):
            return []
        return [head, *reversed(parts)]

    def call_value(self, node: Node) -> Expr:
        function = node.child_by_field_name("function")
        if function is None:
            return UNKNOWN
        if function.type in ("call_expression", "instance_expression"):
            # `m(a)(b)`, `new Foo(a)(b)`: one call of a curried m or constructor
            return self.expr(function)
        if function.type == "generic_function":
            made = self.generic_value(function)
            if isinstance(made, Wrapped):
                return made
            function = function.child_by_field_name("function") or function
        callee = self.callee(function, self.current)
        # `xs(0)` of a library collection is an element; an `apply` whose result the text
        # does not show leaves the value unknown (not the callee's own type)
        unknown = Either(Member(callee, "apply"), Unwrap(callee))
        called: Expr = Either(Call(_applied(callee)), unknown)
        if function.type == "field_expression":
            name = field_text(function, "field")
            obj = self.receiver(function)
            if name in _SAME_WRAPPER:
                return Either(Call(callee), obj)
            if name in _ELEMENT_RESULTS:
                return Either(Call(callee), Unwrap(obj))
        return called

    def generic_value(self, node: Node) -> Expr:
        """`x.asInstanceOf[Foo]` is a Foo; `List[Item](…)`, `Vector.empty[Item]` hold Items."""
        function = node.child_by_field_name("function")
        arguments = children(node.child_by_field_name("type_arguments"))
        name = _last_name(function)
        if name == "asInstanceOf" and arguments:
            return declared_type(arguments[0]) or UNKNOWN
        head = name
        if function is not None and function.type == "field_expression":
            head = _last_name(function.child_by_field_name("value"))
        if head in _WRAPPERS and arguments:
            element = type_ref(arguments[-1])
            return Wrapped(element) if element is not None else UNKNOWN
        return self.expr(function)

    def placeholder(self, node: Node) -> Expr:
        """`_` in `xs.map(_.m)`: an element of xs (the innermost argument list's call)."""
        current = node.parent
        while current is not None:
            if current.id in self.elements:
                return self.elements[current.id]
            if current.type in ("arguments", "block", "lambda_expression", "template_body"):
                return UNKNOWN
            current = current.parent
        return UNKNOWN


_NOT_TYPES = ("arguments", "template_body", "comment")


def _applied(callee: Expr) -> Expr:
    """`f(...)`: f itself when it is a function, else its `apply` (an object, an instance,
    a class's companion)."""
    return Either(Member(callee, "apply"), callee)


def _constructor(ref: Expr, count: int) -> Expr:
    """The constructor `new Foo(a, b)` runs: a secondary one taking two arguments when
    only it does, else the primary one (the class chunk)."""
    holder = Member(ref, CTOR)
    return Either(Member(holder, NEW + str(count)), Member(holder, NEW))


def _field(declared: Expr | None) -> Expr:
    """A field's value; an unknown one still hides the bases' members of that name."""
    return Union((declared, _OPAQUE)) if declared is not None else _OPAQUE


def _path(parts: list[str]) -> Expr:
    expr: Expr = Name(parts[0])
    for part in parts[1:]:
        expr = Member(expr, part)
    return expr


def _declares(node: Node | None, name: str) -> bool:
    body = node.child_by_field_name("body") if node is not None else None
    return any(
        c.type in ("function_definition", "function_declaration") and field_text(c, "name") == name
        for c in children(body)
    )


def _enum_cases(body: Node | None) -> list[str]:
    found: list[str] = []
    for member in children(body):
        if member.type == "enum_case_definitions":
            found += [field_text(c, "name") for c in member.named_children]
    return [f for f in found if f]


def _arity(parameters: Node) -> tuple[int, int]:
    """(least, most) arguments a parameter list takes: defaults may be left out."""
    listed = [c for c in parameters.named_children if c.type in ("parameter", "class_parameter")]
    if any(
        "implicit" in text(c) or "using" in text(c) for c in parameters.children if not c.is_named
    ):
        return (0, 0)
    required = [p for p in listed if p.child_by_field_name("default_value") is None]
    repeated = any(
        (kind := p.child_by_field_name("type")) is not None
        and kind.type == "repeated_parameter_type"
        for p in listed
    )
    return (len(required) - int(repeated), MAX_ARITY if repeated else len(listed))


def _binders(node: Node | None) -> list[str]:
    """The variables a pattern binds: lower-case names (upper-case ones are constants)."""
    if node is None:
        return []
    if node.type == "identifier":
        name = text(node)
        return [name] if name[:1].islower() or name[:1] == "_" else []
    found: list[str] = []
    pending = list(node.named_children)
    while pending:
        child = pending.pop()
        if (
            child.type == "identifier"
            and child.parent is not None
            and child.parent.type != "stable_identifier"
        ):
            name = text(child)
            if name[:1].islower():
                found.append(name)
        elif child.type not in _TYPE_NODES:
            pending += child.named_children
    return found


def _last_value(node: Node | None) -> Node | None:
    """The value of a block: its last expression."""
    while node is not None and node.type in ("block", "indented_block", "parenthesized_expression"):
        found = [c for c in node.named_children if c.type != "comment"]
        node = found[-1] if found else None
    return node


def _field_child(node: Node, name: str) -> Node | None:
    """The named child in field `name` (`child_by_field_name` may answer with a token: the
    grammar puts `enumerators` on the `(` before them)."""
    for index, child in enumerate(node.children):
        if child.is_named and node.field_name_for_child(index) == name:
            return child
    return None


def _last_name(node: Node | None) -> str:
    """`c` of an identifier `c` or a path `a.b.c`; "" for any other expression (whose
    text may be long)."""
    if node is None:
        return ""
    if node.type in ("identifier", "type_identifier"):
        return text(node)
    if node.type == "field_expression":
        return field_text(node, "field")
    return ""


_TYPE_NODES = frozenset(
    {
        "type_identifier",
        "generic_type",
        "stable_type_identifier",
        "compound_type",
        "function_type",
        "tuple_type",
        "projected_type",
        "singleton_type",
        "lazy_parameter_type",
        "repeated_parameter_type",
        "annotated_type",
        "infix_type",
    }
)


def type_ref(node: Node | None) -> Expr | None:
    """The class a type names; `a.b.C` with a lower-case head is a fully qualified name."""
    if node is None:
        return None
    kind = node.type
    if kind in ("generic_type", "annotated_type", "lazy_parameter_type"):
        return type_ref(node.child_by_field_name("type") or _first_named(node))
    if kind == "compound_type":
        return type_ref(node.child_by_field_name("base") or _first_named(node))
    if kind == "type_identifier":
        return Name(TYPE + text(node), pos(node))
    if kind == "stable_type_identifier":
        parts = [text(c) for c in node.named_children]
        if not parts:
            return None
        if parts[0][:1].islower():
            return Import(f"type:{'.'.join(parts)}@")
        expr: Expr = Name(parts[0], pos(node))
        for part in parts[1:-1]:
            expr = Member(expr, part)
        return Member(expr, TYPE + parts[-1])
    return None


def _first_named(node: Node) -> Node | None:
    return node.named_children[0] if node.named_children else None


def declared_type(node: Node | None) -> Expr | None:
    """An instance of a declared type; a collection or Option holds its last type argument."""
    if node is None:
        return None
    if node.type == "repeated_parameter_type":  # `xs: Foo*`
        inner = type_ref(node.child_by_field_name("type") or _first_named(node))
        return Wrapped(inner) if inner is not None else None
    if node.type in ("annotated_type", "lazy_parameter_type"):
        return declared_type(node.child_by_field_name("type") or _first_named(node))
    if node.type == "generic_type":
        base = node.child_by_field_name("type")
        name = text(base).rpartition(".")[2]
        arguments = children(node.child_by_field_name("type_arguments"))
        if name in _WRAPPERS:
            element = type_ref(arguments[-1]) if arguments else None
            return Wrapped(element) if element is not None else None
    ref = type_ref(node)
    return Instance(ref) if ref is not None else None


class ScalaFrontend(Frontend):
    languages = ("scala",)
    extractor = ScalaExtractor
    implicit_this = True

    def extract(self, path: str, language: str, source: bytes) -> FileFacts:
        facts = super().extract(path, language, source)
        if not facts.package:
            facts.package = "<root>"  # files without a package see each other
        return facts

    def package_files(self, key: str, evaluator: Evaluator) -> list[str]:
        return [f.path for f in evaluator.tables.packages.get(key, [])]

    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """`kind:a.b.C@p,q`: C of package a.b (or of p.a.b, q.a.b: relative to an enclosing
        package), else the member C of the object a.b; `star:a.b` the package, or the
        object, whose members it names."""
        kind, _, rest = spec.partition(":")
        name, _, around = rest.partition("@")
        for prefix in [*(p for p in around.split(",") if p), ""]:
            full = f"{prefix}.{name}" if prefix else name
            found = self.named(kind, full, evaluator)
            if found:
                return found
        return EMPTY

    def named(self, kind: str, name: str, evaluator: Evaluator) -> Values:
        if kind == "star":
            key = "scala:" + name
            if self.package_files(key, evaluator):
                return frozenset({Value("package", key)})
            return frozenset(v for v in self.named("term", name, evaluator) if v.kind == "type")
        holder, _, simple = name.rpartition(".")
        if not holder:
            return EMPTY
        member = TYPE + simple if kind == "type" else simple
        found = self.package_member(holder, member, evaluator)
        if found:
            return found
        members: set[Value] = set()
        for owner in self.named("term", holder, evaluator):
            if owner.kind == "type":
                members |= evaluator.member(owner, member)
        key = "scala:" + name
        if not members and kind == "term" and self.package_files(key, evaluator):
            return frozenset({Value("package", key)})  # `a.b` of `a.b.C(...)`
        return frozenset(members)

    def fallback(self, name: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """Declarations of the file's package."""
        return self.package_member(facts.package, name, evaluator)

    @staticmethod
    def package_member(package: str, name: str, evaluator: Evaluator) -> Values:
        """A package's declaration, looked up once per state of the index (a large
        package has hundreds of files, and library names are asked for again and again)."""
        key = "scala:" + package
        return evaluator.cached(
            ("scala-package", key, name), lambda: evaluator.package_member(key, name)
        )
