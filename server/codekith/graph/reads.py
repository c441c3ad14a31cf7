"""What a tree-sitter file's resolution looked at, so that an edit re-resolves only the
files whose answers it can change.

A resolution reads parts of other files' facts (`digest`: a file's declarations, one of
its function bodies), the cross-file tables (which files define a function, a type, a
method name, a package) and whether a file exists. `Recorder` collects those reads while
the evaluator works; the tables and the file map below record every lookup. An edit of
file G changes:

* `("file", G)`: anything of G, read by a front end straight from G's facts;
* `("decl", G)`, `("body", "G#k")`: the parts of G whose digest changed;
* `("exists", G)`: when G appears or goes;
* a table key, where G adds or drops rows under it (a new method named `m` changes what
  every `.m()` call site found, although none of them read G before); a folder's or a
  package's key also when G's declarations change (who looks a package up reads the
  declarations of all its files, and one key says so more cheaply than a hundred);
* `EVERYTHING`: what a walk over every file (or every key of a table) gave. No front end
  walks them on its lookup path: each gives its names as rows (`Frontend.rows`).

A file whose reads meet none of the changed keys resolves to the same edges: the
evaluator's answers depend on what it read and nothing else (its memo keeps each answer's
reads with it, and answers cut short by a cycle are not memoised).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Generic, TypeVar

from codekith.graph.digest import DECL, Digest
from codekith.graph.syntax_model import FileFacts

Read = tuple[str, str]
EVERYTHING: Read = ("all", "")
FILE_GROUPS = ("dirs", "packages")  # tables of files: a key read is all their decls read
T = TypeVar("T")


class Interner:
    """Reads as small ints (sets of them are what every memoised answer carries)."""

    def __init__(self) -> None:
        self._ids: dict[Read, int] = {}

    def id(self, key: Read) -> int:
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = len(self._ids)
        return found

    def known(self, keys: Iterable[Read]) -> set[int]:
        return {self._ids[k] for k in keys if k in self._ids}


def part_read(path: str, part: int) -> Read:
    return ("decl", path) if part == DECL else ("body", f"{path}#{part}")


class Recorder:
    """The reads (interned) of the computation at hand; `begin`/`end` bracket a nested
    one, whose reads are also the outer one's unless it is dropped."""

    def __init__(self, interner: Interner) -> None:
        self.interner = interner
        self.reads: set[int] = set()

    def read(self, key: Read) -> None:
        self.reads.add(self.interner.id(key))

    def begin(self) -> set[int]:
        outer = self.reads
        self.reads = set()
        return outer

    def end(self, outer: set[int], keep: bool = True) -> set[int]:
        inner = self.reads
        self.reads = outer
        if keep:
            outer |= inner
        return inner


class Table(Generic[T]):
    """A cross-file lookup (key -> rows) whose lookups are recorded: the key, and the
    parts of files whose rows were handed out."""

    def __init__(self, name: str, recorder: Recorder) -> None:
        self.name = name
        self.recorder = recorder
        self.rows: dict[str, list[T]] = {}
        self._reads: dict[str, set[int]] = {}
        self._keys: dict[str, int] = {}  # key -> the interned read of asking for it

    def add(self, key: str, row: T, reads: Iterable[int]) -> None:
        self.rows.setdefault(key, []).append(row)
        self._reads.setdefault(key, {self.recorder.interner.id((self.name, key))}).update(reads)

    def get(self, key: str, default: list[T] | None = None) -> list[T]:
        rows = self.rows.get(key)
        if rows is None:
            self.recorder.reads.add(self._key(key))
            return default if default is not None else []
        self.recorder.reads |= self._reads[key]
        return rows

    def __contains__(self, key: object) -> bool:
        """Membership alone: what rows a key has is not read, so no file is."""
        if not isinstance(key, str):
            return False
        self.recorder.reads.add(self._key(key))
        return key in self.rows

    def _key(self, key: str) -> int:
        found = self._keys.get(key)
        if found is None:
            found = self._keys[key] = self.recorder.interner.id((self.name, key))
        return found

    def __iter__(self) -> Iterator[str]:
        self.recorder.read(EVERYTHING)
        return iter(self.rows)


class RecordedFiles(Mapping[str, FileFacts]):
    """The workspace's file map as front ends see it: a file looked up is all of it read,
    a file asked for is its existence read, a walk over all of them reads everything."""

    def __init__(self, files: dict[str, FileFacts], recorder: Recorder) -> None:
        self._files = files
        self._recorder = recorder

    def __getitem__(self, path: str) -> FileFacts:
        self._recorder.read(("file", path))
        return self._files[path]

    def __contains__(self, path: object) -> bool:
        if isinstance(path, str):
            self._recorder.read(("exists", path))
        return path in self._files

    def __iter__(self) -> Iterator[str]:
        self._recorder.read(EVERYTHING)
        return iter(self._files)

    def __len__(self) -> int:
        self._recorder.read(EVERYTHING)
        return len(self._files)


def changed_reads(
    path: str,
    before: tuple[FileFacts, Digest] | None,
    after: tuple[FileFacts, Digest] | None,
    rows: Callable[[FileFacts], Iterable[tuple[str, str]]],
) -> set[Read]:
    """What an edit of `path` (its facts and digest `before` -> `after`, None where it
    has none) changes: see the module docstring. `rows`: the (table, key) of every row a
    file's facts put in the tables."""
    changed = {("file", path), EVERYTHING}
    if before is None or after is None:
        changed.add(("exists", path))
    old_rows = Counter(rows(before[0])) if before is not None else Counter[Read]()
    new_rows = Counter(rows(after[0])) if after is not None else Counter[Read]()
    changed |= {k for k in old_rows | new_rows if old_rows[k] != new_rows[k]}
    old = before[1] if before is not None else None
    new = after[1] if after is not None else None
    if old is None or new is None or old.decl != new.decl:
        changed.add(part_read(path, DECL))
        changed |= {k for k in old_rows | new_rows if k[0] in FILE_GROUPS}
    bodies = max(len(old.bodies) if old else 0, len(new.bodies) if new else 0)
    for part in range(bodies):
        if _body(old, part) != _body(new, part):
            changed.add(part_read(path, part))
    return changed


def _body(found: Digest | None, part: int) -> str | None:
    return found.bodies[part] if found is not None and part < len(found.bodies) else None


class Readers:
    """Which files read what, for the last resolution of each."""

    def __init__(self) -> None:
        self._reads: dict[str, frozenset[int]] = {}
        self._readers: dict[int, set[str]] = {}

    def record(self, path: str, reads: frozenset[int]) -> None:
        self.forget(path)
        self._reads[path] = reads
        for key in reads:
            self._readers.setdefault(key, set()).add(path)

    def forget(self, path: str) -> None:
        for key in self._reads.pop(path, frozenset()):
            readers = self._readers.get(key)
            if readers is not None:
                readers.discard(path)
                if not readers:
                    del self._readers[key]

    def of(self, keys: Iterable[int]) -> set[str]:
        """The files that read any of `keys`."""
        found: set[str] = set()
        for key in keys:
            found |= self._readers.get(key, set())
        return found
