"""Chunks for JavaScript, TypeScript, Go, Rust and Java from tree-sitter syntax trees.

Like the Python chunker it makes one chunk per function, class-like type (method bodies
collapsed) and method, plus one for the rest of the file; the comment right above a
definition is its docstring. `definitions` is shared with the call-graph resolvers, so an
edge names exactly the qualname of the chunk it points at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from codekith.chunking.model import Chunk
from codekith.chunking.split import module_parts, split_oversized
from codekith.qualnames import join, module_name
from codekith.syntax import Node, grammar_of, parse, text


@dataclass(frozen=True)
class Grammar:
    functions: frozenset[str]  # top-level function definitions
    classes: frozenset[str]  # class-like definitions whose body may hold methods
    methods: frozenset[str]  # function definitions inside a class body
    wrappers: frozenset[str] = frozenset()  # export / decorator nodes around a definition
    assigned: bool = False  # `a.b = function …` and `export default <function>` define


_JS_FUNCTIONS = frozenset({"function_declaration", "generator_function_declaration"})
_JS_CLASSES = frozenset(
    {"class_declaration", "abstract_class_declaration", "interface_declaration"}
)
_JS_METHODS = frozenset({"method_definition", "method_signature", "abstract_method_signature"})
_JS = Grammar(_JS_FUNCTIONS, _JS_CLASSES, _JS_METHODS, frozenset({"export_statement"}), True)
GRAMMARS = {
    "javascript": _JS,
    "typescript": _JS,
    "tsx": _JS,
    "go": Grammar(
        frozenset({"function_declaration"}),
        frozenset({"type_declaration"}),
        frozenset({"method_declaration", "method_elem"}),
    ),
    "rust": Grammar(
        frozenset({"function_item"}),
        frozenset({"struct_item", "enum_item", "trait_item", "impl_item"}),
        frozenset({"function_item", "function_signature_item"}),
    ),
    "java": Grammar(
        frozenset(),
        frozenset(
            {"class_declaration", "interface_declaration", "enum_declaration", "record_declaration"}
        ),
        frozenset({"method_declaration", "constructor_declaration"}),
    ),
}
_VARIABLES = ("lexical_declaration", "variable_declaration")


@dataclass(frozen=True)
class Definition:
    """A definition that becomes a chunk: `node` holds its code, `outer` is what the chunk
    covers (the definition with an `export` around it); a class lists its `methods`."""

    kind: str  # function | class | method
    name: str
    qualname: str
    parent: str  # the qualname of the class-like type a method belongs to
    node: Node
    outer: Node
    methods: tuple[Node, ...] = ()


_COMMENT_MARKS = re.compile(r"^\s*(/\*\*?|\*/|\*|//+|///)\s?")
_COMMENT_END = re.compile(r"\s*\*/\s*$")


def chunk_tree_sitter(path: str, language: str, source: str) -> tuple[list[Chunk], str | None]:
    """Chunks, and an error note when the tree has syntax errors (chunks are kept)."""
    grammar = grammar_of(path, language)
    data = source.encode("utf-8")
    root = parse(grammar, data).root_node
    maker = _Maker(path, language, data)
    for definition in definitions(root, path, grammar):
        maker.add(definition)
    covered: set[int] = set()
    for outer, node in top_level(root, GRAMMARS[grammar]):
        for span in _spans(outer, node, GRAMMARS[grammar]):
            comments = leading_comments(span)
            first = (comments[0] if comments else span).start_point[0]
            covered.update(range(first, span.end_point[0] + 1))
    maker.module_rest(covered)
    error = "syntax error (tree-sitter recovered)" if root.has_error else None
    return split_oversized(maker.chunks), error


def top_level(root: Node, grammar: Grammar) -> Iterator[tuple[Node, Node]]:
    """(outer node incl. export wrapper, definition node) of each top-level definition."""
    for child in root.named_children:
        inner = child
        if child.type in grammar.wrappers:
            inner = next(
                (
                    c
                    for c in child.named_children
                    if c.type in grammar.functions | grammar.classes or c.type in _VARIABLES
                ),
                child,
            )
        if _defines(inner, grammar):
            yield child, inner


def _defines(node: Node, grammar: Grammar) -> bool:
    """Whether a top-level statement (its export wrapper taken off) defines a chunk."""
    return _defines_itself(node, grammar) or bool(grammar.assigned and object_members(node))


def _spans(outer: Node, node: Node, grammar: Grammar) -> list[Node]:
    """What a defining statement's chunks cover: all of it, or, for an object literal of
    functions (`module.exports = {…}`), only those functions (the rest is module code)."""
    if _defines_itself(node, grammar):
        return [outer]
    return [member for _, _, member, _ in object_members(node)]


def _defines_itself(node: Node, grammar: Grammar) -> bool:
    if node.type in grammar.functions | grammar.classes | grammar.methods:
        return True
    if node.type in _VARIABLES:
        return any(_function_value(d) for d in node.named_children)
    return grammar.assigned and (
        _exported_function(node) is not None
        or _assigned_function(node) is not None
        or _assigned_class(node) is not None
    )


def definitions(root: Node, path: str, grammar: str) -> list[Definition]:
    """Every definition that becomes a chunk, in source order (a class before its methods)."""
    rules = GRAMMARS[grammar]
    module = module_name(path)
    unnamed = module.rpartition(".")[2]  # what an anonymous default export is called
    found: list[Definition] = []

    def add(kind: str, name: str, node: Node, outer: Node, parent: str = "", methods=()) -> None:
        if name:
            qualname = join(module, parent, name)
            owner = join(module, parent) if parent else ""
            found.append(Definition(kind, name, qualname, owner, node, outer, tuple(methods)))

    for outer, node in top_level(root, rules):
        if node.type in _VARIABLES:
            for declarator in node.named_children:
                if _function_value(declarator):
                    add("function", _name(declarator), declarator, outer)
            for owner, name, member, function in object_members(node):
                add("method", name, function, member, owner)
        elif node.type == "type_declaration":
            specs = [c for c in node.named_children if c.type in ("type_spec", "type_alias")]
            for spec in specs:
                methods = _descendants_in_body(spec, rules.methods)
                name = _name(spec)
                add("class", name, spec, outer if len(specs) == 1 else spec, "", methods)
                for method in methods:
                    add("method", _name(method), method, method, name)
        elif node.type in rules.classes:
            name = _type_name(node)
            methods = _descendants_in_body(node, rules.methods)
            if node.type != "impl_item":
                add("class", name, node, outer, "", methods)
            for method in methods:
                add("method", _name(method), method, method, name)
        elif node.type == "method_declaration" and grammar == "go":
            add("method", _name(node), node, outer, go_receiver_type(node))
        elif (exported := _exported_function(node)) is not None:
            add("function", _name(exported) or unnamed, exported, outer)
        elif (assigned := _assigned_function(node)) is not None:
            owner, name, function = assigned
            add("method" if owner else "function", name or unnamed, function, outer, owner)
        elif (assigned_class := _assigned_class(node)) is not None:
            name, klass = assigned_class[0] or unnamed, assigned_class[1]
            methods = _descendants_in_body(klass, rules.methods)
            add("class", name, klass, outer, "", methods)
            for method in methods:
                add("method", _name(method), method, method, name)
        elif members := object_members(node):
            for _, name, member, function in members:  # the module's own: `exports.name`
                add("function", name, function, member)
        else:
            add("function", _name(node), node, outer)
    return found


class _Maker:
    def __init__(self, path: str, language: str, data: bytes):
        self.path, self.language, self.data = path, language, data
        self.module = module_name(path)
        self.lines = data.decode("utf-8").splitlines()
        self.chunks: list[Chunk] = []

    def add(self, definition: Definition) -> None:
        outer = definition.outer
        start, end = outer.start_point[0] + 1, outer.end_point[0] + 1
        code = (
            self.collapsed(outer, definition.methods)
            if definition.kind == "class"
            else self.text(outer)
        )
        self.chunks.append(
            Chunk(
                path=self.path,
                language=self.language,
                kind=definition.kind,
                symbol=definition.name,
                qualname=definition.qualname,
                code=code,
                start_line=start,
                end_line=end,
                signature=self.lines[start - 1].strip().rstrip("{").strip(),
                docstring=self.comment_above(outer),
                parent=definition.parent,
            )
        )

    def text(self, node: Node) -> str:
        return "\n".join(self.lines[node.start_point[0] : node.end_point[0] + 1])

    def collapsed(self, node: Node, methods: tuple[Node, ...]) -> str:
        """The type's text with each method body replaced by `…`."""
        out: list[str] = []
        line = node.start_point[0]
        for method in sorted(methods, key=lambda m: m.start_point[0]):
            if method.start_point[0] < line:
                continue
            out.extend(self.lines[line : method.start_point[0] + 1])
            if method.end_point[0] > method.start_point[0]:
                indent = re.match(r"\s*", self.lines[method.start_point[0]])
                out.append(f"{indent.group(0) if indent else ''}    …")
            line = method.end_point[0] + 1
        out.extend(self.lines[line : node.end_point[0] + 1])
        return "\n".join(out)

    def comment_above(self, node: Node) -> str:
        raw = [
            line
            for comment in leading_comments(node)
            for line in (comment.text or b"").decode("utf-8").splitlines()
        ]
        cleaned = (_COMMENT_END.sub("", _COMMENT_MARKS.sub("", r)).strip() for r in raw)
        return " ".join(s for s in cleaned if s)

    def module_rest(self, covered: set[int]) -> None:
        kept = [(n, t) for n, t in enumerate(self.lines) if n not in covered and t.strip()]
        if not kept:
            return
        rest = Chunk(
            path=self.path,
            language=self.language,
            kind="module",
            symbol=self.module.rsplit(".", 1)[-1],
            qualname=self.module,
            code="\n".join(t for _, t in kept),
            start_line=kept[0][0] + 1,
            end_line=kept[-1][0] + 1,
        )
        self.chunks += module_parts(rest, [n + 1 for n, _ in kept])


