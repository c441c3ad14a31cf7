"""Splitting of chunks too long for one embedding into parts that share the symbol."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from codekith.chunking.model import Chunk

MAX_CHUNK_CHARS = 6000
PART_CHARS = 3000


def split_oversized(chunks: list[Chunk]) -> list[Chunk]:
    """Definitions and sections over MAX_CHUNK_CHARS in parts of about PART_CHARS whose
    lines follow the code; module and collapsed chunks come cut already (`line_parts`)."""
    out: list[Chunk] = []
    for chunk in chunks:
        if chunk.kind == "module" or len(chunk.code) <= MAX_CHUNK_CHARS:
            out.append(chunk)
            continue
        out += [
            dataclasses.replace(
                chunk,
                code="\n".join(body),
                start_line=chunk.start_line + first,
                end_line=chunk.start_line + first + len(body) - 1,
            )
            for first, body in _cut(chunk.code.split("\n"))
        ]
    return out


def collapse(
    lines: Sequence[str], start: int, end: int, members: Iterable[tuple[int, str | None, int]]
) -> tuple[str, list[int | None]]:
    """The text of lines start..end (1-based) with each member's body replaced by a marker
    line, and the source line of each of its lines (None for a marker), for `line_parts`.
    `members`, in line order: (the last line of its header, the marker or None when it has
    no lines of body, its last line); one inside a member already collapsed is skipped."""
    code: list[str] = []
    numbers: list[int | None] = []
    line = start
    for header_end, marker, member_end in members:
        if header_end < line:
            continue
        code.extend(lines[line - 1 : header_end])
        numbers.extend(range(line, header_end + 1))
        if marker is not None:
            code.append(marker)
            numbers.append(None)
        line = member_end + 1
    code.extend(lines[line - 1 : end])
    numbers.extend(range(line, end + 1))
    return "\n".join(code), numbers


def line_parts(chunk: Chunk, numbers: Sequence[int | None]) -> list[Chunk]:
    """A chunk whose code is not its lines verbatim (the rest of a file; a class, or a
    function, with the bodies of its members collapsed) whole, or over MAX_CHUNK_CHARS in
    parts of about PART_CHARS. `numbers` gives each line of its code the source line it
    came from (None: a line the chunker put there, a separator or the `...` of a collapsed
    body), so that a part spans the lines it holds: a hit, or a PATH:LINE target, points at
    its own lines (a class's second part counted its lines from the class's first as if
    no body were collapsed: flask's `Flask` part 2 claimed lines 336-415)."""
    if len(chunk.code) <= MAX_CHUNK_CHARS:
        return [chunk]
    parts = []
    for first, body in _cut(chunk.code.split("\n")):
        held = [n for n in numbers[first : first + len(body)] if n is not None]
        if held:  # a part of separators alone holds no code
            parts.append(
                dataclasses.replace(
                    chunk, code="\n".join(body), start_line=held[0], end_line=held[-1]
                )
            )
    return parts


def _cut(lines: list[str]) -> list[tuple[int, list[str]]]:
    """(first line's index, lines) of parts of about PART_CHARS, cut at line boundaries."""
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
    return parts
