"""The one workspace an MCP server answers for: its index runs and how long answers wait.

A first question on a root without an index, or with one whose last run was interrupted,
builds it (reporting progress) instead of failing or answering from a part. Before each
answer, files that changed on disk since the last run are re-indexed (every file, by the
new rules, when the settings files changed), in the other indexed repositories the `repos`
setting lists too (by their own settings files); the answer waits for that at most
CATCH_UP_WAIT_S and otherwise goes out with the changed files flagged stale while the run
finishes in the background. Index runs happen in a worker thread, one at a
time; the event loop only waits on them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from codekith.answers import Answers
from codekith.indexer import IndexReport
from codekith.progress import Step
from codekith.repos import Repositories, workspace_of, workspace_roots
from codekith.store import IndexLockedError

log = logging.getLogger(__name__)
FIRST_BUILD_WAIT_S = 600.0
CATCH_UP_WAIT_S = 10.0
PROGRESS_POLL_S = 0.25
FRESHNESS_TTL_S = 1.0

Report = Callable[[float, float | None, str], Awaitable[None]]


class IndexNotReadyError(RuntimeError):
    """The first index build is still running (or failed); the message says which."""


@dataclass
class _Progress:
    """The run's latest step (phase, its count and time left) and the overall share done
    (MCP progress must only rise)."""

    step: Step | None = None
    percent: int = 0

    def update(self, step: Step) -> None:
        """Called from the indexing thread; the waiting coroutine polls it."""
        self.percent = max(self.percent, int(100 * step.overall()))
        self.step = step


class WorkspaceState:
    def __init__(self, answers: Answers):
        self.answers = answers
        self.workspace: Repositories = workspace_of(answers, FRESHNESS_TTL_S)
        self._rescan: set[Path] = set()  # other repositories whose settings changed
        self._run: asyncio.Task[IndexReport | None] | None = None
        self._progress = _Progress()
        self._start_lock = asyncio.Lock()
        self.last_error = ""

    @property
    def indexing(self) -> bool:
        return self._run is not None and not self._run.done()

    def spanning(self, repos: list[str] | None) -> Repositories | None:
        """The workspace when a question spans several repositories (the `repos` setting
        lists others, or the call names some); None when the root answers alone."""
        workspace = self.workspace
        return workspace if len(workspace.repos) > 1 or repos else None

    async def ready(self, report: Report) -> None:
        """An index to answer from, as fresh as CATCH_UP_WAIT_S allows."""
        if not await asyncio.to_thread(self._complete):
            run = await self._start(self._build)
            await self._wait(run, FIRST_BUILD_WAIT_S, report, "building the index")
            if not run.done():
                step = self._progress.step
                done = step.message() if step else "reading the first files"
                raise IndexNotReadyError(
                    f"the index of {self.answers.root} is still being built ({done}); "
                    "ask again shortly"
                )
            if not await asyncio.to_thread(self.answers.has_index):
                raise IndexNotReadyError(f"building the index failed: {self.last_error}")
            return
        if not self.indexing:
            if await asyncio.to_thread(self.answers.reopen_if_reconfigured):
                self._follow_repos_setting()
                await self._start(lambda: self.answers.reindex(progress=self._progress.update))
            elif await asyncio.to_thread(self._fresh):
                return
            else:
                await self._start(self._catch_up)
        if self._run is not None:
            await self._wait(self._run, CATCH_UP_WAIT_S, report, "re-indexing changed files")

    def _fresh(self) -> bool:
        """Whether every indexed repository of the workspace is as its files and settings
        say (checked once per answer, then reused by it). Another repository whose settings
        changed is opened again, to be scanned by them."""
        indexed = self._indexed()
        for answers in indexed[1:]:
            if answers.reopen_if_reconfigured():
                self._rescan.add(answers.root)
        for answers in indexed:
            answers.forget_freshness()
        return not self._rescan and all(answers.freshness().fresh for answers in indexed)

    def _catch_up(self) -> IndexReport | None:
        """This repository's changed files re-indexed, then the other repositories' (all
        their files when their settings changed; one that another process is writing is
        answered from as it is)."""
        report = self.answers.catch_up(progress=self._progress.update)
        for answers in self._indexed()[1:]:
            try:
                if answers.root in self._rescan:
                    answers.reindex()
                    self._rescan.discard(answers.root)
                else:
                    answers.catch_up()
            except IndexLockedError as exc:
                log.info("%s", exc)
        return report

    def _indexed(self) -> list[Answers]:
        """This repository, then the others with an index (one without has nothing to
        catch up: asking it says how to build it)."""
        main, *others = self.workspace.repos.values()
        return [main, *(answers for answers in others if answers.has_index())]

    def _follow_repos_setting(self) -> None:
        """The repositories searched with this one, as its settings list them now: an
        entry added or removed during the session counts from the next answer on."""
        settings = self.answers.project.settings
        roots = workspace_roots(self.answers.root, settings.repos)
        others = list(self.workspace.repos.values())[1:]
        if [a.root.resolve() for a in others] == roots[1:]:
            return
        for answers in others:
            answers.project.close_graph()
        self.workspace = workspace_of(self.answers, FRESHNESS_TTL_S)
        self._rescan.clear()  # the new projects read their settings as they are now

    def _complete(self) -> bool:
        """An index whose last run finished, made with this model and template. A run killed
        or cancelled part way (say, a first build interrupted) is resumed like a first
        build: answering from it would miss most of the code without saying so. While
        another process is writing, the resumed run is refused at once and the answer comes
        from what is there."""
        return (
            self.answers.has_index()
            and not self.answers.unfinished()
            and not self.answers.compatibility_problem()
        )

    def _build(self) -> IndexReport:
        """A first build, the rest of an interrupted one, or a full rebuild of an index made
        with another model or template (a changed setting, or a new codekith): never a mix."""
        rebuild = self.answers.has_index() and bool(self.answers.compatibility_problem())
        return self.answers.reindex(full=rebuild, progress=self._progress.update)

    async def reindex(self, full: bool, report: Report) -> IndexReport:
        """An index run now (after the one under way), however long it takes."""
        if self._run is not None:
            await asyncio.wait({self._run})
        run = await self._start(
            lambda: self.answers.reindex(full=full, progress=self._progress.update)
        )
        await self._wait(run, None, report, "rebuilding the index" if full else "indexing")
        result = run.result()
        if result is None:
            raise RuntimeError(f"the index run failed: {self.last_error}")
        return result

    async def _start(
        self, work: Callable[[], IndexReport | None]
    ) -> asyncio.Task[IndexReport | None]:
        """The run under way, or a new one doing `work` in a worker thread."""
        async with self._start_lock:
            if self.indexing and self._run is not None:
                return self._run
            self._progress = _Progress()
            self._run = asyncio.get_running_loop().create_task(self._guarded(work))
            return self._run

    async def _guarded(self, work: Callable[[], IndexReport | None]) -> IndexReport | None:
        """Run in a thread; failures are kept for the next answer, never raised into a
        background task nobody awaits."""
        try:
            report = await asyncio.to_thread(work)
        except IndexLockedError as exc:  # another process (an editor's server) is writing
            log.info("%s", exc)
            self.last_error = str(exc)
            return None
        except Exception as exc:
            log.exception("indexing %s failed", self.answers.root)
            self.last_error = f"{type(exc).__name__}: {exc}"
            return None
        self.last_error = ""
        return report

    async def _wait(
        self,
        run: asyncio.Task[IndexReport | None],
        timeout_s: float | None,
        report: Report,
        what: str,
    ) -> None:
        """Wait for the run (at most timeout_s), reporting its progress as it moves."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout_s is None else loop.time() + timeout_s
        await report(0, None, what)
        seen: Step | None = None
        while not run.done():
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                return
            await asyncio.wait(
                {run}, timeout=PROGRESS_POLL_S if left is None else min(left, PROGRESS_POLL_S)
            )
            progress = self._progress
            if progress.step is not None and progress.step is not seen:
                seen = progress.step
                await report(progress.percent, 100, f"{what}: {seen.message()}")

    async def close(self) -> None:
        """Let a run that is writing finish: its thread cannot be cancelled."""
        if self._run is not None:
            await asyncio.wait({self._run})
