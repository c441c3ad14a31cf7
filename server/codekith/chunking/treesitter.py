"""Chunks for the tree-sitter languages (`syntax.supports`) from their syntax trees.

Like the Python chunker it makes one chunk per function, class-like type (method bodies
collapsed) and method, plus one for the rest of the file; the comment right above a
definition is its docstring. Definitions in containers (C++ and C# namespaces, `extern "C"`,
`#if` blocks, PHP namespaces and `if` blocks, Ruby modules and classes, Scala extensions)
count as top-level ones, named without the container; a container's own lines are module
code. `definitions` is shared with the call-graph resolvers, so an edge names exactly the
qualname of the chunk it points at.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from codekith.chunking.model import Chunk
from codekith.chunking.split import collapse, line_parts, split_oversized
from codekith.qualnames import join, module_name
from codekith.syntax import Node, grammar_of, parse, text


@dataclass(frozen=True)
class Grammar:
    functions: frozenset[str]  # top-level function definitions
    classes: frozenset[str]  # class-like definitions whose body may hold methods
    methods: frozenset[str]  # function definitions inside a class body
    wrappers: frozenset[str] = frozenset()  # export / template / typedef around a definition
    assigned: bool = False  # `a.b = function …` and `export default <function>` define
    containers: frozenset[str] = frozenset()  # hold top-level definitions (namespaces)
    modules: frozenset[str] = frozenset()  # containers that are classes when holding methods
    groups: frozenset[str] = frozenset()  # hold methods in a class body (companion object)


_JS_FUNCTIONS = frozenset({"function_declaration", "generator_function_declaration"})
_JS_CLASSES = frozenset(
    {"class_declaration", "abstract_class_declaration", "interface_declaration"}
)
_JS_METHODS = frozenset({"method_definition", "method_signature", "abstract_method_signature"})
_JS = Grammar(_JS_FUNCTIONS, _JS_CLASSES, _JS_METHODS, frozenset({"export_statement"}), True)
_C_FUNCTIONS = frozenset({"function_definition"})
_C_TYPES = frozenset({"struct_specifier", "union_specifier", "enum_specifier"})
# `typedef struct {…} name;` and `struct point {…} origin;` hold a type definition
_C_HOLDERS = frozenset({"type_definition", "declaration"})
_C_BRANCHES = frozenset(
    {"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"}
)
_SPECIFIERS = _C_TYPES | {"class_specifier"}
_CS_BRANCHES = frozenset({"preproc_if", "preproc_else", "preproc_elif"})
_PHP_BRANCHES = frozenset({"if_statement", "else_if_clause", "else_clause", "colon_block"})
# where tree-sitter gave up (a macro it cannot read: fmt's `FMT_BEGIN_NAMESPACE` opens a
# namespace), whole definitions are still there
_RECOVERED = frozenset({"ERROR"})
# a function an `if` or `case` at the top defines (a fallback for old bash, a guard
# `if command -v x`) is defined at the top as well: one chunk per branch's definition
_SHELL_BRANCHES = frozenset(
    {"if_statement", "elif_clause", "else_clause", "case_statement", "case_item"} | _RECOVERED
)
_SHELL = Grammar(
    frozenset({"function_definition"}), frozenset(), frozenset(), containers=_SHELL_BRANCHES
)
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
        groups=frozenset({"enum_body_declarations"}),  # an enum's methods follow its constants
    ),
    "c": Grammar(
        _C_FUNCTIONS,
        _C_TYPES,
        frozenset(),
        _C_HOLDERS,
        containers=_C_BRANCHES | _RECOVERED,
    ),
    "cpp": Grammar(
        _C_FUNCTIONS,
        _SPECIFIERS,
        _C_FUNCTIONS,
        _C_HOLDERS | {"template_declaration", "friend_declaration"},
        containers=_C_BRANCHES | _RECOVERED | {"namespace_definition", "linkage_specification"},
        groups=_C_BRANCHES | _RECOVERED | {"labeled_statement"},  # `public:` in a misread class
    ),
    "csharp": Grammar(
        frozenset(),
        frozenset(
            {
                "class_declaration",
                "struct_declaration",
                "interface_declaration",
                "record_declaration",
                "enum_declaration",
            }
        ),
        frozenset(
            {
                "method_declaration",
                "constructor_declaration",
                "destructor_declaration",
                "operator_declaration",
                "conversion_operator_declaration",
            }
        ),
        containers=_CS_BRANCHES | _RECOVERED | {"namespace_declaration"},
        groups=_CS_BRANCHES | _RECOVERED,
    ),
    "ruby": Grammar(
        frozenset({"method"}),  # `def` outside a class: a function in all but name
        frozenset({"class", "module"}),
        frozenset({"method", "singleton_method"}),
        containers=_RECOVERED | {"class", "module"},  # nested types are chunks of their own
        modules=frozenset({"module"}),
        # `class << self … end` and `private def x … end` hold methods of the class
        groups=_RECOVERED | {"body_statement", "singleton_class", "call", "argument_list"},
    ),
    "php": Grammar(
        frozenset({"function_definition"}),
        frozenset(
            {"class_declaration", "interface_declaration", "trait_declaration", "enum_declaration"}
        ),
        frozenset({"method_declaration"}),
        # `if (!function_exists('x')) { function x() {…} }` declares the global function x
        containers=_RECOVERED | _PHP_BRANCHES | {"namespace_definition"},
        groups=_RECOVERED,
    ),
    "kotlin": Grammar(
        frozenset({"function_declaration"}),
        frozenset({"class_declaration", "object_declaration"}),
        frozenset({"function_declaration"}),
        containers=_RECOVERED,
        groups=_RECOVERED | {"companion_object", "class_body"},  # its functions: the class's
    ),
    "swift": Grammar(
        frozenset({"function_declaration"}),
        # class, struct, enum, extension and actor alike
        frozenset({"class_declaration", "protocol_declaration"}),
        frozenset(
            {
                "function_declaration",
                "init_declaration",
                "deinit_declaration",
                "subscript_declaration",
                "protocol_function_declaration",
            }
        ),
    ),
    "scala": Grammar(
        frozenset({"function_definition"}),  # Scala 3 allows top-level `def`
        frozenset(
            {
                "class_definition",
                "object_definition",
                "trait_definition",
                "enum_definition",
                "package_object",
                "given_definition",  # an object, or (`given x: T = …`) a value of its own
            }
        ),
        frozenset({"function_definition", "function_declaration"}),
        # `package a { … }`; an extension's methods are its holder's (or top-level functions)
        containers=frozenset({"package_clause", "extension_definition"}),
        groups=frozenset({"extension_definition"}),
    ),
    # `function M.f` and `M.f = function` are methods of the table M, `local M = {}` no class
    "lua": Grammar(frozenset({"function_declaration"}), frozenset(), frozenset(), assigned=True),
    "shell": _SHELL,
    "zsh": _SHELL,  # zsh's grammar extends bash's: the same nodes
    # a Bats test file: each `@test "name" { … }` is a function named by its description
    "bats": Grammar(
        frozenset({"function_definition", "test_block"}),
        frozenset(),
        frozenset(),
        containers=_SHELL_BRANCHES,
    ),
}
_VARIABLES = ("lexical_declaration", "variable_declaration")


@dataclass(frozen=True)
class Definition:
    """A definition that becomes a chunk: `node` holds its code, `outer` is what the chunk
    covers (the definition with an `export` around it); a class lists the `methods` (and
    a Ruby class or module the types nested in it) its chunk shows collapsed."""

    kind: str  # function | class | method
    name: str
    qualname: str
    parent: str  # the qualname of the class-like type a method belongs to
    node: Node
    outer: Node
    methods: tuple[Node, ...] = ()


_COMMENT_MARKS = re.compile(r"^\s*(/\*\*?|\*/|\*|//+|#+)\s?")
_COMMENT_END = re.compile(r"\s*\*/\s*$")
# `---`, `--`, `--[[ … ]]` and `--[==[ … ]==]`: Lua's only (`--` is no mark elsewhere)
_LUA_MARKS = (re.compile(r"^\s*(--+(\[=*\[)?|\]=*\])\s?"), re.compile(r"\s*\]=*\]\s*$"))
# a shell comment that is no documentation: the interpreter line, a ShellCheck directive
SHELL_DIRECTIVE = re.compile(r"^\s*#(!|\s*shellcheck\s)")
_ATTRIBUTE_LINE = re.compile(r"\s*(#?\[.*\]|@[\w.:]+(\(.*\))?)\s*$")


def chunk_tree_sitter(path: str, language: str, source: str) -> tuple[list[Chunk], str | None]:
    """Chunks, and an error note when the tree has syntax errors (chunks are kept)."""
    data = source.encode("utf-8")
    grammar = grammar_of(path, language, data)
    root = parse(grammar, data).root_node
    maker = _Maker(path, language, data)
    for definition in definitions(root, path, grammar):
        maker.add(definition)
    covered: set[int] = set()
    for outer, node in top_level(root, GRAMMARS[grammar]):
        for span in _spans(outer, node, GRAMMARS[grammar]):
            comments = leading_comments(span)
            first = (comments[0] if comments else span).start_point[0]
            covered.update(range(first, _last_row(span) + 1))
    maker.module_rest(covered)
    error = "syntax error (tree-sitter recovered)" if root.has_error else None
    return split_oversized(maker.chunks), error


def top_level(root: Node, grammar: Grammar, nested: bool = True) -> Iterator[tuple[Node, Node]]:
    """(outer node incl. export wrapper, definition node) of each top-level definition,
    also of those in containers (namespaces, nested ones too), in source order; without
    `nested`, none inside another definition (a Ruby class in a class)."""
    pending = [iter(_contents(root, grammar))]
    while pending:  # a stack, not recursion: `#elif` chains nest one level per branch
        child = next(pending[-1], None)
        if child is None:
            pending.pop()
            continue
        inner = _unwrap(child, grammar)
        defines = _defines(inner, grammar)
        if defines:
            yield child, inner
        if _is_container(inner, grammar) and (nested or not defines):
            pending.append(iter(_contents(inner, grammar)))


def _is_container(node: Node, grammar: Grammar) -> bool:
    """Whether the definitions in a node count as top-level ones."""
    return node.type in grammar.containers or _misread(node) == "container"


def _misread(node: Node) -> str:
    """What a C or C++ "function" without a function declarator is: a macro before a name
    misleads tree-sitter. "class" for `class Q_CORE_EXPORT QObject {…}` (named by its
    declarator), "container" for `FMT_END_EXPORT namespace detail {…}` and the like, ""
    for a real function."""
    chain = _declarators(node) if node.type == "function_definition" else []
    if not chain or any(d.type in ("function_declarator", "operator_cast") for d in chain):
        return ""
    kind = node.child_by_field_name("type")
    if chain[0].type == "identifier" and kind is not None and kind.type in _SPECIFIERS:
        return "container" if kind.child_by_field_name("body") else "class"
    return "container"


def _contents(node: Node, grammar: Grammar) -> list[Node]:
    """The statements of a file or container, after what precedes its body (a misread
    function's return type may be a whole struct); a class-like container's (a Ruby
    class's or module's) methods are its own, not top-level ones."""
    body = node.child_by_field_name("body")
    children = [c for c in node.named_children if c != body]
    if body is not None:  # `extern "C" int f(void) {…}` has a function for a body
        children += body.named_children if body.type in _STATEMENT_LISTS else [body]
        children.sort(key=lambda c: c.start_byte)  # a Scala extension has several bodies
    if node.type in grammar.classes:
        return [c for c in children if c.type not in grammar.methods]
    return children


_STATEMENT_LISTS = ("declaration_list", "compound_statement", "body_statement", "template_body")


def _unwrap(node: Node, grammar: Grammar) -> Node:
    """The definition inside wrappers (`export`, `template <…>`, `typedef`), or the node
    itself when they wrap none."""
    wanted = grammar.functions | grammar.classes | grammar.methods | grammar.wrappers
    inner = node
    while inner.type in grammar.wrappers:
        found = next(
            (c for c in inner.named_children if c.type in wanted or c.type in _VARIABLES), None
        )
        if found is None:
            return node
        inner = found
    return inner


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
    if node.type in grammar.modules:  # a Ruby module: a class when it holds methods
        return bool(_members(node, grammar))
    if _is_container(node, grammar):  # a Ruby class holds classes, and is one
        return node.type in grammar.classes
    if _misread(node) == "class":
        return True
    if node.type in _SPECIFIERS:  # not `struct fwd;` nor `enum {A, B};`
        return node.child_by_field_name("body") is not None and bool(_type_name(node))
    if node.type in grammar.functions | grammar.classes | grammar.methods:
        return not _anonymous(node)
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
    last_class = ""
    namespaces: set[str] | None = None  # a C++ file's, read when a definition needs them

    def add(
        kind: str,
        name: str,
        node: Node,
        outer: Node,
        parent: str = "",
        methods: Sequence[Node] = (),
        scope: str = "",  # between the parent's name and its own: `self` of `Reaper.self.call`
        own: str = "",  # the qualname's last part, when not the name
    ) -> None:
        if name:
            qualname = join(module, parent, scope, own or name)
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
                owned = _members(spec, rules)
                name = _name(spec)
                collapsed = [o for o, _ in owned]
                add("class", name, spec, outer if len(specs) == 1 else spec, "", collapsed)
                for member, method in owned:
                    add("method", _name(method), method, member, name)
        elif node.type in rules.classes or _misread(node) == "class":
            last_class = _type_name(node)
            _add_type(add, rules, node, outer, last_class, "")
        elif node.type == "method_declaration" and grammar == "go":
            add("method", _name(node), node, outer, go_receiver_type(node))
        elif node.type == "function_declaration" and grammar == "lua":
            owner, name = _lua_name(node)
            add("method" if owner else "function", name, node, outer, owner)
        elif root.has_error and last_class and node.type in rules.methods - rules.functions:
            # a method outside any class: a syntax error (a C# `#if` splitting an `if …
            # else`) cut the class before it short
            add("method", _name(node), node, outer, last_class)
        elif (test := _macro_test(node)) is not None:
            add("function", _name(node), node, outer, scope=test[0], own=test[1])
        elif (declared := _declared(node)) is not None:
            owner, name = declared
            if owner and grammar == "cpp":  # `void detail::f() {}` is no method of `detail`
                namespaces = _namespaces(root) if namespaces is None else namespaces
                owner = "" if owner in namespaces else owner
            add("method" if owner else "function", name, node, outer, owner)
        elif (exported := _exported_function(node)) is not None:
            add("function", _name(exported) or unnamed, exported, outer)
        elif (assigned := _assigned_function(node)) is not None:
            owner, name, function = assigned
            add("method" if owner else "function", name or unnamed, function, outer, owner)
        elif (assigned_class := _assigned_class(node)) is not None:
            name, klass = assigned_class[0] or unnamed, assigned_class[1]
            owned = _members(klass, rules)
            add("class", name, klass, outer, "", [o for o, _ in owned])
            for member, method in owned:
                add("method", _name(method), method, member, name)
        elif members := object_members(node):
            for owner, name, member, function in members:  # "": the module's (`exports.name`)
                add("method" if owner else "function", name, function, member, owner)
        else:
            add("function", _name(node), node, outer)
    return found


def _add_type(
    add: Callable[..., None], rules: Grammar, node: Node, outer: Node, name: str, parent: str
) -> None:
    """A class-like definition, its methods, and the types nested in its body (a Java or
    Kotlin `Builder`: `Outer.Builder`, its methods `Outer.Builder.build`). Not a closure of
    `definitions`: a recursive closure is a cycle, which would keep the syntax tree alive
    until the cycle collector came by."""
    owned = _members(node, rules)
    nested = _nested_types(node, rules)
    collapsed = [o for o, _ in owned] + [o for o, _ in nested]
    if node.type in rules.containers:  # Ruby's nested classes are chunks of their own
        collapsed += [o for o, _ in top_level(node, rules, nested=False)]
    if node.type != "impl_item":
        add("class", name, node, outer, parent, collapsed)
    path = join(parent, name)
    types = {inner.id for _, inner in nested}
    clashes = _singleton_clashes(node, owned) if "singleton_method" in rules.methods else set()
    for member, inner in sorted(owned + nested, key=lambda pair: pair[0].start_byte):
        if inner.id in types:
            _add_type(add, rules, inner, member, _type_name(inner), path)
        else:
            scope = "self" if inner.id in clashes else ""
            add("method", _name(inner), inner, member, path, scope=scope)


class _Maker:
    def __init__(self, path: str, language: str, data: bytes):
        self.path, self.language, self.data = path, language, data
        self.module = module_name(path)
        # tree-sitter's rows end at "\n" only; `splitlines` would also end one at a form feed
        self.lines = [line.removesuffix("\r") for line in data.decode("utf-8").split("\n")]
        self.chunks: list[Chunk] = []

    def add(self, definition: Definition) -> None:
        outer = definition.outer
        start, end = outer.start_point[0] + 1, _last_row(outer) + 1
        methods = definition.methods if definition.kind == "class" else ()
        code, numbers = self.collapsed(outer, methods)
        chunk = Chunk(
            path=self.path,
            language=self.language,
            kind=definition.kind,
            symbol=definition.name,
            qualname=definition.qualname,
            code=code,
            start_line=start,
            end_line=end,
            signature=self.signature(definition.node),
            docstring=self.comment_above(outer),
            parent=definition.parent,
        )
        self.chunks += line_parts(chunk, numbers)

    def signature(self, node: Node) -> str:
        """The definition's first line below its attributes (`[Obsolete]`, `@JvmStatic`,
        `#[Attr]`); a template's header is outside its node."""
        lines = self.lines[node.start_point[0] : node.end_point[0] + 1]
        line = next((t for t in lines if not _ATTRIBUTE_LINE.match(t)), lines[0])
        return line.strip().rstrip("{").strip()

    def collapsed(self, node: Node, methods: tuple[Node, ...]) -> tuple[str, list[int | None]]:
        """The type's text with each method body replaced by `…` (`split.collapse`)."""
        members = []
        for method in sorted(methods, key=lambda m: m.start_point[0]):
            first, last = method.start_point[0] + 1, _last_row(method) + 1
            indent = re.match(r"\s*", self.lines[first - 1])
            marker = f"{indent.group(0) if indent else ''}    …" if last > first else None
            members.append((first, marker, last))
        return collapse(self.lines, node.start_point[0] + 1, _last_row(node) + 1, members)

    def comment_above(self, node: Node) -> str:
        raw = [
            line
            for comment in leading_comments(node)
            if "comment" in comment.type
            for line in (comment.text or b"").decode("utf-8").splitlines()
            if self.language != "shell" or not SHELL_DIRECTIVE.match(line)
        ]
        marks, end = _LUA_MARKS if self.language == "lua" else (_COMMENT_MARKS, _COMMENT_END)
        cleaned = (end.sub("", marks.sub("", r)).strip() for r in raw)
        docstring = " ".join(s for s in cleaned if s)
        return _xml_text(docstring) if self.language == "csharp" else docstring

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
        self.chunks += line_parts(rest, [n + 1 for n, _ in kept])


