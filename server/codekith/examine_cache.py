"""What `examine` made of a file's content, kept by content: a branch switched back, a
reverted edit or a rebased commit brings back contents examined before, and their secret
scan and chunking (~8 ms a file on flask, most of a switch back) are read instead of redone.

`examine` is a pure function of the content, the path and module name, the content rules
(`Settings.scan_fingerprint`) and the document and full-text templates: all of them key an
entry, so an entry is used only where examining again would give the same result. The
rows keep what the index keeps (redacted text, never a secret; uncompressed, so a check
for a secret's bytes on disk sees them as it sees the tables), in an SQLite file beside
the tables of a local index, least recently used entries dropped past a size limit.
Being a cache, it never fails a run: any error reads as a miss or skips the write.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from codekith.config import Settings
from codekith.examine import Examined, SourceFile
from codekith.template import TEMPLATE_VERSION, TEXT_VERSION

CACHE_FILE = "examined.sqlite"
FORMAT = "1"  # what an entry holds
LIMIT_BYTES = 64 << 20  # of entries; flask's 229 indexed files take 4 MB
_SCHEMA = "CREATE TABLE IF NOT EXISTS examined (key TEXT PRIMARY KEY, used REAL, body BLOB)"


class ExaminedCache:
    """Examined files by content, in `folder` (None: off, e.g. an index on object storage)."""

    def __init__(self, folder: Path | None, settings: Settings, limit_bytes: int = LIMIT_BYTES):
        self.path = folder / CACHE_FILE if folder is not None else None
        versions = [FORMAT, TEMPLATE_VERSION, TEXT_VERSION, settings.scan_fingerprint()]
        self._salt = json.dumps(versions)
        self._limit = limit_bytes

    def lookup(self, sources: Sequence[SourceFile]) -> dict[str, Examined]:
        """The known results among `sources`, by path (their records carry each source's
        size and mtime); the entries count as used now."""
        keys = {self._key(s): s for s in sources}
        if not keys or self.path is None or not self.path.exists():
            return {}
        found: dict[str, Examined] = {}
        with self._transaction() as db:
            for key, body in _select(db, list(keys)):
                found[keys[key].path] = _examined(keys[key], body)
            used = [(time.time(), k) for k, s in keys.items() if s.path in found]
            db.executemany("UPDATE examined SET used = ? WHERE key = ?", used)
        return found

    def keep(self, pairs: Sequence[tuple[SourceFile, Examined]]) -> None:
        """Remember these results, then drop the least recently used past the limit."""
        if not pairs or self.path is None:
            return
        now = time.time()
        entries = [(self._key(s), now, _body(e)) for s, e in pairs]
        with self._transaction() as db:
            db.executemany("INSERT OR REPLACE INTO examined VALUES (?, ?, ?)", entries)
            _drop_past(db, self._limit)

    def clear(self) -> None:
        """Forget everything (new content rules removed a secret: no old text may stay)."""
        if self.path is not None:
            for suffix in ("", "-journal"):
                self.path.with_name(self.path.name + suffix).unlink(missing_ok=True)

    def _key(self, source: SourceFile) -> str:
        parts = [self._salt, source.path, source.language, source.module, source.file_hash]
        return hashlib.sha1(json.dumps(parts).encode()).hexdigest()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction, committed at the end. An error ends it quietly (the caller has
        what it read so far); a file that is no database (damaged) is removed."""
        db = self._open()
        damaged = False
        try:
            with db:
                yield db
        except (sqlite3.Error, ValueError) as exc:
            damaged = type(exc) is sqlite3.DatabaseError  # not locked, not read-only
        finally:
            db.close()
        if damaged:
            self.clear()

    def _open(self) -> sqlite3.Connection:
        """The cache file (made anew when it is damaged), else an empty database in memory
        (an unwritable folder, a lock held too long): this run then keeps nothing."""
        assert self.path is not None
        for attempt in range(2):
            db = None
            try:
                db = sqlite3.connect(self.path, timeout=5)
                db.execute("PRAGMA synchronous = OFF")  # a cache: a crash may lose it whole
                db.execute(_SCHEMA)
                return db
            except sqlite3.Error as exc:
                if db is not None:
                    db.close()
                if type(exc) is not sqlite3.DatabaseError or attempt:
                    break
                self.clear()
        memory = sqlite3.connect(":memory:")
        memory.execute(_SCHEMA)
        return memory


def _select(db: sqlite3.Connection, keys: list[str]) -> Iterator[tuple[str, bytes]]:
    for start in range(0, len(keys), 500):  # under SQLite's limit of bound variables
        batch = keys[start : start + 500]
        marks = ",".join("?" * len(batch))
        yield from db.execute(f"SELECT key, body FROM examined WHERE key IN ({marks})", batch)


def _drop_past(db: sqlite3.Connection, limit: int) -> None:
    total = db.execute("SELECT coalesce(sum(length(body)), 0) FROM examined").fetchone()[0]
    if total <= limit:
        return
    kept, keep = 0, []
    for key, size in db.execute("SELECT key, length(body) FROM examined ORDER BY used DESC"):
        kept += size
        if kept > limit * 3 // 4:  # room for a few runs before the next drop
            break
        keep.append(key)
    db.execute("CREATE TEMP TABLE keep (key TEXT PRIMARY KEY)")
    db.executemany("INSERT INTO keep VALUES (?)", [(k,) for k in keep])
    db.execute("DELETE FROM examined WHERE key NOT IN (SELECT key FROM keep)")
    db.execute("DROP TABLE keep")


def _body(examined: Examined) -> bytes:
    record = examined.record
    fields = [record.status, record.reason, record.chunks, record.error]
    return json.dumps([fields, examined.rows], separators=(",", ":")).encode()


def _examined(source: SourceFile, body: bytes) -> Examined:
    (status, reason, chunks, error), rows = json.loads(body)
    return Examined(source.record(status, reason, chunks, error), rows)
