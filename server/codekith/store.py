"""The index on disk: LanceDB tables `chunks`, `files`, `vectors` and `meta`.

The only module that imports lancedb, and only when a table is opened: `status` on an
unchanged index reads the saved Snapshot instead, so it starts without LanceDB.

Writes follow FIELD-NOTES: one `merge_insert` keyed by `id` per batch of whole files, where
chunks that vanished from a file are written as tombstones (`deleted = true`) in the same
commit, so a reader never sees a file half-updated and no write scans the whole table.
Tombstones are purged and fragments compacted by `maintain()`, at the end of each run.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import fcntl
import functools
import json
import os
import re
import shutil
import socket
import threading
import time
import uuid
import warnings
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from codekith import deferred
from codekith.sidecode import TEST_PATH
from codekith.vocabulary import KIND_GROUPS

SCHEMA_VERSION = "1"
ANN_MIN_ROWS = 50_000
# Rows outside the full-text index are scored on statistics of their own: flask with 518
# new documentation rows unindexed ranked docstring questions .578 against .572 indexed
# (optimize took 0.1 s there; 4-10 s at 100k rows, where rows // 20 decides as before).
UNINDEXED_FLOOR = 50
WRITE_BATCH_ROWS = 8_000
OPTIMIZE_EVERY_VERSIONS = 40
CLEANUP_AFTER = timedelta(minutes=10)
INDEX_CACHE_BYTES = 256 << 20  # LanceDB's opened indexes (full-text, scalar, ANN)
METADATA_CACHE_BYTES = 32 << 20  # manifests, fragment and file metadata (see _lance_session)
VECTOR_MEMO = 4096  # vectors a process keeps in memory (~6 MB at 384 dimensions)
WRITTEN_MEMO = 512  # files whose chunk ids and catalog record a writer keeps (see _Written)
LEASE_SECONDS = 60.0
LEASE_TABLE = "lease"

CHUNK_COLUMNS = (
    "id",
    "path",
    "language",
    "kind",
    "symbol",
    "qualname",
    "parent",
    "signature",
    "docstring",
    "imports",
    "bases",
    "decorators",
    "start_line",
    "end_line",
    "content_hash",
    "file_hash",
    "document",
    "search_text",
)
RESULT_COLUMNS = [c for c in CHUNK_COLUMNS if c not in ("search_text",)]
SNAPSHOT_READ_ATTEMPTS = 8  # reads of a snapshot that a concurrent writer may spoil
SNAPSHOT_RETRY_S = 0.05  # the wait before the n-th read again is n times this
TEXT_MIRROR = "text_mirror"  # a team index's live chunk text, published and local merged
TEXT_MIRROR_STATE = "text_mirror.json"  # what the mirror was last synced to
TEXT_MIRROR_COLUMNS = [*CHUNK_COLUMNS, "deleted"]  # a chunk row without its vector


class IndexMismatchError(RuntimeError):
    """The stored vectors come from another model, dimension, template or schema."""


class IndexLockedError(RuntimeError):
    """Another process holds the write lock."""


class IndexUnwritableError(RuntimeError):
    """The index cannot be written: read-only folder, no space left, permissions."""


def chunk_schema(dim: int) -> pa.Schema:
    strings = pa.list_(pa.string())
    return pa.schema(
        [
            ("id", pa.string()),
            ("path", pa.string()),
            ("language", pa.string()),
            ("kind", pa.string()),
            ("symbol", pa.string()),
            ("qualname", pa.string()),
            ("parent", pa.string()),
            ("signature", pa.string()),
            ("docstring", pa.string()),
            ("imports", strings),
            ("bases", strings),
            ("decorators", strings),
            ("start_line", pa.int32()),
            ("end_line", pa.int32()),
            ("content_hash", pa.string()),
            ("file_hash", pa.string()),
            ("document", pa.string()),
            ("search_text", pa.string()),
            ("vector", pa.list_(pa.float32(), dim)),
            ("deleted", pa.bool_()),
        ]
    )


FILE_SCHEMA = pa.schema(
    [
        ("path", pa.string()),
        ("file_hash", pa.string()),
        ("mtime_ns", pa.int64()),
        ("size", pa.int64()),
        ("language", pa.string()),
        ("status", pa.string()),
        ("reason", pa.string()),
        ("chunks", pa.int32()),
        ("error", pa.string()),
    ]
)
META_SCHEMA = pa.schema([("key", pa.string()), ("value", pa.string())])
LEASE_SCHEMA = pa.schema([("key", pa.string()), ("holder", pa.string()), ("expires", pa.float64())])
EDGE_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("src", pa.string()),
        ("dst", pa.string()),
        ("kind", pa.string()),
        ("path", pa.string()),
        ("line", pa.int32()),
        ("resolver", pa.string()),
        ("deleted", pa.bool_()),
    ]
)
EDGE_COLUMNS = ["src", "dst", "kind", "path", "line", "resolver"]
GRAPH_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("key", pa.string()),  # path|file_hash: what a run looks variants up by
        ("path", pa.string()),
        ("written_at", pa.float64()),
        ("state", pa.binary()),
    ]
)


def feedback_schema(dim: int) -> pa.Schema:
    return pa.schema(
        [
            ("query", pa.string()),
            ("vector", pa.list_(pa.float32(), dim)),
            ("id", pa.string()),
            ("vote", pa.int8()),
            ("at", pa.float64()),
            ("tower", pa.string()),  # what embedded the question (Embedder.query_id)
        ]
    )


RUN_SCHEMA = pa.schema(
    [
        ("started_at", pa.float64()),
        ("mode", pa.string()),
        ("head", pa.string()),
        ("files", pa.int64()),
        ("indexed", pa.int64()),
        ("unchanged", pa.int64()),
        ("deleted", pa.int64()),
        ("skipped", pa.int64()),
        ("errors", pa.int64()),
        ("chunks_written", pa.int64()),
        ("embedded", pa.int64()),
        ("reused", pa.int64()),
        ("chunks_total", pa.int64()),
        ("seconds", pa.float64()),
    ]
)
RUNS_KEPT = 200
RUNS_TRIM = 50
CURRENT_FILE = "CURRENT"
TABLES = ("meta", "files", "chunks", "vectors", "edges", "runs", "feedback", "graph")
OPTIMIZED_TABLES = ("chunks", "files", "vectors", "meta", "runs", "edges", "graph")
REQUIRED_TABLES = ("meta", "files", "chunks", "vectors")
INDEXED_COLUMNS = {
    "chunks": ("id", "path", "content_hash", "symbol", "qualname"),
    "files": ("path",),
    "vectors": ("content_hash",),
    "edges": ("id", "src", "dst", "path"),
    "graph": ("id", "key", "path"),
}
GENERATION_PREFIX = "gen-"
SNAPSHOT_FILE = "snapshot.json"


def vector_schema(dim: int) -> pa.Schema:
    return pa.schema([("content_hash", pa.string()), ("vector", pa.list_(pa.float32(), dim))])


@dataclass(frozen=True)
class FileRecord:
    path: str
    file_hash: str
    mtime_ns: int
    size: int
    language: str
    status: str  # indexed | skipped
    reason: str = ""
    chunks: int = 0
    error: str = ""


@dataclass
class FileUpdate:
    """A file's new state: its record plus all its chunk rows (vectors included)."""

    record: FileRecord
    rows: list[dict[str, Any]]


def quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def in_list(column: str, values: Iterable[str]) -> str:
    return f"{column} IN ({', '.join(quote(v) for v in values)})"


@dataclass(frozen=True)
class Filters:
    """Which chunks a search may return. The path prefix matches whole path components
    (`src/a` never matches `src/ab.py`); the kind may name a group of kinds (`code`);
    `test_paths` keeps tests alone (True) or leaves them out (False), by `TEST_PATH`;
    empty fields do not filter."""

    path_prefix: str = ""
    language: str = ""
    kind: str = ""
    test_paths: bool | None = None

    def prefix(self) -> str:
        """The path prefix as a root-relative path, "" for the whole root."""
        prefix = self.path_prefix.strip().strip("/")
        return "" if prefix == "." else prefix

    def where(self) -> str:
        """The filter as the store's SQL; only the store uses it."""
        clauses = ["deleted = false"]
        prefix = self.prefix()
        if prefix:
            clauses.append(f"(path = {quote(prefix)} OR starts_with(path, {quote(prefix + '/')}))")
        if self.language:
            clauses.append(f"language = {quote(self.language)}")
        if self.kind in KIND_GROUPS:
            clauses.append(in_list("kind", KIND_GROUPS[self.kind]))
        elif self.kind:
            clauses.append(f"kind = {quote(self.kind)}")
        if self.test_paths is not None:
            negation = "" if self.test_paths else "NOT "
            clauses.append(f"{negation}regexp_like(path, {quote(TEST_PATH.pattern)})")
        return " AND ".join(clauses)


NO_FILTERS = Filters()


@dataclass(frozen=True)
class Shadow:
    """Paths another store answers for (a local overlay over a published index): this
    store's chunks and catalog records of `files`, and its edges from `edge_paths`, are
    hidden from every read."""

    files: frozenset[str] = frozenset()
    edge_paths: frozenset[str] = frozenset()


NO_SHADOW = Shadow()


def _no_shadow() -> Shadow:
    return NO_SHADOW


