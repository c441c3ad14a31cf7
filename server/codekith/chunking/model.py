"""The chunk: the unit that is embedded, stored, searched and linked by the call graph."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Chunk:
    path: str
    language: str
    kind: str  # module | class | function | method | section
    symbol: str
    qualname: str
    code: str
    start_line: int
    end_line: int
    signature: str = ""
    docstring: str = ""
    imports: list[str] = field(default_factory=list)
    bases: list[str] = field(default_factory=list)
    decorators: list[str] = field(default_factory=list)
    parent: str = ""
    file_hash: str = ""

    @cached_property
    def content_hash(self) -> str:
        return sha1(self.code)

    @cached_property
    def id(self) -> str:
        """Stable across line shifts (no line numbers), new when the content changes."""
        return sha1(f"{self.path}|{self.qualname}|{self.content_hash}")


@dataclass
class ChunkResult:
    """The chunks of one file plus what went wrong while making them."""

    chunks: list[Chunk]
    error: str | None = None
