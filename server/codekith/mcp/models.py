"""Output schemas of the tools: what each answer's structured content holds.

Field names follow the CLI's JSON (docs/DESIGN.md) wherever the same thing is meant.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class Fresh(BaseModel):
    """How far the index is behind the disk and git when the answer was made."""

    index_head: str = Field(description="commit the index was built at ('' outside git)")
    head: str = Field(description="the current commit")
    fresh: bool = Field(description="true when HEAD is the indexed commit and no file changed")
    stale: list[str] = Field(description="files changed since indexing (the first 20)")
    stale_count: int = Field(description="how many files changed since indexing")


class Budgeted(Fresh):
    tokens: int = Field(description="estimated size of this answer in tokens")
    budget_tokens: int = Field(description="the token budget the answer was fitted to")
    truncated: bool = Field(description="true when items or code were cut to fit the budget")


class Location(BaseModel):
    path: str = Field(description="file path relative to the workspace root")
    start_line: int = Field(description="first line, 1-based")
    end_line: int = Field(description="last line, inclusive")


class Chunk(Location):
    id: str = Field(description="chunk id: pass it to get_code or feedback")
    qualname: str
    symbol: str
    kind: str = Field(description="module, class, function, method or section")
    language: str
    stale: bool = Field(description="the file changed since it was indexed")
    repo: str | None = Field(
        default=None,
        description="its repository (a workspace of several); path is relative to its root",
    )
    root: str | None = Field(default=None, description="that repository's root directory")


class SearchHit(Chunk):
    score: float
    snippet: str = Field(description="the first lines of the code")


class SearchResult(Budgeted):
    query: str
    mode: str
    hits: list[SearchHit]
    tests: list[SearchHit] = Field(
        default_factory=list, description="tests that match, listed apart from the code hits"
    )
    docs: list[SearchHit] = Field(
        default_factory=list,
        description="documentation sections that match, listed apart from the code hits",
    )
    repos: list[str] | None = Field(
        default=None, description="the repositories searched (a workspace of several)"
    )


class RelatedItem(Chunk):
    score: float = Field(description="similarity to the question, mixed with graph rank")
    reason: str = Field(
        description="seed, caller/callee/base/subclass of <qualname>, "
        "similar to <qualname>, sibling of <qualname>, shares state with <qualname>, "
        "in the same class (Go: type) as <qualname>, in the same module as <qualname> or "
        "matches the question"
    )
    depth: int = Field(description="graph steps from a seed")
    tokens: int
    code: str


class RelatedResult(Budgeted):
    query: str
    target: str
    intent: str = Field(description="usage, implementation or related")
    depth: int
    items: list[RelatedItem]
    repos: list[str] | None = Field(
        default=None, description="the repositories searched (a workspace of several)"
    )


class Definition(Chunk):
    signature: str
    docstring: str = Field(description="the docstring's first line")
    code: str | None = Field(description="the indexed code (include_body)")


class SymbolResult(Budgeted):
    name: str
    definitions: list[Definition]
    repos: list[str] | None = Field(
        default=None, description="the repositories searched (a workspace of several)"
    )


class CallEdge(BaseModel):
    caller: str
    callee: str
    path: str = Field(description="file of the call site")
    line: int = Field(description="line of the call site")
    depth: int = Field(description="steps from the asked definition")
    how: Literal["call", "read", "write"] = Field(
        description="a call, or a property's read (its getter) or write (its setter)"
    )


class DefinitionLocation(Location):
    kind: str


class CallGraphResult(Budgeted):
    qualname: str
    direction: str
    depth: int
    edges: list[CallEdge]
    locations: dict[str, DefinitionLocation] = Field(description="where each name is defined")


class CodeResult(Budgeted, Location):
    total_lines: int
    language: str
    code: str = Field(description="the lines as they are on disk now")
    indexed: bool = Field(description="the file is in the index")
    changed: bool = Field(description="the file differs from the version the index holds")
    id: str
    qualname: str
    next_start_line: int | None = Field(description="where to continue when cut")


class StatusResult(BaseModel):
    root: str
    ready: bool = Field(description="an index exists")
    indexing: bool = Field(description="an index run is under way")
    model: str | None = None
    chunks: int = 0
    edges: int = 0
    files: int = 0
    skipped_count: int = 0
    skipped_reasons: dict[str, int] = Field(default_factory=dict)
    partial_count: int = Field(0, description="files parsed only in part")
    indexed_at: str | None = None
    index_head: str = ""
    head: str = ""
    fresh: bool = False
    stale: list[str] = Field(default_factory=list)
    stale_count: int = 0


class ReindexResult(BaseModel):
    mode: str = Field(description="scan, git, paths or full")
    files: int
    indexed: int
    unchanged: int
    deleted: int
    skipped: int
    errors: int
    chunks_written: int
    embedded: int
    reused: int
    chunks_total: int
    seconds: float


class FeedbackResult(BaseModel):
    recorded: bool
    query: str
    id: str
    vote: str