def leading_comments(node: Node) -> list[Node]:
    """The comments right above a definition, top to bottom (its doc comment): a Go or
    `//` doc comment is one comment node per line. Kotlin annotations that tree-sitter
    reads apart from the definition below (`@Throws(…)` as an expression) come along."""
    found: list[Node] = []
    below = node
    for previous in _above(node):
        if not (
            ("comment" in previous.type or previous.type == "annotated_expression")
            and below.start_point[0] - previous.end_point[0] <= 1
        ):
            break
        found.append(previous)
        below = previous
    return found[::-1]


def _above(node: Node) -> Iterator[Node]:
    """The nodes above a definition, nearest first, with the comments the one before holds
    after its code (a Scala 3 indented block runs on to the next definition)."""
    previous = _before(node)
    while previous is not None:
        if "comment" not in previous.type:
            yield from reversed(_code_end(previous)[1])
        yield previous
        previous = previous.prev_named_sibling


def _last_row(node: Node) -> int:
    """The row of a node's last code, not of the blank lines and comments it holds below."""
    return _code_end(node)[0].end_point[0]


def _code_end(node: Node) -> tuple[Node, list[Node]]:
    """A node's last token of code, and the comments after it that it holds: a Scala 3
    indented block ends at the next definition, over its doc comment."""
    comments: list[Node] = []
    last = node
    while last.child_count:
        children = list(last.children)  # a copy: the binding caches its list, popping it crashes
        while children and ("comment" in children[-1].type or _empty(children[-1])):
            tail = children.pop()
            comments[:0] = [tail] if "comment" in tail.type else []
        if not children:
            break
        last = children[-1]
    return last, comments


