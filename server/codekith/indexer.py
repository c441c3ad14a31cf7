"""Workspace -> store: decide per file (compute / reuse / skip / delete), then write.

Cheap checks come first: an unchanged size and mtime skips the read, an unchanged content
hash skips the chunking, an already-known chunk content hash skips the embedding. Files are
written in batches of whole files, each batch atomic, so an interrupted run leaves a
consistent index and the next run continues where it stopped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from codekith import gitrepo
from codekith.chunking import Chunk, chunk_file, sha1
from codekith.config import Settings
from codekith.embedding import Embedder
from codekith.graph.builder import GraphBuilder
from codekith.graph.model import Edge
from codekith.secrets import find_secret
from codekith.store import FileRecord, FileUpdate, Store
from codekith.template import TEMPLATE_VERSION, chunk_search_text, document
from codekith.workspace import Candidate, content_reason, decode_source, scan

Progress = Callable[[int, int, str], None]
GRAPH_VERSION = "1"


@dataclass
class IndexReport:
    files: int = 0
    indexed: list[str] = field(default_factory=list)
    unchanged: int = 0
    deleted: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    chunks_written: int = 0
    embedded: int = 0
    reused: int = 0
    chunks_total: int = 0
    seconds: float = 0.0
    maintenance: dict[str, Any] = field(default_factory=dict)
    dry_run: bool = False
    mode: str = "scan"
    scan_reason: str = ""

    graph: dict[str, Any] = field(default_factory=dict)

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
            "chunks_written": self.chunks_written,
            "embedded": self.embedded,
            "reused": self.reused,
            "chunks_total": self.chunks_total,
            "seconds": round(self.seconds, 3),
            "maintenance": self.maintenance,
            "dry_run": self.dry_run,
            "mode": self.mode,
            "scan_reason": self.scan_reason,
            "graph": self.graph,
            "indexed_paths": self.indexed,
        }


@dataclass
class _Work:
    """A file whose content changed: its record and freshly made chunks."""

    record: FileRecord
    chunks: list[Chunk]


class Indexer:
    def __init__(
        self, root: Path, settings: Settings, store: Store, embedder_factory: Callable[[], Embedder]
    ):
        self.root = root
        self.settings = settings
        self.store = store
        self.embedder = embedder_factory  # loads the model on first call, then caches it
        self._graph: GraphBuilder | None = None  # warm across runs of a long-lived process

    def run(
        self,
        full: bool = False,
        dry_run: bool = False,
        paths: Sequence[str] | None = None,
        since: str | None = None,
        progress: Progress | None = None,
    ) -> IndexReport:
        """Bring the index up to date with the workspace, or with just `paths`.

        Without paths, git decides what to look at when the index knows the commit it was
        built at (or `since` names one): files changed between that commit and HEAD, the
        dirty working tree, and what was dirty at the last run. Otherwise every file is
        stat-ed and its size and mtime compared with the catalog.
        """
        started_at, started = time.time(), time.perf_counter()
        report = IndexReport(dry_run=dry_run, mode="paths" if paths is not None else "scan")
        if paths is not None and since is not None:
            raise ValueError("give either paths or since, not both")
        meta = self.store.meta() if self.store.has_index() else {}
        interrupted = meta.get("run_state") == "running"
        if not dry_run:
            meta = self._prepare(full, meta)
            self.store.set_meta({"run_state": "running"})
        if full:
            report.mode = "full"
        elif interrupted:
            paths, report.mode = None, "scan"
            report.scan_reason = "the last run was interrupted"
        elif paths is None:
            changed, report.scan_reason = self._git_changes(since, meta)
            if changed is not None:
                paths, report.mode = sorted(changed), "git"
        candidates = list(scan(self.root, self.settings, None if paths is None else set(paths)))
        catalog = self.store.catalog() if meta else {}
        works, records = self._plan(candidates, catalog, report)
        report.deleted, purge = self._vanished(candidates, catalog, paths, interrupted)
        purge += [
            r.path
            for r in records
            if r.status == "skipped"
            and r.path in catalog
            and catalog[r.path].status == "indexed"
            and r.path not in purge
        ]
        if not dry_run:
            self.store.remove_files(purge, forget=False)
            self.store.record_files(records)
            self._write(works, report, progress)
            self.store.remove_files(report.deleted, forget=True)
            self._update_graph(report, purge, meta)
            report.maintenance = self.store.maintain()
            self._record_state()
            report.chunks_total = self.store.count()
        report.seconds = time.perf_counter() - started
        if not dry_run:
            self.store.add_run(report.run_record(started_at, gitrepo.head(self.root) or ""))
        return report

    def _update_graph(self, report: IndexReport, purge: list[str], meta: dict[str, str]) -> None:
        """Recompute edges when a Python file changed; Jedi re-checks the changed ones."""
        stale_version = meta.get("graph") != GRAPH_VERSION
        touched = {p for p in (*report.indexed, *report.deleted, *purge) if p.endswith(".py")}
        if not touched and not stale_version:
            return
        python = [
            p
            for p, r in self.store.catalog().items()
            if r.status == "indexed" and p.endswith(".py")
        ]
        stored = [
            (Edge(r["src"], r["dst"], r["kind"], r["path"], r["line"]), r["resolver"])
            for r in self.store.live_edges()
        ]
        changed = set(python) if stale_version else touched
        if self._graph is None:
            self._graph = GraphBuilder(self.root, self.settings.jedi)
        rescan = stale_version or report.mode in ("scan", "full")
        update = self._graph.update(python, changed, stored, rescan)
        rows = [_edge_row(e, r) for e, r in update.edges]
        added, removed = self.store.replace_edges(rows, update.paths)
        self.store.set_meta({"graph": GRAPH_VERSION})
        report.graph = {
            "edges": len(stored) + added - removed,
            "files_resolved": len(python) if update.paths is None else len(update.paths),
            "added": added,
            "removed": removed,
            "jedi_files": update.jedi_files,
            "fast_s": round(update.fast_seconds, 3),
            "jedi_s": round(update.jedi_seconds, 3),
            "jedi_timed_out": update.timed_out,
            "unparsed": update.broken,
        }

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
        if any(PurePosixPath(p).name == ".gitignore" for p in changed):
            return None, "a .gitignore changed"
        return changed | set(json.loads(meta.get("dirty", "[]"))), ""

    def _record_state(self) -> None:
        """What the next run and freshness checks compare against."""
        dirty = gitrepo.working_changes(self.root)
        self.store.set_meta(
            {
                "indexed_at": str(int(time.time())),
                "head": gitrepo.head(self.root) or "",
                "dirty": json.dumps(sorted(dirty or ())),
                "scan_settings": self.settings.scan_fingerprint(),
                "run_state": "done",
            }
        )

    def _prepare(self, full: bool, meta: dict[str, str]) -> dict[str, str]:
        """An index to write to (created when missing or `full`), and its meta."""
        model, template = self.settings.model, TEMPLATE_VERSION
        if full or not meta:
            self.store.create(model, self.embedder().dim, template)
            return self.store.meta()
        self.store.check_compatible(model, int(meta.get("dim", 0)), template)
        return meta

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
            ghosts = self.store.live_paths() - indexable
            gone |= ghosts - present
            purge |= ghosts & present
        return sorted(gone), sorted(purge)

    def _plan(
        self, candidates: list[Candidate], catalog: dict[str, FileRecord], report: IndexReport
    ) -> tuple[list[_Work], list[FileRecord]]:
        """Files to (re)chunk, and catalog records to refresh without re-chunking."""
        works: list[_Work] = []
        records: list[FileRecord] = []
        report.files = len(candidates)
        for candidate in candidates:
            old = catalog.get(candidate.path)
            if (
                old
                and old.size == candidate.size
                and old.mtime_ns == candidate.mtime_ns
                and (candidate.reason is None or old.reason == candidate.reason)
            ):
                report.unchanged += 1
                if old.status == "skipped":
                    report.skipped[candidate.path] = old.reason
                continue
            work, record = self._examine(candidate, old)
            if work is not None:
                works.append(work)
                report.indexed.append(candidate.path)
                if work.record.error:
                    report.errors[candidate.path] = work.record.error
            elif record is not None:
                records.append(record)
                if record.status == "skipped":
                    report.skipped[candidate.path] = record.reason
                else:
                    report.unchanged += 1
        return works, records

    def _examine(
        self, candidate: Candidate, old: FileRecord | None
    ) -> tuple[_Work | None, FileRecord | None]:
        """Read one file and decide: work to do, or just a record to store."""

        def record(
            status: str, file_hash: str = "", reason: str = "", chunks: int = 0, error: str = ""
        ) -> FileRecord:
            return FileRecord(
                candidate.path,
                file_hash,
                candidate.mtime_ns,
                candidate.size,
                candidate.language or "",
                status,
                reason,
                chunks,
                error,
            )

        if candidate.reason is not None:
            return None, record("skipped", reason=candidate.reason)
        try:
            data = (self.root / candidate.path).read_bytes()
        except OSError as exc:
            return None, record("skipped", reason=f"unreadable: {exc.strerror}")
        file_hash = sha1(data.decode("latin-1"))
        if old and old.file_hash == file_hash and old.status == "indexed":
            return None, record("indexed", file_hash, chunks=old.chunks, error=old.error)
        reason = content_reason(candidate.path, data)
        if reason is None:
            try:
                source = decode_source(candidate.path, data)
            except (UnicodeDecodeError, SyntaxError, LookupError):
                reason = "not valid UTF-8 (or its declared encoding)"
        if reason is None:
            secret = find_secret(source, self.settings.secret_patterns)
            reason = f"contains a secret: {secret}" if secret else None
        if reason is not None:
            return None, record("skipped", file_hash, reason=reason)
        result = chunk_file(candidate.path, candidate.language or "", source)
        for chunk in result.chunks:
            chunk.file_hash = file_hash
        return _Work(
            record("indexed", file_hash, chunks=len(result.chunks), error=result.error or ""),
            result.chunks,
        ), None

    def _write(self, works: list[_Work], report: IndexReport, progress: Progress | None) -> None:
        total = sum(len(w.chunks) for w in works)
        done = 0
        for batch in _batch_by_chunks(works, max(1, self.settings.batch_chunks)):
            vectors, embedded = self._vectors_for(c for w in batch for c in w.chunks)
            updates = [
                FileUpdate(w.record, [self._row(c, vectors) for c in w.chunks]) for w in batch
            ]
            self.store.write_files(updates, embedded)
            count = sum(len(w.chunks) for w in batch)
            report.chunks_written += count
            report.embedded += len(embedded)
            report.reused += count - len(embedded)
            done += count
            if progress:
                progress(done, total, batch[-1].record.path)

    def _vectors_for(self, chunks: Iterable[Chunk]) -> tuple[dict[str, Any], dict[str, Any]]:
        """All vectors for these chunks, and the subset that had to be embedded now."""
        by_hash = {c.content_hash: c for c in chunks}
        vectors = self.store.cached_vectors(by_hash)
        missing = [h for h in by_hash if h not in vectors]
        embedded: dict[str, Any] = {}
        if missing:
            matrix = self.embedder().embed_documents([document(by_hash[h]) for h in missing])
            embedded = dict(zip(missing, matrix, strict=True))
            vectors.update(embedded)
        return vectors, embedded

    @staticmethod
    def _row(chunk: Chunk, vectors: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": chunk.id,
            "path": chunk.path,
            "language": chunk.language,
            "kind": chunk.kind,
            "symbol": chunk.symbol,
            "qualname": chunk.qualname,
            "parent": chunk.parent,
            "signature": chunk.signature,
            "docstring": chunk.docstring,
            "imports": chunk.imports,
            "bases": chunk.bases,
            "decorators": chunk.decorators,
            "start_line": chunk.start_line,
            "end_line": chunk.end_line,
            "content_hash": chunk.content_hash,
            "file_hash": chunk.file_hash,
            "document": document(chunk),
            "search_text": chunk_search_text(chunk),
            "vector": vectors[chunk.content_hash],
            "deleted": False,
        }


def _batch_by_chunks(works: list[_Work], size: int) -> Iterable[list[_Work]]:
    batch: list[_Work] = []
    count = 0
    for work in works:
        batch.append(work)
        count += len(work.chunks)
        if count >= size:
            yield batch
            batch, count = [], 0
    if batch:
        yield batch


def _edge_row(edge: Edge, resolver: str) -> dict[str, Any]:
    key = f"{edge.path}|{edge.src}|{edge.dst}|{edge.kind}|{edge.line}"
    return {
        "id": sha1(key),
        "src": edge.src,
        "dst": edge.dst,
        "kind": edge.kind,
        "path": edge.path,
        "line": edge.line,
        "resolver": resolver,
        "deleted": False,
    }
