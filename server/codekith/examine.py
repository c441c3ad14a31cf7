"""One changed file -> its catalog record and chunk rows: the per-file work of an index run.

Pure (no store, no model), so the driver runs it inline and worker processes or Ray actors
run it on their share of the files (see `distributed`). Rows carry no vector: the driver
fills vectors from the cache or from what a worker embedded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from codekith.chunking import Chunk, chunk_file, sha1
from codekith.config import Settings
from codekith.secrets import describe
from codekith.store import FileRecord
from codekith.template import chunk_search_text, document
from codekith.workspace import MAX_LINE_CHARS, NotIndexableError, indexable_source


@dataclass(frozen=True)
class SourceFile:
    """A file whose content differs from the catalog, read and hashed by the driver."""

    path: str
    language: str
    data: bytes
    file_hash: str
    mtime_ns: int
    size: int
    module: str = ""  # the module name of a Python file (qualnames.ModuleNames)

    def record(self, status: str, reason: str = "", chunks: int = 0, error: str = "") -> FileRecord:
        return FileRecord(
            self.path,
            self.file_hash,
            self.mtime_ns,
            self.size,
            self.language,
            status,
            reason,
            chunks,
            error,
        )


@dataclass
class Examined:
    """A file's new record and, when it is indexed, its chunk rows (without vectors)."""

    record: FileRecord
    rows: list[dict[str, Any]] = field(default_factory=list)


def examine(source: SourceFile, settings: Settings) -> Examined:
    """Content checks (binary, generated, LFS), decoding, long lines cut, secret values
    redacted, then chunks. One bad file is skipped with its reason, never raises."""
    try:
        source_text = indexable_source(source.path, source.data, settings.secret_patterns)
    except NotIndexableError as exc:
        return Examined(source.record("skipped", reason=str(exc)))
    try:
        result = chunk_file(source.path, source.language, source_text.text, source.module or None)
    except Exception as exc:  # one file never stops a run: skip it and say why
        reason = f"could not be chunked: {type(exc).__name__}: {exc}"[:300]
        return Examined(source.record("skipped", reason=reason))
    for chunk in result.chunks:
        chunk.file_hash = source.file_hash
    cut = _cut_message(source_text.cut_lines)
    error = "; ".join(e for e in (result.error, cut) if e)
    reason = describe(source_text.redactions)
    record = source.record("indexed", reason, len(result.chunks), error)
    return Examined(record, [chunk_row(c) for c in result.chunks])


def _cut_message(lines: list[int]) -> str:
    if not lines:
        return ""
    shown = ", ".join(map(str, lines[:5])) + (" …" if len(lines) > 5 else "")
    return f"lines over {MAX_LINE_CHARS} characters cut (line {shown})"


def chunk_row(chunk: Chunk) -> dict[str, Any]:
    """The chunk as the store keeps it. `content_hash` names the embedded document, not the
    code: it keys the vector cache, and the document's header (path, qualified name,
    imports, ...) is part of what the model saw. Keyed by the code alone, a moved file or an
    edited import list kept vectors of the old header, and identical code in two files
    shared whichever of its two documents was embedded first."""
    text = document(chunk)
    return {
        "id": chunk.id,
        "path": chunk.path,
        "language": chunk.language,
        "kind": chunk.kind,
        "symbol": chunk.symbol,
        "qualname": chunk.qualname,
        "parent": chunk.parent,
        "signature": chunk.signature,
        "docstring": chunk.docstring,
        "imports": chunk.imports,
        "bases": chunk.bases,
        "decorators": chunk.decorators,
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "content_hash": sha1(text),
        "file_hash": chunk.file_hash,
        "document": text,
        "search_text": chunk_search_text(chunk),
        "deleted": False,
    }
