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
evaluator's answers depend on what it read and nothing else (each memoised answer is a
node of the `ReadGraph` with its reads, and answers cut short by a cycle are not memoised).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Generic, TypeVar

from codekith.graph.digest import DECL, Digest
from codekith.graph.syntax_model import FileFacts

Read = tuple[str, str]
Reads = tuple[int, ...]  # interned reads as kept: a tuple is a quarter of a small set's size
EVERYTHING: Read = ("all", "")
FILE_GROUPS = ("dirs", "packages")  # tables of files: a key read is all their decls read
T = TypeVar("T")


class Interner:
    """Reads as small ints (tuples of them are what every memoised answer keeps)."""

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
    one."""

    def __init__(self, interner: Interner) -> None:
        self.interner = interner
        self.reads: set[int] = set()

    def read(self, key: Read) -> None:
        self.reads.add(self.interner.id(key))

    def begin(self) -> set[int]:
        outer = self.reads
        self.reads = set()
        return outer

    def end(self, outer: set[int]) -> set[int]:
        """The nested computation's reads (the caller decides what the outer one keeps)."""
        inner = self.reads
        self.reads = outer
        return inner


class Table(Generic[T]):
    """A cross-file lookup (key -> rows) whose lookups are recorded: the key, and the
    parts of files whose rows were handed out. A key's rows are in the order of their
    files' paths, so a file's rows replaced after an edit stand where a cold build puts
    them."""

    def __init__(self, name: str, recorder: Recorder) -> None:
        self.name = name
        self.recorder = recorder
        self.rows: dict[str, list[T]] = {}
        self._reads: dict[str, set[int]] = {}  # key -> its read and its rows' reads
        self._keys: dict[str, int] = {}  # key -> the interned read of asking for it
        self._paths: dict[str, list[str]] = {}  # key -> each row's file
        self._row_reads: dict[str, list[Iterable[int]]] = {}  # key -> each row's reads

    def add(self, key: str, path: str, row: T, reads: Iterable[int]) -> None:
        """A row of `path` after those of every file before it (a cold build's order)."""
        rows = self.rows.get(key)
        if rows is None:
            self.rows[key], self._paths[key], self._row_reads[key] = [row], [path], [reads]
            self._reads[key] = {self._key(key), *reads}
        else:
            rows.append(row)
            self._paths[key].append(path)
            self._row_reads[key].append(reads)
            self._reads[key].update(reads)

    def replace(self, key: str, path: str, rows: list[tuple[T, Iterable[int]]]) -> None:
        """`path`'s rows under `key` are now `rows` (with their reads)."""
        old = self.rows.get(key, [])
        paths, reads = self._paths.get(key, []), self._row_reads.get(key, [])
        kept = [i for i, p in enumerate(paths) if p != path]
        at = bisect_left([paths[i] for i in kept], path)
        before, after = kept[:at], kept[at:]
        new_rows = [old[i] for i in before] + [r for r, _ in rows] + [old[i] for i in after]
        if not new_rows:
            for found in (self.rows, self._paths, self._row_reads, self._reads):
                found.pop(key, None)
            return
        self.rows[key] = new_rows
        self._paths[key] = [paths[i] for i in before] + [path] * len(rows)
        self._paths[key] += [paths[i] for i in after]
        self._row_reads[key] = [reads[i] for i in before] + [r for _, r in rows]
        self._row_reads[key] += [reads[i] for i in after]
        self._reads[key] = {self._key(key)}.union(*self._row_reads[key])

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


Reader = int | str  # a memoised answer (a node: an int below 0) or a file


class ReadGraph:
    """Who read what: each file's last resolution and each memoised answer. An answer is a
    node, itself a read: who reuses it reads the node, not a copy of everything the answer
    read (a C file's name lookup reads its whole include closure, dozens of parts). A
    changed read reaches its readers upward, node by node, up to the files.

    The reverse index is built on the first question, so a run that never updates never
    pays for it. A read with one reader holds it bare, not in a set: most nodes are read
    by one answer (on Newtonsoft.Json 153,000 of 184,000 reads, 33 MB as sets). A node
    whose answer is forgotten stays while anything reads it (it still says what they
    read) and goes with its last reader."""

    def __init__(self) -> None:
        self._reads: dict[Reader, Reads] = {}
        self._readers: dict[int, Reader | set[Reader]] | None = None
        self._dead: set[int] = set()  # nodes whose answers are forgotten, still read
        self._next = -1

    def node(self, reads: Reads) -> int:
        """A new node for an answer that read `reads` (reads and nodes)."""
        node = self._next
        self._next -= 1
        self._reads[node] = reads
        if self._readers is not None:
            _index_reader(self._readers, node, reads)
        return node

    def record(self, reader: Reader, reads: Iterable[int]) -> None:
        self.forget(reader)
        kept = self._reads[reader] = tuple(reads)
        if self._readers is not None:
            _index_reader(self._readers, reader, kept)

    def forget(self, reader: Reader) -> None:
        """`reader` reads nothing any more; a forgotten node it was the last reader of
        goes too."""
        pending = [reader]
        while pending:
            current = pending.pop()
            reads = self._reads.pop(current, ())
            if self._readers is None:
                continue
            for key in reads:
                if _unindex_reader(self._readers, current, key) and key in self._dead:
                    self._dead.discard(key)
                    pending.append(key)

    def drop(self, node: int) -> None:
        """The evaluator forgot `node`'s answer."""
        if node in self._index():
            self._dead.add(node)
        else:
            self.forget(node)

    def reached(self, keys: Iterable[int]) -> set[Reader]:
        """Every node and file that read any of `keys`, directly or through nodes."""
        index = self._index()
        found: set[Reader] = set()
        pending = list(keys)
        while pending:
            readers = index.get(pending.pop())
            if readers is None:
                continue
            for reader in readers if isinstance(readers, set) else (readers,):
                if reader not in found:
                    found.add(reader)
                    if isinstance(reader, int):
                        pending.append(reader)
        return found

    def size(self) -> tuple[int, int]:
        """(readers, of them forgotten nodes kept because they are read)."""
        return len(self._reads), len(self._dead)

    def _index(self) -> dict[int, Reader | set[Reader]]:
        if self._readers is None:
            self._readers = {}
            for reader, reads in self._reads.items():
                _index_reader(self._readers, reader, reads)
        return self._readers


def _index_reader(index: dict[int, Reader | set[Reader]], reader: Reader, reads: Reads) -> None:
    for key in reads:
        found = index.get(key)
        if found is None:
            index[key] = reader
        elif isinstance(found, set):
            found.add(reader)
        elif found != reader:
            index[key] = {found, reader}


def _unindex_reader(index: dict[int, Reader | set[Reader]], reader: Reader, key: int) -> bool:
    """Take `reader` off `key`'s readers; whether that left the key unread."""
    found = index.get(key)
    if isinstance(found, set):
        found.discard(reader)
        if len(found) == 1:
            index[key] = next(iter(found))
        return False
    if found is None or found != reader:
        return False
    del index[key]
    return True