def _empty(node: Node) -> bool:
    """A token of no text: Scala's end of an indented block, a missing `}`."""
    return node.start_byte == node.end_byte


def _before(node: Node) -> Node | None:
    """The node before a definition: for the first one in a Ruby body, the last before the
    body (tree-sitter-ruby puts the comments above it in the class or module, not the body)."""
    previous = node.prev_named_sibling
    if previous is None and node.parent is not None and node.parent.type == "body_statement":
        return node.parent.prev_named_sibling
    return previous


def _xml_text(doc: str) -> str:
    """A C# XML doc comment's text: `<see cref="Token"/>` names `Token`, other tags go."""
    named = _XML_REFERENCE.sub(r"\1", doc)
    return re.sub(r"\s+", " ", _XML_TAG.sub(" ", named)).strip()


_SWIFT_UNNAMED = {
    "init_declaration": "init",
    "deinit_declaration": "deinit",
    "subscript_declaration": "subscript",
}
_XML_REFERENCE = re.compile(r"<\w+\s+(?:cref|name|langword|href)=\"(?:\w:)?([^\"]*)\"\s*/>")
_XML_TAG = re.compile(r"</?[A-Za-z][^<>]*>")


def _name(node: Node) -> str:
    """A definition's name; a JavaScript class field names itself `property`, a C or C++
    function its declarator, a C# operator `operator+` and a destructor `~Reader`, a Swift
    initializer `init`."""
    if node.type in _SWIFT_UNNAMED:  # a subscript's `name` is its return type
        return _SWIFT_UNNAMED[node.type]
    named = node.child_by_field_name("name") or node.child_by_field_name("property")
    if node.type == "test_block" and named is not None:  # Bats: `@test "its description"`
        return " ".join(_unquoted(part) for part in named.named_children)
    if node.type == "function_definition" and named is not None and named.type == "word":
        return shell_function_name(node)
    if named is None and (declared := _declared(node)) is not None:
        return declared[1]
    if named is None and node.type in ("operator_declaration", "conversion_operator_declaration"):
        return _operator(text(node))  # C#
    return f"~{text(named)}" if node.type == "destructor_declaration" else text(named)


