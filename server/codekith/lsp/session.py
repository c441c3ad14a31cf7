"""One workspace folder inside the server: its project, index scheduling and buffers.

All domain work runs in worker threads (`asyncio.to_thread`) so the event loop keeps
answering requests while an index runs. Index runs are serialised per folder; saves that
arrive during a run, or within the debounce window, are coalesced into the next run.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from codekith import freshness
from codekith.embedding import Embedder
from codekith.indexer import IndexReport
from codekith.project import Project
from codekith.store import IndexLockedError

log = logging.getLogger(__name__)
LOCK_RETRY_S = 2.0
FRESHNESS_TTL_S = 2.0


class ProgressReporter(Protocol):
    def report(self, done: int, total: int, message: str) -> None: ...

    def end(self, message: str) -> None: ...


ProgressFactory = Callable[[str], "asyncio.Future[ProgressReporter] | Any"]


@dataclass
class _Pending:
    paths: set[str] = field(default_factory=set)
    scan: bool = False
    full: bool = False
    waiters: list[asyncio.Future[IndexReport | None]] = field(default_factory=list)

    def empty(self) -> bool:
        return not (self.paths or self.scan or self.full)

    def merge(self, other: _Pending) -> None:
        self.paths |= other.paths
        self.scan |= other.scan
        self.full |= other.full
        self.waiters += other.waiters

    def settle(self, report: IndexReport | None) -> None:
        for waiter in self.waiters:
            if not waiter.done():
                waiter.set_result(report)


class WorkspaceSession:
    def __init__(
        self,
        root: Path,
        settings: dict[str, Any],
        embedder: Callable[[str], Embedder],
        progress: ProgressFactory,
        on_error: Callable[[str], None],
        debounce_ms: int = 300,
    ):
        self.root = root.resolve()
        self.project = Project(self.root, overrides=settings or None, embedder_factory=embedder)
        self.debounce_s = debounce_ms / 1000
        self.dirty: set[str] = set()
        self.last_report: IndexReport | None = None
        self.last_error: str = ""
        self.running = False
        self._progress = progress
        self._on_error = on_error
        self._pending = _Pending()
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._freshness: tuple[float, freshness.Freshness] | None = None

    # -- scheduling -----------------------------------------------------------------------

    def schedule(
        self,
        paths: set[str] | None = None,
        scan: bool = False,
        full: bool = False,
        delay: float | None = None,
    ) -> None:
        """Queue work and (re)start the debounce timer; bursts become one run."""
        self._pending.paths |= paths or set()
        self._pending.scan |= scan
        self._pending.full |= full
        self._freshness = None
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(
            self.debounce_s if delay is None else delay, self._start_drain
        )

    def _start_drain(self) -> None:
        self._timer = None
        task = asyncio.get_running_loop().create_task(self.drain())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> IndexReport | None:
        """Run everything pending (one run at a time), until nothing is left."""
        report = None
        async with self._lock:
            while not self._pending.empty():
                pending, self._pending = self._pending, _Pending()
                report = await self._run(pending)
                pending.settle(report)

        return report

    async def index_now(self, full: bool = False) -> IndexReport | None:
        """A scan (or a full rebuild) now, after anything already queued; the report of
        the run that did it (a drain already under way may be the one that does)."""
        waiter: asyncio.Future[IndexReport | None] = asyncio.get_running_loop().create_future()
        self._pending.merge(_Pending(scan=True, full=full, waiters=[waiter]))
        await self.drain()
        return await waiter

    async def _run(self, pending: _Pending) -> IndexReport | None:
        whole = pending.scan or pending.full
        title = (
            "codekith: rebuilding index"
            if pending.full
            else ("codekith: indexing" if whole else "codekith: updating index")
        )
        reporter = await self._progress(title)
        self.running = True
        try:
            report = await asyncio.to_thread(self._index, pending, whole, reporter)
        except IndexLockedError:
            log.info("index locked by another process; retrying in %.0fs", LOCK_RETRY_S)
            self._pending.merge(pending)
            pending.waiters = []  # they now wait for the retry
            reporter.end("waiting for another codekith process")

            asyncio.get_running_loop().call_later(LOCK_RETRY_S, self._start_drain)
            return None
        except Exception as exc:  # the server must survive any indexing failure
            log.exception("indexing %s failed", self.root)
            self.last_error = f"{type(exc).__name__}: {exc}"
            reporter.end("failed")
            self._on_error(f"codekith could not index {self.root}: {self.last_error}")
            return None
        finally:
            self.running = False
            self._freshness = None
        self.last_report, self.last_error = report, ""
        reporter.end(f"{len(report.indexed)} files indexed, {report.chunks_total} chunks")
        return report

    def _index(self, pending: _Pending, whole: bool, reporter: ProgressReporter) -> IndexReport:
        with self.project.store.write_lock():
            return self.project.indexer.run(
                full=pending.full,
                paths=None if whole else sorted(pending.paths),
                progress=reporter.report,
            )

    # -- buffers and freshness -------------------------------------------------------------

    def mark_dirty(self, path: str, dirty: bool) -> None:
        (self.dirty.add if dirty else self.dirty.discard)(path)

    async def freshness(self) -> freshness.Freshness:
        cached = self._freshness
        if cached and time.monotonic() - cached[0] < FRESHNESS_TTL_S:
            state = cached[1]
        else:
            state = await asyncio.to_thread(
                freshness.check, self.root, self.project.settings, self.project.read_store
            )
            self._freshness = (time.monotonic(), state)
        state.dirty = sorted(self.dirty)
        return state

    def has_index(self) -> bool:
        return self.project.read_store.has_index()

    async def close(self) -> None:
        """Drop queued work but let a run that is writing finish: cancelling the task would
        not stop its thread, and the client may delete the workspace once we answer."""
        if self._timer is not None:
            self._timer.cancel()
        pending, self._pending = self._pending, _Pending()
        pending.settle(None)
        await asyncio.gather(*self._tasks, return_exceptions=True)
        async with self._lock:  # a reindex request drains outside _tasks
            pass
