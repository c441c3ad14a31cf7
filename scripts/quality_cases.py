"""Case sets for the quality harness, built from a real repository and its git history.

* docstring -> definition: every tracked file is copied to a workspace; Python docstrings
  and the doc comments right above JavaScript/TypeScript/Go definitions are removed there.
  The first sentence of each removed text (4 words or more) is a query whose answer is the
  definition. A Go doc comment starts with the symbol's own name ("Use attaches ..."): that
  first word is dropped, since someone asking does not know the name.
* doc paragraph -> section: Markdown and reStructuredText files are copied too (a user's
  index holds them), each section without its first paragraph of prose; that paragraph's
  first sentence (4 words or more, markup taken off) is a query whose answer is the section.
* identifier: a symbol name, `Class.method`, and a fragment of a longer name (two or more
  of its camelCase/snake_case parts that occur in no other name): the definition must come
  first.
* literal: a code name (snake_case or camelCase, 6 letters or more) written in 1 to 3 of
  the source's definitions (or a file's rest) as a whole word, that no definition is
  called, no line assigns and no definition's name holds as a piece (search rightly leads
  with those): an environment variable, an attribute, a key, a local. Its answer is the
  code that holds it, as `grep -w` finds it, in the workspace (a comment may hold it).
* message: an error message as someone pastes it, the text of a string literal that a
  source definition (or a file's rest) raises, throws or makes an error of (`raise
  ValueError(f"...")`, `throw new TypeError("...")`, `errors.New`, `fmt.Errorf`, `panic`):
  4 words (apart) and 20 characters or more besides its placeholders, each placeholder printed as
  a value would be (`foo`, `'foo'` for `!r` and `%r`), after the error's name as Python
  and JavaScript print it (`ValueError: ...`; Go prints the message alone). Its answer is
  the code that holds the literal (1 to 3 definitions), in the workspace; `grep` is its
  longest piece between placeholders, what someone would grep for.
* snippet: code as someone pastes it, 1 to 4 consecutive lines (not blank) of a source
  function's or method's body, dedented, 40 characters or more (whitespace runs counting
  as one space) that no other chunk holds. Its answer is that definition; `grep` is its
  first line.
* co-change: functions changed together in one commit (2 to 6 functions in at most 4 source
  files, tests excluded) that still exist at the pinned commit; one of them is the target of
  `codekith related PATH:LINE`, the others are expected in the bundle.
* fix -> files: the subject of a commit that fixes something (a bug report's stand-in:
  written by someone describing a misbehaviour, naming what they saw) and the 1 to 3 source
  files it changed that still exist at the pinned commit. Issue numbers, conventional-commit
  prefixes and chores (typos, typing, docs, dependencies, reverts) are left out. The answer
  is a file: the question is where to look, not which line.

Cases are JSON lines that `codekith eval` reads.
"""

from __future__ import annotations

import ast
import json
import random
import re
import subprocess
import textwrap
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from codekith.chunking import Chunk, chunk_file
from codekith.chunking.text import RST_UNDERLINE  # the chunker's own reST heading rule
from codekith.chunking.treesitter import SHELL_DIRECTIVE  # what a shell docstring leaves out
from codekith.languages import DOC_LANGUAGES, PYTHON, language_at, language_from, language_of
from codekith.qualnames import PROJECT_FILES
from codekith.sidecode import is_test_path
from codekith.template import split_identifier
from codekith.workspace import VENDORED_DIRS, content_reason
from eval_docstrings import (
    MIN_WORDS,
    chunk_definitions,
    copied_names,
    first_sentence,
    strip_docstrings,
)

