"""The language server stays in control of slow work: a Jedi child that never answers holds
no save and no shutdown (real pytest-lsp client, real server, real Jedi children).

Nothing here assumes how many Jedi children exist or that the wall-deadline kill has not
replaced one: every child the workspace gets is stopped as soon as it appears, and every
child is resumed and killed when the test ends, whatever happened."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from codekith.lsp import session as session_module
from codekith.lsp.session import WorkspaceSession, quiet_for, quiet_moment
from codekith.store import Store
from tests.conftest import RecordingEmbedder, git, init_repo, reap, write_files
from tests.lsp_session import end_session, until

VOTES = (  # a call site the fast resolver leaves open: certain work for Jedi
    'def tally_votes(ballots):\n    """Count ballots."""\n'
    "    return sorted(ballots, key=len)[0].strip()\n"
)
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "codekith.cli", "serve"])
FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "class Engine:\n    def start(self):\n        return 1\n\n\n"
    "def build():\n    engines = sorted([Engine()], key=id)\n    return engines[0].start()\n",
}


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, tmp_path):
    root = init_repo(tmp_path / "ws")
    write_files(root, FILES)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    lsp_client.root = root  # type: ignore[attr-defined]

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        return None

    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(root.as_uri(), "ws")],
        )
    )
    try:
        yield
    finally:
        try:
            await end_session(lsp_client)
        finally:
            reap(root)  # SIGCONT + SIGKILL: no stopped child survives a failure


async def folder_status(client: LanguageClient) -> dict:
    params = types.ExecuteCommandParams(command="codekith.status", arguments=[{}])
    return (await client.workspace_execute_command_async(params))["folders"][0]


async def wait_for(client: LanguageClient, condition, what: str, timeout: float = 300) -> dict:  # type: ignore[no-untyped-def]
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        status = await folder_status(client)
        if condition(status):
            return status
        await asyncio.sleep(0.1)
    raise AssertionError(f"{what}: not seen in {timeout}s (last status {status})")


def jedi_children(root: Path) -> list[int]:
    """Jedi worker processes started for this workspace (any number, 0 included)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"codekith.graph.jedi_worker" in command and str(root).encode() in command:
            found.append(int(entry.name))
    return found


def stopped(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] == "T"
    except (OSError, IndexError):
        return False


async def keep_jedi_stopped(root: Path, seen: set[int]) -> None:
    """Stop every Jedi child of the workspace as soon as it appears (a replacement started
    after a deadline kill too): from now on no Jedi call ever returns."""
    while True:
        for pid in jedi_children(root):
            if not stopped(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGSTOP)
            seen.add(pid)
        await asyncio.sleep(0.05)


async def save(client: LanguageClient, path: str, text: str) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    (root / path).write_text(text)
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(types.TextDocumentIdentifier((root / path).as_uri()))
    )


async def searchable(client: LanguageClient, query: str, qualname: str) -> bool:
    params = types.ExecuteCommandParams(
        command="codekith.search", arguments=[{"query": query, "k": 3}]
    )
    hits = (await client.workspace_execute_command_async(params))["hits"]
    return any(h["qualname"] == qualname for h in hits)


@pytest.mark.asyncio
async def test_a_jedi_child_that_never_answers_blocks_no_save_and_no_shutdown(
    client: LanguageClient,
):
    root: Path = client.root  # type: ignore[attr-defined]
    await wait_for(client, lambda s: s["ready"] and not s["indexing"] and s.get("runs"), "ready")
    seen: set[int] = set()
    stopper = asyncio.get_running_loop().create_task(keep_jedi_stopped(root, seen))
    try:
        await save(client, "pkg/one.py", VOTES)
        await wait_for(
            client,
            lambda s: s["jedi_pending"] > 0 and s["indexing"] and seen,
            "Jedi at work on the first save, its child stopped",
        )
        await save(client, "pkg/two.py", 'def water_plants(garden):\n    """Water a garden."""\n')
        for _ in range(3000):
            if await searchable(client, "water the plants in a garden", "pkg.two.water_plants"):
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the second save never became searchable")
        status = await folder_status(client)
        # Jedi never answered (a stopped child; a timed-out file stays pending for retries),
        # and the save went through all the same.
        assert status["jedi_pending"] > 0 and seen
        await asyncio.wait_for(client.shutdown_session(), 120)  # not held by the stopped child
    finally:
        stopper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await stopper
    assert [pid for pid in seen if Path(f"/proc/{pid}").exists() and stopped(pid)] == []
    assert jedi_children(root) == []  # the server killed its children when it shut down


# -- window/workDoneProgress/cancel ------------------------------------------------------

MANY = {
    f"stages/stage{n}.py": f"def stage_{n}(value):\n    '''Stage {n} of the pipeline.'''\n"
    f"    return value + {n}\n\n\ndef undo_{n}(value):\n    return value - {n}\n"
    for n in range(30)
}


