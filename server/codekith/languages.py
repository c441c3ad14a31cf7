"""File extension -> language, and which languages get which chunker."""

from __future__ import annotations

from pathlib import PurePosixPath

PYTHON = "python"
DOC_LANGUAGES = {"markdown", "rst", "toml", "yaml"}

_BY_SUFFIX = {
    ".py": PYTHON,
    ".pyi": PYTHON,
    ".md": "markdown",
    ".markdown": "markdown",
    ".rst": "rst",
    ".toml": "toml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".cxx": "cpp",
    ".hxx": "cpp",
    ".cs": "csharp",
    ".rb": "ruby",
    ".php": "php",
    ".swift": "swift",
    ".scala": "scala",
    ".sh": "shell",
    ".bash": "shell",
    ".lua": "lua",
    ".sql": "sql",
}


def language_of(path: str) -> str | None:
    return _BY_SUFFIX.get(PurePosixPath(path).suffix.lower())


def suffixes_of(languages: set[str]) -> list[str]:
    """File suffixes for the given languages (all known ones when empty)."""
    return sorted(s for s, lang in _BY_SUFFIX.items() if not languages or lang in languages)


def known_languages() -> set[str]:
    """Every language a file can be indexed as (the VS Code extension activates on each)."""
    return set(_BY_SUFFIX.values())
