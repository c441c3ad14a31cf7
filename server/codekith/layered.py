"""A team index: the index CI published (read-only, often in object storage) under a small
local overlay that holds only the files that differ from it.

The overlay is an ordinary local index of those files. Reads merge the two: the overlay
wins per path, a path the overlay deleted is hidden, and everything else comes from the
published index. Merging happens at query time (a LanceDB clone of an `s3://` table into a
local database writes its manifest into the source bucket, so nothing is copied).

Writers (the indexer, the call graph, feedback) see one store: writes go to the overlay,
except that a file whose content is back to what the published index holds leaves the
overlay instead of being copied into it. The published commit (`head` in the published
meta) is where git-driven runs start when the overlay has never run or the team published
a newer commit; the overlay's own `head`, `dirty` and graph meta take over after its runs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from codekith.store import (
    NO_FILTERS,
    OPTIMIZE_EVERY_VERSIONS,
    REQUIRED_TABLES,
    RESULT_COLUMNS,
    RUNS_KEPT,
    FileRecord,
    FileUpdate,
    Filters,
    Shadow,
    Snapshot,
    Store,
)
from codekith.template import TEXT_VERSION, row_search_text

DELETED_KEY = "overlay_deleted"  # published paths the overlay deleted (JSON list)
EDGE_PATHS_KEY = "overlay_edge_paths"  # paths whose edges the overlay answers for (JSON list)
PUBLISHED_HEAD_KEY = "overlay_published_head"  # the published commit the overlay follows
EDGES_FOR_KEY = "overlay_edges_for"  # the published commit the overlay's edges were made for
log = logging.getLogger(__name__)
SHADOW_TABLES = ("files", "meta")  # what the shadow is read from


class RemoteIndexError(RuntimeError):
    """The published index is missing or unusable."""


class LayeredStore(Store):
    """The published index (`remote`) read through a local `overlay`. Shares Store's
    interface: the indexer, search, related and answers use it as they use one index."""

    def __init__(self, remote: Store, overlay: Store):  # no Store.__init__: it composes two
        self.remote = remote
        self.overlay = overlay
        self._snapshots = False  # a merged view reads its tables (Store.snapshot)
        self.location = overlay.location
        self.shadow = lambda: Shadow()  # nothing hides this view's own rows
        self._shadow_cache: tuple[tuple[int, ...], Shadow] | None = None
        remote.shadow = self._shadow

    # -- what the overlay answers for -----------------------------------------------------

    def _shadow(self) -> Shadow:
        """The published rows the overlay replaces: files it holds or deleted; edges of
        those and of files whose edges it re-resolved. Read again only when the overlay's
        catalog or meta has a new version (every query asks)."""
        versions = self.overlay.versions(SHADOW_TABLES)
        cached = self._shadow_cache
        if versions is not None and cached is not None and cached[0] == versions:
            return cached[1]
        if not self.overlay.has_index():
            return Shadow()
        meta = self.overlay.meta()
        files = frozenset(self.overlay.catalog()) | frozenset(_paths(meta, DELETED_KEY))
        shadow = Shadow(files, files | frozenset(_paths(meta, EDGE_PATHS_KEY)))
        if versions is not None:
            self._shadow_cache = (versions, shadow)
        return shadow

    def _published(self) -> dict[str, str]:
        meta = self.remote.meta()
        if not self.remote.has_index():
            raise RemoteIndexError(
                f"no published index at {self.remote.location}: let CI run "
                f"`codekith index --db {self.remote.location}` on the default branch"
            )
        return meta

    def _writable(self) -> None:
        """The overlay exists, made for the published index's model and template."""
        if self.overlay.has_index():
            return
        published = self._published()
        self.overlay.create(published["model"], int(published["dim"]), published["template"])

    # -- index state ----------------------------------------------------------------------

    def has_index(self) -> bool:
        return self.remote.has_index()

    def meta(self) -> dict[str, str]:
        """The published meta under the overlay's. Until the overlay follows the published
        commit, `head` is that commit and `dirty` the overlay's paths, so a git-driven run
        re-checks exactly what may differ from it."""
        published = self.remote.meta()
        local = self.overlay.meta() if self.overlay.has_index() else {}
        merged = {**published, **local}
        merged.pop("chunks", None)  # a count of one side: the indexer counts the merged view
        if local.get(PUBLISHED_HEAD_KEY, "") != published.get("head", ""):
            shadow = self._shadow()
            merged["head"] = published.get("head", "")
            merged["dirty"] = json.dumps(sorted(shadow.files))
            merged.pop("graph_snapshot", None)  # the published graph moved: re-check it
        return merged

    def set_meta(self, values: dict[str, str]) -> None:
        """Every run starts and ends here: the overlay follows a newly published commit."""
        self._writable()
        published = self.remote.meta().get("head", "")
        if self.overlay.meta().get(EDGES_FOR_KEY, "") != published:
            self._follow_published(published)
        if "head" in values:
            values = {**values, PUBLISHED_HEAD_KEY: published}
        self.overlay.set_meta(values)

    def _follow_published(self, published: str) -> None:
        """The team published another commit: edges the overlay re-resolved for files it
        does not hold were made against the old one, so the new published edges take over
        (the run that follows re-resolves whatever the overlay's files change)."""
        owned = set(_paths(self.overlay.meta(), EDGE_PATHS_KEY))
        held = set(self._shadow().files)
        if owned - held:
            self.overlay.replace_edges([], owned - held)
        kept = json.dumps(sorted(owned & held))
        self.overlay.set_meta({EDGE_PATHS_KEY: kept, EDGES_FOR_KEY: published})

    def check_compatible(self, model_id: str, dim: int | None, template: str) -> None:
        self.remote.check_compatible(model_id, dim, template)
        self.overlay.check_compatible(model_id, dim, template)

    def create(self, model_id: str, dim: int, template: str) -> None:
        """A fresh overlay (the published index is never written)."""
        self._published()
        self.remote.check_compatible(model_id, dim, template)
        self.overlay.create(model_id, dim, template)

    def staging(self) -> Store | None:
        """A full rebuild recreates the overlay where it is (it is small)."""
        return None

    def damage(self, deep: bool = True) -> dict[str, str]:
        """The overlay's damaged tables, and the published index's as `published <table>`."""
        found = {f"published {t}": p for t, p in self.remote.damage(deep).items()}
        return {**found, **self._in_overlay(lambda s: s.damage(deep), {})}

    def repair(self, problems: dict[str, str]) -> None:
        """The overlay is repaired; the published index is CI's to rebuild."""
        published = [t for t in problems if t.startswith("published ")]
        if published:
            raise RemoteIndexError(
                f"the published index at {self.remote.location} is damaged "
                f"({', '.join(published)}); rebuild it with `codekith index --full --db "
                f"{self.remote.location}` where it is published"
            )
        self.overlay.repair(problems)

    def _keeps_snapshot(self) -> bool:
        return False  # it depends on two indexes: read every time

    def snapshot(self) -> Snapshot:
        """Read from the merged view every time (never saved: it depends on two indexes)."""
        return Snapshot(
            tables=frozenset(REQUIRED_TABLES) if self.has_index() else frozenset(),
            meta=self.meta(),
            catalog=self.catalog(),
            chunks=self.count(),
            edges=self.edge_count(),
            runs=self.runs(RUNS_KEPT),
        )

    def summary(self, runs: int) -> dict[str, Any]:
        """The store's summary over the merged view, plus where the published index is."""
        return {
            **super().summary(runs),
            "remote": {
                "index": self.remote.location,
                "head": self.remote.meta().get("head", ""),
                "overlay_files": len(self._shadow().files),
            },
        }

    def edge_count(self) -> int:
        return self.remote.edge_count() + self._in_overlay(lambda s: s.edge_count(), 0)

    def runs(self, limit: int = 10) -> list[dict[str, Any]]:
        return self._in_overlay(lambda s: s.runs(limit), [])

    def feedback(self) -> list[dict[str, Any]]:
        return self._in_overlay(lambda s: s.feedback(), [])

    def _in_overlay(self, read: Any, empty: Any) -> Any:
        return read(self.overlay) if self.overlay.has_index() else empty

    # -- reads: the overlay wins per path -------------------------------------------------

    def catalog(self, paths: Iterable[str] | None = None) -> dict[str, FileRecord]:
        chosen = None if paths is None else list(paths)
        return {
            **self.remote.catalog(chosen),
            **self._in_overlay(lambda s: s.catalog(chosen), {}),
        }

    def file_record(self, path: str) -> FileRecord | None:
        local = self._in_overlay(lambda s: s.file_record(path), None)
        return local if local is not None else self.remote.file_record(path)

    def live_file_hashes(self) -> dict[str, set[str]]:
        return {
            **self.remote.live_file_hashes(),
            **self._in_overlay(lambda s: s.live_file_hashes(), {}),
        }

    def count(self, where: str = "deleted = false") -> int:
        return self.remote.count(where) + self._in_overlay(lambda s: s.count(where), 0)

    def rows(
        self, where: str, limit: int | None = None, columns: Sequence[str] = RESULT_COLUMNS
    ) -> list[dict[str, Any]]:
        return _cut(self._both(lambda s: s.rows(where, limit, columns)), limit)

    def chunk(self, chunk_id: str) -> dict[str, Any] | None:
        return self._in_overlay(lambda s: s.chunk(chunk_id), None) or self.remote.chunk(chunk_id)

    def chunks_by_id(
        self, ids: Iterable[str], filters: Filters = NO_FILTERS
    ) -> list[dict[str, Any]]:
        wanted = list(ids)
        return self._both(lambda s: s.chunks_by_id(wanted, filters))

    def chunks_by_qualname(
        self, qualnames: Iterable[str], limit: int | None = None, with_vectors: bool = False
    ) -> list[dict[str, Any]]:
        names = list(qualnames)
        found = self._both(lambda s: s.chunks_by_qualname(names, limit, with_vectors))
        return _cut(found, limit)

    def chunks_named(
        self, names: Iterable[str], filters: Filters = NO_FILTERS, limit: int = 20
    ) -> list[dict[str, Any]]:
        wanted = list(names)
        return _cut(self._both(lambda s: s.chunks_named(wanted, filters, limit)), limit)

    def chunks_in_file(
        self, path: str, kinds: Collection[str] | None = None
    ) -> list[dict[str, Any]]:
        return self._both(lambda s: s.chunks_in_file(path, kinds))

    def symbols_like(self, prefix: str, limit: int | None = 50) -> list[dict[str, Any]]:
        return _cut(self._both(lambda s: s.symbols_like(prefix, limit)), limit)

    def vectors_of(self, ids: Iterable[str]) -> dict[str, np.ndarray]:
        wanted = list(ids)
        return {
            **self.remote.vectors_of(wanted),
            **self._in_overlay(lambda s: s.vectors_of(wanted), {}),
        }

    def vector_search(
        self, vector: np.ndarray, k: int, filters: Filters = NO_FILTERS
    ) -> list[dict[str, Any]]:
        """Each side's k nearest; together, the k nearest of the merged index."""
        found = self._both(lambda s: s.vector_search(vector, k, filters))
        return sorted(found, key=lambda r: r["_distance"])[:k]

    def text_search(
        self, text: str, k: int, filters: Filters = NO_FILTERS, vectors: bool = False
    ) -> list[dict[str, Any]]:
        """BM25 over the text mirror when it is current: one corpus, so one set of term
        statistics, as in a single index. Otherwise (before the first local run, or
        between a write and the end of its run) each side's k best merged by score, whose
        statistics are each side's own (the overlay is small): a slightly different order.
        The mirror holds no vectors: its rows come without them, whatever `vectors` asks."""
        key = self._mirror_key()
        if key is not None and self.overlay.text_mirror_state().get("key") == key:
            try:
                return self.overlay.mirror_text_search(text, k, filters)
            except Exception:  # derived data: a damaged mirror costs exactness, not answers
                log.warning("the text mirror of %s is unreadable", self.location, exc_info=True)
        found = self._both(lambda s: s.text_search(text, k, filters, vectors))
        return sorted(found, key=lambda r: -r["_score"])[:k]

    # -- the text mirror ------------------------------------------------------------------

    def _mirror_key(self) -> str | None:
        """What the merged text depends on: both chunk tables' versions, the hidden paths."""
        remote, overlay = self.remote.versions(["chunks"]), self.overlay.versions(["chunks"])
        if remote is None or overlay is None:
            return None
        hidden = hashlib.sha1("\n".join(sorted(self._shadow().files)).encode()).hexdigest()
        return f"{remote}|{overlay}|{hidden}"

    def _held(self) -> dict[str, str]:
        """Each path the overlay answers for, with its content hash ('' when deleted)."""
        deleted = _paths(self.overlay.meta(), DELETED_KEY)
        held = {path: record.file_hash for path, record in self.overlay.catalog().items()}
        return {**dict.fromkeys(deleted, ""), **held}

    def _sync_text_mirror(self, rebuild: bool = False) -> None:
        """Bring the mirror to the merged view after a run: rebuilt when the published
        index changed (or a secret was forgotten: no old version may keep its text),
        otherwise only the paths whose owner or content changed are rewritten."""
        key = self._mirror_key()
        state = self.overlay.text_mirror_state()
        if key is None or (state.get("key") == key and not rebuild):
            return
        remote = str(self.remote.versions(["chunks"]))
        held = self._held()
        new_state = {"key": key, "remote": remote, "held": held, "text": TEXT_VERSION}
        if rebuild or state.get("remote") != remote or state.get("text") != TEXT_VERSION:
            rows = self._published_text_rows(None) + self.overlay.text_rows()
            self.overlay.write_text_mirror(rows, None, new_state)
            return
        old: dict[str, str] = state.get("held", {})
        changed = sorted(p for p in set(old) | set(held) if old.get(p) != held.get(p))
        published = [p for p in changed if p not in held]  # back to the published content
        local = [p for p in changed if held.get(p)]
        rows = (self._published_text_rows(published) if published else []) + (
            self.overlay.text_rows(local) if local else []
        )
        self.overlay.write_text_mirror(rows, changed, new_state)

    def _published_text_rows(self, paths: Sequence[str] | None) -> list[dict[str, Any]]:
        """The published chunks' rows under this version's full-text rule (CI may have
        built the index under an older one; the overlay's runs rewrite their own rows)."""
        rows = self.remote.text_rows(paths)
        if self.remote.meta().get("text", "1") != TEXT_VERSION:
            for row in rows:
                row["search_text"] = row_search_text(row)
        return rows

    def rewrite_search_text(self, text_of: Callable[[dict[str, Any]], str]) -> int:
        """The overlay's chunks (the published index is CI's; the mirror rewrites its rows)."""
        self._writable()
        return self.overlay.rewrite_search_text(text_of) if self.overlay.has_index() else 0

    def _both(self, read: Any) -> list[dict[str, Any]]:
        return list(read(self.remote)) + list(self._in_overlay(read, []))

    def live_edges(self) -> list[dict[str, Any]]:
        return self._both(lambda s: s.live_edges())

    def edges_from(
        self,
        srcs: Iterable[str],
        kinds: Collection[str] | None = None,
        skip_kinds: Collection[str] = (),
        into_scopes: bool = False,
    ) -> list[dict[str, Any]]:
        names = list(srcs)
        return self._both(lambda s: s.edges_from(names, kinds, skip_kinds, into_scopes))

    def edges_to(
        self,
        dsts: Iterable[str],
        kinds: Collection[str] | None = None,
        skip_kinds: Collection[str] = (),
        into_scopes: bool = False,
    ) -> list[dict[str, Any]]:
        names = list(dsts)
        return self._both(lambda s: s.edges_to(names, kinds, skip_kinds, into_scopes))

    # -- reads used by indexing -----------------------------------------------------------

    def cached_vectors(self, content_hashes: Iterable[str]) -> dict[str, np.ndarray]:
        """The embedding cache of both: content CI embedded is never embedded again."""
        wanted = set(content_hashes)
        found = self._in_overlay(lambda s: s.cached_vectors(wanted), {})
        return {**self.remote.cached_vectors(wanted - set(found)), **found}

    def cached_hashes(self) -> frozenset[str]:
        return self.remote.cached_hashes() | self._in_overlay(
            lambda s: s.cached_hashes(), frozenset()
        )

    def live_ids(self, paths: Sequence[str]) -> dict[str, set[str]]:
        return self.overlay.live_ids(paths)

    def touch_graph_states(self, ids: Sequence[str]) -> None:
        self._in_overlay(lambda s: s.touch_graph_states(ids), None)

    def graph_states_by_id(self, ids: Iterable[str]) -> list[bytes]:
        wanted = list(ids)
        return self.remote.graph_states_by_id(wanted) + self._in_overlay(
            lambda s: s.graph_states_by_id(wanted), []
        )

    def graph_state_listing(self, keys: Iterable[str]) -> dict[str, list[str]]:
        """Both sides' ids, the overlay's (written here, so used lately) first."""
        wanted = list(keys)
        listed = self._in_overlay(lambda s: s.graph_state_listing(wanted), {})
        for key, ids in self.remote.graph_state_listing(wanted).items():
            listed[key] = [*listed.get(key, []), *ids]
        return listed

    # -- writes go to the overlay ---------------------------------------------------------

    def write_files(self, updates: Sequence[FileUpdate], vectors: dict[str, np.ndarray]) -> int:
        """Files back at their published content leave the overlay; the rest go into it."""
        self._writable()
        published = self.remote_records([u.record.path for u in updates])
        same = [u.record.path for u in updates if _same(u.record, published)]
        differ = [u for u in updates if not _same(u.record, published)]
        gained = self._restore(same)
        return gained + self.overlay.write_files(differ, vectors)

    def record_files(self, records: Sequence[FileRecord]) -> None:
        self._writable()
        published = self.remote_records([r.path for r in records])
        self._restore([r.path for r in records if _same(r, published)])
        self.overlay.record_files([r for r in records if not _same(r, published)])

    def remove_files(self, paths: Sequence[str], forget: bool) -> int:
        """Gone files (`forget`) are hidden from the published index as well."""
        self._writable()
        removed = self.overlay.remove_files(paths, forget)
        published = set(self.remote_records(paths))
        if forget and published:
            deleted = set(_paths(self.overlay.meta(), DELETED_KEY)) | published
            self.overlay.set_meta({DELETED_KEY: json.dumps(sorted(deleted))})
        return removed

    def remote_records(self, paths: Sequence[str]) -> dict[str, FileRecord]:
        """The published catalog's records of these paths, shadowed or not."""
        with self._unshadowed():
            return self.remote.catalog(paths)

    @contextlib.contextmanager
    def _unshadowed(self) -> Iterator[None]:
        self.remote.shadow = lambda: Shadow()
        try:
            yield
        finally:
            self.remote.shadow = self._shadow

    def _restore(self, paths: list[str]) -> int:
        """These files are as published again: the overlay forgets them. Returns the
        overlay's chunks that went (the indexer counts the merged view itself)."""
        held = self._shadow().files & set(paths)
        if not held:
            return 0
        removed = self.overlay.remove_files(sorted(held), forget=True)
        deleted = set(_paths(self.overlay.meta(), DELETED_KEY))
        if deleted & held:
            self.overlay.set_meta({DELETED_KEY: json.dumps(sorted(deleted - held))})
        return -removed

    def replace_edges(
        self, rows: list[dict[str, Any]], paths: set[str] | None = None
    ) -> tuple[int, int]:
        """The overlay answers for these paths' edges from now on."""
        self._writable()
        if paths is None:
            paths = {row["path"] for row in rows} | set(self.catalog())
        owned = set(_paths(self.overlay.meta(), EDGE_PATHS_KEY)) | paths
        result = self.overlay.replace_edges(rows, paths)
        self.overlay.set_meta({EDGE_PATHS_KEY: json.dumps(sorted(owned))})
        return result

    def write_graph_states(self, states: Sequence[tuple[str, str, str, bytes]]) -> None:
        self._writable()
        self.overlay.write_graph_states(states)

    def drop_graph_states(self) -> None:
        self.overlay.drop_graph_states()

    def prune_graph_states(self, keep: int, current: set[str]) -> int:
        return self.overlay.prune_graph_states(keep, current)

    def add_feedback(
        self, query: str, vector: np.ndarray, chunk_id: str, vote: int, tower: str
    ) -> None:
        self._writable()
        self.overlay.add_feedback(query, vector, chunk_id, vote, tower)

    def renew_feedback(self, vectors: dict[str, np.ndarray], tower: str) -> None:
        self._writable()
        self.overlay.renew_feedback(vectors, tower)

    def add_run(self, run: dict[str, Any]) -> None:
        self._writable()
        self.overlay.add_run(run)

    def maintain(
        self,
        force: bool = False,
        every_versions: int = OPTIMIZE_EVERY_VERSIONS,
        forget: bool = False,
    ) -> dict[str, Any]:
        self._writable()
        report = self.overlay.maintain(force, every_versions, forget)
        self._sync_text_mirror(rebuild=forget)
        return report

    def write_lock(self, lease_seconds: float = 60.0, wait_s: float = 0.0) -> Any:
        return self.overlay.write_lock(lease_seconds, wait_s)

    def refine_lock(self) -> Any:
        return self.overlay.refine_lock()

    def refining(self) -> bool:
        return self.overlay.refining()


def _same(record: FileRecord, published: dict[str, FileRecord]) -> bool:
    """The published index holds this file with this content and status."""
    old = published.get(record.path)
    return (
        old is not None
        and old.file_hash == record.file_hash
        and old.status == record.status
        and old.reason == record.reason
    )


def _paths(meta: dict[str, str], key: str) -> list[str]:
    return list(json.loads(meta.get(key, "[]")))


def _cut(rows: list[dict[str, Any]], limit: int | None) -> list[dict[str, Any]]:
    return rows if limit is None else rows[:limit]