@pytest_lsp.fixture(config=SERVER)
async def cancelling(lsp_client: LanguageClient, tmp_path):
    root = init_repo(tmp_path / "ws")
    write_files(root, {**FILES, **MANY})
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    lsp_client.root = root  # type: ignore[attr-defined]

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        return None

    canceller = asyncio.get_running_loop().create_task(cancel_the_first_run(lsp_client))
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(root.as_uri(), "ws")],
            initialization_options={"batchChunks": 2},  # many batch boundaries
        )
    )
    try:
        yield
    finally:
        canceller.cancel()
        try:
            await end_session(lsp_client)
        finally:
            reap(root)


def progress_values(client: LanguageClient) -> list:  # type: ignore[type-arg]
    """Every $/progress value so far, in order of the tokens' creation."""
    return [v for values in client.progress_reports.values() for v in values]


async def cancel_the_first_run(client: LanguageClient) -> None:
    """window/workDoneProgress/cancel as soon as the first run reports progress."""
    while True:
        for token, values in client.progress_reports.items():
            if any(isinstance(v, types.WorkDoneProgressReport) for v in values):
                client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token))
                return
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_cancelling_the_progress_stops_the_run_and_the_next_run_completes_it(
    cancelling: LanguageClient,
):
    client = cancelling
    status = await wait_for(client, lambda s: s.get("runs") and not s["indexing"], "a run")
    seen = progress_values(client)
    begins = [v for v in seen if isinstance(v, types.WorkDoneProgressBegin)]
    ends = [v.message or "" for v in seen if isinstance(v, types.WorkDoneProgressEnd)]
    assert begins and all(b.cancellable for b in begins)
    assert ends[0].startswith("cancelled: "), ends
    stopped_at = status["chunks"]  # part of the index only (checked below)
    params = types.ExecuteCommandParams(command="codekith.reindex", arguments=[{}])
    report = await client.workspace_execute_command_async(params)
    assert not report.get("cancelled") and report["chunks"] > stopped_at
    assert report["indexed"] > 0 and (await folder_status(client))["chunks"] == report["chunks"]
    ends = [
        v.message or "" for v in progress_values(client) if isinstance(v, types.WorkDoneProgressEnd)
    ]
    assert [m for m in ends if m.startswith("cancelled")] == ends[:1]  # only the first run


def test_background_work_waits_for_quiet_again_when_a_run_ends_during_the_wait():
    """The edge update waits EDGES_AFTER_S after the last run; a save's run that ends
    while it waits must start the wait over (it read the time once and started right
    after that run, when the save's searches come)."""
    start = time.monotonic()
    reads: list[float] = []

    def last_run() -> float:
        reads.append(time.monotonic())
        return start if len(reads) == 1 else start + 0.2  # a run ended 0.2 s in

    asyncio.run(quiet_for(0.3, last_run))
    assert time.monotonic() >= start + 0.5
    assert len(reads) >= 2


def test_idle_work_starts_where_the_users_pauses_leave_room_for_it() -> None:
    """The idle work (edges, compaction) goes where the next save is not due: a fixed start
    met every 5th save of a user who saved every 2 s (at 2 s), or every save of one who
    saved every 0.5 s (at 0.5 s)."""
    assert quiet_moment([], 0.5, 0.5) == 0.5
    assert quiet_moment([2.05, 2.1, 2.08, 2.2], 0.5, 0.5) == 0.5  # done before they save
    assert quiet_moment([0.05, 0.06, 0.04], 0.5, 0.5) == 0.5  # sooner: they restart the wait
    saving_often = quiet_moment([0.54, 0.56, 0.55], 0.5, 0.5)
    assert saving_often > 0.56  # after their pause: they save first, it waits for a longer one
    chained = quiet_moment([0.6, 1.0, 1.4, 3.0], 0.5, 0.5)
    assert 1.4 < chained < 3.0 - 0.5  # past every pause it would overlap, before the next
    assert quiet_moment([0.6, 1.0], 2.0, 0.5) == 2.0  # never earlier than asked


def test_commands_ask_lancedb_for_the_index_off_the_event_loop_and_only_until_it_exists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every command first asks whether the folder has an index: asking LanceDB (its tables,
    and meta again after each save) blocked the event loop ~4 ms per command."""
    root = tmp_path / "ws"
    root.mkdir()
    session = WorkspaceSession(root, {}, _no_model, _no_progress, lambda message: None)
    store = session.project.read_store
    asked_in: list[threading.Thread] = []
    real = store.has_index

    def spying() -> bool:
        asked_in.append(threading.current_thread())
        return real()

    monkeypatch.setattr(store, "has_index", spying)

    async def ask() -> list[bool]:
        answers = [await session.has_index()]
        Store(session.project.settings.db_location(root)).create("fake", 16, "1")
        return answers + [await session.has_index() for _ in range(3)]

    assert asyncio.run(ask()) == [False, True, True, True]
    assert len(asked_in) == 2  # until it exists, then remembered
    assert threading.main_thread() not in asked_in


class _Titles:
    """A progress factory that notes each run's title and final message."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    async def __call__(self, title: str) -> Any:
        self.seen.append(title)
        return self

    def report(self, step: Any) -> None:
        pass

    def cancelled(self) -> bool:
        return False

    def end(self, message: str) -> None:
        self.seen.append(message)