@dataclass(frozen=True)
class Snapshot:
    """The index read at one set of table versions: what `status`, freshness checks and
    readiness tests need, without opening LanceDB again while no table changed."""

    tables: frozenset[str]
    meta: dict[str, str]
    catalog: dict[str, FileRecord]
    chunks: int  # live chunks
    edges: int  # live edges
    runs: list[dict[str, Any]]  # newest first

    def to_json(self) -> dict[str, Any]:
        return {
            "tables": sorted(self.tables),
            "meta": self.meta,
            "catalog": [dataclasses.astuple(r) for r in self.catalog.values()],
            "chunks": self.chunks,
            "edges": self.edges,
            "runs": self.runs,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Snapshot:
        records = (FileRecord(*row) for row in data["catalog"])
        return cls(
            tables=frozenset(data["tables"]),
            meta=dict(data["meta"]),
            catalog={r.path: r for r in records},
            chunks=int(data["chunks"]),
            edges=int(data["edges"]),
            runs=list(data["runs"]),
        )


def _not_in(column: str, values: frozenset[str]) -> str:
    return f"NOT {in_list(column, sorted(values))}" if values else "true"


def _name_clause(name: str) -> str:
    """A bare name matches a symbol; a dotted one a qualname or the end of one."""
    if "." not in name:
        return f"symbol = {quote(name)}"
    return f"(qualname = {quote(name)} OR ends_with(qualname, {quote('.' + name)}))"


def _kinds_clause(kinds: Collection[str] | None, skip_kinds: Collection[str]) -> str:
    clauses = ["true"]
    if kinds is not None:
        clauses.append(in_list("kind", sorted(kinds)) if kinds else "false")
    if skip_kinds:
        clauses.append(f"NOT {in_list('kind', sorted(skip_kinds))}")
    return " AND ".join(clauses)


def _upsert(table: Any, key: str, rows: Sequence[dict[str, Any]], schema: pa.Schema) -> list[int]:
    """Insert or replace rows by `key`, one commit per batch of at most WRITE_BATCH_ROWS;
    the versions the commits made."""
    versions = []
    for batch in _batches(rows, WRITE_BATCH_ROWS):
        data = pa.Table.from_pylist(list(batch), schema=schema)
        merge = table.merge_insert(key).when_matched_update_all().when_not_matched_insert_all()
        versions.append(int(merge.execute(data).version))
    return versions


@dataclass
class _Written:
    """What this connection committed to one table lately, by path (chunk ids, catalog
    records), true while the table is at the version its last commit made: versions count
    commits, so a commit right after the memo's means nobody else wrote in between. The
    table's folder (inode, ctime) tells a table made again, whose versions start over. A
    save read both back first: on flask 6.7-9.4 and 4.0-6.2 ms of its 100-150 in-process."""

    version: int = -1
    folder: tuple[int, int] | None = None
    values: dict[str, Any] = dataclasses.field(default_factory=dict)

    def wrote(
        self, versions: list[int], folder: tuple[int, int] | None, values: dict[str, Any]
    ) -> None:
        if not versions:
            return
        follows = versions[0] == self.version + 1 and folder == self.folder
        if not follows or len(self.values) + len(values) > WRITTEN_MEMO:
            self.values = {}
        self.values.update(values if len(values) <= WRITTEN_MEMO else {})
        self.version, self.folder = versions[-1], folder

    def lookup(
        self, keys: Collection[str], version: int, folder: tuple[int, int] | None
    ) -> dict[str, Any] | None:
        """The values of `keys` when all are known and the table is still at this version."""
        current = version == self.version and folder == self.folder and folder is not None
        if not current or any(k not in self.values for k in keys):
            return None
        return {k: self.values[k] for k in keys}


def _batches(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


REST_CLIENT = "lance_namespace_urllib3_client"  # lancedb's namespace models live in it
NAMESPACES = "lance_namespace"  # the namespace interface, re-exporting every REST model
# what lancedb imports from NAMESPACES to annotate, or to call for namespaces only (and
# ListTablesResponse for every table listing), with the modules defining each
NAMESPACE_STAND_INS = {
    "LanceNamespace": "",
    "connect": "",
    **{
        name: f"{REST_CLIENT}.models.{re.sub(r'(?<!^)(?=[A-Z])', '_', name).lower()}"
        for name in (
            "CreateNamespaceResponse",
            "DescribeNamespaceResponse",
            "DropNamespaceResponse",
            "ListNamespacesResponse",
            "ListTablesResponse",
            "NamespaceExistsRequest",
            "TableExistsRequest",
        )
    },
}


@functools.cache  # the set-up is the process's, once
def _lancedb() -> Any:
    """lancedb, imported without setting up the REST client of Lance namespaces. Arrow's
    buffers come from the C library's malloc from then on, whose free pages
    `memory.release_free_memory` returns: in pyarrow's default mimalloc pool, a server's
    RSS grew ~1.9 MB per save of a flask file and never came back (+191 MB over 100
    saves; with malloc +68 MB).

    Two package `__init__`s are deferred (`deferred`), for a REST client a local index
    never calls: the REST client's builds pydantic validators of every API method (1.5-4.5
    s here), and its models' and the namespace interface's import all ~200 pydantic models
    (0.3 s, a quarter of a CLI run that changes nothing; lancedb imports 9 of them)."""
    pa.set_memory_pool(pa.system_memory_pool())
    deferred.defer_package_init(REST_CLIENT)
    deferred.defer_package_init(f"{REST_CLIENT}.models")
    end_stand_ins = deferred.defer_package_init(NAMESPACES, NAMESPACE_STAND_INS)
    import lancedb

    end_stand_ins()
    return lancedb


@functools.cache
def _lance_session() -> Any:
    """One LanceDB cache for every connection of the process, bounded: with its defaults
    (6 GB of index, 1 GB of metadata) a long-lived server kept every table version's
    metadata it had read, ~0.4 MB more per save on flask. 32 MB still lets a process that
    saves flask's helpers.py grow over 100 saves (386 -> 427 MB in-process; 8 MB: +24 MB,
    flat after 50), but 8 MB made a branch switch back (84 files) cost 3.67 vs 2.79-3.06
    CPU-s: a bulk run reads more metadata than that (`scripts/bench_cli.py`, 2 rounds)."""
    return _lancedb().Session(
        index_cache_size_bytes=INDEX_CACHE_BYTES, metadata_cache_size_bytes=METADATA_CACHE_BYTES
    )


def is_uri(location: str) -> bool:
    """`s3://…`, `gs://…`, `az://…`, `file://…`, `memory://`: LanceDB's object stores."""
    return "://" in location


class Store:
    """One index. Its tables live in the folder `location`, or, once a full rebuild has
    happened, in the generation folder named by `location/CURRENT`: a rebuild writes a new
    generation and swaps CURRENT, so readers see the old index until the new one is whole.
    In object storage (a URI) there are no generations: a rebuild replaces the tables."""

    def __init__(
        self,
        location: str,
        read_consistency: bool = True,
        storage_options: dict[str, str] | None = None,
        create: bool = True,
        snapshots: bool = False,
    ):
        """`storage_options` go to LanceDB's object store, over the AWS_* (GOOGLE_*,
        AZURE_*) environment variables it reads itself. With `create` false a missing local
        folder is not made (a reader creates nothing): the store reads as empty until
        another connection creates the index there. With `snapshots`, has_index, meta and
        the freshness check answer from the saved snapshot (see `snapshot`): for a short
        process such as `status`; a long-lived one, which writes and then reads again,
        would re-read every table after each write."""
        self.location = location
        self._local = not is_uri(location)
        self._snapshots = snapshots
        if self._local and create:
            Path(location).mkdir(parents=True, exist_ok=True)
            ignore = Path(location) / ".gitignore"
            if not ignore.exists():
                ignore.write_text("*\n")
        self._interval = timedelta(0) if read_consistency else None
        self._storage_options = storage_options or None
        self.shadow: Callable[[], Shadow] = _no_shadow
        self._db: Any = None
        self._holding = False  # this connection holds the write lock
        self._connect(self._current())

    @property
    def db(self) -> Any:
        """The LanceDB connection, made on first use (importing LanceDB takes seconds);
        None while a reader's folder does not exist."""
        if self._db is None and self._exists():
            connection: Any = _lancedb().connect(
                self.path,
                read_consistency_interval=self._interval,
                storage_options=self._storage_options,
                session=_lance_session(),
            )
            self._db = connection
        return self._db

    # -- generations ----------------------------------------------------------------------

    def _current(self) -> str:
        if not self._local:
            return ""
        try:
            return (Path(self.location) / CURRENT_FILE).read_text().strip()
        except FileNotFoundError:
            return ""

    def _connect(self, generation: str) -> None:
        self.generation = generation
        self.path = str(Path(self.location) / generation) if generation else self.location
        self._db = None
        self._tables: dict[str, Any] = {}
        self._schemas: dict[int, tuple[Any, pa.Schema]] = {}
        self._vector_memo: OrderedDict[str, np.ndarray] = OrderedDict()
        self._vector_memo_lock = threading.Lock()
        self._lease: _Lease | None = None
        self._snapshot: tuple[list[Any], Snapshot] | None = None
        self._meta_memo: tuple[tuple[int, int, int], dict[str, str]] | None = None
        self._meta_checked = False  # the memo was found current since the lock was taken
        self._nested_memo: tuple[tuple[int, ...], dict[str, str]] | None = None
        self._written: dict[str, _Written] = {"chunks": _Written(), "files": _Written()}

    def _visible(self, where: str) -> str:
        """`where` without the chunks of shadowed files."""
        hidden = self.shadow().files
        return f"({where}) AND {_not_in('path', hidden)}" if hidden else where

    def _exists(self) -> bool:
        return not self._local or Path(self.location).is_dir()

    def _follow(self) -> None:
        """Follow a rebuild that another process (or connection) swapped in (`db` follows
        an index that another connection created where this reader found none)."""
        if self._local and self._current() != self.generation:
            self._connect(self._current())

    def staging(self) -> Store | None:
        """An empty generation beside the current one, for a rebuild readers must not see
        before it is complete (None in object storage). Generations that an interrupted
        rebuild left are dropped."""
        if not self._local:
            return None
        base = Path(self.location)
        for folder in base.glob(f"{GENERATION_PREFIX}*"):
            if folder.name != self._current():
                shutil.rmtree(folder, ignore_errors=True)
        return Store(str(base / f"{GENERATION_PREFIX}{time.time_ns()}"))

    def promote(self, staging: Store) -> None:
        """Make `staging` the index in one atomic rename, then drop the old tables."""
        base = Path(self.location)
        old = self._current()
        pointer = base / (CURRENT_FILE + ".tmp")
        pointer.write_text(Path(staging.location).name)
        os.replace(pointer, base / CURRENT_FILE)
        self._connect(self._current())
        if old:
            shutil.rmtree(base / old, ignore_errors=True)
        else:
            for table in base.glob("*.lance"):
                shutil.rmtree(table, ignore_errors=True)
            (base / SNAPSHOT_FILE).unlink(missing_ok=True)

    # -- tables ---------------------------------------------------------------------------

    def _names(self) -> set[str]:
        self._follow()
        db = self.db
        return set(db.list_tables().tables) if db is not None else set()

    def _table(self, name: str) -> Any:
        self._follow()
        if name not in self._tables:
            self._tables[name] = self.db.open_table(name)
        return self._tables[name]

    def _schema(self, name: str) -> pa.Schema:
        """A table's schema, read once per open handle: `table.schema` asks the storage for
        the latest version each time, about 15 times in a one-file save."""
        table = self._table(name)
        kept = self._schemas.get(id(table))
        if kept is None or kept[0] is not table:
            kept = self._schemas[id(table)] = (table, table.schema)
        return kept[1]

    def _upsert(self, name: str, key: str, rows: Sequence[dict[str, Any]]) -> list[int]:
        return _upsert(self._table(name), key, rows, self._schema(name)) if rows else []

    def _recall(self, name: str, keys: Collection[str]) -> dict[str, Any] | None:
        """What this connection last wrote to `name` for these keys, if still current
        (never in object storage, where a table's folder cannot be told apart)."""
        written = self._written[name]
        if written.version < 0:
            return None
        return written.lookup(keys, int(self._table(name).version), self._folder(name))

    def _remember(self, name: str, versions: list[int], values: dict[str, Any]) -> None:
        self._written[name].wrote(versions, self._folder(name), values)

    def _folder(self, name: str) -> tuple[int, int] | None:
        """A local table folder's identity: a table made again has another."""
        if not self._local:
            return None
        try:
            folder = os.stat(Path(self.path) / f"{name}.lance")
        except OSError:
            return None
        return folder.st_ino, folder.st_ctime_ns

    def versions(self, names: Sequence[str]) -> tuple[int, ...] | None:
        """The tables' current versions (None when one is missing): a cheap test whether
        anything was written since."""
        try:
            return tuple(int(self._table(name).version) for name in names)
        except Exception:  # missing, or dropped and made again by another connection
            for name in names:
                self._tables.pop(name, None)
            return None

    def has_index(self) -> bool:
        """All tables exist and `create()` finished (it writes meta last)."""
        state = self._kept_snapshot()
        if state is None:
            return set(REQUIRED_TABLES) <= self._names() and "schema" in self.meta()
        return set(REQUIRED_TABLES) <= state.tables and "schema" in state.meta

    def meta_and_catalog(self) -> tuple[dict[str, str], dict[str, FileRecord]]:
        """What freshness checks compare with the workspace."""
        state = self._kept_snapshot()
        return (state.meta, state.catalog) if state else (self.meta(), self.catalog())

    # -- snapshot -------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """The index as it is now. A local index keeps its last snapshot beside the tables,
        with the list of table files it was read at: while that is unchanged on disk it is
        read back without opening LanceDB; any commit, rollback or damaged file changes it
        and the tables are read again. A read that fails while a writer changes the tables
        (a table being dropped and made again; their files changing, or going while they are
        listed) is tried again after a short wait (growing: a slow writer takes a while);
        one that fails on unchanged files is damage, and raises."""
        for attempt in range(SNAPSHOT_READ_ATTEMPTS):
            key = self._table_files()
            if key is not None:
                if self._snapshot is not None and self._snapshot[0] == key:
                    return self._snapshot[1]
                saved = self._saved_snapshot(key)
                if saved is not None:
                    self._snapshot = (key, saved)
                    return saved
            try:
                state = self._read_snapshot()
            except Exception:  # Lance raises plain RuntimeError/OSError/ValueError
                last = attempt == SNAPSHOT_READ_ATTEMPTS - 1
                if last or not self._keeps_snapshot():
                    raise
                now = self._table_files()  # None: a file went while listed, a writer is at work
                if now is not None and now == key:
                    raise
                time.sleep(SNAPSHOT_RETRY_S * (attempt + 1))
                continue
            if key is not None and "schema" in state.meta and self._table_files() == key:
                self._snapshot = (key, state)  # no commit while it was read: it is whole
                self._save_snapshot(key, state)
            return state
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _keeps_snapshot(self) -> bool:
        """A saved snapshot can be trusted: a local index, read whole (no rows hidden), at
        its latest versions."""
        return self._local and self.shadow is _no_shadow and self._interval is not None

    def _kept_snapshot(self) -> Snapshot | None:
        """The snapshot where this connection answers from one; None elsewhere (object
        storage, a layered view: they read the few tables they need; a connection made
        without `snapshots`) or when a table cannot be read (the caller's own reads say
        what is wrong)."""
        if not (self._snapshots and self._keeps_snapshot()):
            return None
        try:
            return self.snapshot()
        except Exception:  # Lance raises plain RuntimeError/OSError/ValueError
            return None

    def _read_snapshot(self) -> Snapshot:
        names = self._names() - self._being_made()
        for name in sorted(names & set(TABLES)):  # every table opens and counts (damage)
            self._table(name).count_rows()
        return Snapshot(
            tables=frozenset(names),
            meta=self.meta(),
            catalog=self.catalog() if "files" in names else {},
            chunks=self.count() if "chunks" in names else 0,
            edges=self.edge_count(),
            runs=self.runs(RUNS_KEPT),
        )

    def _being_made(self) -> set[str]:
        """Local tables whose folder has no committed version yet: Lance writes a new
        table's data files before its first manifest, and until then `list_tables` names it
        but `open_table` says it "was not found". Such a table does not exist yet; it is not
        damage. (A writer stalled between the two can leave the files unchanged for a while,
        so the retry in `snapshot()` does not cover it.)"""
        if not self._local:
            return set()
        return {
            folder.name.removesuffix(".lance")
            for folder in Path(self.path).glob("*.lance")
            if not any((folder / "_versions").glob("*.manifest"))
        }

    def _table_files(self) -> list[Any] | None:
        """The generation and every file of every table (path, size, mtime): a commit adds
        a manifest, and a damaged, deleted or replaced file changes its entry. None where a
        saved snapshot cannot be trusted: object storage, a view that hides rows, a
        connection that does not read the latest versions."""
        if not self._keeps_snapshot():
            return None
        self._follow()
        found: list[Any] = [self.generation]
        try:
            for table in sorted(Path(self.path).glob("*.lance")):
                found.extend(_files_under(table, table.name))
        except OSError:  # a file went while it was listed: a writer is at work
            return None
        return found

    def _saved_snapshot(self, key: list[Any]) -> Snapshot | None:
        try:
            saved = json.loads((Path(self.path) / SNAPSHOT_FILE).read_text(encoding="utf-8"))
            return Snapshot.from_json(saved["snapshot"]) if saved["key"] == key else None
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _save_snapshot(self, key: list[Any], state: Snapshot) -> None:
        """Best effort: a read-only or full disk only costs the next reader a table read."""
        target = Path(self.path) / SNAPSHOT_FILE
        temporary = target.with_name(f"{SNAPSHOT_FILE}.{os.getpid()}.{threading.get_ident()}")
        try:
            temporary.write_text(json.dumps({"key": key, "snapshot": state.to_json()}))
            os.replace(temporary, target)
        except OSError:
            temporary.unlink(missing_ok=True)

    def meta(self) -> dict[str, str]:
        """The index's key/values, read again only when the table has a new version (a
        save asked for them four times, a query twice: ~6 ms each, ~1.5 ms to check). While
        this connection holds the write lock, a memo checked once since the lock was taken
        is current without asking (only this connection commits meta then, and set_meta
        keeps the memo): a save's run checked it at each of its four reads."""
        memo = self._meta_memo  # one read: set_meta may clear it
        if memo is not None and self._holding and self._meta_checked:
            return dict(memo[1])
        key = self._meta_key()
        if key is not None and memo is not None and memo[0] == key:
            self._meta_checked = self._holding
            return dict(memo[1])
        if key is None and "meta" not in self._names():  # a key: the table opened
            return {}
        try:
            rows = self._table("meta").to_arrow().to_pylist()
        except ValueError:  # listed but not committed yet: a create() is under way
            self._tables.pop("meta", None)
            return {}
        found = {r["key"]: r["value"] for r in rows}
        if key is not None:  # read at that version or later: a later one is re-read
            self._meta_memo = (key, dict(found))
            self._meta_checked = self._holding
        return found

    def _meta_key(self) -> tuple[int, int, int] | None:
        """The meta table's version, and which table it is: a table made again starts its
        versions over (a new folder, in place of the old). None in object storage: no memo."""
        if not self._local:
            return None
        folder = self._folder("meta")  # None: missing
        try:
            if folder is not None:
                return (int(self._table("meta").version), *folder)
        except Exception:  # dropped and made again by another connection
            pass
        self._tables.pop("meta", None)
        return None

    def _meta_now(self) -> dict[str, str]:
        """meta through the kept snapshot (no LanceDB while nothing changed)."""
        state = self._kept_snapshot()
        return state.meta if state is not None else self.meta()

    def set_meta(self, values: dict[str, str]) -> None:
        self._check_lease()
        kept, self._meta_memo = self._meta_memo, None  # not kept if the commit fails
        self._upsert("meta", "key", [{"key": k, "value": v} for k, v in values.items()])
        if kept is not None and self._holding:  # no other writer: the memo plus `values`
            key = self._meta_key()
            if key is not None:
                self._meta_memo = (key, {**kept[1], **values})

    def check_compatible(self, model_id: str, dim: int | None, template: str) -> None:
        """Raise IndexMismatchError when stored vectors would mix with new ones (writers)
        or be compared with vectors of another model (readers; `dim` None: not checked)."""
        meta = self._meta_now()
        if not meta:
            return
        expected = {"model": model_id, "template": template, "schema": SCHEMA_VERSION}
        if dim is not None:
            expected["dim"] = str(dim)
        wrong = [
            f"{k} {meta.get(k)!r} (now {v!r})" for k, v in expected.items() if meta.get(k) != v
        ]
        if wrong:
            raise IndexMismatchError(
                "the index was built with "
                + ", ".join(wrong)
                + "; run `codekith index --full` to rebuild it"
            )

    def create(self, model_id: str, dim: int, template: str) -> None:
        """Fresh, empty tables (dropping any old ones) with their scalar and FTS indexes."""
        self._check_lease()
        self._forget_vectors()  # a new model or template: no vector of the old one holds
        for name in TABLES:
            self._drop(name)
        for name in TABLES:
            if name != "feedback":
                self._create(name, dim)
        self.set_meta(
            {
                "model": model_id,
                "dim": str(dim),
                "template": template,
                "schema": SCHEMA_VERSION,
                "created": str(int(time.time())),
            }
        )

    def _drop(self, name: str) -> None:
        """Drop a table, also one too damaged for LanceDB to open."""
        self._tables.pop(name, None)
        if name == "meta":
            self._meta_memo = None
        if name in self._written:  # a new table counts its versions from 1 again
            self._written[name] = _Written()
        with contextlib.suppress(Exception):
            self.db.drop_table(name)
        if self._local:
            shutil.rmtree(Path(self.path) / f"{name}.lance", ignore_errors=True)

    def _create(self, name: str, dim: int) -> Any:
        schemas = {
            "chunks": chunk_schema(dim),
            "files": FILE_SCHEMA,
            "vectors": vector_schema(dim),
            "meta": META_SCHEMA,
            "runs": RUN_SCHEMA,
            "edges": EDGE_SCHEMA,
            "feedback": feedback_schema(dim),
            "graph": GRAPH_SCHEMA,
        }
        from lancedb.index import FTS, BTree

        table = self.db.create_table(name, schema=schemas[name])
        for column in INDEXED_COLUMNS.get(name, ()):
            table.create_index(column, config=BTree())
        if name == "chunks":
            table.create_index("search_text", config=FTS())
        return table

    # -- damage ---------------------------------------------------------------------------

    def damage(self, deep: bool = True) -> dict[str, str]:
        """Tables that cannot be read, by name, with the problem in one line; `deep` also
        reads a column of every row (a deleted or truncated data file). Live chunks that
        do not add up to the catalog's count (a lost manifest rolls a table back to an
        older version) count as damage of `chunks`."""
        state = None if deep else self._kept_snapshot()
        if state is not None:
            return _shortfall(state.tables, {}, state.meta, state.catalog, state.chunks)
        names = self._names()
        if not names & set(REQUIRED_TABLES):
            return {}
        problems: dict[str, str] = {}
        for name in sorted(names & set(TABLES)):
            try:
                table = self._table(name)
                table.count_rows()
                if deep:
                    table.search().select([table.schema.names[0]]).limit(None).to_arrow()
            except Exception as exc:  # Lance raises plain RuntimeError/OSError/ValueError
                problems[name] = _one_line(exc)
                self._tables.pop(name, None)
        if problems.keys() & {"meta", "files", "chunks"}:
            return _shortfall(names, problems, {}, {}, 0)
        return _shortfall(names, problems, self.meta(), self.catalog(), self.count())

    def repair(self, problems: dict[str, str]) -> None:
        """Recreate damaged tables from what is intact: the catalog is emptied with the chunks
        (every file is then read again) and the vector cache refilled from live chunks; meta
        must be intact (a damaged meta needs `create`)."""
        dim = int(self.meta()["dim"])
        if "chunks" in problems:
            problems = {**problems, "files": problems.get("files", "rebuilt with the chunks")}
        for name in problems:
            self._drop(name)
            self._create(name, dim)
        if "vectors" in problems and "chunks" not in problems:
            live = self._table("chunks").search().where("deleted = false")
            arrow = live.select(["content_hash", "vector"]).limit(None).to_arrow()
            vectors = arrow.column("vector").to_numpy(zero_copy_only=False)
            hashes = arrow.column("content_hash").to_pylist()
            self._add_vectors(dict(zip(hashes, vectors, strict=True)))
        if problems.keys() & {"edges", "graph"}:
            self.set_meta({"graph": ""})  # the whole graph is derived again

    def _edges(self) -> Any:
        if "edges" not in self._names():
            return self._create("edges", 0)
        return self._table("edges")

    def live_edges(self) -> list[dict[str, Any]]:
        """Every live edge of the graph."""
        return self._live_edges("true")

    def edges_from(
        self,
        srcs: Iterable[str],
        kinds: Collection[str] | None = None,
        skip_kinds: Collection[str] = (),
        into_scopes: bool = False,
    ) -> list[dict[str, Any]]:
        """Live edges leaving these definitions, `kinds` only (None: all), not `skip_kinds`.
        A call made in a lambda or nested function (`f.<lambda1>`, `f.inner`, as PyCG names
        them: no chunks, so their edges were lost to every reader) is its enclosing
        definition's. With `into_scopes`, a call into one is a call into that definition
        too: the `decorator` that `route` returns, a callback run elsewhere, which relate
        code (bundles) though that definition is not what runs (call hierarchy)."""
        return self._chunk_edges("src", srcs, _kinds_clause(kinds, skip_kinds), into_scopes)

    def edges_to(
        self,
        dsts: Iterable[str],
        kinds: Collection[str] | None = None,
        skip_kinds: Collection[str] = (),
        into_scopes: bool = False,
    ) -> list[dict[str, Any]]:
        """Live edges arriving at these definitions (see `edges_from`)."""
        return self._chunk_edges("dst", dsts, _kinds_clause(kinds, skip_kinds), into_scopes)

    def _chunk_edges(
        self, column: str, names: Iterable[str], kind_filter: str, into_scopes: bool
    ) -> list[dict[str, Any]]:
        wanted = set(names)
        nested = self._nested_scopes()
        inside: set[str] = set()
        if column == "src" or into_scopes:
            inside = {scope for scope, owner in nested.items() if owner in wanted}
        found: list[dict[str, Any]] = []
        for batch in _batches(sorted(wanted | inside), 500):
            for edge in self._live_edges(f"{in_list(column, batch)} AND {kind_filter}"):
                src = nested.get(edge["src"], edge["src"])
                dst = nested.get(edge["dst"], edge["dst"]) if into_scopes else edge["dst"]
                if src != dst or edge["src"] == edge["dst"]:  # not a call into its own scope
                    found.append({**edge, "src": src, "dst": dst})
        return found

    def _nested_scopes(self) -> dict[str, str]:
        """Each edge end that is no chunk but lies in one -> the innermost chunk holding it,
        the longest dotted prefix that is one. Read again only when either table has a new
        version: one pass over both (a lookup per read made `related` four times slower)."""
        versions = self.versions(("edges", "chunks"))
        if versions is None:
            return {}
        if self._nested_memo is not None and self._nested_memo[0] == versions:
            return self._nested_memo[1]
        edges = self._live_columns("edges", ["src", "dst"])
        ends = set(edges.column("src").to_pylist()) | set(edges.column("dst").to_pylist())
        chunks = set(self._live_columns("chunks", ["qualname"]).column("qualname").to_pylist())
        nested: dict[str, str] = {}
        for scope in ends - chunks:
            holder = scope.rpartition(".")[0]
            while holder and holder not in chunks:
                holder = holder.rpartition(".")[0]
            if holder:
                nested[scope] = holder
        self._nested_memo = (versions, nested)
        return nested

    def _live_columns(self, table: str, columns: list[str]) -> pa.Table:
        query = self._table(table).search().where("deleted = false").select(columns)
        return query.limit(None).to_arrow()

    def _live_edges(self, where: str) -> list[dict[str, Any]]:
        """Readers never create tables: an index from before edges existed has none."""
        if "edges" not in self._names():
            return []
        hidden = _not_in("path", self.shadow().edge_paths)
        query = (
            self._table("edges")
            .search()
            .where(f"deleted = false AND ({where}) AND {hidden}")
            .select(["id", *EDGE_COLUMNS])
            .limit(None)
        )
        return query.to_arrow().to_pylist()

    def replace_edges(
        self, rows: list[dict[str, Any]], paths: set[str] | None = None
    ) -> tuple[int, int]:
        """Make the live edges of `paths` (None: of all files) exactly `rows` in one commit:
        new ones inserted, vanished ones tombstoned, unchanged ones untouched.
        Returns (added, removed)."""
        self._check_lease()
        wanted = {row["id"]: row for row in rows}
        if paths is None:
            live = {row["id"] for row in self.live_edges()}
        else:
            live = set()
            for batch in _batches(sorted(paths), 500):
                live |= {row["id"] for row in self._live_edges(in_list("path", batch))}
        added = [{**wanted[i], "deleted": False} for i in wanted.keys() - live]
        removed = [
            {
                "id": i,
                "src": "",
                "dst": "",
                "kind": "",
                "path": "",
                "line": 0,
                "resolver": "",
                "deleted": True,
            }
            for i in live - wanted.keys()
        ]
        self._edges()
        self._upsert("edges", "id", added + removed)
        return len(added), len(removed)

    # -- the call graph's per-file derivations (opaque blobs, see graph/incremental) -------

    def graph_states_by_id(self, ids: Iterable[str]) -> list[bytes]:
        """Stored derivations by id (`graph_state_listing` names them)."""
        if "graph" not in self._names():
            return []
        found: list[bytes] = []
        for batch in _batches(sorted(set(ids)), 500):
            query = self._table("graph").search().where(in_list("id", batch)).select(["state"])
            found += query.limit(None).to_arrow().column("state").to_pylist()
        return found

    def graph_state_listing(self, keys: Iterable[str]) -> dict[str, list[str]]:
        """The ids of the stored derivations of these keys, the last written or used first
        (no derivation read)."""
        if "graph" not in self._names():
            return {}
        listed: dict[str, list[tuple[float, str]]] = {}
        for batch in _batches(sorted(set(keys)), 500):
            query = self._table("graph").search().where(in_list("key", batch))
            rows = query.select(["id", "key", "written_at"]).limit(None).to_arrow().to_pylist()
            for row in rows:
                listed.setdefault(row["key"], []).append((row["written_at"], row["id"]))
        return {key: [i for _, i in sorted(items, reverse=True)] for key, items in listed.items()}

    def touch_graph_states(self, ids: Sequence[str]) -> None:
        """Mark these derivations used now: `graph_state_listing` and pruning go by it."""
        if not ids or "graph" not in self._names():
            return
        self._table("graph").update(where=in_list("id", ids), values={"written_at": time.time()})

    def write_graph_states(self, states: Sequence[tuple[str, str, str, bytes]]) -> None:
        """Store (id, path, file_hash, blob) derivations, replacing any with the same id."""
        if not states:
            return
        if "graph" not in self._names():
            self._create("graph", 0)
        now = time.time()
        rows = [
            {"id": i, "key": f"{path}|{file_hash}", "path": path, "written_at": now, "state": blob}
            for i, path, file_hash, blob in states
        ]
        self._upsert("graph", "id", rows)

    def drop_graph_states(self) -> None:
        self._drop("graph")

    def prune_graph_states(self, keep: int, current: set[str]) -> int:
        """Keep the `keep` newest derivations per file (and every current one)."""
        if "graph" not in self._names():
            return 0
        table = self._table("graph")
        rows = table.search().select(["id", "path", "written_at"]).limit(None).to_arrow()
        by_path: dict[str, list[tuple[float, str]]] = {}
        for row in rows.to_pylist():
            by_path.setdefault(row["path"], []).append((row["written_at"], row["id"]))
        stale = [
            i
            for items in by_path.values()
            for _, i in sorted(items, reverse=True)[keep:]
            if i not in current
        ]
        for batch in _batches(stale, 500):
            table.delete(in_list("id", batch))
        return len(stale)

    def summary(self, runs: int) -> dict[str, Any]:
        """What the index holds: model, counts, skipped and partly parsed files, last runs."""
        state = self.snapshot()
        meta, catalog = state.meta, state.catalog
        return {
            "model": meta.get("model"),
            "dim": int(meta.get("dim", 0)),
            "template": meta.get("template"),
            "indexed_at": meta.get("indexed_at"),
            "chunks": state.chunks,
            "edges": state.edges,
            "jedi_pending": int(meta.get("jedi_pending", "0")),
            "files": sum(1 for r in catalog.values() if r.status == "indexed"),
            "skipped": {p: r.reason for p, r in catalog.items() if r.status == "skipped"},
            "partial": {p: r.error for p, r in catalog.items() if r.error},
            "redacted": {
                p: r.reason for p, r in catalog.items() if r.status == "indexed" and r.reason
            },
            "runs": state.runs[:runs],
        }

    def edge_count(self) -> int:
        if "edges" not in self._names():
            return 0
        hidden = _not_in("path", self.shadow().edge_paths)
        return int(self._table("edges").count_rows(f"deleted = false AND {hidden}"))

    def add_feedback(
        self, query: str, vector: np.ndarray, chunk_id: str, vote: int, tower: str
    ) -> None:
        """A vote replaces an earlier vote for the same query and chunk; `tower` names what
        embedded the question (Embedder.query_id)."""
        table = self._feedback_table(len(vector))
        row = {
            "query": query,
            "vector": vector,
            "id": chunk_id,
            "vote": vote,
            "at": time.time(),
            "tower": tower,
        }
        table.delete(f"query = {quote(query)} AND id = {quote(chunk_id)}")
        table.add(pa.Table.from_pylist([row], schema=table.schema))

    def renew_feedback(self, vectors: dict[str, np.ndarray], tower: str) -> None:
        """The votes on these questions take these vectors, made by `tower`, in one commit."""
        if not vectors or "feedback" not in self._names():
            return
        table = self._feedback_table(len(next(iter(vectors.values()))))
        rows = [
            {**row, "vector": vectors[row["query"]], "tower": tower}
            for row in table.to_arrow().to_pylist()
            if row["query"] in vectors
        ]
        if rows:
            renewed = pa.Table.from_pylist(rows, schema=table.schema)
            table.merge_insert(["query", "id"]).when_matched_update_all().execute(renewed)

    def _feedback_table(self, dim: int) -> Any:
        """The votes' table, made on the first vote. One an older codekith made gains the
        `tower` column, empty: its votes' vectors came from an unknown query side."""
        if "feedback" not in self._names():
            self.db.create_table("feedback", schema=feedback_schema(dim))
        table = self._table("feedback")
        if "tower" not in table.schema.names:
            table.add_columns({"tower": "CAST('' AS STRING)"})
        return table

    def feedback(self) -> list[dict[str, Any]]:
        if "feedback" not in self._names():
            return []
        return self._table("feedback").to_arrow().to_pylist()

    def vectors_of(self, ids: Iterable[str]) -> dict[str, np.ndarray]:
        """Vectors of live chunks by chunk id."""
        return self._vectors("chunks", "id", ids, self._visible("deleted = false") + " AND ")

    def add_run(self, run: dict[str, Any]) -> None:
        """Append a run record; the oldest go once there are RUNS_TRIM more than RUNS_KEPT
        (a save appends one: trimming at every one cost it a commit and a scan)."""
        self._check_lease()
        if "runs" not in self._names():
            self.db.create_table("runs", schema=RUN_SCHEMA)
        table = self._table("runs")
        table.add(pa.Table.from_pylist([run], schema=RUN_SCHEMA))
        if table.count_rows() >= RUNS_KEPT + RUNS_TRIM:
            oldest = sorted(table.to_arrow().column("started_at").to_pylist())
            table.delete(f"started_at < {oldest[-RUNS_KEPT]!r}")

    def runs(self, limit: int = 10) -> list[dict[str, Any]]:
        if "runs" not in self._names():
            return []
        rows = self._table("runs").to_arrow().to_pylist()
        return sorted(rows, key=lambda r: r["started_at"], reverse=True)[:limit]

    # -- reads used by indexing -----------------------------------------------------------

    def catalog(self, paths: Iterable[str] | None = None) -> dict[str, FileRecord]:
        """Every file's record, or just those of `paths` (read through the path index)."""
        if paths is None:
            rows = self._table("files").to_arrow().to_pylist()
        else:
            wanted = set(paths)
            recalled = self._recall("files", wanted)
            if recalled is not None:
                rows = [r.__dict__ for r in recalled.values()]
            else:
                rows = []
                for batch in _batches(sorted(wanted), 500):
                    query = self._table("files").search().where(in_list("path", batch))
                    rows += query.limit(None).to_arrow().to_pylist()
        hidden = self.shadow().files
        return {r["path"]: FileRecord(**r) for r in rows if r["path"] not in hidden}

    def file_record(self, path: str) -> FileRecord | None:
        """The catalog entry of one file."""
        rows = self._table("files").search().where(f"path = {quote(path)}").limit(1)
        found = rows.to_arrow().to_pylist()
        if not found or path in self.shadow().files:
            return None
        return FileRecord(**found[0])

    def live_file_hashes(self) -> dict[str, set[str]]:
        """The file hashes live chunks carry, by path: after an interruption this finds
        ghosts and chunks written for content the catalog does not record."""
        query = self._table("chunks").search().where(self._visible("deleted = false"))
        arrow = query.select(["path", "file_hash"]).limit(None).to_arrow()
        found: dict[str, set[str]] = {}
        for path, file_hash in zip(
            arrow.column("path").to_pylist(), arrow.column("file_hash").to_pylist(), strict=True
        ):
            found.setdefault(path, set()).add(file_hash)
        return found

    def live_ids(self, paths: Sequence[str]) -> dict[str, set[str]]:
        recalled = self._recall("chunks", paths)
        if recalled is not None:
            return {p: set(ids) for p, ids in recalled.items()}
        found: dict[str, set[str]] = {p: set() for p in paths}
        for batch in _batches(list(paths), 500):
            query = (
                self._table("chunks")
                .search()
                .where(f"deleted = false AND {in_list('path', batch)}")
                .select(["id", "path"])
                .limit(None)
            )
            for row in query.to_arrow().to_pylist():
                found[row["path"]].add(row["id"])
        return found

    def cached_vectors(self, content_hashes: Iterable[str]) -> dict[str, np.ndarray]:
        """Vectors embedded before, by chunk content hash (any branch, any path). The ones
        this process wrote or read lately come from memory: a save re-reads the vectors of
        its file's unchanged chunks, and a content hash's vector never changes in an index."""
        wanted = set(content_hashes)
        with self._vector_memo_lock:
            found = {h: self._vector_memo[h] for h in wanted if h in self._vector_memo}
        if len(found) < len(wanted):
            read = self._vectors("vectors", "content_hash", wanted - set(found), "")
            found.update(read)
        self._remember_vectors(found)
        return found

    def _remember_vectors(self, vectors: dict[str, np.ndarray]) -> None:
        with self._vector_memo_lock:
            for content_hash, vector in vectors.items():
                self._vector_memo[content_hash] = vector
                self._vector_memo.move_to_end(content_hash)
            while len(self._vector_memo) > VECTOR_MEMO:
                self._vector_memo.popitem(last=False)

    def _forget_vectors(self) -> None:
        with self._vector_memo_lock:
            self._vector_memo.clear()

    def cached_hashes(self) -> frozenset[str]:
        """Every content hash with a cached vector: workers skip embedding these."""
        query = self._table("vectors").search().select(["content_hash"]).limit(None)
        return frozenset(query.to_arrow().column("content_hash").to_pylist())

    def _vectors(
        self, table: str, key: str, keys: Iterable[str], condition: str
    ) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        for batch in _batches(sorted(set(keys)), 1000):
            query = (
                self._table(table)
                .search()
                .where(condition + in_list(key, batch))
                .select([key, "vector"])
                .limit(None)
            )
            arrow = query.to_arrow()
            if arrow.num_rows:
                matrix = np.stack(arrow.column("vector").to_numpy(zero_copy_only=False))
                found.update(zip(arrow.column(key).to_pylist(), matrix, strict=True))
        return found

    # -- writes ---------------------------------------------------------------------------

    def write_files(self, updates: Sequence[FileUpdate], vectors: dict[str, np.ndarray]) -> int:
        """Vectors first, then chunks (with tombstones), then the catalog: a crash in between
        leaves a catalog entry that is older than the chunks, so the next run redoes it.
        Returns how many live chunks the index gained (negative: lost)."""
        self._check_lease()
        if vectors:
            self._add_vectors(vectors)
        previous = self.live_ids([u.record.path for u in updates])
        dim = self._dim()
        rows: list[dict[str, Any]] = []
        ids: dict[str, frozenset[str]] = {}  # each file's live chunks after this write
        gained = 0
        for update in updates:
            path = update.record.path
            old_ids = previous[path]
            new_ids = ids[path] = frozenset(row["id"] for row in update.rows)
            rows.extend(update.rows)
            rows.extend(_tombstone(i, path, dim) for i in old_ids - new_ids)
            gained += len(new_ids) - len(old_ids)
        self._remember("chunks", self._upsert("chunks", "id", rows), ids)
        self.record_files([u.record for u in updates])
        return gained

    def rewrite_search_text(self, text_of: Callable[[dict[str, Any]], str]) -> int:
        """Give every live chunk the full-text text `text_of(row)` (a new full-text rule:
        vectors and everything else stay). The rows land in the full-text index at the next
        `maintain`, which finds them unindexed. Returns how many chunks were rewritten."""
        self._check_lease()
        paths = sorted({r.path for r in self.catalog().values() if r.status == "indexed"})
        rewritten = 0
        for batch in _batches(paths, 500):
            rows = self.rows(in_list("path", batch), columns=[*CHUNK_COLUMNS, "vector", "deleted"])
            for row in rows:
                row["search_text"] = text_of(row)
            self._upsert("chunks", "id", rows)
            rewritten += len(rows)
        return rewritten

    def remove_files(self, paths: Sequence[str], forget: bool) -> int:
        """Tombstone every chunk of these files; `forget` also drops their catalog entry.
        Returns how many live chunks went."""
        self._check_lease()
        if not paths:
            return 0
        previous = self.live_ids(paths)
        dim = self._dim()
        tombstones = [_tombstone(i, p, dim) for p, ids in previous.items() for i in ids]
        gone = dict.fromkeys(paths, frozenset[str]())
        self._remember("chunks", self._upsert("chunks", "id", tombstones), gone)
        if forget:
            for batch in _batches(list(paths), 500):
                self._table("files").delete(in_list("path", batch))
        return len(tombstones)

    def record_files(self, records: Sequence[FileRecord]) -> None:
        self._check_lease()
        versions = self._upsert("files", "path", [r.__dict__ for r in records])
        self._remember("files", versions, {r.path: r for r in records})

    def _dim(self) -> int:
        return int(self._schema("chunks").field("vector").type.list_size)

    def _add_vectors(self, vectors: dict[str, np.ndarray]) -> None:
        """Cache vectors that are new to the index. The writer holding the lock appends
        them: its callers looked each one up first (under the lock, so nobody added one
        since), and the ones this process wrote or read lately are left out. A merge keyed
        by content hash joins the whole table: one vector took 8.7 ms, an append 3.5 (60
        of each, one table; 13.9 vs 4.7 ms over its last 20 commits). A hash that
        still lands twice (the same content embedded by two distributed workers, the first
        already out of the memo) is harmless: readers take either of two equal vectors."""
        table, schema = self._table("vectors"), self._schema("vectors")
        if self._holding:
            with self._vector_memo_lock:
                items = [(h, v) for h, v in vectors.items() if h not in self._vector_memo]
        else:
            items = list(vectors.items())
        for batch in _batches(items, WRITE_BATCH_ROWS):
            data = pa.Table.from_pylist(
                [{"content_hash": h, "vector": v} for h, v in batch], schema=schema
            )
            if self._holding:
                table.add(data)
            else:
                table.merge_insert("content_hash").when_not_matched_insert_all().execute(data)
        self._remember_vectors(vectors)

    # -- queries --------------------------------------------------------------------------

    def count(self, where: str = "deleted = false") -> int:
        """Rows matching raw filter text (tests and scripts; the code uses named queries)."""
        return int(self._table("chunks").count_rows(self._visible(where)))

    def chunk(self, chunk_id: str) -> dict[str, Any] | None:
        """The live chunk with this id."""
        rows = self.rows(f"id = {quote(chunk_id)}", limit=1)
        return rows[0] if rows else None

    def chunks_by_id(
        self, ids: Iterable[str], filters: Filters = NO_FILTERS
    ) -> list[dict[str, Any]]:
        """Live chunks with these ids that pass the filters."""
        return self._rows_in("id", ids, filters.where())

    def chunks_by_qualname(
        self,
        qualnames: Iterable[str],
        limit: int | None = None,
        with_vectors: bool = False,
    ) -> list[dict[str, Any]]:
        """Live chunks with exactly these qualnames (vectors included when asked)."""
        columns = [*RESULT_COLUMNS, "vector"] if with_vectors else RESULT_COLUMNS
        return self._rows_in("qualname", qualnames, "true", limit, columns)

    def chunks_named(
        self, names: Iterable[str], filters: Filters = NO_FILTERS, limit: int = 20
    ) -> list[dict[str, Any]]:
        """Chunks a name written in code points at: a bare name matches the symbol, a dotted
        one the qualname or its tail (`Session.send` matches `web.http.Session.send`)."""
        clauses = [_name_clause(name) for name in names]
        if not clauses:
            return []
        return self.rows(f"({filters.where()}) AND ({' OR '.join(clauses)})", limit=limit)

    def chunks_mentioning(
        self,
        names: Iterable[str],
        kinds: Collection[str] | None,
        filters: Filters = NO_FILTERS,
        limit: int = 200,
    ) -> list[dict[str, Any]]:
        """Chunks (of these kinds, or any) whose text holds one of these names, as written:
        the module and class chunks where a constant, no chunk's symbol, may be assigned
        (`search.assigns` tells), the code that uses a name (a scan of every row's text)."""
        likes = [f"document LIKE {quote('%' + name + '%')}" for name in names]
        if not likes:
            return []
        where = f"({filters.where()}) AND {_kinds_clause(kinds, ())} AND ({' OR '.join(likes)})"
        return self.rows(where, limit=limit)

    def chunks_in_file(
        self, path: str, kinds: Collection[str] | None = None
    ) -> list[dict[str, Any]]:
        """The live chunks of one file, of these kinds only when given."""
        return self.rows(f"path = {quote(path)} AND {_kinds_clause(kinds, ())}")

    def documents_named(self, names: Collection[tuple[str, str]]) -> list[dict[str, Any]]:
        """path, qualname, content_hash and document of the live chunks with these (path,
        qualname) pairs."""
        wanted = set(names)
        rows = self._rows_in(
            "path",
            {path for path, _ in wanted},
            "true",
            columns=("path", "qualname", "content_hash", "document"),
        )
        return [row for row in rows if (row["path"], row["qualname"]) in wanted]

    def symbols_containing(
        self, words: Sequence[str], filters: Filters = NO_FILTERS, limit: int = 200
    ) -> list[dict[str, Any]]:
        """Definitions whose name holds these lower-case words in this order, ignoring case,
        whatever joins them (`compute`, `price` find `computePrice` and `compute_price`, and
        `compute_unit_price` too: callers check what they got; `_` in a word matches any
        one character)."""
        pattern = quote("%" + "%".join(word.lower() for word in words) + "%")
        return self.rows(
            f"({filters.where()}) AND lower(symbol) LIKE {pattern} AND kind <> 'section'",
            limit=limit,
        )

    def symbols_like(self, prefix: str, limit: int | None = 50) -> list[dict[str, Any]]:
        """Definitions whose name starts with `prefix`, ignoring case (sections are not
        definitions)."""
        return self.rows(
            f"starts_with(lower(symbol), {quote(prefix.lower())}) AND kind <> 'section'",
            limit=limit,
        )

    def _rows_in(
        self,
        column: str,
        values: Iterable[str],
        where: str,
        limit: int | None = None,
        columns: Sequence[str] = RESULT_COLUMNS,
    ) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for batch in _batches(sorted(set(values)), 500):
            found += self.rows(f"({where}) AND {in_list(column, batch)}", limit, columns)
        return found[:limit] if limit is not None else found

    def rows(
        self, where: str, limit: int | None = None, columns: Sequence[str] = RESULT_COLUMNS
    ) -> list[dict[str, Any]]:
        """Live chunks matching raw filter text: the named queries above build it; tests and
        scripts may use it, the rest of the code never writes filter text."""
        query = (
            self._table("chunks")
            .search()
            .where(self._visible(f"deleted = false AND ({where})"))
            .select(list(columns))
            .limit(limit)
        )
        return query.to_arrow().to_pylist()

    def vector_search(
        self, vector: np.ndarray, k: int, filters: Filters = NO_FILTERS
    ) -> list[dict[str, Any]]:
        """The k live chunks nearest to the vector (cosine) that pass the filters, nearest
        first (ties in id order, see _top)."""
        where = self._visible(filters.where())
        table = self._table("chunks")
        query = (
            table.search(vector, vector_column_name="vector")
            .distance_type("cosine")
            .where(where, prefilter=True)
            .select([*RESULT_COLUMNS, "_distance"])
        )
        if self._has_ann():
            if where != self._visible(NO_FILTERS.where()) and table.count_rows(where) < 20_000:
                query = query.bypass_vector_index()
            else:
                query = query.nprobes(20).refine_factor(5)
        return _top(lambda limit: query.limit(limit).to_arrow().to_pylist(), k, "_distance")

    def text_search(
        self, text: str, k: int, filters: Filters = NO_FILTERS, vectors: bool = False
    ) -> list[dict[str, Any]]:
        """The k best full-text matches of `text` (already split into words) that pass the
        filters, best first (ties in id order, see _top). With `vectors`, each row carries
        its stored vector: the fusion reads the cosines of the text list's candidates, and
        this query reads them at no cost a second query would have (6 ms on flask)."""
        if not text.strip():
            return []
        extra = ["vector"] if vectors else []
        query = (
            self._table("chunks")
            .search(text, query_type="fts", fts_columns="search_text")
            .where(self._visible(filters.where()), prefilter=True)
            .select([*RESULT_COLUMNS, *extra, "_score"])
        )
        return _top(lambda limit: query.limit(limit).to_arrow().to_pylist(), k, "_score", -1)

    # -- the full-text mirror of a layered index -------------------------------------------

    def text_rows(self, paths: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """Live chunks without their vectors (of `paths`, or all): what a text mirror holds."""
        if paths is None:
            return self.rows("true", columns=TEXT_MIRROR_COLUMNS)
        return [
            row
            for batch in _batches(sorted(paths), 500)
            for row in self.rows(in_list("path", batch), columns=TEXT_MIRROR_COLUMNS)
        ]

    def text_mirror_state(self) -> dict[str, Any]:
        """What the mirror was synced to ({} when there is none, or in object storage)."""
        if not self._local or TEXT_MIRROR not in self._names():
            return {}
        try:
            state: dict[str, Any] = json.loads((Path(self.path) / TEXT_MIRROR_STATE).read_text())
        except (OSError, ValueError):
            return {}
        return state

    def write_text_mirror(
        self, rows: list[dict[str, Any]], replace: Sequence[str] | None, state: dict[str, Any]
    ) -> None:
        """Put `rows` into the mirror in place of the rows of the paths `replace` (None: of
        every path), then record `state`. The state is removed first, so a mirror left
        half-written by a crash is never taken for current."""
        self._check_lease()
        marker = Path(self.path) / TEXT_MIRROR_STATE
        marker.unlink(missing_ok=True)
        if replace is None or TEXT_MIRROR not in self._names():
            if TEXT_MIRROR in self._names():
                self._drop(TEXT_MIRROR)
            from lancedb.index import FTS  # lancedb only where a table is made (module doc)

            schema = pa.schema([f for f in chunk_schema(1) if f.name != "vector"])
            table = self.db.create_table(TEXT_MIRROR, data=rows or None, schema=schema)
            table.create_index("search_text", config=FTS())
            self._tables[TEXT_MIRROR] = table
        else:
            table = self._table(TEXT_MIRROR)
            for batch in _batches(sorted(replace), 500):
                table.delete(in_list("path", batch))
            if rows:
                table.add(rows)
            table.optimize()  # deleted rows out of the BM25 statistics, new rows into them
        temporary = marker.with_suffix(".tmp")
        temporary.write_text(json.dumps(state))
        os.replace(temporary, marker)

    def mirror_text_search(
        self, text: str, k: int, filters: Filters = NO_FILTERS
    ) -> list[dict[str, Any]]:
        """`text_search` over the mirror: one corpus, so one set of BM25 statistics."""
        if not text.strip():
            return []
        query = (
            self._table(TEXT_MIRROR)
            .search(text, query_type="fts", fts_columns="search_text")
            .where(filters.where(), prefilter=True)
            .select([*RESULT_COLUMNS, "_score"])
        )
        return _top(lambda limit: query.limit(limit).to_arrow().to_pylist(), k, "_score", -1)

    def _has_ann(self) -> bool:
        return any(i.columns == ["vector"] for i in self._table("chunks").list_indices())

    # -- maintenance ----------------------------------------------------------------------

    def maintain(
        self,
        force: bool = False,
        every_versions: int = OPTIMIZE_EVERY_VERSIONS,
        forget: bool = False,
    ) -> dict[str, Any]:
        """Purge tombstones, compact, refresh indexes; build the ANN index when it pays.

        Runs when forced, when `every_versions` versions piled up since the last run, or
        when more than a twentieth of the rows (UNINDEXED_FLOOR at least) are not yet in the
        full-text index, which scores them on statistics of their own; otherwise it reads
        metadata only (no table is scanned). `forget` (a secret was removed) also deletes
        every old table version at once and the cached vectors no live chunk uses, so the
        removed text is gone from disk.
        """
        self._check_lease()
        chunks = self._table("chunks")
        meta = self.meta()
        since = chunks.version - int(meta.get("optimized_version", "0"))
        stats = chunks.index_stats("search_text_idx")
        unindexed = stats.num_unindexed_rows if stats else 0
        rows = chunks.count_rows()  # tombstones included: a metadata read
        live = self.count() if rows >= ANN_MIN_ROWS and not self._has_ann() else rows
        report: dict[str, Any] = {"optimized": False, "ann_built": False}
        if (
            force
            or forget
            or since >= every_versions
            or unindexed > max(UNINDEXED_FLOOR, rows // 20)
        ):
            started = time.perf_counter()
            chunks.delete("deleted = true")
            self._edges().delete("deleted = true")
            if forget:
                self._drop_unused_vectors()
            keep = timedelta(0) if forget else CLEANUP_AFTER
            with warnings.catch_warnings():  # dropping every old version is the point here
                warnings.filterwarnings("ignore", "optimize.cleanup_older_than=0")
                for name in OPTIMIZED_TABLES:
                    if name in self._names():
                        self._table(name).optimize(
                            cleanup_older_than=keep, delete_unverified=forget
                        )
            if self._local:
                _remove_stale_temp_files(Path(self.path))
            report.update(optimized=True, optimize_s=round(time.perf_counter() - started, 3))
            report.update(old_versions_removed=forget)
        if live >= ANN_MIN_ROWS and not self._has_ann():
            started = time.perf_counter()
            from lancedb.index import IvfSq

            chunks.create_index("vector", config=IvfSq(distance_type="cosine"))
            report.update(ann_built=True, ann_s=round(time.perf_counter() - started, 3))
        if report["optimized"] or report["ann_built"]:
            self.set_meta({"optimized_version": str(chunks.version)})
        return report

    def _drop_unused_vectors(self) -> None:
        """Cached vectors of content no live chunk has (e.g. text before a redaction)."""
        self._forget_vectors()
        used = self._table("chunks").search().where("deleted = false").select(["content_hash"])
        hashes = set(used.limit(None).to_arrow().column("content_hash").to_pylist())
        vectors = self._table("vectors")
        cached = set(vectors.to_arrow().column("content_hash").to_pylist())
        for batch in _batches(sorted(cached - hashes), 500):
            vectors.delete(in_list("content_hash", batch))

    @contextlib.contextmanager
    def write_lock(
        self, lease_seconds: float = LEASE_SECONDS, wait_s: float = 0.0
    ) -> Iterator[None]:
        """One writer per index: a second `codekith index` or server fails fast (on disk,
        or after `wait_s` seconds), naming the process that holds the lock (the lock file is
        never truncated before it is held).

        On disk a file lock; in object storage, where there is none, a lease row in the
        index itself (see _Lease), renewed while the writer works."""
        deadline = time.monotonic() + wait_s
        if is_uri(self.location):
            with self._leased(lease_seconds, deadline), self._locked():
                yield
            return
        path = Path(self.location) / "write.lock"
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise IndexUnwritableError(
                f"cannot write the index at {self.location}: {exc.strerror}"
            ) from None
        with os.fdopen(fd, "r+") as handle:
            if not _flock(handle, wait_s):
                holder = handle.read().strip() or "unknown"
                raise IndexLockedError(
                    f"another codekith process (pid {holder}) is writing the index at "
                    f"{self.location}"
                )
            handle.truncate(0)
            handle.write(str(os.getpid()))
            handle.flush()
            try:
                with self._locked():
                    yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self._holding, self._meta_checked = True, False  # others may have written before
        try:
            yield
        finally:
            self._holding = self._meta_checked = False

    @contextlib.contextmanager
    def refine_lock(self) -> Iterator[bool]:
        """One background Jedi pass per index: yields whether this process got it."""
        if is_uri(self.location):
            yield True
            return
        with (Path(self.location) / "refine.lock").open("w") as handle:
            mine = _flock(handle, 0.0)
            try:
                yield mine
            finally:
                if mine:
                    fcntl.flock(handle, fcntl.LOCK_UN)

    def refining(self) -> bool:
        """Whether another process runs this index's background Jedi pass (`codekith
        refine`): it holds the write lock only while it stores a batch of answers."""
        if is_uri(self.location) or not (Path(self.location) / "refine.lock").exists():
            return False
        with self.refine_lock() as mine:
            return not mine

    @contextlib.contextmanager
    def _leased(self, seconds: float, deadline: float) -> Iterator[None]:
        lease = _Lease(self._lease_table(), self.location, seconds)
        while True:
            try:
                lease.acquire()
                break
            except IndexLockedError:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.2)
        self._lease = lease
        try:
            yield
        finally:
            self._lease = None
            lease.release()

    def _lease_table(self) -> Any:
        """Created once with its one row, never dropped (`create()` runs under the lease)."""
        if LEASE_TABLE not in self._names():
            row = {"key": "write", "holder": "", "expires": 0.0}
            with contextlib.suppress(ValueError, OSError, RuntimeError):
                self.db.create_table(LEASE_TABLE, data=[row], schema=LEASE_SCHEMA)
        return self.db.open_table(LEASE_TABLE)

    def _check_lease(self) -> None:
        """A writer whose lease lapsed (it stalled past the expiry) stops before its next
        commit instead of interleaving with the writer that took over."""
        if self._lease is not None:
            self._lease.check()


class _Lease:
    """A write lease for object storage: the row (holder, expires) in the `lease` table.

    Taking it is one conditional `merge_insert` (`expires < now OR holder = me`). Lance commits
    with conditional puts and re-runs a merge_insert that lost a commit race against the new
    version, where the condition no longer holds: of writers racing for a free lease exactly
    one updates the row. A background thread renews it every third of its duration; a holder
    that dies lets it expire. Expiry compares wall clocks: keep hosts' clocks within a few
    seconds of each other (NTP), far below the lease's duration.
    """

    def __init__(self, table: Any, location: str, seconds: float):
        self.table = table
        self.location = location
        self.seconds = seconds
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.expires = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._renew_loop, daemon=True, name="lease")

    def acquire(self) -> None:
        now = time.time()
        condition = f"target.expires < {now!r} OR target.holder = {quote(self.holder)}"
        if not self._update(condition, now + self.seconds):
            held = self.table.to_arrow().to_pylist()[0]
            raise IndexLockedError(
                f"another codekith process ({held['holder']}) is writing the index at "
                f"{self.location}; its lease ends in {max(0, held['expires'] - now):.0f} s "
                "unless renewed"
            )
        self._thread.start()

    def check(self) -> None:
        if time.time() >= self.expires:
            raise IndexLockedError(
                f"the write lease on {self.location} lapsed (renewal failed or stalled); "
                "stopping before the next commit, run `codekith index` again"
            )

    def release(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        with contextlib.suppress(Exception):  # an unreleased lease expires by itself
            self.table.merge_insert("key").when_matched_update_all(
                where=f"target.holder = {quote(self.holder)}"
            ).execute(pa.Table.from_pylist([_lease_row("", 0.0)], schema=LEASE_SCHEMA))

    def _renew_loop(self) -> None:
        while not self._stop.wait(self.seconds / 3):
            try:
                renewed = self._update(
                    f"target.holder = {quote(self.holder)}", time.time() + self.seconds
                )
            except Exception:  # a transient storage error: try again at the next tick
                continue
            if not renewed:
                self.expires = 0.0
                return

    def _update(self, condition: str, expires: float) -> bool:
        row = pa.Table.from_pylist([_lease_row(self.holder, expires)], schema=LEASE_SCHEMA)
        result = (
            self.table.merge_insert("key").when_matched_update_all(where=condition).execute(row)
        )
        if result.num_updated_rows != 1:
            return False
        self.expires = expires
        return True


def _lease_row(holder: str, expires: float) -> dict[str, Any]:
    return {"key": "write", "holder": holder, "expires": expires}


def _flock(handle: Any, wait_s: float) -> bool:
    """Take an exclusive lock on `handle`, trying for up to `wait_s` seconds."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)


_STORAGE_ERRNOS = {errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EPERM, errno.EDQUOT}


def storage_problem(exc: BaseException) -> str | None:
    """What the disk refused, when `exc` (an OSError or a Lance IO error) means that the
    index could not be written: no space left, a read-only file system, no permission."""
    code = exc.errno if isinstance(exc, OSError) else None
    if code is None:
        match = re.search(r"\(os error (\d+)\)", str(exc))
        code = int(match.group(1)) if match else None
    return os.strerror(code) if code in _STORAGE_ERRNOS else None


def _one_line(exc: BaseException) -> str:
    """Lance messages end with the Rust source location: keep what a user can act on."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return re.sub(r", /\S+\.rs:\d+:\d+$", "", text)[:300]


def damage_message(location: str, exc: BaseException) -> str | None:
    """One line for a Lance failure while reading an index, or None for other errors."""
    if "lance error" not in str(exc).lower():
        return None
    return (
        f"the index at {location} is damaged ({_one_line(exc)}); "
        "run `codekith index` to repair it (or `codekith index --full`)"
    )


def _files_under(folder: Path, prefix: str) -> list[list[Any]]:
    found: list[list[Any]] = []
    with os.scandir(folder) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            name = f"{prefix}/{entry.name}"
            if entry.is_dir(follow_symlinks=False):
                found.extend(_files_under(Path(entry.path), name))
            else:
                stat = entry.stat(follow_symlinks=False)
                found.append([name, stat.st_size, stat.st_mtime_ns])
    return found


def _shortfall(
    tables: Collection[str],
    problems: dict[str, str],
    meta: dict[str, str],
    catalog: dict[str, FileRecord],
    live: int,
) -> dict[str, str]:
    """`problems` plus missing tables, and live chunks that do not add up to the catalog
    (unless a run is under way or meta, files or chunks already failed)."""
    if not set(tables) & set(REQUIRED_TABLES):
        return problems
    found = {name: "missing" for name in REQUIRED_TABLES if name not in tables} | problems
    if not found.keys() & {"meta", "files", "chunks"} and meta.get("run_state") != "running":
        expected = sum(r.chunks for r in catalog.values() if r.status == "indexed")
        if live != expected:
            found["chunks"] = f"{live} live chunks where the catalog lists {expected}"
    return found


def _tombstone(chunk_id: str, path: str, dim: int) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(CHUNK_COLUMNS, "")
    row.update(
        id=chunk_id,
        path=path,
        imports=[],
        bases=[],
        decorators=[],
        start_line=0,
        end_line=0,
        vector=np.zeros(dim, dtype=np.float32),
        deleted=True,
    )
    return row


def _top(
    fetch: Callable[[int], list[dict[str, Any]]], k: int, column: str, sign: int = 1
) -> list[dict[str, Any]]:
    """The k rows `fetch(limit)` ranks first by `column` (ascending, or descending with
    sign -1), rows with equal values in id order. LanceDB cuts a tie at the limit by storage
    order, and an index that was interrupted and resumed (or updated instead of built
    fresh) holds the same rows in another order: so the whole tie at the cut is fetched
    (doubling the limit while the last row still ties with the k-th) before cutting."""
    if k <= 0:
        return []
    limit = k + 1
    while True:
        rows = sorted(fetch(limit), key=lambda r: (sign * r[column], r["id"]))
        if len(rows) < limit or rows[k - 1][column] != rows[-1][column]:
            return rows[:k]
        limit *= 2


def _remove_stale_temp_files(location: Path, older_than_s: float = 3600) -> None:
    """kill -9 during a write leaves `data/.tmp*` files that LanceDB never removes."""
    cutoff = time.time() - older_than_s
    for temp in location.glob("*.lance/data/.tmp*"):
        with contextlib.suppress(OSError):
            if temp.stat().st_mtime < cutoff:
                temp.unlink()
