"""Splitting of chunks too long for one embedding into parts that share the symbol."""

from __future__ import annotations

import dataclasses

from codekith.chunking.model import Chunk

# The model reads a document's first 256 tokens, about 650 characters of code after its
# header. The rest of a file (imports, constants, top-level calls: a JavaScript adapter
# exported as an expression, a test file's test(...) calls) is cut into parts the model
# reads whole; definitions and documentation sections keep long parts (docs/DESIGN.md,
# "The rest of a file in parts the model reads whole").
MAX_MODULE_CHARS = 1200
MODULE_PART_CHARS = 700
MAX_CHUNK_CHARS = 6000
PART_CHARS = 3000


def split_oversized(chunks: list[Chunk]) -> list[Chunk]:
    out: list[Chunk] = []
    for chunk in chunks:
        module = chunk.kind == "module"
        limit, part = (
            (MAX_MODULE_CHARS, MODULE_PART_CHARS) if module else (MAX_CHUNK_CHARS, PART_CHARS)
        )
        out.extend(_split(chunk, part) if len(chunk.code) > limit else [chunk])
    return out


def _split(chunk: Chunk, part_chars: int) -> list[Chunk]:
    """Cut at line boundaries into parts of about `part_chars`; line numbers follow the code.

    A module chunk's lines are not contiguous, so its parts keep the whole range.
    """
    lines = chunk.code.split("\n")
    parts: list[tuple[int, list[str]]] = []
    current: list[str] = []
    size = 0
    offset = 0
    for index, line in enumerate(lines):
        if current and size + len(line) > part_chars:
            parts.append((offset, current))
            current, size, offset = [], 0, index
        current.append(line)
        size += len(line) + 1
    parts.append((offset, current))
    contiguous = chunk.kind != "module"
    return [
        dataclasses.replace(
            chunk,
            code="\n".join(body),
            start_line=chunk.start_line + first if contiguous else chunk.start_line,
            end_line=chunk.start_line + first + len(body) - 1 if contiguous else chunk.end_line,
        )
        for first, body in parts
    ]