def test_a_save_on_an_index_of_another_template_rebuilds_it_instead_of_failing(
    tmp_path: Path, embedder: Any
) -> None:
    """After an upgrade that changes the template or the default model, the first run
    meets an index it must not mix with: the server rebuilds it (with progress) instead of
    answering every save with "run codekith index --full"."""
    root = write_files(tmp_path / "ws", {"a.py": "def alpha():\n    return 1\n"})
    errors: list[str] = []
    titles = _Titles()
    session = WorkspaceSession(root, {}, lambda model: embedder, titles, errors.append)

    async def upgrade_then_save() -> Any:
        await session.index_now()
        session.project.store.set_meta({"template": "0"})  # as the previous codekith wrote
        (root / "a.py").write_text("def alpha():\n    return 2\n\n\ndef beta():\n    return 3\n")
        session.schedule(paths={"a.py"})
        report = await session.drain()
        await session.close()
        return report

    report = asyncio.run(upgrade_then_save())
    assert errors == [] and report is not None and report.mode == "full"
    assert "codekith: rebuilding index" in titles.seen
    assert session.project.store.meta()["template"] != "0"
    hits = session.project.searcher.search("beta", 3)
    assert hits and hits[0].symbol == "beta"


def test_the_whole_heap_is_walked_only_after_a_long_pause_never_when_a_save_comes(
    tmp_path: Path, embedder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between saves the server collects only what the runs made (a young settle); a walk
    of the whole heap holds the GIL ~380 ms on flask, so it waits for a long pause, and a
    save during that pause puts it off (it came right when a user's next save did)."""
    monkeypatch.setattr(session_module, "IDLE_BEFORE_MAINTENANCE_S", 0.05)
    monkeypatch.setattr(session_module, "IDLE_BEFORE_HEAP_WALK_S", 1.5)
    root = write_files(tmp_path / "ws", {"a.py": "def alpha():\n    return 1\n"})
    session = WorkspaceSession(root, {}, lambda model: embedder, _Titles(), lambda m: None)
    settles: list[tuple[bool, float]] = []  # (whole heap, seconds since the last run)

    def recording_settle(everything: bool = True) -> int:
        settles.append((everything, time.monotonic() - session._last_run))
        return 0

    monkeypatch.setattr(session_module, "settle_heap", recording_settle)

    async def save(text: str) -> None:
        (root / "a.py").write_text(text)
        session.schedule(paths={"a.py"})
        await session.drain()

    async def until(condition: Any, deadline_s: float = 120) -> None:
        deadline = time.monotonic() + deadline_s
        while not condition():
            assert time.monotonic() < deadline, settles
            await asyncio.sleep(0.02)

    async def scenario() -> None:
        await session.index_now()
        settles.clear()
        await save("def alpha():\n    return 2\n")
        await until(lambda: any(not whole for whole, _ in settles))  # young, soon
        await save("def alpha():\n    return 3\n")  # within the long pause: no walk yet
        await until(lambda: any(whole for whole, _ in settles))
        await session.close()

    asyncio.run(scenario())
    walks = [since for whole, since in settles if whole]
    assert len(walks) == 1 and walks[0] >= 1.5, settles
    assert not settles[0][0], settles  # the first settle after a save is a young one


def test_after_the_first_run_the_model_and_search_path_load_before_any_save(
    tmp_path: Path, embedder: Any
) -> None:
    """An editor opened on a current index: its first run embeds nothing, so the first save
    used to load the model, the secret scanner and the search path (~0.5 of its 0.59 s on
    flask). They load in the background right after that run, off the event loop."""
    root = write_files(tmp_path / "ws", {"a.py": "def alpha():\n    return 1\n"})
    asyncio.run(_index_then_close(root, embedder))  # the index a previous session left
    loads: list[str] = []
    recording = RecordingEmbedder(embedder)

    def factory(model: str) -> Any:
        loads.append(model)
        return recording

    session = WorkspaceSession(root, {}, factory, _Titles(), lambda m: None)

    async def asked() -> bool:
        return bool(recording.asked)

    async def open_editor() -> Any:
        report = await session.index_now()
        await until(asked, "the model to load after the first run", timeout=120)
        await session.close()
        return report

    report = asyncio.run(open_editor())
    assert report is not None and report.embedded == 0
    assert len(loads) == 1
    assert recording.asked[0][0] == "query"  # a question's path, not an index run's
    assert threading.main_thread() not in [thread for _, thread in recording.asked]


async def _index_then_close(root: Path, embedder: Any) -> None:
    session = WorkspaceSession(root, {}, lambda model: embedder, _Titles(), lambda m: None)
    await session.index_now()
    await session.close()


def _no_model(model: str) -> Any:
    raise AssertionError("no command here needs the model")


async def _no_progress(title: str) -> Any:
    raise AssertionError("no run here reports progress")