def leading_comments(node: Node) -> list[Node]:
    """The comments right above a definition, top to bottom (its doc comment): a Go or
    `//` doc comment is one comment node per line."""
    found: list[Node] = []
    below = node
    previous = node.prev_named_sibling
    while (
        previous is not None
        and "comment" in previous.type
        and below.start_point[0] - previous.end_point[0] <= 1
    ):
        found.append(previous)
        below, previous = previous, previous.prev_named_sibling
    return found[::-1]


def _name(node: Node) -> str:
    """A definition's name; a JavaScript class field names itself `property`."""
    return text(node.child_by_field_name("name") or node.child_by_field_name("property"))


def _type_name(node: Node) -> str:
    """Classes name themselves; a Rust impl names its type (without generic arguments)."""
    if node.type == "impl_item":
        return re.sub(r"<.*", "", text(node.child_by_field_name("type")))
    return _name(node)


def _descendants_in_body(node: Node, methods: frozenset[str]) -> list[Node]:
    """The methods in a type's body (a Go interface's method list is its `type`)."""
    body = node.child_by_field_name("body")
    if body is None and node.type == "type_spec":
        body = node.child_by_field_name("type")
    if body is None:
        return []
    members: list[Node] = []
    for child in body.named_children:  # a Java enum keeps its methods after the constants
        members += child.named_children if child.type == "enum_body_declarations" else [child]
    return [m for m in members if m.type in methods or is_function_field(m)]


