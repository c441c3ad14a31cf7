"""One workspace folder inside the server: its project, index scheduling and buffers.

All domain work runs in worker threads (`asyncio.to_thread`) so the event loop keeps
answering requests while an index runs. Index runs are serialised per folder; saves that
arrive during a run, or within the short debounce window, are coalesced into the next run.

A save is made searchable first and its edges follow: its run writes the file's chunks
only; the fast edges (for every save since the last update at once), the Jedi pass (in a
child process, holding no lock while it thinks) and the store's compaction run in the
background when no save is waiting, and give way to the next save. The edges and the
compaction start at a moment that the user's latest pauses between saves leave free.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from codekith import freshness
from codekith.answers import Answers
from codekith.config import SETTINGS_FILES
from codekith.embedding import Embedder
from codekith.freshness import Freshness
from codekith.graph.incremental import UpdateYielded
from codekith.graph.jedi_worker import JediResult
from codekith.indexer import IndexReport
from codekith.lsp.options import DEBOUNCE_MS
from codekith.memory import release_free_memory, settle_heap
from codekith.progress import PhaseClock, Step
from codekith.project import Project
from codekith.store import IndexLockedError, IndexMismatchError, storage_problem
from codekith.workspace import lists_differently

log = logging.getLogger(__name__)
LOCK_RETRY_S = 2.0
FRESHNESS_TTL_S = 2.0
MAX_DEBOUNCE_S = 0.5  # a steady stream of saves still starts a run this often
IDLE_BEFORE_MAINTENANCE_S = 0.5  # the earliest the idle work starts after a run
IDLE_WORK_S = 0.5  # what it may take: compaction (160-350 ms on flask) and a young settle
IDLE_GAPS_KEPT = 8  # the user's latest pauses (a run's end to the next save) it steers by
IDLE_GAP_MARGIN_S = 0.05
EDGES_AFTER_S = 0.25  # a save's first questions come right after it: the edges wait this long
EDGES_WORK_S = 0.2  # a save's fast edges and their writes (flask: ~0.1 s)
IDLE_COMPACT = 5  # an idle folder compacts once this many versions piled up
IDLE_BEFORE_HEAP_WALK_S = 30.0  # the whole heap's collection holds the GIL ~0.4 s: long pauses only
IDLE_POLL_S = 0.25  # how soon a long idle wait notices work or the end
IDLE_RECHECK_S = 0.05  # while a run is under way, how often an idle wait looks again
JEDI_STORE_EVERY_S = 1.0
SILENT_RUN_FILES = 20  # runs over fewer saved files report no $/progress


class ProgressReporter(Protocol):
    def report(self, step: Step) -> None: ...

    def cancelled(self) -> bool:
        """The user asked to stop (window/workDoneProgress/cancel)."""
        ...

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


class _Silent:
    def report(self, step: Step) -> None:
        pass

    def cancelled(self) -> bool:
        return False

    def end(self, message: str) -> None:
        pass


class WorkspaceSession:
    def __init__(
        self,
        root: Path,
        settings: dict[str, Any],
        embedder: Callable[[str], Embedder],
        progress: ProgressFactory,
        on_error: Callable[[str], None],
        debounce_ms: int = DEBOUNCE_MS,
        on_indexed: Callable[[Path, IndexReport], None] = lambda root, report: None,
        on_warning: Callable[[str], None] = lambda message: None,
    ):
        self.root = root.resolve()
        self.project = Project(self.root, overrides=settings or None, embedder_factory=embedder)
        self.answers = Answers(self.project)
        self._folder = self.project.index_folder()  # the index folder the project opened
        self.debounce_s = debounce_ms / 1000
        self.dirty: set[str] = set()
        self.last_report: IndexReport | None = None
        self.last_error: str = ""
        self.running = False
        self.refining = False
        self._refine_wanted = False  # a Jedi pass was asked for since the last one began
        self._progress = progress
        self._on_error = on_error
        self._on_indexed = on_indexed
        self._on_warning = on_warning
        for warning in self.project.settings.warnings:
            on_warning(warning)
        self._pending = _Pending()
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._first_pending = 0.0
        self._tasks: set[asyncio.Task[Any]] = set()
        self._background: asyncio.Task[Any] | None = None
        self._freshness: tuple[float, Freshness] | None = None
        self._revalidating: asyncio.Task[Any] | None = None
        self._indexed = False  # the index was seen whole: commands stop asking LanceDB
        self._last_run = 0.0
        self._generation = 0  # runs finished: a freshness check that spans one is dropped
        self._closed = False
        self._warmed = False
        self._gaps: deque[float] = deque(maxlen=IDLE_GAPS_KEPT)

    # -- scheduling -----------------------------------------------------------------------

    def schedule(
        self,
        paths: set[str] | None = None,
        scan: bool = False,
        full: bool = False,
        delay: float | None = None,
    ) -> None:
        """Queue work and (re)start the debounce timer; bursts become one run, but a run
        starts at most MAX_DEBOUNCE_S after the first queued event."""
        loop = asyncio.get_running_loop()
        if self._pending.empty():
            self._first_pending = loop.time()
            if self._last_run and not self.running:
                self._gaps.append(time.monotonic() - self._last_run)
        self._pending.paths |= paths or set()
        self._pending.scan |= scan
        self._pending.full |= full
        self._note_pending(paths or set(), scan or full)
        if self._timer is not None:
            self._timer.cancel()
        wait = self.debounce_s if delay is None else delay
        wait = min(wait, max(0.0, self._first_pending + MAX_DEBOUNCE_S - loop.time()))
        self._timer = loop.call_later(wait, self._start_drain)

    def _start_drain(self) -> None:
        self._timer = None
        self._spawn(self.drain())

    def _spawn(self, work: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def drain(self) -> IndexReport | None:
        """Run everything pending (one run at a time), until nothing is left; then let the
        background refinement go on."""
        report = None
        async with self._lock:
            while not self._pending.empty():
                pending, self._pending = self._pending, _Pending()
                report = await self._run(pending)
                pending.settle(report)
        self._start_background()
        return report

    async def index_now(self, full: bool = False) -> IndexReport | None:
        """A scan (or a full rebuild) now, after anything already queued; the report of
        the run that did it (a drain already under way may be the one that does)."""
        waiter: asyncio.Future[IndexReport | None] = asyncio.get_running_loop().create_future()
        self._pending.merge(_Pending(scan=True, full=full, waiters=[waiter]))
        self._note_pending(set(), True)
        await self.drain()
        return await waiter

    async def _run(self, pending: _Pending) -> IndexReport | None:
        if self._folder_replaced():
            self._reopen("the index folder was deleted or replaced")  # `rm -rf .codekith`
            pending.scan = True
        elif self._settings_touched(pending) and self.project.settings_changed():
            self._reopen("its settings changed")  # what is indexed, how, or where
            pending.scan = True
        if lists_differently(pending.paths):  # a run over the saved files misses the rest
            pending.scan = True
        whole = pending.scan or pending.full
        if whole or len(pending.paths) >= SILENT_RUN_FILES:
            title = "codekith: rebuilding index" if pending.full else "codekith: indexing"
            reporter = await self._progress(title if whole else "codekith: updating index")
        else:
            reporter = _Silent()
        self.running = True
        try:
            report = await asyncio.to_thread(self._index, pending, whole, reporter)
        except IndexMismatchError as exc:
            if pending.full:  # a rebuild cannot mend it (a team index of another model)
                self._failed(exc, reporter)
                return None
            # Another model or template (the setting changed, or codekith did): rebuild the
            # whole index now, never mix vectors; the drain runs it next, with progress.
            log.info("%s: %s; rebuilding", self.root, exc)
            self._pending.merge(_Pending(full=True, waiters=pending.waiters))
            pending.waiters = []
            reporter.end("another model or template: rebuilding")
            return None
        except IndexLockedError:
            log.info("index locked by another process; retrying in %.0fs", LOCK_RETRY_S)
            self._pending.merge(pending)
            pending.waiters = []  # they now wait for the retry
            reporter.end("waiting for another codekith process")
            asyncio.get_running_loop().call_later(LOCK_RETRY_S, self._start_drain)
            return None
        except Exception as exc:  # the server must survive any indexing failure
            self._failed(exc, reporter)
            return None
        finally:
            self.running = False
            self._last_run = time.monotonic()
            self._generation += 1
        self._note_indexed(report, whole)
        self._folder = self.project.index_folder()
        self.last_report, self.last_error = report, ""
        self._on_indexed(self.root, report)  # a client waits for this, not for a poll
        if not self._warmed:
            self._warmed = True
            self._spawn(asyncio.to_thread(self.answers.warm_up))  # before the first save
        summary = f"{len(report.indexed)} files indexed, {report.chunks_total} chunks"
        reporter.end(f"cancelled: {summary}" if report.cancelled else summary)
        if whole:  # what it built lives on: keep the collector from walking it
            await asyncio.to_thread(settle_heap)
        return report

    def _folder_replaced(self) -> bool:
        """The index folder the last run wrote was deleted or replaced since."""
        return self._folder is not None and self.project.index_folder() != self._folder

    @staticmethod
    def _settings_touched(pending: _Pending) -> bool:
        """A settings file was saved or changed on disk, or a scan (a branch switch) may
        have brought another."""
        return pending.scan or pending.full or bool(pending.paths & SETTINGS_FILES.keys())

    def _reopen(self, why: str) -> None:
        """A new project: over the index folder now at its place, or with the settings its
        files now give; a Jedi pass of the old one stops at its next step (`_refine`)."""
        log.info("%s: %s; opening the index again", self.root, why)
        old = self.project
        self.project = old.reopened()
        for warning in self.project.settings.warnings:
            if warning not in old.settings.warnings:
                self._on_warning(warning)
        self.answers = Answers(self.project)
        self._indexed = self._warmed = False
        self._freshness, self._folder = None, None
        if not self.refining:
            old.close_graph()

    def _failed(self, exc: Exception, reporter: ProgressReporter) -> None:
        problem = storage_problem(exc)
        if problem is None:
            log.exception("indexing %s failed", self.root, exc_info=exc)
        self.last_error = (
            f"cannot write the index: {problem}" if problem else f"{type(exc).__name__}: {exc}"
        )
        reporter.end("failed")
        self._indexed = False  # it may be gone: the next command looks again
        self._on_error(f"codekith could not index {self.root}: {self.last_error}")
        self._freshness = None

    def _index(self, pending: _Pending, whole: bool, reporter: ProgressReporter) -> IndexReport:
        return self.answers.reindex(
            full=pending.full,
            paths=None if whole else sorted(pending.paths),
            progress=reporter.report,
            refine=False,
            cancelled=reporter.cancelled,
            edges_later=not whole,
        )

    # -- background: Jedi refinement, then compaction ---------------------------------------

    def _start_background(self) -> None:
        """Ask for a Jedi pass (then compaction). A background task already under way (even
        in its compaction) takes the request: it checks for one after every step."""
        if self._closed:
            return
        self._refine_wanted = True
        if self._background is None or self._background.done():
            self._background = self._spawn(self._refine_then_maintain())

    def _yield_to_saves(self) -> bool:
        return self._save_waiting() or self._lock.locked()

    def _save_waiting(self) -> bool:
        """For work that holds the lock: a save (or the end) is waiting for it."""
        return self._closed or not self._pending.empty()

    async def _refine_then_maintain(self) -> None:
        """Jedi over the files waiting for it; compaction once the folder has been idle a
        while. Gives up when a save queues (the save's drain asks again); a request that
        came during a step is served before the task ends (the loop's test runs after
        every await, so none is lost between the test and the task's end)."""
        while self._refine_wanted and not self._closed:
            self._refine_wanted = False
            self.refining = True
            try:
                complete = await self._refine()
            finally:
                self.refining = False
            if complete and not self._refine_wanted:
                await self._maintain_when_idle()
            await asyncio.to_thread(release_free_memory)  # what the runs freed

    async def _maintain_when_idle(self) -> None:
        if not await self._idle_moment(
            IDLE_BEFORE_MAINTENANCE_S, IDLE_WORK_S, given_up=self._wanted_elsewhere
        ):
            return
        async with self._lock:
            try:
                await self._locked(lambda: self.project.store.maintain(every_versions=IDLE_COMPACT))
            except IndexLockedError:  # another process writes: a later pause compacts
                return
            except Exception as exc:  # the server must survive it: an index folder deleted
                # under it fails here; the next run opens the new one (`_reopen`)
                log.warning("compacting the index of %s failed: %s", self.root, exc)
                self.last_error = f"compaction: {type(exc).__name__}: {exc}"
                return
        await asyncio.to_thread(settle_heap, False)  # the garbage of the runs since the last
        # the whole heap only in a long pause: walked right when the next save came (2 s
        # after the last, a user's pause) it held that save's run and search up ~380 ms
        if await quiet_for(
            IDLE_BEFORE_HEAP_WALK_S, lambda: self._last_run, self._wanted_elsewhere, IDLE_POLL_S
        ):
            await asyncio.to_thread(settle_heap)  # and cycles among older objects

    async def _idle_moment(
        self, earliest: float, busy_s: float, given_up: Callable[[], bool] = lambda: False
    ) -> bool:
        """Wait for a moment, `earliest` after the last run or later, when by the user's
        latest pauses no save is due for `busy_s` (a run that ends meanwhile starts the
        wait over); False as soon as `given_up()`. The edges' pure-Python work competes with
        the queries a save is followed by (for the GIL), compaction with the next save's
        writes. At a fixed 2 s, saves 2 s apart met every 5th compaction (flask, Jedi off:
        p95 343 ms, ~150 without); at a fixed 0.5 s, saves 0.5 s apart met it every time."""
        while not given_up():
            since = time.monotonic() - self._last_run
            start = quiet_moment(self._gaps, max(earliest, since), busy_s)
            if start <= since and not self.running:
                return True
            await asyncio.sleep(min(max(start - since, IDLE_RECHECK_S), IDLE_POLL_S))
        return False

    def _wanted_elsewhere(self) -> bool:
        """A save, a Jedi pass or the end wants the background task."""
        return self._refine_wanted or self._yield_to_saves()

    async def _refine(self) -> bool:
        """The saves' fast edges, then Jedi until no file waits or a pass stores nothing new
        (files that changed on disk since their run wait for the next one); False when a
        save interrupted it."""
        project = self.project
        graph = project.indexer.graph
        await self._idle_moment(EDGES_AFTER_S, EDGES_WORK_S, given_up=lambda: self._closed)
        while not self._yield_to_saves() and project is self.project:
            if not await self._update_edges():
                return False
            async with self._lock:
                jobs = await asyncio.to_thread(lambda: graph.jedi_jobs(self.project.store.meta()))
            if not jobs:
                return True
            big = len(jobs) >= SILENT_RUN_FILES
            reporter = await self._progress("codekith: call graph (Jedi)") if big else _Silent()
            stored = 0
            results: list[JediResult] = []
            last_store = time.monotonic()
            clock = PhaseClock(reporter.report)
            try:
                for number, job in enumerate(jobs, 1):
                    if (
                        self._yield_to_saves()
                        or reporter.cancelled()
                        or project is not self.project
                    ):
                        break
                    results.append(await asyncio.to_thread(graph.jedi_worker().resolve, job))
                    clock("jedi", number, len(jobs), job.path)
                    if time.monotonic() - last_store >= JEDI_STORE_EVERY_S:
                        stored += await self._store_refined(project, results)
                        results, last_store = [], time.monotonic()
                if results and not self._closed:
                    stored += await self._store_refined(project, results)
            finally:
                reporter.end("stopped" if reporter.cancelled() else "call graph refined")
            if not stored or reporter.cancelled():
                break  # a cancelled pass waits for the next save's
        if project is not self.project:  # reopened meanwhile: its Jedi child is done with
            graph.close()
            return False
        return not self._yield_to_saves()

    async def _update_edges(self) -> bool:
        """The fast edges of the files saved since the last update: computed without the
        folder's lock (a save that comes meanwhile runs at once, and the update gives way
        at its next file), then stored under it. False when another process holds the
        index (its next run brings them) or a save came: the save's drain asks again."""
        project = self.project
        indexer = project.indexer
        try:
            computed = await asyncio.to_thread(
                lambda: indexer.compute_graph(project.read_store.meta(), self._yield_to_saves)
            )
            async with self._lock:
                if project is not self.project:  # opened again meanwhile
                    return False
                await self._locked(
                    indexer.store_graph
                    if computed
                    else lambda: indexer.update_graph(self._save_waiting)
                )
        except (IndexLockedError, UpdateYielded):
            return False
        except Exception as exc:  # the server must survive it; the next save tries again
            log.exception("updating the call graph of %s failed", self.root)
            self.last_error = f"call graph: {type(exc).__name__}: {exc}"
            return False
        return True

    async def _store_refined(self, project: Project, results: list[JediResult]) -> int:
        """Store Jedi's answers between runs; how many files it stored (0 while another
        process holds the index, they stay pending; 0 when the project was opened again
        meanwhile: they belong to the old index)."""
        graph = project.indexer.graph
        async with self._lock:
            if project is not self.project:
                return 0
            try:
                return int(
                    await self._locked(
                        lambda: graph.apply_jedi(self.project.store.meta(), results)[1]
                    )
                )
            except IndexLockedError:
                return 0
            except Exception as exc:  # the server must survive it; the next pass tries again
                log.warning("storing Jedi's call graph of %s failed: %s", self.root, exc)
                self.last_error = f"call graph: {type(exc).__name__}: {exc}"
                return 0

    async def _locked(self, work: Callable[[], Any]) -> Any:
        """`work` in a thread holding the index's write lock."""

        def run() -> Any:
            with self.project.store.write_lock():
                return work()

        return await asyncio.to_thread(run)

    # -- buffers and freshness -------------------------------------------------------------

    def mark_dirty(self, path: str, dirty: bool) -> None:
        (self.dirty.add if dirty else self.dirty.discard)(path)

    def watches(self, path: str) -> bool:
        """Whether a watched-file event at `path` can change the index (a build's output,
        a virtualenv or a secret file cannot; a name without a suffix may be a script)."""
        return self.project.workspace_filter.event_reason(path) is None

    def _note_pending(self, paths: set[str], whole: bool) -> None:
        """Queued files differ from the index until their run: say so without asking git."""
        if whole:
            self._freshness = None
        elif self._freshness is not None:
            state = self._freshness[1]
            state.stale = sorted(set(state.stale) | paths)

    def _note_indexed(self, report: IndexReport, whole: bool) -> None:
        if whole or self._freshness is None:
            self._freshness = None
            return
        state = self._freshness[1]
        state.stale = sorted(set(state.stale) - set(report.indexed) - set(report.deleted))

    async def freshness(self) -> Freshness:
        """The freshness of every answer. Kept up to date by the runs themselves; re-checked
        with git in the background once it is FRESHNESS_TTL_S old (the answer in hand is
        returned meanwhile), so no answer waits for git."""
        cached = self._freshness
        if cached is None:
            state = await self._check_freshness()
        else:
            state = cached[1]
            if time.monotonic() - cached[0] >= FRESHNESS_TTL_S and (
                self._revalidating is None or self._revalidating.done()
            ):
                self._revalidating = self._spawn(self._check_freshness())
        state.dirty = sorted(self.dirty)
        return state

    async def _check_freshness(self) -> Freshness:
        generation, started = self._generation, time.monotonic()
        state = await asyncio.to_thread(
            freshness.check, self.root, self.project.settings, self.project.read_store
        )
        if generation == self._generation and not self.running:
            self._freshness = (started, state)
        return state

    @property
    def indexing(self) -> bool:
        """A run, queued work or the Jedi pass is under way: answers may still change."""
        return self.running or self.refining or self._refine_wanted or not self._pending.empty()

    async def has_index(self) -> bool:
        """Whether the folder has a whole index. Asked before every command, so once it
        has one the answer is kept (until a run fails): asking LanceDB (its tables, and
        meta again after each save) took ~4 ms, on the event loop. A query still finds an
        index deleted meanwhile, in its own thread; a folder deleted or replaced since the
        last run has none until a run (started here) opens the new one."""
        if self._folder_replaced():
            self._indexed = False
            if self._pending.empty() and not self.running:
                self.schedule(scan=True)
            return False
        if not self._indexed:
            self._indexed = await asyncio.to_thread(self.project.read_store.has_index)
        return self._indexed

    async def close(self) -> None:
        """Drop queued work but let a run that is writing finish: cancelling the task would
        not stop its thread, and the client may delete the workspace once we answer. The
        Jedi child is killed: nothing waits for it."""
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        pending, self._pending = self._pending, _Pending()
        pending.settle(None)
        self.project.indexer.graph.close(final=True)
        await asyncio.gather(*self._tasks, return_exceptions=True)
        async with self._lock:  # a reindex request drains outside _tasks
            pass


def quiet_moment(gaps: Iterable[float], earliest: float, busy_s: float) -> float:
    """The first time after a run, from `earliest` on, at which work lasting `busy_s` meets
    none of the pauses the user took after earlier runs: a save that comes at the same
    pause again finds the lock free (one that comes sooner starts the wait over)."""
    moment = earliest
    for gap in sorted(gaps):
        if moment <= gap <= moment + busy_s:
            moment = gap + IDLE_GAP_MARGIN_S
    return moment


async def quiet_for(
    seconds: float,
    last_run: Callable[[], float],
    given_up: Callable[[], bool] = lambda: False,
    poll_s: float = math.inf,
) -> bool:
    """Wait until `seconds` have passed since `last_run()` (time.monotonic), read again
    after every wait: a run that ends meanwhile starts the wait over. (Reading it once let
    the edge update start right after the next save's run, when its searches come.) False
    as soon as `given_up()`, asked at least every `poll_s`: a long wait must not hold up
    the work that wants its task."""
    while (left := seconds - (time.monotonic() - last_run())) > 0:
        if given_up():
            return False
        await asyncio.sleep(min(left, poll_s))
    return not given_up()
