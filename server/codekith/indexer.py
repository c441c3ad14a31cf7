"""Workspace -> store: decide per file (compute / reuse / skip / delete), then write.

Cheap checks come first: an unchanged size and mtime skips the read, an unchanged content
hash skips the chunking, an already-known chunk content hash skips the embedding. Files are
written in batches of whole files, each batch atomic, so an interrupted run leaves a
consistent index and the next run continues where it stopped. A run reports its progress
phase by phase (`codekith.progress`) and can be cancelled: it stops at the next batch
boundary, brings the call graph in step with what it wrote, and leaves the rest to the next
run (which then re-checks every file, like after an interruption).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from codekith import freshness, gitrepo
from codekith.config import Settings
from codekith.distributed import Distribution
from codekith.embedding import Embedder
from codekith.examine import Examined, SourceFile, examine
from codekith.examine_cache import ExaminedCache
from codekith.graphsync import GraphSync
from codekith.languages import PYTHON
from codekith.progress import PhaseClock, Progress
from codekith.qualnames import PROJECT_FILES, Layout, ModuleNames
from codekith.store import FileRecord, FileUpdate, Store, is_uri
from codekith.template import TEMPLATE_VERSION, TEXT_VERSION, row_search_text
from codekith.workspace import Candidate, lists_differently, scan

LAYOUT_FILES = ("__init__.py", *PROJECT_FILES)  # files whose coming or going renames modules
EMBED_STEP = 64  # chunks embedded per call: progress (and cancel checks) this often
Cancelled = Callable[[], bool]
INTERRUPTED = ("running", "cancelled")  # run states after which a run re-checks every file


@dataclass
class IndexReport:
    files: int = 0
    indexed: list[str] = field(default_factory=list)
    unchanged: int = 0
    deleted: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    redacted: dict[str, str] = field(default_factory=dict)
    repaired: dict[str, str] = field(default_factory=dict)
    chunks_written: int = 0
    embedded: int = 0
    reused: int = 0
    examined_cached: int = 0  # changed files whose content was examined before (a cache hit)
    chunks_total: int = 0
    seconds: float = 0.0
    maintenance: dict[str, Any] = field(default_factory=dict)
    dry_run: bool = False
    mode: str = "scan"
    scan_reason: str = ""
    cancelled: bool = False

    graph: dict[str, Any] = field(default_factory=dict)
    distributed: dict[str, Any] = field(default_factory=dict)

    def run_record(self, started_at: float, head: str) -> dict[str, Any]:
        return {
            "started_at": started_at,
            "mode": self.mode,
            "head": head,
            "files": self.files,
            "indexed": len(self.indexed),
            "unchanged": self.unchanged,
            "deleted": len(self.deleted),
            "skipped": len(self.skipped),
            "errors": len(self.errors),
            "chunks_written": self.chunks_written,
            "embedded": self.embedded,
            "reused": self.reused,
            "chunks_total": self.chunks_total,
            "seconds": round(self.seconds, 3),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "indexed": len(self.indexed),
            "unchanged": self.unchanged,
            "deleted": self.deleted,
            "skipped": self.skipped,
            "errors": self.errors,
            "redacted": self.redacted,
            "repaired": self.repaired,
            "chunks_written": self.chunks_written,
            "embedded": self.embedded,
            "reused": self.reused,
            "examined_cached": self.examined_cached,
            "chunks_total": self.chunks_total,
            "seconds": round(self.seconds, 3),
            "maintenance": self.maintenance,
            "dry_run": self.dry_run,
            "mode": self.mode,
            "scan_reason": self.scan_reason,
            "cancelled": self.cancelled,
            "graph": self.graph,
            "distributed": self.distributed,
            "indexed_paths": self.indexed,
        }


@dataclass
class _Scope:
    """The files a run looks at (None: all), those read even when size and mtime match the
    catalog, and those rechunked even when their content hash matches it."""

    paths: Sequence[str] | None
    reread: set[str] = field(default_factory=set)
    distrusted: set[str] = field(default_factory=set)


class Indexer:
    def __init__(
        self,
        root: Path,
        settings: Settings,
        store: Store,
        embedder_factory: Callable[[], Embedder],
        examined: ExaminedCache | None = None,
    ):
        """`examined`: the cache of examined files (by default beside a local index; an
        index on object storage keeps none)."""
        self.root = root
        self.settings = settings
        self.store = store
        self.embedder = embedder_factory  # loads the model on first call, then caches it
        self.graph = GraphSync(root, settings, store)  # warm across runs of a long-lived process
        location = settings.db_location(root)
        folder = None if is_uri(location) else Path(location)
        self.examined = examined or ExaminedCache(folder, settings)

    def run(
        self,
        full: bool = False,
        dry_run: bool = False,
        paths: Sequence[str] | None = None,
        since: str | None = None,
        progress: Progress | None = None,
        distribution: Distribution | None = None,
        refine: bool = True,
        cancelled: Cancelled | None = None,
        edges_later: bool = False,
    ) -> IndexReport:
        """Bring the index up to date with the workspace, or with just `paths`.

        Without paths, git decides what to look at when the index knows the commit it was
        built at (or `since` names one): files changed between that commit and HEAD, the
        dirty working tree, and what was dirty at the last run. Otherwise every file is
        stat-ed and its size and mtime compared with the catalog. A run with `paths` (a
        save) reads and writes only those files' rows and scans no table. A `distribution`
        chunks and embeds on worker processes or a Ray cluster. `refine=False` leaves the
        call graph's Jedi pass to `refine_graph`; `edges_later` (a save's run) leaves the
        fast edges too, to `update_graph`, so the files are searchable sooner. When
        `cancelled()` turns true the run stops at the next batch boundary, or between the
        model's steps in a batch, writing the files it has every vector of (report.cancelled).
        """
        if paths is not None and since is not None:
            raise ValueError("give either paths or since, not both")
        if full and not dry_run:
            return self._rebuild(progress, distribution, refine, cancelled)
        started_at, started = time.time(), time.perf_counter()
        report = IndexReport(dry_run=dry_run, mode="paths" if paths is not None else "scan")
        clock = PhaseClock(progress)
        stop = cancelled or (lambda: False)
        # a save (paths) must stay cheap: damage is looked for by whole runs
        report.repaired = {} if dry_run or paths is not None else self._repair()
        meta = self.store.meta() if self.store.has_index() else {}
        interrupted = meta.get("run_state") in INTERRUPTED
        # a save asks git nothing; other runs note HEAD and what was dirty before reading
        start = _GitState.now(self.root) if not dry_run and paths is None else _GitState()
        if not dry_run:
            meta = self._prepare(meta)
            self.store.set_meta({"run_state": "running"})
        limited = paths is not None and not interrupted  # a save reads its files' records only
        catalog = self.store.catalog(paths if limited else None) if meta and not full else {}
        scope = self._scope(report, full, interrupted, paths, since, meta, catalog)
        if report.repaired:
            report.mode, report.scan_reason = "scan", "damaged tables were rebuilt"
            scope = _Scope(None, set(catalog), set(catalog))
        paths = scope.paths
        names = ModuleNames.on_disk(self.root)
        python = self._layout_check(meta, paths)
        relabelled = _relabelled(meta, names, python or [])  # re-chunked under a new name
        if relabelled and paths is not None:
            paths = sorted({*paths, *relabelled})
        candidates = list(scan(self.root, self.settings, None if paths is None else set(paths)))
        layout = meta.get("modules", "")
        if python is not None and names.layout is not None:
            layout = names.layout.snapshot([*python, *(c.path for c in candidates)]).to_json()
        distrusted = scope.distrusted | relabelled
        trusted = {p: r for p, r in catalog.items() if p not in distrusted}
        sources, records = self._plan(
            candidates, trusted, report, scope.reread | relabelled, names, clock
        )
        report.deleted, purge = self._vanished(candidates, catalog, paths, interrupted)
        purge += [
            r.path
            for r in records
            if r.status == "skipped"
            and r.path in catalog
            and catalog[r.path].status == "indexed"
            and r.path not in purge
        ]
        if dry_run:
            for source in sources:
                self._account(examine(source, self.settings), report)
            report.seconds = time.perf_counter() - started
            return report
        rules_changed = (
            bool(catalog) and meta.get("scan_settings") != self.settings.scan_fingerprint()
        )
        if rules_changed:  # what was examined under other rules may keep what these redact
            self.examined.clear()
        gained = -self.store.remove_files(purge, forget=False)
        self.store.record_files(records)
        if python is not None and sources and layout != meta.get("modules", ""):
            self.store.set_meta({"modules_pending": layout})  # what _write names files under
        newly_skipped, written = self._write(sources, catalog, report, clock, stop, distribution)
        gained += written - self.store.remove_files(report.deleted, forget=True)
        removed = [*report.deleted, *purge, *newly_skipped]
        indexed = set(report.indexed)
        hashes = {s.path: s.file_hash for s in sources if s.path in indexed}
        state: dict[str, str]
        if edges_later and paths is not None:
            self.graph.defer(hashes, removed)
            state, report.graph = {}, {"deferred": len(hashes) + len(removed)}
        else:
            state, report.graph = self.graph.update(
                meta, hashes, removed, layout, functools.partial(clock, "graph")
            )
        if report.cancelled:
            return self._cancelled(meta, gained, state, report, started_at, started)
        if refine:
            refined, figures = self.graph.refine(
                {**meta, **state}, lambda done, total, path: clock("jedi", done, total, path), stop
            )
            self.graph.close()  # a short-lived caller must not keep a Jedi child around
            state.update(refined)
            report.graph.update(figures)
        report.graph["jedi_pending"] = int({**meta, **state}.get("jedi_pending", "0"))
        report.maintenance = self.store.maintain(forget=_removes_secrets(report, rules_changed))
        if report.maintenance.get("optimized"):
            report.maintenance["graph_states_pruned"] = self.graph.prune()
        report.chunks_total = self._chunks_total(meta, gained, report)
        if python is not None:
            state["modules"], state["modules_pending"] = layout, ""
        self._record_state(meta, [*report.indexed, *removed], state, report, start)
        report.seconds = time.perf_counter() - started
        head = start.head or gitrepo.head(self.root) or ""
        self.store.add_run(report.run_record(started_at, head))
        return report

    def update_graph(self, stop: Callable[[], bool] | None = None) -> dict[str, Any]:
        """The fast edges of the files that runs with `edges_later` left behind (nothing
        when none did: the graph's snapshot in meta already matches); the figures. Until
        then the meta's graph snapshot is behind, so any other process re-derives them.
        `stop` may end it between files (UpdateYielded, nothing stored)."""
        meta = self.store.meta()
        state, figures = self.graph.update(meta, {}, [], meta.get("modules", ""), stop=stop)
        if state:
            self.store.set_meta(state)
        return figures

    def compute_graph(self, meta: dict[str, str], stop: Callable[[], bool] | None = None) -> bool:
        """What `update_graph` would store, computed in memory without the index's write
        lock (`meta` may come from any connection); `store_graph` writes it, under the lock.
        False when only `update_graph` can do it (no warm graph in this process)."""
        return self.graph.compute(meta, meta.get("modules", ""), stop)

    def store_graph(self) -> dict[str, Any]:
        """Write what `compute_graph` computed; the figures."""
        return self.graph.store_computed()

    def refine_graph(
        self,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
        lock: Callable[[], AbstractContextManager[Any]] | None = None,
    ) -> dict[str, Any]:
        """The Jedi pass over the files still waiting for it (after the files are
        searchable); `lock` takes the index for each store when the caller does not hold
        it. Its figures."""
        clock = PhaseClock(progress)
        return self.graph.refine(
            self.store.meta(),
            lambda done, total, path: clock("jedi", done, total, path),
            cancelled,
            lock,
        )[1]

    def _cancelled(
        self,
        meta: dict[str, str],
        gained: int,
        graph: dict[str, str],
        report: IndexReport,
        started_at: float,
        started: float,
    ) -> IndexReport:
        """End a cancelled run: what it wrote is whole and its edges are stored; the meta
        says 'cancelled', so the next run re-checks every file and finishes the work."""
        report.chunks_total = self._chunks_total(meta, gained, report)
        self.store.set_meta({**graph, "chunks": str(report.chunks_total), "run_state": "cancelled"})
        report.seconds = time.perf_counter() - started
        self.store.add_run(report.run_record(started_at, gitrepo.head(self.root) or ""))
        return report

    def _chunks_total(self, meta: dict[str, str], gained: int, report: IndexReport) -> int:
        """Counted after a scan (or when unknown); a save adds what it gained to the last
        count, so it never scans the chunk table."""
        if report.mode == "paths" and "chunks" in meta and not report.maintenance.get("optimized"):
            return int(meta["chunks"]) + gained
        return self.store.count()

    def _repair(self) -> dict[str, str]:
        """Damaged tables, rebuilt before anything else: meta cannot be re-derived, so its
        damage recreates everything; other tables are rebuilt from what is intact."""
        problems = self.store.damage()
        if "meta" in problems:
            self.store.create(self.settings.model, self.embedder().dim, TEMPLATE_VERSION)
        elif problems:
            self.store.repair(problems)
        return problems

    def _rebuild(
        self,
        progress: Progress | None,
        distribution: Distribution | None,
        refine: bool,
        cancelled: Cancelled | None,
    ) -> IndexReport:
        """`--full`: a new index built aside (the old one is never opened, so a damaged or
        incompatible index is no obstacle) and swapped in when complete; until then readers
        keep answering from the old one. Cancelled, the old index stays (in place on object
        storage, where the next run completes the new one). Every file is examined anew:
        the cache of examined files starts over."""
        self.examined.clear()
        staging = self.store.staging()
        if staging is None:  # object storage: the tables are replaced where they are
            self.store.create(self.settings.model, self.embedder().dim, TEMPLATE_VERSION)
            report = self.run(
                progress=progress, distribution=distribution, refine=refine, cancelled=cancelled
            )
        else:
            builder = Indexer(self.root, self.settings, staging, self.embedder, self.examined)
            report = builder.run(
                progress=progress, distribution=distribution, refine=refine, cancelled=cancelled
            )
            builder.graph.close()
            if report.cancelled:
                report.mode = "full"
                return report
            self.store.promote(staging)
            self.graph.close()  # its builder knows the old index: the next run loads anew
            self.graph = GraphSync(self.root, self.settings, self.store)
        report.mode = "full"
        return report

    def _git_changes(self, since: str | None, meta: dict[str, str]) -> tuple[set[str] | None, str]:
        """Paths that may differ from the index, per git; else None and why not."""
        if not meta:
            return None, "no index yet"
        base = since or meta.get("head")
        if not base:
            return None, "the index does not know its commit"
        if meta.get("scan_settings") != self.settings.scan_fingerprint():
            return None, "the file selection settings changed"
        changed = gitrepo.changes_since(self.root, base)
        if changed is None:
            return None, f"git cannot compare {base[:12]} with the working tree"
        if lists_differently(changed):
            return None, "a .gitignore changed"
        return changed | set(json.loads(meta.get("dirty", "[]"))), ""

    def _record_state(
        self,
        meta: dict[str, str],
        paths: list[str],
        graph: dict[str, str],
        report: IndexReport,
        start: _GitState,
    ) -> None:
        """What the next run and freshness checks compare against. A save (a run with paths)
        asks git nothing: HEAD is left as it was (files HEAD changed are not indexed yet) and
        the saved files join the dirty list, so a later git run re-checks them even when
        they are reverted to HEAD's content. Another run records the commit it started from
        (HEAD may have moved while it wrote: the next run then looks at what moved) and the
        files dirty at its start or end (one deleted at the start and restored meanwhile was
        read deleted, yet is clean at the end)."""
        if report.mode == "paths":
            dirty = set(json.loads(meta.get("dirty", "[]"))) | set(paths)
            state = {"dirty": json.dumps(sorted(dirty))}
        else:
            dirty = {*start.dirty, *(gitrepo.working_changes(self.root) or ())}
            state = {
                "head": start.head,
                "dirty": json.dumps(sorted(dirty)),
                "scan_settings": self.settings.scan_fingerprint(),
            }
        self.store.set_meta(
            {
                **state,
                **graph,
                "indexed_at": str(int(time.time())),
                "chunks": str(report.chunks_total),
                "run_state": "done",
            }
        )

    def _scope(
        self,
        report: IndexReport,
        full: bool,
        interrupted: bool,
        paths: Sequence[str] | None,
        since: str | None,
        meta: dict[str, str],
        catalog: dict[str, FileRecord],
    ) -> _Scope:
        """Which files this run looks at, and which catalog entries it must not trust."""
        settings_changed = meta.get("scan_settings") not in (None, self.settings.scan_fingerprint())
        everything = set(catalog) if settings_changed else set()  # new rules may redact more
        if full:
            report.mode = "full"
            return _Scope(None)
        if interrupted:
            report.mode, report.scan_reason = "scan", "the last run was interrupted"
            unconfirmed = self._unconfirmed_chunks(catalog) | everything
            return _Scope(None, unconfirmed, unconfirmed)
        if paths is None and not report.dry_run:  # a dry run counts every file
            changed, report.scan_reason = self._git_changes(since, meta)
            if changed is not None:
                diverged = freshness.diverged_from_head(self.root, catalog)
                report.mode = "git"
                return _Scope(sorted(changed | diverged), diverged)
        return _Scope(paths, everything, everything)

    def _prepare(self, meta: dict[str, str]) -> dict[str, str]:
        """An index to write to (created when missing), and its meta."""
        model, template = self.settings.model, TEMPLATE_VERSION
        if not meta:
            self.store.create(model, self.embedder().dim, template)
            self.store.set_meta({"text": TEXT_VERSION})
            return self.store.meta()
        self.store.check_compatible(model, int(meta.get("dim", 0)), template)
        if meta.get("text", "1") != TEXT_VERSION:  # a new full-text rule: no re-embedding
            self.store.rewrite_search_text(row_search_text)
            self.store.set_meta({"text": TEXT_VERSION})
            return self.store.meta()
        return meta

    def _unconfirmed_chunks(self, catalog: dict[str, FileRecord]) -> set[str]:
        """Files whose live chunks were made from content their catalog entry does not name
        (a kill between the chunk and catalog commits); they are re-read, not trusted."""
        return {
            path
            for path, hashes in self.store.live_file_hashes().items()
            if path in catalog and hashes != {catalog[path].file_hash}
        }

    def _vanished(
        self,
        candidates: list[Candidate],
        catalog: dict[str, FileRecord],
        paths: Sequence[str] | None,
        find_ghosts: bool,
    ) -> tuple[list[str], list[str]]:
        """Files gone from the workspace, and present files whose chunks must go (now
        skipped, or ghosts: chunks an interrupted run wrote for files no longer indexable;
        looking for them reads every chunk's path, so only after an interruption)."""
        present = {c.path for c in candidates}
        indexable = {c.path for c in candidates if c.reason is None}
        scope = set(catalog) if paths is None else set(paths) & set(catalog)
        gone = scope - present
        purge = {p for p in present - indexable if p in catalog and catalog[p].status == "indexed"}
        if find_ghosts and paths is None:
            ghosts = set(self.store.live_file_hashes()) - indexable
            gone |= ghosts - present
            purge |= ghosts & present
        return sorted(gone), sorted(purge)

    def _layout_check(self, meta: dict[str, str], paths: Sequence[str] | None) -> list[str] | None:
        """The indexed Python files, when this run checks the package layout (qualnames.Layout)
        against the one the index was named under: a run over everything, one whose paths
        (git's changes, a save) include a file that can change it, or any run of an index
        named under an older naming rule; None: no check."""
        stored = meta.get("modules")
        shaping = paths is None or any(PurePosixPath(p).name in LAYOUT_FILES for p in paths)
        if not meta or (stored is not None and not shaping and Layout.current_rule(stored)):
            return None
        return [
            p
            for p, r in self.store.catalog().items()
            if r.status == "indexed" and r.language == PYTHON
        ]

    def _plan(
        self,
        candidates: list[Candidate],
        catalog: dict[str, FileRecord],
        report: IndexReport,
        reread: set[str],
        names: ModuleNames,
        clock: PhaseClock,
    ) -> tuple[list[SourceFile], list[FileRecord]]:
        """Files whose content changed (read and hashed), and catalog records to refresh
        without re-chunking; files in `reread` are read even when their size and mtime
        match the catalog."""
        sources: list[SourceFile] = []
        records: list[FileRecord] = []
        report.files = len(candidates)
        for number, candidate in enumerate(candidates, 1):
            clock("scan", number, len(candidates), candidate.path)
            old = catalog.get(candidate.path)
            if (
                old
                and candidate.path not in reread
                and old.size == candidate.size
                and old.mtime_ns == candidate.mtime_ns
                and old.language == (candidate.language or "")
                and (candidate.reason is None or old.reason == candidate.reason)
            ):
                report.unchanged += 1
                if old.status == "skipped":
                    report.skipped[candidate.path] = old.reason
                continue
            source, record = self._read(candidate, old, names)
            if source is not None:
                sources.append(source)
            elif record is not None:
                records.append(record)
                if record.status == "skipped":
                    report.skipped[candidate.path] = record.reason
                else:
                    report.unchanged += 1
        return sources, records

    def _read(
        self, candidate: Candidate, old: FileRecord | None, names: ModuleNames
    ) -> tuple[SourceFile | None, FileRecord | None]:
        """Read and hash one file: new content (or a new module name) to examine, or just
        a record to store."""
        source = SourceFile(
            candidate.path,
            candidate.language or "",
            b"",
            "",
            candidate.mtime_ns,
            candidate.size,
            names(candidate.path),
        )
        if candidate.reason is not None:
            return None, source.record("skipped", reason=candidate.reason)
        try:
            data = (self.root / candidate.path).read_bytes()
        except OSError as exc:
            return None, source.record("skipped", reason=f"unreadable: {exc.strerror}")
        source = dataclasses.replace(source, data=data, file_hash=gitrepo.blob_id(data))
        if (
            old
            and old.file_hash == source.file_hash
            and old.status == "indexed"
            and old.language == source.language  # a script a rule now reads by its `#!`
        ):
            return None, source.record("indexed", old.reason, chunks=old.chunks, error=old.error)
        return source, None

    def _write(
        self,
        sources: list[SourceFile],
        catalog: dict[str, FileRecord],
        report: IndexReport,
        clock: PhaseClock,
        cancelled: Cancelled,
        distribution: Distribution | None,
    ) -> tuple[list[str], int]:
        """Examine, embed and commit the changed files in atomic batches of about
        `batch-chunks` chunks. Locally the model embeds each batch here; distributed, the
        workers examine and embed and this process only commits. Stops after the batch
        under way once `cancelled()`. Returns the paths that were indexed before and are
        skipped now, and how many live chunks the index gained."""
        stream: Iterable[tuple[Examined, dict[str, Any]]]
        if distribution is None:
            examined = self._examine_all(sources, report, clock, cancelled)
            if len(examined) < len(sources):  # cancelled while chunking: write nothing
                report.cancelled, examined = True, []
            writes = _Writes(sum(len(e.rows) for e in examined))
            writes.to_embed = self._to_embed(examined, writes.total)
            stream = ((e, {}) for e in examined)
        else:
            known = self.store.cached_hashes()
            stream = distribution.examine_and_embed(sources, self.settings, known, report)
            writes = _Writes(len(sources), by_file=True)
        newly_skipped: list[str] = []
        batch: list[Examined] = []
        vectors: dict[str, Any] = {}
        gained = 0
        for item, embedded in stream:
            if cancelled() and not batch:
                report.cancelled = True
                break  # at a batch boundary: everything accounted for is written
            self._account(item, report)
            batch.append(item)
            vectors.update(embedded)
            if distribution:
                writes.received += 1
                clock("embed", writes.received, writes.total, item.record.path)
            if sum(len(e.rows) for e in batch) >= max(1, self.settings.batch_chunks):
                skipped, count = self._commit(
                    batch, vectors, catalog, report, clock, writes, cancelled
                )
                newly_skipped, gained = newly_skipped + skipped, gained + count
                batch, vectors = [], {}
        if batch:
            skipped, count = self._commit(batch, vectors, catalog, report, clock, writes, cancelled)
            newly_skipped, gained = newly_skipped + skipped, gained + count
        return newly_skipped, gained

    def _examine_all(
        self,
        sources: list[SourceFile],
        report: IndexReport,
        clock: PhaseClock,
        cancelled: Cancelled,
    ) -> list[Examined]:
        """Chunk every changed file (all of them, or up to a cancel); contents examined
        before are read from the cache."""
        known = self.examined.lookup(sources)
        examined, new = [], []
        for number, source in enumerate(sources, 1):
            if cancelled():
                break
            item = known.get(source.path)
            if item is None:
                item = examine(source, self.settings)
                new.append((source, item))
            else:
                report.examined_cached += 1
            examined.append(item)
            clock("chunk", number, len(sources), source.path)
        self.examined.keep(new)
        return examined

    def _to_embed(self, examined: list[Examined], chunks: int) -> int | None:
        """How many distinct chunk contents need the model, when the run spans several
        batches (one batch finds out for itself): the embed phase's total."""
        if chunks <= max(1, self.settings.batch_chunks):
            return None
        hashes = {r["content_hash"] for e in examined for r in e.rows}
        return len(hashes - self.store.cached_hashes())

    @staticmethod
    def _unaccount(left: list[Examined], report: IndexReport) -> None:
        """Files a cancel left unwritten are not reported as indexed."""
        paths = {e.record.path for e in left}
        report.indexed = [path for path in report.indexed if path not in paths]
        for path in paths:
            report.errors.pop(path, None)
            report.redacted.pop(path, None)

    @staticmethod
    def _account(item: Examined, report: IndexReport) -> None:
        path = item.record.path
        if item.record.status == "skipped":
            report.skipped[path] = item.record.reason
            return
        report.indexed.append(path)
        if item.record.error:
            report.errors[path] = item.record.error
        if item.record.reason:
            report.redacted[path] = item.record.reason

    def _commit(
        self,
        batch: list[Examined],
        embedded: dict[str, Any],
        catalog: dict[str, FileRecord],
        report: IndexReport,
        clock: PhaseClock,
        writes: _Writes,
        cancelled: Cancelled,
    ) -> tuple[list[str], int]:
        """One batch: vectors from the workers, the cache, or the model here; then the
        chunks and catalog records in the store's atomic write. Returns the paths indexed
        before and skipped now, and the live chunks gained. A cancel while the model embeds
        writes the files whose every chunk has its vector and, for the others, the vectors
        made so far (the next run embeds only the rest): a batch of 1024 chunks took ~20 s
        to embed, and the run only stopped after it."""
        skipped = [e.record for e in batch if e.record.status == "skipped"]
        newly_skipped = [
            r.path for r in skipped if r.path in catalog and catalog[r.path].status == "indexed"
        ]
        gained = -self.store.remove_files(newly_skipped, forget=False)
        self.store.record_files(skipped)
        indexed = [e for e in batch if e.record.status == "indexed"]
        documents = {row["content_hash"]: row["document"] for e in indexed for row in e.rows}
        new = {h: v for h, v in embedded.items() if h in documents}
        vectors = {**self.store.cached_vectors(h for h in documents if h not in new), **new}
        missing = {h: documents[h] for h in documents if h not in vectors}
        unread = self._unread_changes(missing, indexed) if missing else {}
        vectors.update(unread)
        if writes.to_embed is not None:
            writes.to_embed -= len(unread)
        missing = {h: text for h, text in missing.items() if h not in unread}
        if missing:
            new.update(self._embed(missing, clock, writes, cancelled))
            vectors.update(new)
        whole: list[Examined] = []
        left: list[Examined] = []  # a cancel stopped the model before all their vectors
        for item in indexed:
            (whole if all(r["content_hash"] in vectors for r in item.rows) else left).append(item)
        if left:
            self._unaccount(left, report)
            report.cancelled, indexed = True, whole
        updates = [
            FileUpdate(e.record, [{**r, "vector": vectors[r["content_hash"]]} for r in e.rows])
            for e in indexed
        ]
        gained += self.store.write_files(updates, {**unread, **new})
        count = sum(len(e.rows) for e in indexed)
        writes.written += len(batch) if writes.by_file else count
        clock("write", writes.written, writes.total, batch[-1].record.path)
        report.chunks_written += count
        report.embedded += len(new)
        report.reused += count - len(new)
        return newly_skipped, gained

    def _unread_changes(self, documents: dict[str, str], items: list[Examined]) -> dict[str, Any]:
        """Vectors for the documents (content hash -> text) whose previous version, the
        live chunk of the same path and qualname, gave the model the same input: their
        change lies past what it reads (MAX_TOKENS), so that version's vector is the one the
        model would make. Of the 231 documents flask's last 50 commits changed, 29 were such
        (long functions edited near their end: 14% of the tokens to embed)."""
        rows = [row for item in items for row in item.rows if row["content_hash"] in documents]
        names = {(row["path"], row["qualname"]) for row in rows}
        before = [
            row for row in self.store.documents_named(names) if row["content_hash"] not in documents
        ]
        known = {(row["path"], row["qualname"]) for row in before}
        changed = sorted({r["content_hash"] for r in rows if (r["path"], r["qualname"]) in known})
        if not changed:
            return {}
        inputs = self.embedder().model_inputs(
            [documents[h] for h in changed] + [row["document"] for row in before]
        )
        earlier = {
            model_input: row["content_hash"]
            for model_input, row in zip(inputs[len(changed) :], before, strict=True)
        }
        same = {
            h: earlier[model_input]
            for h, model_input in zip(changed, inputs[: len(changed)], strict=True)
            if model_input in earlier
        }
        found = self.store.cached_vectors(set(same.values()))
        return {h: found[old] for h, old in same.items() if old in found}

    def _embed(
        self, documents: dict[str, str], clock: PhaseClock, writes: _Writes, cancelled: Cancelled
    ) -> dict[str, Any]:
        """Vectors for these documents (content hash -> text), in steps of EMBED_STEP so
        that progress moves while a batch embeds and a cancel is seen (then only those made
        so far); shortest first, so steps pad little."""
        total = writes.to_embed if writes.to_embed is not None else len(documents)
        order = sorted(documents, key=lambda h: len(documents[h]))
        vectors: dict[str, Any] = {}
        embedder = self.embedder()
        for start in range(0, len(order), EMBED_STEP):
            if cancelled():
                break
            step = order[start : start + EMBED_STEP]
            matrix = embedder.embed_documents([documents[h] for h in step])
            vectors.update(zip(step, matrix, strict=True))
            writes.embedded += len(step)
            clock("embed", writes.embedded, max(total, writes.embedded))
        if writes.to_embed is None:
            writes.embedded = 0  # one batch per run: each counts for itself
        return vectors


@dataclass(frozen=True)
class _GitState:
    """HEAD and the dirty files when a run started ("" and none outside git)."""

    head: str = ""
    dirty: frozenset[str] = frozenset()

    @classmethod
    def now(cls, root: Path) -> _GitState:
        return cls(gitrepo.head(root) or "", frozenset(gitrepo.working_changes(root) or ()))


def _relabelled(meta: dict[str, str], names: ModuleNames, python: list[str]) -> set[str]:
    """The Python files among `python` whose module name under `names` differs from the one
    their chunks carry: an `__init__.py` or a project file appeared or went (an index from
    before the layout rule was named by the path rule). They are re-chunked although their
    content did not change. Under an older naming rule every one is (what they are
    called then is only known to that rule); only the changed documents are embedded.
    A run cut short may have named some files under the layout it saw (`modules_pending`,
    stored before it wrote): those named otherwise under it are re-chunked too."""
    stored = meta.get("modules")
    if stored and not Layout.current_rule(stored):
        return set(python)
    carried = [ModuleNames(Layout.from_json(stored) if stored else None)]
    pending = meta.get("modules_pending")
    if pending and pending != stored:
        carried.append(ModuleNames(Layout.from_json(pending)))
    return {path for path in python if any(name(path) != names(path) for name in carried)}


def _removes_secrets(report: IndexReport, rules_changed: bool) -> bool:
    """Whether earlier versions of the tables may hold text this run redacted (or skipped as
    a secret file). Only under new rules: the same rules redact the same text in every
    version of a file, so a redaction that merely moved (a branch switch, an edit) removed
    nothing, and forgetting would drop the cached vectors of every other branch. Under new
    rules every file is read again, and any finding counts (an interrupted run may have
    written some already, so the catalog cannot tell which are new)."""
    secret_files = any(reason.startswith("secret file") for reason in report.skipped.values())
    return rules_changed and (bool(report.redacted) or secret_files)


@dataclass
class _Writes:
    """What the write loop has done so far, for the embed and write phases' progress."""

    total: int  # chunks to write (distributed: files, whose chunk counts come later)
    by_file: bool = False
    to_embed: int | None = None  # distinct contents the model must embed, when known ahead
    embedded: int = 0
    written: int = 0
    received: int = 0
