"""tree-sitter parsers for JavaScript, TypeScript (and TSX), Go, Rust, Java, C, C++, C#,
Ruby, PHP, Kotlin, Swift, Scala, Lua and shell (bash; Bats for its test files, zsh for
its own).

The only module that imports tree-sitter and its grammars: the chunker and the call-graph
resolvers both parse through `parse`, so a grammar is loaded once and both see the same tree.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from functools import cache
from itertools import pairwise
from typing import Any

import tree_sitter
import tree_sitter_bash
import tree_sitter_bats
import tree_sitter_c
import tree_sitter_c_sharp
import tree_sitter_cpp
import tree_sitter_go
import tree_sitter_java
import tree_sitter_javascript
import tree_sitter_kotlin
import tree_sitter_lua
import tree_sitter_php
import tree_sitter_ruby
import tree_sitter_rust
import tree_sitter_scala
import tree_sitter_swift
import tree_sitter_typescript
import tree_sitter_zsh

from codekith.languages import SHEBANG_BYTES, ZSH_DOTFILES, file_name, interpreter, suffix_of

Node = tree_sitter.Node
Tree = tree_sitter.Tree

_LOADERS: dict[str, Callable[[], Any]] = {
    "javascript": tree_sitter_javascript.language,
    "typescript": tree_sitter_typescript.language_typescript,
    "tsx": tree_sitter_typescript.language_tsx,
    "go": tree_sitter_go.language,
    "rust": tree_sitter_rust.language,
    "java": tree_sitter_java.language,
    "c": tree_sitter_c.language,
    "cpp": tree_sitter_cpp.language,
    "csharp": tree_sitter_c_sharp.language,
    "ruby": tree_sitter_ruby.language,
    "php": tree_sitter_php.language_php,  # `<?php` code with HTML around it
    "kotlin": tree_sitter_kotlin.language,
    "swift": tree_sitter_swift.language,
    "scala": tree_sitter_scala.language,
    "lua": tree_sitter_lua.language,
    "shell": tree_sitter_bash.language,
    "bats": tree_sitter_bats.language,  # bash with `@test "name" { … }` blocks
    "zsh": tree_sitter_zsh.language,
}
# tree-sitter-zsh 0.63.4 can loop forever (on `"${x//${y}[;$'\n']}"`, which bash
# frameworks write): a zsh parse gets this long, then bash's grammar reads the file
ZSH_PARSE_SECONDS = 3.0


def supports(language: str) -> bool:
    return language in _LOADERS


def grammar_of(path: str, language: str, data: bytes = b"") -> str:
    """The grammar for a file: `.tsx` files need the TSX grammar, not plain TypeScript; a
    `.h` header may be C++ (classes, namespaces), and the C++ grammar reads C headers too;
    a `.bats` test file is shell with test blocks, a `.zsh` file (and `.zshrc`, and a
    script whose `#!` line runs zsh) zsh."""
    name, suffix = file_name(path), suffix_of(path).lower()
    if suffix in (".tsx", ".bats"):
        return suffix[1:]
    if language == "shell" and (
        suffix in (".zsh", ".zsh-theme")
        or name in ZSH_DOTFILES
        or (not suffix and interpreter(data[:SHEBANG_BYTES]) == "zsh")
    ):
        return "zsh"
    return "cpp" if language == "c" and suffix == ".h" else language


@cache
def _parser(grammar: str) -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(_LOADERS[grammar]()))


def parse(grammar: str, data: bytes) -> Tree:
    if grammar == "kotlin":
        data = _KOTLIN_SPLIT_HEADER.sub(rb"\1 \2\n\n", data)
    elif grammar in ("c", "cpp") and b"#" in data:
        data = _one_opening(data)
    elif grammar == "zsh":
        return _bounded(grammar, data, ZSH_PARSE_SECONDS) or _parser("shell").parse(data)
    return _parser(grammar).parse(data)


def _bounded(grammar: str, data: bytes, seconds: float) -> Tree | None:
    """The tree, or None when the parse takes longer than `seconds` (py-tree-sitter checks
    the time only when it reads through a callable)."""
    deadline = time.monotonic() + seconds
    parser = _parser(grammar)
    try:
        return parser.parse(
            lambda offset, _: data[offset:],
            progress_callback=lambda *_: time.monotonic() > deadline,
        )
    except ValueError:  # "Parsing failed": cancelled
        parser.reset()  # else the next parse would resume this one
        return None


# tree-sitter-kotlin 1.1.0 ends a class header at a line break in a class body, so a nested
# `class Builder` with its `internal constructor(…)` on the next line (kotlinpoet's style)
# is an ERROR that swallows the rest of the file. The break moves to the end of the
# constructor's line: every other line keeps its row, so chunks and edges keep their lines.
_KOTLIN_SPLIT_HEADER = re.compile(
    rb"(\bclass[ \t]+\w+(?:<[^>\n]*>)?)[ \t]*\n"
    rb"([ \t]*(?:(?:@\w+|public|internal|protected|private|actual|expect)[ \t]+)*"
    rb"constructor\b[^\n]*)\n"
)


def _one_opening(data: bytes) -> bytes:
    """C code whose `#if` branches each open the same block (jq's `int umain(…) {` /
    `#else` / `int main(…) {` / `#endif` before one shared body) is an ERROR to tree-sitter
    from there on. The parser reads the last branch's opening (the `#else`: mostly the
    portable code) and what the other branches hold before theirs (jq's `wmain`); their
    openings and the directives become blanks, so every byte keeps its row and column."""
    lines = data.split(b"\n")
    groups: list[list[int]] = []  # each open group's directive rows
    for row, line in enumerate(lines):
        directive = _CONDITIONAL.match(line)
        if directive is None:
            continue
        if directive.group(1).startswith(b"if"):
            groups.append([row])
        elif groups:
            groups[-1].append(row)
            if directive.group(1) == b"endif":
                _keep_one_opening(lines, groups.pop())
    return b"\n".join(lines)


def _keep_one_opening(lines: list[bytes], rows: list[int]) -> None:
    """Blank a conditional group's directives and the openings of all but its last branch
    when each branch ends opening a block (`{`) it does not close."""
    branches = list(pairwise(rows))
    openings = [_opening(lines[start + 1 : end]) for start, end in branches]
    found = [at for at in openings if at is not None]
    if len(branches) < 2 or len(found) < len(branches):
        return
    blank = [rows[-2], rows[-1]]  # the last branch's directive, and `#endif`
    for (start, end), at in zip(branches[:-1], found, strict=False):
        blank += [start, *range(start + 1 + at, end)]
    for row in blank:
        lines[row] = re.sub(rb"\S", b" ", lines[row])


def _opening(branch: list[bytes]) -> int | None:
    """Where a branch's last statement starts, if it opens a block (`{` ends the branch's
    code) that nothing in the branch closes: after the blank line, `;` or `}` above it."""
    if any(_CONDITIONAL.match(line) for line in branch):
        return None  # nested: the inner group was judged on its own
    joined = _C_NOISE.sub(b"", b"\n".join(branch)).rstrip()
    if not joined.endswith(b"{") or joined.count(b"{") - joined.count(b"}") != 1:
        return None
    code = [_C_NOISE.sub(b"", line).strip() for line in branch]
    at = max(row for row, line in enumerate(code) if line)
    while at > 0 and code[at - 1] and not code[at - 1].endswith((b";", b"}", b"{")):
        at -= 1
    return at


_CONDITIONAL = re.compile(rb"\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b")
# comments, strings and characters, whose braces are no code
_C_NOISE = re.compile(rb'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def text(node: Node | None) -> str:
    """The source text of a node ("" for a missing one)."""
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""