def _anonymous(node: Node) -> bool:
    """zsh's `() { … }`: a function with a body and neither name nor declarator runs where
    it stands, so its code is the module's."""
    return (
        node.type == "function_definition"
        and node.child_by_field_name("body") is not None
        and node.child_by_field_name("name") is None
        and node.child_by_field_name("declarator") is None
    )


def shell_function_name(node: Node) -> str:
    """A shell function's name: zsh's grammar reads `_omz::log` as the words `_omz::` and
    `log`, which touch; "" for an anonymous zsh function (`() { … }`)."""
    parts = node.children_by_field_name("name")
    name = text(parts[0]) if parts else ""
    for before, part in pairwise(parts):
        if part.start_byte != before.end_byte:
            break
        name += text(part)
    return name


def _unquoted(node: Node) -> str:
    """A shell word's text without its quotes: `"a b"`, `'a b'`, `a`."""
    found = text(node)
    return found[1:-1] if node.type in ("string", "raw_string") else found


def _type_name(node: Node) -> str:
    """Classes name themselves (`Rack::Request` and `formatter<T>` by their last part), a
    typedef'd C struct by its typedef; a Rust impl and a Swift extension name their type
    (without generic arguments; `Inner` of `extension Session.Inner`)."""
    if node.type == "impl_item":
        return re.sub(r"<.*", "", text(node.child_by_field_name("type")))
    holder = node.parent if node.type in _C_TYPES else None  # `parent` walks from the root
    if holder is not None and holder.type == "type_definition":
        typedef = holder.child_by_field_name("declarator")
        if typedef is not None and typedef.type == "type_identifier":
            return text(typedef)
    if node.type == "function_definition":  # `class Q_CORE_EXPORT QObject {…}`, misread
        return text(node.child_by_field_name("declarator"))
    named = node.child_by_field_name("name")
    if named is None and node.type == "given_definition":
        return _given_name(node)
    if named is not None and named.type == "user_type":
        parts = [c for c in named.named_children if c.type == "type_identifier"]
        named = parts[-1] if parts else named
    return _last_part(named)


