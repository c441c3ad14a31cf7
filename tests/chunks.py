"""What the chunking tests of every tree-sitter language ask of a source: its chunks by
qualname, and the error chunking reported (None when it parsed)."""

from __future__ import annotations

import textwrap

from codekith.chunking import Chunk, chunk_file


def chunks_of(path: str, language: str, source: str) -> tuple[dict[str, Chunk], str | None]:
    result = chunk_file(path, language, textwrap.dedent(source))
    return {c.qualname: c for c in result.chunks}, result.error
