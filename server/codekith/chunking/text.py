"""Section chunks for documentation and config files, line windows for other languages.

Headings (Markdown `#`, reStructuredText underlines), TOML tables and top-level YAML keys
start sections, so a question about "installation" lands on that section, not the file.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from codekith.chunking.model import Chunk
from codekith.chunking.split import split_oversized

WINDOW_LINES = 60
WINDOW_OVERLAP = 10
_MD_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+<>:.])\1{2,}\s*$")
_TOML_TABLE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_YAML_KEY = re.compile(r"^([A-Za-z0-9_\-\"'.][^:#]*):(\s|$)")


def chunk_sections(path: str, language: str, source: str) -> list[Chunk]:
    lines = source.splitlines()
    starts = _section_starts(language, lines)
    if not starts or starts[0][0] != 0:
        starts.insert(0, (0, PurePosixPath(path).name))
    chunks = []
    for index, (first, title) in enumerate(starts):
        last = starts[index + 1][0] - 1 if index + 1 < len(starts) else len(lines) - 1
        body = "\n".join(lines[first : last + 1]).strip("\n")
        if not body.strip():
            continue
        chunks.append(
            Chunk(
                path=path,
                language=language,
                kind="section",
                symbol=title,
                qualname=f"{path}#{title}",
                code=body,
                start_line=first + 1,
                end_line=last + 1,
            )
        )
    return split_oversized(_dedupe_titles(chunks))


def chunk_windows(path: str, language: str, source: str) -> list[Chunk]:
    """Overlapping line windows: searchable until a syntax-aware chunker covers the language."""
    lines = source.splitlines()
    chunks = []
    step = WINDOW_LINES - WINDOW_OVERLAP
    for first in range(0, max(len(lines) - WINDOW_OVERLAP, 1), step):
        body = "\n".join(lines[first : first + WINDOW_LINES])
        if body.strip():
            last = min(first + WINDOW_LINES, len(lines))
            chunks.append(
                Chunk(
                    path=path,
                    language=language,
                    kind="section",
                    symbol=f"lines {first + 1}-{last}",
                    qualname=f"{path}#L{first + 1}",
                    code=body,
                    start_line=first + 1,
                    end_line=last,
                )
            )
    return split_oversized(chunks)


def _section_starts(language: str, lines: list[str]) -> list[tuple[int, str]]:
    if language == "markdown":
        return _markdown_starts(lines)
    if language == "rst":
        return [
            (i - 1, lines[i - 1].strip())
            for i in range(1, len(lines))
            if RST_UNDERLINE.match(lines[i])
            and lines[i - 1].strip()
            and len(lines[i].rstrip()) >= len(lines[i - 1].rstrip())
        ]
    if language == "toml":
        return [(i, m.group(1)) for i, line in enumerate(lines) if (m := _TOML_TABLE.match(line))]
    if language == "yaml":
        return [
            (i, m.group(1).strip("\"'"))
            for i, line in enumerate(lines)
            if (m := _YAML_KEY.match(line))
        ]
    return []


def _markdown_starts(lines: list[str]) -> list[tuple[int, str]]:
    """Headings outside fenced code blocks, titled with their parent chain."""
    starts: list[tuple[int, str]] = []
    trail: list[tuple[int, str]] = []
    fenced = False
    for index, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        match = None if fenced else _MD_HEADING.match(line)
        if match:
            level = len(match.group(1))
            trail = [(lvl, t) for lvl, t in trail if lvl < level] + [(level, match.group(2))]
            starts.append((index, " > ".join(t for _, t in trail)))
    return starts


def _dedupe_titles(chunks: list[Chunk]) -> list[Chunk]:
    """Repeated headings ("Example") get a counter so qualnames stay unique in a file."""
    seen: dict[str, int] = {}
    for chunk in chunks:
        count = seen.get(chunk.qualname, 0)
        seen[chunk.qualname] = count + 1
        if count:
            chunk.qualname = f"{chunk.qualname} ({count + 1})"
    return chunks