def _given_name(node: Node) -> str:
    """The name Scala gives an anonymous `given Ord[List[T]] with …`: `given_Ord_List`, its
    type's names but for the given's own type parameters."""
    parameters = node.child_by_field_name("type_parameters")
    own = {text(c) for c in parameters.named_children} if parameters else set()
    kind = node.child_by_field_name("return_type")
    pending, names = [kind] if kind else [], []
    while pending:
        current = pending.pop()
        if current.type == "type_identifier" and text(current) not in own:
            names.append(text(current))
        pending.extend(reversed(current.named_children))
    return "_".join(["given", *names]) if names else ""


def _last_part(name: Node | None) -> str:
    """`Request` of `Rack::Request`, `formatter` of `formatter<T>`, `b` of `a::b`."""
    while name is not None and name.type in _SCOPED_NAMES:
        name = name.child_by_field_name("name")
    return text(name)


_SCOPED_NAMES = ("scope_resolution", "qualified_identifier", "template_type", "template_function")


def _declared(node: Node) -> tuple[str, str] | None:
    """(owner, name) of a C or C++ function: `Foo::bar` is a method of `Foo`, a plain
    name has no owner (""); None for a node without a declarator."""
    chain = _declarators(node)
    if not chain:
        return None
    declarator: Node | None = chain[-1]
    owner = ""
    while declarator is not None and declarator.type == "qualified_identifier":
        owner = _last_part(declarator.child_by_field_name("scope")) or owner
        declarator = declarator.child_by_field_name("name")
    if declarator is not None and declarator.type in ("operator_name", "operator_cast"):
        return owner, _operator(text(declarator))
    return owner, _last_part(declarator)


