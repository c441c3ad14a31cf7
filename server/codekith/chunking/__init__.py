"""Source file -> chunks, dispatched on language."""

from __future__ import annotations

from codekith.chunking.model import Chunk, ChunkResult, sha1
from codekith.chunking.python import chunk_python
from codekith.chunking.text import chunk_sections, chunk_windows
from codekith.chunking.treesitter import chunk_tree_sitter
from codekith.languages import DOC_LANGUAGES, PYTHON
from codekith.syntax import supports

__all__ = ["Chunk", "ChunkResult", "chunk_file", "sha1"]


def chunk_file(path: str, language: str, source: str, module: str | None = None) -> ChunkResult:
    """Chunks with duplicate ids (identical twins in one file) dropped. `module` names a
    Python file's module (qualnames.ModuleNames); without it the path rule applies."""
    if language == PYTHON:
        result = chunk_python(path, source, module)
    elif language in DOC_LANGUAGES:
        result = ChunkResult(chunk_sections(path, language, source))
    elif supports(language):
        result = ChunkResult(*chunk_tree_sitter(path, language, source))
    else:
        result = ChunkResult(chunk_windows(path, language, source))
    unique: dict[str, Chunk] = {}
    for chunk in result.chunks:
        unique.setdefault(chunk.id, chunk)
    result.chunks = list(unique.values())
    return result
