"""Which files of a workspace get indexed, and why the others do not.

Git decides first (tracked plus untracked-not-ignored files); outside a repository a walk
honours .gitignore files through pathspec. Every rejected file keeps its reason so that
`index --dry-run` and `status` can explain it.
"""

from __future__ import annotations

import codecs
import io
import os
import stat as stat_mode
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pathspec

from codekith import gitrepo
from codekith.config import Settings
from codekith.languages import (
    decided_by_name,
    file_name,
    language_at,
    language_of,
    suffix_of,
)
from codekith.secrets import Finding, redact, secret_file_reason

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
GENERATED_SUFFIXES = (
    ".min.js",
    ".min.css",
    "_pb2.py",
    "_pb2_grpc.py",
    ".lock",
    ".map",
    "package-lock.json",
    "pnpm-lock.yaml",
    "go.sum",
)
GENERATED_MARKERS = ("@generated", "do not edit")
MAX_LINE_CHARS = 4000
TEXT = "text"  # any other file: indexed as line windows when its content is text
BINARY_SUFFIXES = frozenset(
    [
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".bmp",
        ".ico",
        ".webp",
        ".tiff",
        ".psd",
        ".pdf",
        ".zip",
        ".gz",
        ".tgz",
        ".bz2",
        ".xz",
        ".7z",
        ".rar",
        ".jar",
        ".war",
        ".whl",
        ".egg",
        ".so",
        ".dylib",
        ".dll",
        ".exe",
        ".o",
        ".a",
        ".lib",
        ".pyc",
        ".pyo",
        ".class",
        ".wasm",
        ".bin",
        ".dat",
        ".db",
        ".sqlite",
        ".sqlite3",
        ".woff",
        ".woff2",
        ".ttf",
        ".otf",
        ".eot",
        ".mp3",
        ".mp4",
        ".wav",
        ".ogg",
        ".flac",
        ".avi",
        ".mov",
        ".mkv",
        ".webm",
        ".npy",
        ".npz",
        ".pkl",
        ".pickle",
        ".parquet",
        ".lance",
        ".onnx",
        ".pt",
        ".h5",
    ]
)
_BOMS = (  # UTF-32 first: its little-endian BOM starts with UTF-16's
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_FILE_TYPES = (
    (stat_mode.S_ISDIR, "git submodule or directory"),
    (stat_mode.S_ISFIFO, "not a regular file (FIFO)"),
    (stat_mode.S_ISSOCK, "not a regular file (socket)"),
    (stat_mode.S_ISCHR, "not a regular file (device)"),
    (stat_mode.S_ISBLK, "not a regular file (device)"),
)


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


class NotIndexableError(ValueError):
    """The file's content keeps it out of the index; the message says why."""


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
        folders = path.split("/")[:-1]
        vendored = next((p for p in folders if p in VENDORED_DIRS or p.endswith(".egg-info")), None)
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
        if suffix_of(path).lower() in BINARY_SUFFIXES:
            return "binary file type"
        return None

    def event_reason(self, path: str) -> str | None:
        """Why a file event at `path` (written, created, deleted) cannot change the index,
        decided without reading the file: a watcher reports every file of the tree. A name
        that does not decide its language passes: it may be a script or text."""
        reason = self.path_reason(path)
        if reason is None and decided_by_name(path):
            reason = self.language_reason(language_of(path) or TEXT)
        return reason

    def language_reason(self, language: str) -> str | None:
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
        if not _encodable(path):
            return Candidate(
                printable(path), None, stat.st_size, stat.st_mtime_ns, "file name is not UTF-8"
            )
        language = language_of(path) or TEXT

        def make(reason: str | None) -> Candidate:
            return Candidate(path, language, stat.st_size, stat.st_mtime_ns, reason)

        if stat_mode.S_ISLNK(stat.st_mode):
            return make("symbolic link")
        special = next((why for test, why in _FILE_TYPES if test(stat.st_mode)), None)
        if special:
            return make(special)
        reason = self.path_reason(path)
        if reason is None:  # a script's `#!` line is read only when nothing rules it out
            language = language_at(self.root, path) or TEXT
            reason = self.language_reason(language)
        if reason is None and stat.st_size > self.settings.max_file_bytes:
            reason = f"too large ({stat.st_size} bytes > {self.settings.max_file_bytes})"
        return make(reason)


def _encodable(path: str) -> bool:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable(path: str) -> str:
    """A file name that was not UTF-8 (read with surrogateescape), its bytes shown as \\xNN."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def lists_differently(paths: Iterable[str]) -> bool:
    """Whether changes to these files can change which files the workspace lists (a
    `.gitignore`): a run over just those files then misses the rest, a scan does not."""
    return any(file_name(path) == ".gitignore" for path in paths)


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


def decode_text(path: str, data: bytes) -> str:
    """The text of a file, or NotIndexableError saying why it has none: UTF-8 (a BOM
    dropped), UTF-16 or UTF-32 with a BOM, or the encoding a Python file declares."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                raise NotIndexableError(f"not valid {codec.upper()}") from None
    reason = content_reason(path, data)
    if reason is not None:
        raise NotIndexableError(reason)
    try:
        if path.endswith((".py", ".pyi")):
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            return data.decode(encoding)
        return data.decode("utf-8-sig")
    except (UnicodeDecodeError, SyntaxError, LookupError):
        raise NotIndexableError("not valid UTF-8 (or its declared encoding)") from None


def read_source(root: Path, path: str) -> str:
    """A workspace file's text as the indexer sees it (for parsers that read files)."""
    return decode_text(path, (root / path).read_bytes())


def cap_long_lines(text: str, limit: int = MAX_LINE_CHARS) -> tuple[str, list[int]]:
    """Lines over `limit` characters cut (minified code, data blobs): parsers, the tokenizer
    and the full-text index would otherwise hold many copies of a megabyte line. Returns the
    text and the 1-based numbers of the lines that were cut."""
    lines = text.split("\n")
    if max(map(len, lines)) <= limit:
        return text, []
    cut = [number for number, line in enumerate(lines, 1) if len(line) > limit]
    for number in cut:
        line = lines[number - 1]
        lines[number - 1] = f"{line[:limit]} [... {len(line) - limit} characters cut]"
    return "\n".join(lines), cut


@dataclass(frozen=True)
class Indexable:
    """A file's text as it is indexed and shown: long lines cut, secret values redacted."""

    text: str
    redactions: list[Finding]
    cut_lines: list[int]


def indexable_source(path: str, data: bytes, secret_patterns: tuple[str, ...]) -> Indexable:
    """A file's text for the index and every answer that shows files, or NotIndexableError
    when its content keeps it out (binary, LFS pointer, generated, undecodable)."""
    text, cut = cap_long_lines(decode_text(path, data))
    text, findings = redact(path, text, secret_patterns)
    return Indexable(text, findings, cut)