def _macro_test(node: Node) -> tuple[str, str] | None:
    """(suite, name) of a test a macro defines: googletest's `TEST(format_test, width) {…}`
    (`TEST_F`, `TYPED_TEST`, Boost's `BOOST_AUTO_TEST_CASE(name)`) reads as a function of
    upper-case name that starts the definition and has bare names for parameters. Its
    qualname ends in its arguments (`format_test.width`), so each test is a chunk and a
    call-graph node of its own; its name stays `TEST`, as written, which no call means."""
    chain = _declarators(node) if node.type == "function_definition" else []
    if [d.type for d in chain] != _MACRO_CALL or not _starts(node, chain[0]):
        return None
    previous = node.prev_sibling
    if previous is not None and previous.child_count and previous.children[-1].is_missing:
        return None  # `void f() LOCKS_EXCLUDED(m) {…}`: the macro took f's body from it
    parameters = chain[0].child_by_field_name("parameters")
    names = [_bare_name(p) for p in parameters.named_children] if parameters else []
    if not _MACRO.fullmatch(text(chain[1])) or not names or not all(names):
        return None
    return ".".join(names[:-1]), names[-1]


def _starts(node: Node, declarator: Node) -> bool:
    """Whether a declarator starts its definition, but for a macro on a line above it that
    tree-sitter took for a return type (`FMT_END_NAMESPACE` closing the namespace above)."""
    first = node.named_children[0]
    if first == declarator:
        return True
    macro = first.type == "type_identifier" and _MACRO.fullmatch(text(first))
    return (
        bool(macro)
        and node.named_children[1] == declarator
        and first.end_point[0] < declarator.start_point[0]
    )