CODE_KINDS = ("function", "method", "class")
CODE_LANGUAGES = (PYTHON, "javascript", "typescript", "go")
SECTION_CASE_LANGUAGES = ("markdown", "rst")
_PROSE = re.compile(r"^[A-Za-z]")
_COMMENT_LINE = re.compile(r"^\s*(//|/\*|\*)")
_HASH_COMMENT_LINE = re.compile(r"^\s*#(?![!{])")  # Ruby's doc comments (not `#!`, `#{`)
_DASH_COMMENT_LINE = re.compile(r"^\s*--")  # Lua's
HASH_COMMENTS = ("ruby", "shell")
DASH_COMMENTS = ("lua",)
_COMMENT_MARK = re.compile(r"^\s*(/\*\*?|\*/|\*|///?)\s?")
_XML_REFERENCE = re.compile(r'<(?:see|paramref|typeparamref)\s+\w+="([^"]*)"\s*/>')
_XML_DETAIL = re.compile(r"\s*<(param|typeparam|returns|exception|example|value)\b")
_XML_TAG = re.compile(r"</?\w+[^>]*>")
_HASH_MARK = re.compile(r"^\s*#\s?")
_HASHES_MARK = re.compile(r"^\s*#+\s?")  # shell banners: `#####`, `## Installs …`
_DASH_MARK = re.compile(r"^\s*-{2,}\s?")
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)
MAX_COCHANGE_FILES = 4
MAX_COCHANGE_FUNCTIONS = 6
COCHANGE_POOL = 3  # newest commits first, stop at this many times the cap
_WORD = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
LITERAL_MIN_LETTERS = 6
LITERAL_MAX_HOLDERS = 3
_RAISED = re.compile(  # a string literal raised, thrown or made an error, on one line
    r"(?:\braise\s+(?P<py>[\w.]+)\s*\(|\bthrow\s+new\s+(?P<js>[\w.]+)\s*\("
    r"|\berrors\.New\(|\bfmt\.Errorf\(|\bpanic\()\s*"
    r"(?P<prefix>[fFrRuU]{0,2})(?P<quote>[\"'`])(?P<text>(?:\\.|(?!(?P=quote))[^\n\\])*)(?P=quote)"
)
PLACEHOLDER = re.compile(  # f-string and format fields, %-verbs (Python's and Go's), ${...}
    r"\$\{[^{}]*\}|\{[^{}]*\}|%(?:\([\w]+\))?[-#0 +]*\d*(?:\.\d+)?[sdrifxXoeEgGcvqwT]"
)
MESSAGE_MIN_WORDS = 4
MESSAGE_MIN_CHARS = 20
SNIPPET_MIN_CHARS = 40


def git(repo: Path, *args: str) -> str:
    """git's output; bytes that are not UTF-8 (an old commit's Latin-1 subject or path)
    become U+FFFD instead of failing the whole history."""
    return subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        encoding="utf-8",
        errors="replace",
    ).stdout


def tracked_files(repo: Path) -> list[str]:
    return [line for line in git(repo, "ls-files").splitlines() if line]


def is_vendored(path: str) -> bool:
    return any(part in VENDORED_DIRS for part in path.split("/")[:-1])


def is_code(path: str, languages: tuple[str, ...] = CODE_LANGUAGES) -> bool:
    """A file of a chunked language that is not a vendored copy: what the index holds."""
    return language_of(path) in languages and not is_vendored(path)


def is_source(path: str, languages: tuple[str, ...] = CODE_LANGUAGES) -> bool:
    """Code that the cases may point at: not a test as search ranks tests
    (`sidecode.is_test_path`), so the answers are the project's own code as the product
    sees it."""
    return is_code(path, languages) and not is_test_path(path)


# -- docstring cases ---------------------------------------------------------------------


def python_docs(rel: str, source: str, module: str) -> tuple[str, list[tuple[str, str]]]:
    tree = ast.parse(source)
    found = []
    for qualname, node in chunk_definitions(tree, module):
        docstring = ast.get_docstring(node)
        if docstring:
            found.append((qualname, first_sentence(docstring)))
    return strip_docstrings(source), found


