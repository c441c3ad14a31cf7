"""File extension -> language, and which languages get which chunker."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

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
    ".bats": "shell",  # Bats test files: bash with `@test` blocks (syntax.grammar_of)
    ".zsh": "shell",  # read by the zsh grammar (syntax.grammar_of)
    ".zsh-theme": "shell",
    ".lua": "lua",
    ".sql": "sql",
}


# What a script's `#!` line names -> its language (a zsh script is read by the zsh
# grammar: syntax.grammar_of)
_BY_INTERPRETER = {
    "sh": "shell",
    "bash": "shell",
    "dash": "shell",
    "ash": "shell",
    "ksh": "shell",
    "zsh": "shell",
    "python": PYTHON,
    "pypy": PYTHON,
    "node": "javascript",
    "nodejs": "javascript",
    "ruby": "ruby",
    "lua": "lua",
    "luajit": "lua",
    "php": "php",
}
_VERSION_TAIL = re.compile(r"[\d.]+$")  # python3.12, lua5.4
SHEBANG_BYTES = 256


# shell start-up files, named without a suffix
SHELL_DOTFILES = frozenset(
    {".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile"}
)
ZSH_DOTFILES = frozenset({".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout"})


def file_name(path: str) -> str:
    """`PurePosixPath(path).name` for a workspace path, without building a path object:
    the scan asks for every file, and a watcher for every event."""
    return path.rsplit("/", 1)[-1]


def suffix_of(path: str) -> str:
    """`PurePosixPath(path).suffix`, the same way (`.bashrc` and `notes.` have none)."""
    name = file_name(path)
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def language_of(path: str) -> str | None:
    """A language by the file name alone (see `language_at` for scripts)."""
    name = file_name(path)
    if name in SHELL_DOTFILES or name in ZSH_DOTFILES:
        return "shell"
    return _BY_SUFFIX.get(suffix_of(name).lower())


def language_at(root: Path, path: str) -> str | None:
    """A workspace file's language: by its suffix, or, for a name without one (`bin/`
    and `libexec/` scripts, `configure`), by the interpreter its `#!` line names."""
    if decided_by_name(path):
        return language_of(path)
    try:
        with (root / path).open("rb") as file:
            head = file.read(SHEBANG_BYTES)
    except OSError:
        return None
    return interpreter_language(head)


def language_from(path: str, data: bytes) -> str | None:
    """`language_at` for content at hand (a file as a commit left it)."""
    return language_of(path) if decided_by_name(path) else interpreter_language(data)


def decided_by_name(path: str) -> bool:
    """Whether the name alone decides the language (no `#!` line to read): a suffix, or a
    shell start-up file's name."""
    return bool(suffix_of(path)) or language_of(path) is not None


def interpreter_language(head: bytes) -> str | None:
    """The language of `#!/bin/sh -e`, `#! /usr/bin/env python3`, `#!/usr/bin/env -S lua5.4`."""
    program = interpreter(head)
    return _BY_INTERPRETER.get(program) if program else None


def interpreter(head: bytes) -> str | None:
    """The program a `#!` line runs, without its folder, `env` or version (`python`)."""
    if not head.startswith(b"#!"):
        return None
    words = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
    if words and PurePosixPath(words[0]).name == "env":
        words = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
    return _VERSION_TAIL.sub("", PurePosixPath(words[0]).name) if words else None


def known_languages() -> set[str]:
    """Every language a file can be indexed as (the VS Code extension activates on each)."""
    return set(_BY_SUFFIX.values())