_MACRO_CALL = ["function_declarator", "identifier"]
_MACRO = re.compile(r"[A-Z][A-Z0-9_]*")


def _bare_name(parameter: Node) -> str:
    """The name a macro argument is (`format_test` read as a parameter's type), or ""."""
    kind = parameter.child_by_field_name("type")
    if parameter.child_by_field_name("declarator") is not None or kind is None:
        return ""
    return text(kind) if kind.type in ("type_identifier", "primitive_type") else ""  # `bool`


def _namespaces(root: Node) -> set[str]:
    """The names of the namespaces a C++ file opens (`a` and `b` of `namespace a::b`), in
    what holds top-level definitions (other namespaces, `extern "C"`, `#if` blocks)."""
    found: set[str] = set()
    pending = [root]
    while pending:
        node = pending.pop()
        if node.type == "namespace_definition":
            named = node.child_by_field_name("name")
            parts = named.named_children if named and named.named_children else [named]
            found.update(text(part) for part in parts if part is not None)
        if node.type in _HOLDERS_OF_NAMESPACES:
            pending.extend(node.named_children)
    return found


_HOLDERS_OF_NAMESPACES = (
    _C_BRANCHES
    | _RECOVERED
    | {
        "translation_unit",
        "namespace_definition",
        "declaration_list",
        "linkage_specification",
    }
)


def _declarators(node: Node) -> list[Node]:
    """A C or C++ definition's declarator chain, outside in: `*make(void)` is a pointer,
    function and name declarator."""
    chain: list[Node] = []
    declarator = node.child_by_field_name("declarator")
    while declarator is not None:
        chain.append(declarator)
        if declarator.type in _DECLARED_NAMES:
            break
        declarator = declarator.child_by_field_name("declarator") or (
            declarator.named_children[0] if declarator.named_children else None
        )
    return chain


_DECLARED_NAMES = frozenset(
    {
        "identifier",
        "field_identifier",
        "qualified_identifier",
        "destructor_name",
        "operator_name",
        "operator_cast",
        "template_function",
    }
)


def _operator(code: str) -> str:
    """`operator==` of `operator ==`, `operator()` of `operator()(…)`, `operator bool` of
    `explicit operator bool() const`, `operator+` of C#'s `R operator +(R a, R b) => …`."""
    found = re.search(r"\boperator\b\s*(\(\s*\)|[^(]*)", code)
    symbol = re.sub(r"\s*([^\w\s])\s*", r"\1", found.group(1).strip()) if found else ""
    return f"operator {symbol}" if symbol[:1].isalpha() else f"operator{symbol}"


def _members(node: Node, grammar: Grammar) -> list[tuple[Node, Node]]:
    """(outer node, method) of each method in a type's body (a Go interface's method list
    is its `type`), also in the groups it holds (a Kotlin companion object)."""
    return [
        (child, inner)
        for child, inner in _body(node, grammar)
        if inner.type in grammar.methods or is_function_field(inner)
    ]


def _singleton_clashes(node: Node, owned: list[tuple[Node, Node]]) -> set[int]:
    """The Ruby singleton methods (`def self.x`, `x` in `class << self`) that share their
    name with an instance method of the class: each is named `Class.self.x` so that the two
    are two chunks and two call-graph nodes; any other stays `Class.x`, as Ruby calls it."""
    singleton = {inner.id for _, inner in owned if _singleton(inner, node)}
    instance = {_name(inner) for _, inner in owned if inner.id not in singleton}
    return {inner.id for _, inner in owned if inner.id in singleton and _name(inner) in instance}


def _singleton(method: Node, klass: Node) -> bool:
    """Whether a Ruby method in `klass` is no method of its instances (`def self.x`)."""
    if method.type == "singleton_method":
        return True
    holder = method.parent
    while holder is not None and holder.id != klass.id:
        if holder.type == "singleton_class":
            return True
        holder = holder.parent
    return False


def _nested_types(node: Node, grammar: Grammar) -> list[tuple[Node, Node]]:
    """(outer node, type) of each class-like definition in a type's body. A container's
    (a Ruby class's) are top-level definitions already; C and C++ types nest inside field
    declarations and stay their outer type's code."""
    if node.type in grammar.containers or node.type in _SPECIFIERS:
        return []
    return [
        (child, inner)
        for child, inner in _body(node, grammar)
        if inner.type in grammar.classes and _defines_itself(inner, grammar)
    ]


