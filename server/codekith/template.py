"""The text that is embedded for a chunk, and the text the full-text index sees.

Changing `TEMPLATE_VERSION` invalidates every stored vector: the store notices the mismatch
and rebuilds. Changing `TEXT_VERSION` (the full-text rule) re-embeds nothing: the next index
run rewrites every stored chunk's full-text text from its row (`row_search_text`). Line
numbers are never part of either text, so moving code re-embeds nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the chunkers load tree-sitter: `status` needs only TEMPLATE_VERSION
    from codekith.chunking import Chunk

TEMPLATE_VERSION = "2"  # 2: the vector cache is keyed by the document (examine.chunk_row)
# the full-text rule of chunk_search_text (an index without one has "1"; 3: compound names)
TEXT_VERSION = "3"
NAME_WEIGHT = 4  # how often a definition's own name counts in its full-text text
HEADER_END = "\n# ---\n"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
COMPOUND_LETTERS = 6  # the shortest lower-case name part split into words (`keymap`)
_COMPOUND = re.compile(rf"[a-z]{{{COMPOUND_LETTERS},}}")
# two-letter words a compound's pieces may be; other pieces have 3 letters at least, so that
# an abbreviation is not cut into syllables (`kwargs` -> k, war, gs stays whole)
_SHORT_WORDS = frozenset(
    ["an", "as", "at", "be", "by", "do", "if", "in", "is", "no", "of", "on", "or", "to", "up"]
)


def document(chunk: Chunk) -> str:
    """Header (path, kind, qualname, signature, docstring if not in the code, imports) + code."""
    header = [f"# {chunk.path}", f"# {chunk.kind} {chunk.qualname}"]
    if chunk.signature and chunk.signature not in chunk.code:
        header.append(f"# {chunk.signature}")
    if chunk.docstring and chunk.docstring[:40] not in chunk.code:
        header.append(f"# {chunk.docstring.strip().splitlines()[0][:200]}")
    if chunk.imports:
        header.append(f"# imports: {', '.join(chunk.imports[:12])}")
    return "\n".join(header) + HEADER_END + chunk.code


def name_phrase(symbol: str, qualname: str) -> str:
    """A definition's own name as words (`get_send_file_max_age` -> "get send file max
    age"): the search embeds it to compare with a question, which often paraphrases it."""
    return " ".join(_identifier_parts(symbol or qualname.rpartition(".")[2]))


def code_of(doc: str) -> str:
    """The code part of a document made by `document`."""
    return doc.split(HEADER_END, 1)[-1]


def split_identifier(word: str) -> list[str]:
    """`getUserById` -> get, user, by, id; `HTTPServer_v2` -> http, server, v, 2."""
    return list(_identifier_parts(word))


@lru_cache(maxsize=1 << 14)
def _identifier_parts(word: str) -> tuple[str, ...]:
    """Identifiers repeat across a repository: splitting them afresh was two thirds of the
    full-text work."""
    return tuple(p.lower() for part in word.split("_") for p in _CAMEL_PARTS.findall(part))


def search_text(text: str) -> str:
    """Words for the full-text index: each identifier whole and split into its parts, and a
    part that runs words together in lower case followed by those words (`partitionby` ->
    partitionby, partition, by): a question says "partition", never "partitionby"."""
    words: list[str] = []
    for identifier in _IDENTIFIER.findall(text):
        parts = _identifier_parts(identifier)
        lowered = identifier.lower().strip("_")
        if len(parts) > 1 and lowered:
            words.append(lowered)
        for part in parts:
            words.append(part)
            words.extend(compound_pieces(part))
    return " ".join(words)


@lru_cache(maxsize=1 << 14)
def compound_pieces(part: str) -> tuple[str, ...]:
    """The English words a lower-case name part runs together (`itemfilter` -> item,
    filter), by word frequencies (wordninja's own list); none for a word, or when a piece
    is too short to be a word of its own (see scripts/eval_text_rules.py for the figures)."""
    if not _COMPOUND.fullmatch(part):
        return ()
    import wordninja  # its word list takes 80 ms to load: only once a name needs it

    pieces = tuple(wordninja.split(part))
    if not 2 <= len(pieces) <= 3:
        return ()
    if any(len(p) < 3 and p not in _SHORT_WORDS for p in pieces):
        return ()
    return pieces


def chunk_search_text(chunk: Chunk) -> str:
    return _definition_text(chunk.qualname, chunk.symbol, chunk.docstring, chunk.code)


def row_search_text(row: dict[str, Any]) -> str:
    """`chunk_search_text` of a stored chunk row (the rule may have changed since it was
    written)."""
    code = code_of(row["document"])
    return _definition_text(row["qualname"], row["symbol"] or "", row["docstring"] or "", code)


@lru_cache(maxsize=512)  # a save re-examines its file: most of its chunks did not change
def _definition_text(qualname: str, symbol: str, docstring: str, code: str) -> str:
    """Qualname, docstring and code, with the definition's own name NAME_WEIGHT times: BM25
    has no field weights, and a question about a definition matches its name best (chosen
    on the tuning repositories with scripts/eval_fulltext.py). The path is left out: the
    qualname carries the module's name."""
    text = search_text(f"{qualname} {docstring} {code}")
    return f"{text} {search_text(' '.join([symbol] * (NAME_WEIGHT - 1)))}" if symbol else text