def is_function_field(node: Node) -> bool:
    """A JS/TS class field holding a function (`handle = () => {…}`): a method in all but
    syntax."""
    return node.type in ("public_field_definition", "field_definition") and _function_value(node)


_FUNCTION_VALUES = ("arrow_function", "function_expression", "function", "generator_function")
_GUARDS = ("&&", "||")


def _function_value(declarator: Node) -> bool:
    return _function_in(declarator.child_by_field_name("value")) is not None


def _function_in(value: Node | None) -> Node | None:
    """The function a value is: itself, in parentheses, or behind a guard
    (`isXHRAdapterSupported && function (config) {…}`, as axios exports its adapters)."""
    while value is not None and value.type == "parenthesized_expression":
        value = value.named_children[0] if value.named_children else None
    if value is None:
        return None
    if value.type in _FUNCTION_VALUES:
        return value
    if value.type == "binary_expression" and text(value.child_by_field_name("operator")) in _GUARDS:
        return _function_in(value.child_by_field_name("right"))
    return None


def _exported_function(node: Node) -> Node | None:
    """The function of `export default <function>` that is no declaration."""
    if node.type != "export_statement":
        return None
    return _function_in(node.child_by_field_name("value"))


def _assigned_function(node: Node) -> tuple[str, str, Node] | None:
    """(owner, name, function) of a top-level assignment of a function, the way CommonJS
    code defines its API: `app.use = function use(fn) {…}` (a method of `app`),
    `View.prototype.render = …` (of `View`), `exports.compileETag = …` (a function), and
    `module.exports = function (…) {…}` (no name: the module's)."""
    assigned = _assigned(node)
    function = _function_in(assigned[2]) if assigned is not None else None
    return (assigned[0], assigned[1], function) if assigned and function else None