def _body(node: Node, grammar: Grammar) -> list[tuple[Node, Node]]:
    """(outer node, definition inside its wrappers) of each statement of a type's body,
    also of those in the groups it holds."""
    body = node.child_by_field_name("body")
    if body is None and node.type == "type_spec":
        body = node.child_by_field_name("type")
    if body is None:  # Kotlin names no body
        body = next((c for c in node.named_children if c.type in _KOTLIN_BODIES), None)
    if body is None:
        return []
    found: list[tuple[Node, Node]] = []
    pending = [iter(body.named_children)]
    while pending:
        child = next(pending[-1], None)
        if child is None:
            pending.pop()
        elif child.type in grammar.groups:
            pending.append(iter(child.named_children))
        else:
            found.append((child, _unwrap(child, grammar)))
    return found


_KOTLIN_BODIES = ("class_body", "enum_class_body")


def is_function_field(node: Node) -> bool:
    """A JS/TS class field holding a function (`handle = () => {…}`): a method in all but
    syntax."""
    return node.type in ("public_field_definition", "field_definition") and _function_value(node)


# Lua's `function (…) … end` value is a `function_definition`
_FUNCTION_VALUES = (
    "arrow_function",
    "function_expression",
    "function",
    "generator_function",
    "function_definition",
)
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
    (no owner, and no name); Lua's `M.clamp = function (…) … end` alike, and its global
    `clamp = …` (no owner) and `a.b.c = …` (owner `a.b`, as of `function a.b.c`)."""
    target, value = _assignment(node)
    parts = text(target).split(".")
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
    if node.type == "assignment_statement":  # Lua's `clamp = …` and `a.b.c = …`
        return ".".join(parts[:-1]), parts[-1], value
    return None


def _assignment(node: Node) -> tuple[Node | None, Node | None]:
    """(target, value) of a statement assigning one value: JavaScript's `a.b = …` or Lua's
    (whose `a, b = f, g` assigns several); (None, None) for any other statement."""
    if node.type == "expression_statement" and node.named_children:
        assignment = node.named_children[0]
        if assignment.type == "assignment_expression":
            return assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
    elif node.type == "assignment_statement" and len(node.named_children) == 2:
        targets, values = (c.named_children for c in node.named_children)
        if len(targets) == 1 and len(values) == 1:
            return targets[0], values[0]
    return None, None


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
            elif member.type in ("pair", "field"):  # Lua's `add = function (a, b) … end`
                key = member.child_by_field_name("key") or member.child_by_field_name("name")
                function = _function_in(member.child_by_field_name("value"))
            else:
                continue
            if key is not None and key.type in _KEYS and function is not None:
                found.append((owner, text(key), member, function))
    return found


_KEYS = ("property_identifier", "identifier")


def _objects(node: Node) -> list[tuple[str, Node]]:
    """(owner, object literal) of a top-level statement: a `const`'s value of its own name,
    or what a module exports (""); in Lua a table constructor assigned to a name, or the
    one a module returns ("")."""
    if node.type in ("variable_declaration", "assignment_statement", "return_statement"):
        lua = _lua_table(node)
        if lua is not None:
            return [lua]
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


def _lua_table(node: Node) -> tuple[str, Node] | None:
    """(name, table) of Lua's `local M = {…}` and `M = {…}`, ("", table) of `return {…}`."""
    if node.type == "variable_declaration":
        node = next((c for c in node.named_children if c.type == "assignment_statement"), node)
    if node.type == "return_statement" and node.named_children:
        values = node.named_children[0].named_children
        return ("", values[0]) if len(values) == 1 and values[0].type in _TABLES else None
    target, value = _assignment(node)
    if target is None or value is None or value.type not in _TABLES:
        return None
    return (text(target), value) if target.type == "identifier" else None


_TABLES = ("table_constructor",)


def _object_in(value: Node | None) -> Node | None:
    """The object literal a value is, also in parentheses or typed (`{…} as const`)."""
    while value is not None and value.type in _OBJECT_WRAPPERS and value.named_children:
        value = value.named_children[0]
    return value if value is not None and value.type == "object" else None


_OBJECT_WRAPPERS = ("parenthesized_expression", "as_expression", "satisfies_expression")


def _lua_name(node: Node) -> tuple[str, str]:
    """(owner, name) of a Lua function: `function M.clamp` and `function M:add` are methods
    of the table `M` (of `a.b` for `function a.b.c`), `function clamp` has no owner."""
    named = node.child_by_field_name("name")
    key = None
    if named is not None and named.type in ("dot_index_expression", "method_index_expression"):
        key = named.child_by_field_name("field") or named.child_by_field_name("method")
    if named is None or key is None:
        return "", text(named)
    return text(named.child_by_field_name("table")), text(key)


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
