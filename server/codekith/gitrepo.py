"""What git knows about the workspace: HEAD, changes between commits, the dirty tree.

All paths returned are POSIX and relative to the workspace root (which may be a
subdirectory of the repository): git is run in the root and asked for paths relative to
it, except by `git status`, whose porcelain paths are the repository's. Every function
answers None when git cannot tell (not a repository, no commits yet, an unknown revision),
and callers fall back to scanning. A freshness check runs four git commands (HEAD, status,
the listed files and HEAD's blobs, which are kept per commit).
"""

from __future__ import annotations

import functools
import hashlib
import subprocess
from collections.abc import Collection
from pathlib import Path


def _git(root: Path, *args: str, errors: str = "surrogateescape") -> str | None:
    """Run git read-only: without optional locks `git status` refreshes and rewrites the
    index under index.lock, and a user's own `git checkout` at that moment fails."""
    command = ["git", "--no-optional-locks", "-C", str(root), *args]
    try:
        result = subprocess.run(command, capture_output=True, check=True)
    except (subprocess.CalledProcessError, FileNotFoundError):
        return None
    return result.stdout.decode("utf-8", errors)


def head(root: Path) -> str | None:
    """The commit HEAD points at; None outside git or before the first commit."""
    out = _git(root, "rev-parse", "--verify", "-q", "HEAD")
    return out.strip() if out else None


RESCANNING_FILES = ("HEAD", "packed-refs", "info/exclude")  # under `.git/`: `rescans`
RESCANNING_FOLDER = "refs"  # and every file under `.git/refs/`


def rescans(path: str) -> bool:
    """Whether a change to this file under `.git/` calls for a scan: HEAD or a ref moved
    (a checkout, commit, pull or branch switch), or `info/exclude` changed which files
    are listed. Git also writes its index and objects at every `git status` an editor
    runs: those change no file of the work tree."""
    inside = path.rsplit("/.git/", 1)[-1]
    return inside in RESCANNING_FILES or inside.startswith(f"{RESCANNING_FOLDER}/")


PATHSPEC_LIMIT = 500  # more paths than this: list everything and filter


def listed_files(root: Path, only: Collection[str] | None = None) -> list[str] | None:
    """Tracked plus untracked-not-ignored files under root (or those of `only`, without
    listing the whole tree); None outside a repository.

    Names that are not UTF-8 come back with surrogate escapes (as os.listdir gives them), so
    they still name the file on disk; the workspace skips them with that reason."""
    pathspecs = sorted(only) if only is not None and len(only) <= PATHSPEC_LIMIT else ["."]
    if not pathspecs:
        return [] if _git(root, "rev-parse") is not None else None
    out = _git(
        root,
        "--literal-pathspecs",
        "ls-files",
        "-z",
        "--cached",
        "--others",
        "--exclude-standard",
        "--",
        *pathspecs,
    )
    if out is None:
        return None
    return sorted({p for p in out.split("\0") if p})


def _prefix(root: Path) -> str:
    return (_git(root, "rev-parse", "--show-prefix") or "").strip()


def _strip(prefix: str, paths: list[str]) -> set[str]:
    return {p[len(prefix) :] for p in paths if p and p.startswith(prefix)}


def changed_between(root: Path, old: str, new: str) -> set[str] | None:
    """Paths added, modified, deleted or renamed (both sides) between two commits."""
    if _git(root, "cat-file", "-e", f"{old}^{{commit}}") is None:
        return None
    out = _git(root, "diff", "--relative", "--name-status", "-z", "-M", old, new, "--", ".")
    if out is None:
        return None
    fields = out.split("\0")
    paths: list[str] = []
    index = 0
    while index < len(fields) and fields[index]:
        status = fields[index]
        count = 2 if status[0] in "RC" else 1
        paths.extend(fields[index + 1 : index + 1 + count])
        index += 1 + count
    return set(paths)


def working_changes(root: Path) -> set[str] | None:
    """Paths that differ from HEAD in the index or working tree, untracked ones included."""
    out = _git(
        root,
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        "--ignore-submodules=all",
        "--",
        ".",
    )
    if out is None:
        return None
    fields = out.split("\0")
    paths: list[str] = []
    index = 0
    while index < len(fields) and fields[index]:
        entry = fields[index]
        paths.append(entry[3:])
        index += 1
        if entry[0] in "RC":  # the source path follows as its own field
            paths.append(fields[index])
            index += 1
    return _strip(_prefix(root), paths)


def changes_since(root: Path, indexed_head: str, current: str | None = None) -> set[str] | None:
    """Everything that may differ from an index built at `indexed_head` (`current`: HEAD,
    when the caller knows it)."""
    current = current or head(root)
    if current is None:
        return None
    committed = set() if current == indexed_head else changed_between(root, indexed_head, current)
    dirty = working_changes(root)
    if committed is None or dirty is None:
        return None
    return committed | dirty


def blob_id(data: bytes) -> str:
    """The id git gives these bytes as a blob: the catalog's file hash, comparable with HEAD."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def head_blobs(root: Path, commit: str | None = None) -> dict[str, str] | None:
    """Blob id of every file under root in `commit` (a full commit id: the answer is kept,
    since a commit's files never change) or in HEAD, by root-relative path."""
    if commit is None:
        return _blobs(root, "HEAD")
    blobs = _blobs_at(root, commit)
    return None if blobs is None else dict(blobs)


@functools.lru_cache(maxsize=4)
def _blobs_at(root: Path, commit: str) -> dict[str, str] | None:
    return _blobs(root, commit)


def _blobs(root: Path, revision: str) -> dict[str, str] | None:
    out = _git(root, "ls-tree", "-r", "-z", revision, "--", ".")
    if out is None:
        return None
    blobs: dict[str, str] = {}
    for entry in out.split("\0"):
        info, _, path = entry.partition("\t")
        fields = info.split()
        if len(fields) == 3 and fields[1] == "blob":
            blobs[path] = fields[2]
    return blobs
