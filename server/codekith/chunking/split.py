"""Splitting of definitions too long for one embedding into parts that share the symbol."""

from __future__ import annotations

import dataclasses

from codekith.chunking.model import Chunk

MAX_CHUNK_CHARS = 6000
PART_CHARS = 3000


def split_oversized(chunks: list[Chunk], max_chars: int = MAX_CHUNK_CHARS) -> list[Chunk]:
    out: list[Chunk] = []
    for chunk in chunks:
        out.extend(_split(chunk) if len(chunk.code) > max_chars else [chunk])
    return out


def _split(chunk: Chunk) -> list[Chunk]:
    """Cut at line boundaries into parts of about PART_CHARS; line numbers follow the code.

    A module chunk's lines are not contiguous, so its parts keep the whole range.
    """
    lines = chunk.code.split("\n")
    parts: list[tuple[int, list[str]]] = []
    current: list[str] = []
    size = 0
    offset = 0
    for index, line in enumerate(lines):
        if current and size + len(line) > PART_CHARS:
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
