"""Which files of a workspace get indexed, and why the others do not.

Git decides first (tracked plus untracked-not-ignored files); outside a repository a walk
honours .gitignore files through pathspec. Every rejected file keeps its reason so that
`index --dry-run` and `status` can explain it.
"""

from __future__ import annotations

import io
import os
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import pathspec

from codekith import gitrepo
from codekith.config import Settings
from codekith.languages import language_of
from codekith.secrets import find_secret, secret_file_reason

VENDORED_DIRS = {
    ".git",
    ".hg",
    ".svn",
    ".codekith",
    "node_modules",
    "vendor",
    "third_party",
    "third-party",
    ".venv",
    "venv",
    "env",
    "__pycache__",
    "site-packages",
    ".tox",
    ".nox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    "build",
    "dist",
    ".eggs",
    "bower_components",
    ".next",
    "target",
    "out",
    ".idea",
    ".vscode-test",
}
GENERATED_SUFFIXES = (".min.js", ".min.css", "_pb2.py", "_pb2_grpc.py", ".lock", ".map")
GENERATED_MARKERS = ("@generated", "do not edit")


@dataclass(frozen=True)
class Candidate:
    """A workspace file with its decision: `reason` is None when it should be indexed."""

    path: str
    language: str | None
    size: int
    mtime_ns: int
    reason: str | None = None


class OutsideWorkspaceError(ValueError):
    pass


def relative_path(root: Path, path: str | Path) -> str:
    """POSIX path relative to root; raises for anything outside it (symlinks included)."""
    root = root.resolve()
    full = Path(path) if Path(path).is_absolute() else root / path
    resolved = full.resolve()
    try:
        rel = resolved.relative_to(root)
    except ValueError:
        raise OutsideWorkspaceError(f"{path} is outside the workspace {root}") from None
    return rel.as_posix()


def _walk_files(root: Path) -> list[str]:
    """All files under root, honouring nested .gitignore files."""
    found: list[str] = []
    specs: list[tuple[str, pathspec.PathSpec]] = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        ignore_file = Path(dirpath) / ".gitignore"
        if ignore_file.is_file():
            lines = ignore_file.read_text(encoding="utf-8", errors="replace").splitlines()
            specs.append((rel_dir, pathspec.PathSpec.from_lines("gitignore", lines)))

        def ignored(rel: str, is_dir: bool) -> bool:
            probe = rel + "/" if is_dir else rel
            return any(
                probe.startswith(base) and spec.match_file(probe[len(base) :])
                for base, spec in specs
            )

        dirnames[:] = sorted(d for d in dirnames if d != ".git" and not ignored(rel_dir + d, True))
        found.extend(rel_dir + f for f in sorted(filenames) if not ignored(rel_dir + f, False))
    return found


def _glob_spec(patterns: tuple[str, ...]) -> pathspec.PathSpec | None:
    return pathspec.PathSpec.from_lines("gitignore", patterns) if patterns else None


class WorkspaceFilter:
    """Decides, path by path, whether a file is indexed; cheap checks first."""

    def __init__(self, root: Path, settings: Settings):
        self.root = root
        self.settings = settings
        self.include = _glob_spec(settings.include)
        self.exclude = _glob_spec(settings.exclude)
        self.languages = set(settings.languages)

    def path_reason(self, path: str) -> str | None:
        """Reasons decidable from the path alone."""
        parts = PurePosixPath(path).parts
        vendored = next(
            (p for p in parts[:-1] if p in VENDORED_DIRS or p.endswith(".egg-info")), None
        )
        if vendored:
            return f"vendored or generated directory ({vendored}/)"
        secret = secret_file_reason(path)
        if secret:
            return secret
        if self.exclude and self.exclude.match_file(path):
            return "excluded by configuration"
        if self.include and not self.include.match_file(path):
            return "not included by configuration"
        if path.endswith(GENERATED_SUFFIXES):
            return "generated file"
        language = language_of(path)
        if language is None:
            return "unsupported file type"
        if self.languages and language not in self.languages:
            return f"language {language} not configured"
        return None

    def candidate(self, path: str) -> Candidate | None:
        """The decision for one path, or None when the file no longer exists."""
        full = self.root / path
        try:
            stat = full.lstat()
        except OSError:
            return None
        language = language_of(path)

        def make(reason: str | None) -> Candidate:
            return Candidate(path, language, stat.st_size, stat.st_mtime_ns, reason)

        if full.is_symlink():
            return make("symbolic link")
        if full.is_dir():
            return make("git submodule or directory")
        reason = self.path_reason(path)
        if reason is None and stat.st_size > self.settings.max_file_bytes:
            reason = f"too large ({stat.st_size} bytes > {self.settings.max_file_bytes})"
        return make(reason)


def listed_files(root: Path, only: set[str] | None = None) -> list[str]:
    """Tracked plus untracked-not-ignored files (git), else a .gitignore-aware walk; with
    `only`, git is asked about just those paths (a save must not list the whole tree)."""
    paths = gitrepo.listed_files(root, only)
    return _walk_files(root) if paths is None else paths


def scan(root: Path, settings: Settings, only: set[str] | None = None) -> Iterator[Candidate]:
    """Every file the workspace holds (or those of `only` that it holds), with decisions."""
    workspace_filter = WorkspaceFilter(root, settings)
    for path in listed_files(root, only):
        if only is not None and path not in only:
            continue
        candidate = workspace_filter.candidate(path)
        if candidate is not None:
            yield candidate


def content_reason(path: str, data: bytes) -> str | None:
    """Reasons that need the bytes: binary, LFS pointer, generated header."""
    head = data[:8192]
    if b"\0" in head:
        return "binary file"
    if head.startswith(b"version https://git-lfs.github.com/spec/"):
        return "git LFS pointer"
    first_lines = head[:600].decode("utf-8", "replace").lower()
    if any(marker in first_lines for marker in GENERATED_MARKERS):
        return "generated file (header says so)"
    return None


def decode_source(path: str, data: bytes) -> str:
    """UTF-8 text; Python files may declare another encoding. Raises UnicodeDecodeError."""
    if path.endswith((".py", ".pyi")):
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    return data.decode("utf-8")


class NotIndexableError(ValueError):
    """The file's content keeps it out of the index; the message says why."""


def indexable_source(path: str, data: bytes, secret_patterns: tuple[str, ...]) -> str:
    """A file's text, or NotIndexableError when its content keeps it out of the index (and
    out of every answer): binary, LFS pointer, generated, undecodable, holding a secret."""
    reason = content_reason(path, data)
    if reason is not None:
        raise NotIndexableError(reason)
    try:
        source = decode_source(path, data)
    except (UnicodeDecodeError, SyntaxError, LookupError):
        raise NotIndexableError("not valid UTF-8 (or its declared encoding)") from None
    secret = find_secret(source, secret_patterns)
    if secret:
        raise NotIndexableError(f"contains a secret: {secret}")
    return source