def _comment_marks(language: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(a comment line, the mark that opens it) of a language's doc comments."""
    if language in HASH_COMMENTS:
        return _HASH_COMMENT_LINE, _HASHES_MARK if language == "shell" else _HASH_MARK
    if language in DASH_COMMENTS:
        return _DASH_COMMENT_LINE, _DASH_MARK
    return _COMMENT_LINE, _COMMENT_MARK


def _comment_text(lines: list[str], language: str) -> str:
    marks = _comment_marks(language)[1]
    text = []
    for line in lines:
        if language == "shell" and SHELL_DIRECTIVE.match(line):
            continue
        cleaned = marks.sub("", line.rstrip()).removesuffix("*/")
        if language == "csharp":  # `/// <summary>Gets the <see cref="JsonToken"/>.`
            if _XML_DETAIL.match(cleaned):
                break
            cleaned = _XML_TAG.sub("", _XML_REFERENCE.sub(r"\1", cleaned))
        if cleaned.strip().startswith("@"):
            break
        text.append(cleaned)
    return "\n".join(text)


def _comment_above(lines: list[str], index: int, taken: set[int], language: str) -> list[int]:
    """Indexes of the comment lines ending at `index`, going up: `//` lines (`#` in Ruby),
    or a `/* … */` block whole, its inner lines starred or not (ky writes its JSDoc
    unstarred; taking only the lines that look like comment lines left an unclosed `/**`
    behind)."""
    comment_line = _comment_marks(language)[0]
    block: list[int] = []
    while index >= 0 and index not in taken:
        line = lines[index]
        if line.rstrip().endswith("*/") and "/*" not in line:
            opener = next((i for i in range(index - 1, -1, -1) if "/*" in lines[i]), None)
            if opener is None or any(i in taken for i in range(opener, index)):
                break
            block += range(index, opener - 1, -1)
            index = opener - 1
        elif comment_line.match(line):
            block.append(index)
            index -= 1
        else:
            break
    return block


def without_go_name(language: str, sentence: str, symbol: str) -> str:
    """A Go doc comment opens with the definition's name ("Context is ..."), which a
    question would not say."""
    words = sentence.split()
    if language == "go" and words and words[0] == symbol:
        return " ".join(words[1:])
    return sentence


def comment_docs(rel: str, language: str, source: str) -> tuple[str, list[tuple[str, str]]]:
    """Doc comments right above definitions removed; (qualname, first sentence) of each.
    A long definition's later parts (chunks of its qualname right after the one before)
    carry its docstring too, but what is above them is its own code or comments: taking
    that for a doc comment cut a KDoc in half (okio's `Buffer.UnsafeCursor`), and the
    copy no longer parsed."""
    lines = source.splitlines(keepends=True)
    remove: set[int] = set()
    found = []
    chunks = chunk_file(rel, language, source).chunks
    ends = {(c.kind, c.qualname, c.end_line) for c in chunks}
    for chunk in chunks:
        if chunk.kind not in CODE_KINDS or not chunk.docstring:
            continue
        if (chunk.kind, chunk.qualname, chunk.start_line - 1) in ends:
            continue  # a later part of a definition
        block = _comment_above(lines, chunk.start_line - 2, remove, language)
        if not block:
            continue
        remove |= set(block)
        sentence = first_sentence(_comment_text([lines[i] for i in sorted(block)], language))
        found.append((chunk.qualname, without_go_name(language, sentence, chunk.symbol)))
    stripped = "".join(line for i, line in enumerate(lines) if i not in remove)
    return stripped, found


@dataclass
class Questions:
    """{question: [answers' qualnames]} of the doc text a workspace was built without."""

    definitions: dict[str, list[str]]  # docstrings and doc comments
    sections: dict[str, list[str]]  # the first paragraphs of documentation sections


def build_workspace(
    repo: Path, workspace: Path, languages: tuple[str, ...] = CODE_LANGUAGES
) -> Questions:
    """Copy the tracked code and documentation files, as a user's index holds them: code
    with its doc text removed, Markdown and reStructuredText without each section's first
    paragraph (`doc_paragraphs`), the rest as they are. Project files (pyproject.toml) stay
    out: beside code they declare source roots, so the copy would name its modules unlike
    the cases (`copied_names`: a copy of the Python files and packages only)."""
    by_query: dict[str, list[str]] = defaultdict(list)
    by_section: dict[str, list[str]] = defaultdict(list)
    tracked = tracked_files(repo)
    names = copied_names(repo, tracked)
    for rel in tracked:
        source_path = repo / rel
        language = language_at(repo, rel)  # scripts by their `#!` line, as the index reads
        documentation = (
            language in DOC_LANGUAGES
            and not is_vendored(rel)
            and PurePosixPath(rel).name not in PROJECT_FILES
        )
        if language is None or (language not in languages and not documentation):
            continue
        if source_path.is_symlink() or not source_path.is_file():
            continue
        target = workspace / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        data = source_path.read_bytes()
        if documentation:
            text = _decoded(data) if language in SECTION_CASE_LANGUAGES else None
            if text is None:
                target.write_bytes(data)
                continue
            stripped, found = doc_paragraphs(rel, language, text)
            target.write_text(stripped, encoding="utf-8")
            for sentence, qualname in found:
                by_section[sentence].append(qualname)
            continue
        if is_vendored(rel):
            target.write_bytes(data)
            continue
        try:
            source = data.decode("utf-8")
            if language == PYTHON:
                stripped, found = python_docs(rel, source, names(rel))
                ast.parse(stripped)
            else:
                stripped, found = comment_docs(rel, language, source)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            target.write_bytes(data)
            continue
        target.write_text(stripped, encoding="utf-8")
        for qualname, sentence in found:
            if len(sentence.split()) >= MIN_WORDS:
                by_query[sentence].append(qualname)
    return Questions(by_query, by_section)


def _decoded(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def doc_paragraphs(rel: str, language: str, source: str) -> tuple[str, list[tuple[str, str]]]:
    """The document without each section's first paragraph of prose, and (that paragraph's
    first sentence, markup taken off; the section's qualname in the document without it)
    for each sentence of MIN_WORDS words or more. Prose is a block of lines that starts
    with a letter at the left margin: not a heading, list, table, directive, quote or
    indented code."""
    lines = source.splitlines()
    removed: list[tuple[int, int, str]] = []  # first line, past the last, sentence
    for chunk in chunk_file(rel, language, source).chunks:
        block = _first_prose(lines, chunk.start_line - 1, chunk.end_line)
        if block is None:
            continue
        first, last = block
        sentence = first_sentence(_plain(" ".join(lines[first:last])))
        rest = [line for line in lines[chunk.start_line : chunk.end_line] if line.strip()]
        if len(sentence.split()) >= MIN_WORDS and len(rest) > last - first:
            removed.append((first, last, sentence))
    kept = list(lines)
    for first, last, _ in sorted(removed, reverse=True):
        del kept[first:last]
    text = "\n".join(kept) + ("\n" if source.endswith("\n") else "")
    sections = chunk_file(rel, language, text).chunks
    found = []
    for first, _, sentence in removed:
        line = first - sum(b - a for a, b, _ in removed if b <= first)  # 0-based, after
        owner = [c for c in sections if c.start_line <= line <= c.end_line]
        if owner:
            found.append((sentence, owner[-1].qualname))
    return text, found


def _first_prose(lines: list[str], start: int, end: int) -> tuple[int, int] | None:
    """(first line, past the last) of the first prose paragraph in lines[start:end]."""
    index = start + 1  # the section's first line is its heading (or the file's first line)
    fenced = False
    while index < end:
        line = lines[index]
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and _starts_prose(lines, index, start):
            last = index
            while last < end and lines[last].strip() and not RST_UNDERLINE.match(lines[last]):
                last += 1
            if last < end and RST_UNDERLINE.match(lines[last]):  # a heading's title
                index = last + 1
                continue
            return index, last
        index += 1
    return None


def _starts_prose(lines: list[str], index: int, start: int) -> bool:
    """Whether a paragraph of prose starts at lines[index]: a letter at the left margin
    after a blank line, a heading or the section's start (not the middle of a paragraph
    that opened with markup)."""
    line, before = lines[index], lines[index - 1]
    opens = index == start + 1 or not before.strip() or bool(RST_UNDERLINE.match(before))
    return opens and bool(_PROSE.match(line)) and not RST_UNDERLINE.match(line)


def _plain(text: str) -> str:
    """Markdown and reStructuredText markup off: links keep their text, roles and code
    marks their content."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # [text](url)
    text = re.sub(r"`([^`<]+?)\s*<[^>]+>`_+", r"\1", text)  # `text <url>`_
    text = re.sub(r":[\w:.-]+:`~?([^`]+)`", r"\1", text)  # :role:`target`
    text = re.sub(r"`+([^`]+)`+_?", r"\1", text)  # ``code``, `code`
    return re.sub(r"(\*\*|__|\*)(\S.*?\S|\S)\1", r"\2", text)  # **bold**, *em*


def docstring_cases(by_query: dict[str, list[str]], cap: int, seed: int) -> list[dict[str, Any]]:
    queries = sorted(by_query)
    if len(queries) > cap:
        queries = sorted(random.Random(seed).sample(queries, cap))
    return [{"query": q, "expected": sorted(set(by_query[q]))} for q in queries]


# -- identifier cases --------------------------------------------------------------------


def source_chunks(code: list[Chunk], languages: tuple[str, ...] = CODE_LANGUAGES) -> list[Chunk]:
    """The definitions among `code_chunks` that the cases may point at."""
    return [c for c in code if c.kind in CODE_KINDS and is_source(c.path, languages)]


def code_chunks(repo: Path, copy: Path | None = None) -> list[Chunk]:
    """Every chunk of the code the index holds: tests and modules too (search finds them
    by name as well); of the files as they are in `copy` (the workspace) when given."""
    chunks: list[Chunk] = []
    tracked = tracked_files(repo)
    names = copied_names(repo, tracked)
    for rel in tracked:
        if not is_code(rel):
            continue
        try:
            data = ((copy or repo) / rel).read_bytes()
            source = data.decode("utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if content_reason(rel, data) is not None:  # generated: the index leaves it out
            continue
        chunks += chunk_file(rel, language_of(rel) or "", source, names(rel)).chunks
    return chunks


def _fragment(symbol: str, parts: list[str], rng: random.Random) -> str | None:
    """Two or more consecutive name parts, as written in the symbol, not the whole name."""
    if len(parts) < 3:
        return None
    size = rng.randint(2, len(parts) - 1)
    start = rng.randint(0, len(parts) - size)
    pattern = r"[_]?".join(re.escape(p) for p in parts[start : start + size])
    match = re.search(pattern, symbol, re.IGNORECASE)
    return match.group(0).strip("_") if match else None


def identifier_cases(
    chunks: list[Chunk], per_kind: int, seed: int, indexed: Iterable[str] = ()
) -> list[dict[str, Any]]:
    """Names, `Class.method` and fragments of the source's definitions. A fragment that is
    itself the name of something else the index holds (`indexed`: tests, modules) is no
    fragment case: search rightly puts the exact name first (`test_request` is a test
    module's name as well as a piece of `test_request_context`)."""
    rng = random.Random(seed)
    by_symbol: dict[str, set[str]] = defaultdict(set)
    for chunk in chunks:
        by_symbol[chunk.symbol].add(chunk.qualname)
    symbols = sorted(s for s in by_symbol if len(s) >= 4 and not s.startswith("__"))
    cases = [
        {"query": s, "expected": sorted(by_symbol[s]), "type": "symbol"}
        for s in rng.sample(symbols, min(per_kind, len(symbols)))
    ]
    methods = sorted(
        {c.qualname for c in chunks if c.kind == "method" and not c.symbol.startswith("__")}
    )
    for qualname in rng.sample(methods, min(per_kind, len(methods))):
        short = ".".join(qualname.split(".")[-2:])
        # every definition so named answers it, as every one of a symbol's does above: a
        # TypeScript declaration (index.d.ts) and its implementation, two classes of a name
        named = sorted({c.qualname for c in chunks if c.qualname.endswith(f".{short}")})
        cases.append({"query": short, "expected": named, "type": "Class.method"})
    lowered = {s: s.lower().replace("_", "") for s in by_symbol}
    exact = set(indexed)
    fragments = []
    for symbol in rng.sample(symbols, len(symbols)):
        fragment = _fragment(symbol, split_identifier(symbol), rng)
        if not fragment or len(fragment) < 6 or fragment in exact:
            continue
        key = fragment.lower().replace("_", "")
        owners = [s for s, low in lowered.items() if key in low]
        if owners == [symbol]:
            fragments.append(
                {"query": fragment, "expected": sorted(by_symbol[symbol]), "type": "fragment"}
            )
        if len(fragments) == per_kind:
            break
    return cases + fragments


# -- literal cases -----------------------------------------------------------------------


def literal_cases(chunks: list[Chunk], cap: int, seed: int) -> list[dict[str, Any]]:
    """`chunks`: the workspace's (`code_chunks(checkout, workspace)`), tests included, whose
    names count as definitions too."""
    # here, not at the top: `table` still runs with an older codekith on PYTHONPATH (the
    # figures before a change), which has no is_code_name
    from codekith.search import assigns, is_code_name

    pieces = {
        "_".join(parts[start:end])
        for chunk in chunks
        if chunk.symbol
        for parts in [split_identifier(chunk.symbol)]
        for start in range(len(parts))
        for end in range(start + 1, len(parts) + 1)
    }
    holders: dict[str, set[str]] = defaultdict(set)
    for chunk in chunks:
        if chunk.kind in (*CODE_KINDS, "module") and is_source(chunk.path):
            for word in set(_WORD.findall(chunk.code)):
                if len(word.strip("_")) >= LITERAL_MIN_LETTERS and is_code_name(word):
                    holders[word].add(chunk.qualname)
    named = {w for w in holders if "_".join(split_identifier(w)) in pieces}
    settings = [c for c in chunks if c.kind in ("module", "class")]
    assigned = {
        word
        for word in holders.keys() - named
        for chunk in settings
        if word in chunk.code and assigns(chunk.code, word, chunk.kind == "class")
    }
    pool = sorted(
        word
        for word, where in holders.items()
        if len(where) <= LITERAL_MAX_HOLDERS and word not in named and word not in assigned
    )
    chosen = random.Random(seed).sample(pool, min(cap, len(pool)))
    return [{"query": word, "expected": sorted(holders[word])} for word in chosen]


# -- message cases ---------------------------------------------------------------------


def message_cases(chunks: list[Chunk], cap: int, seed: int) -> list[dict[str, Any]]:
    """`chunks`: the workspace's (`code_chunks(checkout, workspace)`)."""
    code = [c for c in chunks if c.kind in (*CODE_KINDS, "module") and is_source(c.path)]
    queries: dict[str, str] = {}  # query -> the literal as the code writes it
    for chunk in code:
        for match in _RAISED.finditer(chunk.code):
            text = match["text"]
            static = " ".join(PLACEHOLDER.sub(" ", text).split())
            words = [t for t in static.split() if re.search(r"[A-Za-z]", t)]
            if len(static) < MESSAGE_MIN_CHARS or len(words) < MESSAGE_MIN_WORDS:
                continue
            name = (match["py"] or match["js"] or "").rsplit(".", 1)[-1]
            message = PLACEHOLDER.sub(_printed, text)
            queries.setdefault(f"{name}: {message}" if name else message, text)
    cases = []
    for query, text in sorted(queries.items()):
        holders = sorted({c.qualname for c in code if text in c.code})
        if holders and len(holders) <= LITERAL_MAX_HOLDERS:
            grep = max((p.strip() for p in PLACEHOLDER.split(text)), key=len)
            cases.append({"query": query, "expected": holders, "grep": grep})
    return random.Random(seed).sample(cases, min(cap, len(cases)))


def _printed(placeholder: re.Match[str]) -> str:
    """A value where a message has a placeholder, quoted where its repr would be."""
    field = placeholder.group(0)
    return "'foo'" if field.endswith(("!r}", "r")) or field == "%q" else "foo"


# -- snippet cases ---------------------------------------------------------------------


def snippet_cases(chunks: list[Chunk], cap: int, seed: int) -> list[dict[str, Any]]:
    """`chunks`: the workspace's (`code_chunks(checkout, workspace)`)."""
    code = [c for c in chunks if is_source(c.path)]
    flat = [" ".join(c.code.split()) for c in code]
    rng = random.Random(seed)
    order = [i for i, c in enumerate(code) if c.kind in ("function", "method")]
    rng.shuffle(order)
    cases: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index in order:
        lines = [line for line in code[index].code.splitlines()[1:] if line.strip()]
        if len(lines) < 2:
            continue
        size = rng.randint(1, min(4, len(lines)))
        start = rng.randint(0, len(lines) - size)
        window = textwrap.dedent("\n".join(lines[start : start + size]))
        written = " ".join(window.split())
        if len(written) < SNIPPET_MIN_CHARS or written in seen:
            continue
        seen.add(written)
        if sum(1 for text in flat if written in text) == 1:
            grep = window.splitlines()[0].strip()
            cases.append({"query": window, "expected": [code[index].qualname], "grep": grep})
            if len(cases) == cap:
                break
    return cases


# -- co-change cases ---------------------------------------------------------------------


@dataclass(frozen=True)
class Changed:
    path: str
    qualname: str


def _changed_spans(diff: str) -> list[tuple[int, int]]:
    spans = []
    for match in _HUNK.finditer(diff):
        start, count = int(match[1]), int(match[2] or 1)
        spans.append((start, start + max(count, 1) - 1))
    return spans


def changed_definitions(
    repo: Path, commit: str, path: str, module: str | None, kinds: tuple[str, ...]
) -> list[Chunk]:
    """The chunks of `kinds` in `path` as `commit` left it that its diff touches (git's
    CalledProcessError when the commit cannot show that path)."""
    spans = _changed_spans(git(repo, "diff", "-U0", f"{commit}^", commit, "--", path))
    source = git(repo, "show", f"{commit}:{path}")
    language = language_from(path, source.encode("utf-8"))
    chunks = chunk_file(path, language or "", source, module).chunks
    return [
        chunk
        for chunk in chunks
        if chunk.kind in kinds
        and any(a <= chunk.end_line and chunk.start_line <= b for a, b in spans)
    ]


def _functions_changed(repo: Path, commit: str, paths: list[str]) -> set[Changed]:
    changed: set[Changed] = set()
    names = copied_names(repo, tracked_files(repo))
    for path in paths:
        try:
            chunks = changed_definitions(repo, commit, path, names(path), ("function", "method"))
        except subprocess.CalledProcessError:
            continue
        changed |= {Changed(path, chunk.qualname) for chunk in chunks}
    return changed


def commit_log(repo: Path) -> Iterable[tuple[str, str, list[str]]]:
    """(commit, subject, paths it changed), newest first, merges left out. Where the
    mirror lacks old blobs (koin's), rename detection cannot read them: the log is read
    without it, a rename then listing both paths."""
    listing = ["log", "--no-merges", "--format=@%H %s", "--name-only"]
    try:
        log = git(repo, *listing)
    except subprocess.CalledProcessError:
        log = git(repo, *listing, "--no-renames")
    commit, subject, paths = "", "", list[str]()
    for line in log.splitlines():
        if line.startswith("@"):
            if commit:
                yield commit, subject, paths
            commit, _, subject = line[1:].partition(" ")
            paths = []
        elif line.strip():
            paths.append(line.strip())
    if commit:
        yield commit, subject, paths


def cochange_cases(
    repo: Path,
    chunks: list[Chunk],
    cap: int,
    seed: int,
    languages: tuple[str, ...] = CODE_LANGUAGES,
) -> list[dict[str, Any]]:
    # By qualname: a file moved since (into src/, say) keeps its functions' qualnames.
    current = {c.qualname: c for c in chunks if c.kind in ("function", "method")}
    seen: set[frozenset[str]] = set()
    groups: list[tuple[str, list[str]]] = []
    for commit, _, paths in commit_log(repo):
        code = [p for p in paths if is_source(p, languages)]
        if not code or len(code) > MAX_COCHANGE_FILES or len(paths) > 2 * MAX_COCHANGE_FILES + 2:
            continue
        changed = _functions_changed(repo, commit, code)
        alive = frozenset(c.qualname for c in changed if c.qualname in current)
        if not 2 <= len(changed) <= MAX_COCHANGE_FUNCTIONS or len(alive) < 2 or alive in seen:
            continue
        seen.add(alive)
        groups.append((commit, sorted(alive)))
        if len(groups) >= COCHANGE_POOL * cap:
            break
    rng = random.Random(seed)
    if len(groups) > cap:
        groups = rng.sample(groups, cap)
    cases = []
    for commit, members in sorted(groups):
        target = rng.choice(members)
        chunk = current[target]
        cases.append(
            {
                "query": f"{chunk.path}:{chunk.start_line}",
                "expected": [m for m in members if m != target],
                "target": target,
                "commit": commit,
            }
        )
    return cases


MAX_FIX_FILES = 3
MIN_FIX_WORDS = 4
_FIX = re.compile(
    r"\b(fix(es|ed)?|bugs?|crash\w*|regression|broken|wrong|incorrect\w*|fails?|failing|"
    r"prevents?|avoids?|respects?|don'?t|doesn'?t|no longer)\b",
    re.IGNORECASE,
)
_CHORE = re.compile(
    r"\b(typos?|typing|type hints?|types|mypy|lint\w*|flake8|codespell|spell\w*|format\w*|"
    r"style|docs?|docstrings?|comments?|readme|changelog|deps|dependenc\w*|bump\w*|"
    r"revert\w*|release|version|ci|tests?|pre-commit|examples?|build)\b",
    re.IGNORECASE,
)
_ISSUE_REFERENCE = re.compile(
    r"\s*\((?:[^()]*#\d+[^()]*)\)|\b(?:closes|fixes|fix|refs?|see|gh)?\s*#\d+|\bgh-\d+",
    re.IGNORECASE,
)
_DANGLING = re.compile(r"([.,]?\s+(this|that|for|in|to|see|and|of))+\W*$", re.IGNORECASE)
_CONVENTIONAL = re.compile(r"^(fix|bug|hotfix)(\([^)]*\))?!?:\s*", re.IGNORECASE)
_OTHER_CONVENTIONAL = re.compile(r"^\w+(\([^)]*\))?!?:\s")


def fix_query(subject: str) -> str | None:
    """The subject as a question's stand-in, or None when it is not about a fix."""
    if not _FIX.search(subject) or _CHORE.search(subject):
        return None
    text = _CONVENTIONAL.sub("", subject.strip())
    if _OTHER_CONVENTIONAL.match(text):  # feat:, refactor:, chore: ...
        return None
    text = _ISSUE_REFERENCE.sub("", text)
    text = _DANGLING.sub("", text).strip(" .;:-")
    return text if len(text.split()) >= MIN_FIX_WORDS else None


def _paths_now(tracked: list[str]) -> dict[str, str]:
    """A path as a past commit wrote it -> the tracked path now: itself, or the one tracked
    path that ends with it (`flask/app.py` moved to `src/flask/app.py`)."""
    now = {path: path for path in tracked}
    by_tail: dict[str, list[str]] = defaultdict(list)
    for path in tracked:
        parts = path.split("/")
        for start in range(1, len(parts)):
            by_tail["/".join(parts[start:])].append(path)
    for tail, paths in by_tail.items():
        if tail not in now and len(paths) == 1 and "/" in tail:
            now[tail] = paths[0]
    return now


def fix_cases(repo: Path, cap: int, seed: int) -> list[dict[str, Any]]:
    now = _paths_now(tracked_files(repo))
    pool: list[dict[str, Any]] = []
    seen: set[str] = set()
    for commit, subject, paths in commit_log(repo):
        query = fix_query(subject)
        code = sorted({now.get(p, "") for p in paths if is_source(p)})
        if query is None or not 1 <= len(code) <= MAX_FIX_FILES or query.lower() in seen:
            continue
        if "" in code:  # a file removed since (or ambiguous): its answer is gone
            continue
        seen.add(query.lower())
        pool.append({"query": query, "expected": code, "commit": commit})
        if len(pool) >= COCHANGE_POOL * cap:
            break
    rng = random.Random(seed)
    chosen = rng.sample(pool, cap) if len(pool) > cap else pool
    return sorted(chosen, key=lambda case: case["commit"])


def write_cases(cases: list[dict[str, Any]], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