def _assigned_class(node: Node) -> tuple[str, Node] | None:
    """(name, class) of `module.exports = class Application extends Emitter {…}` (Koa's
    application) or `exports.Router = class {…}`: named by itself, else by its key ("" for
    the module's, which `definitions` names after the module)."""
    assigned = _assigned(node)
    if assigned is None or assigned[0] or assigned[2].type != "class":
        return None
    return _name(assigned[2]) or assigned[1], assigned[2]


def _assigned(node: Node) -> tuple[str, str, Node] | None:
    """(owner, name, value) of a top-level assignment to a plain dotted name: `app.use`
    (owner `app`), `View.prototype.render` (`View`), `exports.name` and `module.exports`
    (no owner, and no name)."""
    assignment = node.named_children[0] if node.type == "expression_statement" else None
    if assignment is None or assignment.type != "assignment_expression":
        return None
    value = assignment.child_by_field_name("right")
    parts = text(assignment.child_by_field_name("left")).split(".")
    if value is None or not all(part.isidentifier() for part in parts):
        return None
    if parts[:2] == ["module", "exports"]:
        parts = ["exports", *parts[2:]]
    if parts == ["exports"]:
        return "", "", value
    if len(parts) == 3 and parts[1] == "prototype":
        return parts[0], parts[2], value
    if len(parts) == 2:
        return ("" if parts[0] == "exports" else parts[0]), parts[1], value
    return None


def object_members(node: Node) -> list[tuple[str, str, Node, Node]]:
    """(owner, name, member, function) of each function a top-level object literal holds
    by a plain key (`trim(value) {…}`, `get header() {…}`, `http: function (c) {…}`):
    methods of `helpers` in `const helpers = {…}`, the module's own functions (owner "")
    in `module.exports = {…}` and `export default {…}`, as Koa writes its request."""
    found: list[tuple[str, str, Node, Node]] = []
    for owner, literal in _objects(node):
        for member in literal.named_children:
            function: Node | None = member
            if member.type == "method_definition":
                key = member.child_by_field_name("name")
            elif member.type == "pair":
                key = member.child_by_field_name("key")
                function = _function_in(member.child_by_field_name("value"))
            else:
                continue
            if key is not None and key.type == "property_identifier" and function is not None:
                found.append((owner, text(key), member, function))
    return found


def _objects(node: Node) -> list[tuple[str, Node]]:
    """(owner, object literal) of a top-level statement: a `const`'s value of its own name,
    or what a module exports ("")."""
    if node.type in _VARIABLES:
        named = (d for d in node.named_children if d.type == "variable_declarator")
        pairs = [
            (d.child_by_field_name("name"), _object_in(d.child_by_field_name("value")))
            for d in named
        ]
        return [(text(n), o) for n, o in pairs if n is not None and n.type == "identifier" and o]
    value = None
    if node.type == "export_statement":
        value = node.child_by_field_name("value")
    elif node.type == "expression_statement" and node.named_children:
        assignment = node.named_children[0]
        left = assignment.child_by_field_name("left")
        if assignment.type == "assignment_expression" and text(left) == "module.exports":
            value = assignment.child_by_field_name("right")
    literal = _object_in(value)
    return [("", literal)] if literal is not None else []


def _object_in(value: Node | None) -> Node | None:
    """The object literal a value is, also in parentheses or typed (`{…} as const`)."""
    while value is not None and value.type in _OBJECT_WRAPPERS and value.named_children:
        value = value.named_children[0]
    return value if value is not None and value.type == "object" else None


_OBJECT_WRAPPERS = ("parenthesized_expression", "as_expression", "satisfies_expression")


def go_receiver_type(node: Node) -> str:
    """`Stack` for `func (s *Stack[T]) Push(...)`: the receiver's type name."""
    receiver = node.child_by_field_name("receiver")
    declaration = receiver.named_children[0] if receiver and receiver.named_children else None
    kind = declaration.child_by_field_name("type") if declaration is not None else None
    while kind is not None and kind.type in ("pointer_type", "generic_type", "parenthesized_type"):
        inner = kind.child_by_field_name("type")
        if inner is None and kind.named_children:
            inner = kind.named_children[0]
        kind = inner
    return text(kind)
