"""Chunks for JavaScript, TypeScript, Go, Rust and Java from tree-sitter syntax trees.

The only module that imports tree-sitter and its grammars. Like the Python chunker it makes
one chunk per function, class-like type (method bodies collapsed) and method, plus one for
the rest of the file; the comment right above a definition is its docstring.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import tree_sitter
import tree_sitter_go
import tree_sitter_java
import tree_sitter_javascript
import tree_sitter_rust
import tree_sitter_typescript

from codekith.chunking.model import Chunk
from codekith.chunking.split import split_oversized
from codekith.qualnames import join, module_name

Node = tree_sitter.Node


@dataclass(frozen=True)
class Grammar:
    load: Callable[[], Any]
    functions: frozenset[str]  # top-level function definitions
    classes: frozenset[str]  # class-like definitions whose body may hold methods
    methods: frozenset[str]  # function definitions inside a class body
    wrappers: frozenset[str] = frozenset()  # export / decorator nodes around a definition


_JS_FUNCTIONS = frozenset({"function_declaration", "generator_function_declaration"})
_JS_CLASSES = frozenset(
    {"class_declaration", "abstract_class_declaration", "interface_declaration"}
)
_JS_METHODS = frozenset({"method_definition", "method_signature", "abstract_method_signature"})
GRAMMARS = {
    "javascript": Grammar(
        tree_sitter_javascript.language,
        _JS_FUNCTIONS,
        _JS_CLASSES,
        _JS_METHODS,
        frozenset({"export_statement"}),
    ),
    "typescript": Grammar(
        tree_sitter_typescript.language_typescript,
        _JS_FUNCTIONS,
        _JS_CLASSES,
        _JS_METHODS,
        frozenset({"export_statement"}),
    ),
    "tsx": Grammar(
        tree_sitter_typescript.language_tsx,
        _JS_FUNCTIONS,
        _JS_CLASSES,
        _JS_METHODS,
        frozenset({"export_statement"}),
    ),
    "go": Grammar(
        tree_sitter_go.language,
        frozenset({"function_declaration"}),
        frozenset({"type_declaration"}),
        frozenset({"method_declaration"}),
    ),
    "rust": Grammar(
        tree_sitter_rust.language,
        frozenset({"function_item"}),
        frozenset({"struct_item", "enum_item", "trait_item", "impl_item"}),
        frozenset({"function_item", "function_signature_item"}),
    ),
    "java": Grammar(
        tree_sitter_java.language,
        frozenset(),
        frozenset(
            {"class_declaration", "interface_declaration", "enum_declaration", "record_declaration"}
        ),
        frozenset({"method_declaration", "constructor_declaration"}),
    ),
}
_COMMENT_MARKS = re.compile(r"^\s*(/\*\*?|\*/|\*|//+|///)\s?")
_COMMENT_END = re.compile(r"\s*\*/\s*$")


def supports(language: str) -> bool:
    return language in GRAMMARS


@cache
def _parser(language: str) -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(GRAMMARS[language].load()))


def chunk_tree_sitter(path: str, language: str, source: str) -> tuple[list[Chunk], str | None]:
    """Chunks, and an error note when the tree has syntax errors (chunks are kept)."""
    grammar_name = "tsx" if path.endswith(".tsx") else language
    data = source.encode("utf-8")
    tree = _parser(grammar_name).parse(data)
    maker = _Maker(path, language, data, GRAMMARS[grammar_name])
    covered: set[int] = set()
    for node, definition in maker.top_level(tree.root_node):
        maker.definition(definition, outer=node)
        comment = leading_comment(node)
        first = (comment or node).start_point[0]
        covered.update(range(first, node.end_point[0] + 1))
    maker.module_rest(covered)
    error = "syntax error (tree-sitter recovered)" if tree.root_node.has_error else None
    return split_oversized(maker.chunks), error


class _Maker:
    def __init__(self, path: str, language: str, data: bytes, grammar: Grammar):
        self.path, self.language, self.data, self.grammar = path, language, data, grammar
        self.module = module_name(path)
        self.lines = data.decode("utf-8").splitlines()
        self.chunks: list[Chunk] = []

    def top_level(self, root: Node) -> Iterator[tuple[Node, Node]]:
        """(outer node incl. export wrapper, definition node) of each top-level definition."""
        grammar = self.grammar
        for child in root.named_children:
            inner = child
            if child.type in grammar.wrappers:
                inner = next(
                    (
                        c
                        for c in child.named_children
                        if c.type in grammar.functions | grammar.classes
                        or c.type in ("lexical_declaration", "variable_declaration")
                    ),
                    child,
                )
            if inner.type in grammar.functions | grammar.classes | grammar.methods or (
                inner.type in ("lexical_declaration", "variable_declaration")
                and any(_function_value(d) for d in inner.named_children)
            ):
                yield child, inner

    def definition(self, node: Node, outer: Node) -> None:
        if node.type in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                if _function_value(declarator):
                    self.add("function", _name(declarator), outer, self.text(outer), "")
            return
        if node.type in self.grammar.classes:
            self.class_like(node, outer)
        elif node.type == "method_declaration" and self.language == "go":
            receiver = _go_receiver(node)
            self.add("method", _name(node), outer, self.text(outer), receiver)
        else:
            self.add("function", _name(node), outer, self.text(outer), "")

    def class_like(self, node: Node, outer: Node) -> None:
        name = _type_name(node)
        methods = [m for m in _descendants_in_body(node) if m.type in self.grammar.methods]
        if node.type != "impl_item":
            self.add("class", name, outer, self.collapsed(outer, methods), "")
        for method in methods:
            self.add("method", _name(method), method, self.text(method), name)

    def add(self, kind: str, name: str, node: Node, code: str, parent: str) -> None:
        if not name:
            return
        start, end = node.start_point[0] + 1, node.end_point[0] + 1
        qualname = join(self.module, parent, name)
        self.chunks.append(
            Chunk(
                path=self.path,
                language=self.language,
                kind=kind,
                symbol=name,
                qualname=qualname,
                code=code,
                start_line=start,
                end_line=end,
                signature=self.lines[start - 1].strip().rstrip("{").strip(),
                docstring=self.comment_above(node),
                parent=join(self.module, parent) if parent else "",
            )
        )

    def text(self, node: Node) -> str:
        return "\n".join(self.lines[node.start_point[0] : node.end_point[0] + 1])

    def collapsed(self, node: Node, methods: list[Node]) -> str:
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
        previous = leading_comment(node)
        if previous is None:
            return ""
        raw = (previous.text or b"").decode("utf-8").splitlines()
        cleaned = (_COMMENT_END.sub("", _COMMENT_MARKS.sub("", r)).strip() for r in raw)
        return " ".join(s for s in cleaned if s)

    def module_rest(self, covered: set[int]) -> None:
        kept = [(n, t) for n, t in enumerate(self.lines) if n not in covered and t.strip()]
        if not kept:
            return
        self.chunks.append(
            Chunk(
                path=self.path,
                language=self.language,
                kind="module",
                symbol=self.module.rsplit(".", 1)[-1],
                qualname=self.module,
                code="\n".join(t for _, t in kept),
                start_line=kept[0][0] + 1,
                end_line=kept[-1][0] + 1,
            )
        )


def leading_comment(node: Node) -> Node | None:
    """The comment right above a definition (its doc comment), if any."""
    previous = node.prev_named_sibling
    if previous is None or "comment" not in previous.type:
        return None
    return previous if node.start_point[0] - previous.end_point[0] <= 1 else None


def _name(node: Node) -> str:
    name = node.child_by_field_name("name")
    return name.text.decode("utf-8") if name is not None and name.text else ""


def _type_name(node: Node) -> str:
    """Classes name themselves; Go's `type X struct` names its spec; Rust's impl its type."""
    if node.type == "type_declaration":
        spec = next((c for c in node.named_children if c.type == "type_spec"), None)
        return _name(spec) if spec is not None else ""
    if node.type == "impl_item":
        target = node.child_by_field_name("type")
        text = target.text.decode("utf-8") if target is not None and target.text else ""
        return re.sub(r"<.*", "", text)
    return _name(node)


def _descendants_in_body(node: Node) -> list[Node]:
    body = node.child_by_field_name("body")
    return list(body.named_children) if body is not None else []


def _function_value(declarator: Node) -> bool:
    value = declarator.child_by_field_name("value")
    return value is not None and value.type in (
        "arrow_function",
        "function_expression",
        "function",
        "generator_function",
    )


def _go_receiver(node: Node) -> str:
    receiver = node.child_by_field_name("receiver")
    text = receiver.text.decode("utf-8") if receiver is not None and receiver.text else ""
    found = re.findall(r"[A-Za-z_]\w*", text)
    return found[-1] if found else ""
