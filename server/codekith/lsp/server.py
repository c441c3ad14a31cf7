"""`codekith serve`: pygls handlers that translate between LSP and the domain core.

Handlers stay thin: find the workspace session, parse arguments, run the domain call in a
worker thread, convert the result. Nothing here blocks the event loop on indexing work.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInternalError, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from codekith import __version__, gitrepo
from codekith.answers import ACCESSORS, NotServedError, UnknownChunkError
from codekith.embedding import Embedder, FastEmbedder
from codekith.indexer import IndexReport
from codekith.lsp import arguments as args
from codekith.lsp import convert
from codekith.lsp.options import ServerOptions, parse_options
from codekith.lsp.protocol import CodekithProtocol, install_log_filter
from codekith.lsp.session import ProgressReporter, WorkspaceSession
from codekith.progress import Step
from codekith.related import TargetNotFoundError
from codekith.repos import RepoHit, Repositories, repository_names
from codekith.search import Filters, listed_apart
from codekith.workspace import OutsideWorkspaceError

log = logging.getLogger(__name__)
INDEXED = "codekith/indexed"  # server -> client notification after every finished run
COMMANDS = (
    "codekith.search",
    "codekith.related",
    "codekith.reindex",
    "codekith.status",
    "codekith.feedback",
)
# what `gitrepo.rescans` looks at, asked for by name too: a client may leave `.git/` out of
# the `**/*` watcher (VS Code's `files.watcherExclude`)
GIT_WATCHED = (*gitrepo.RESCANNING_FILES, f"{gitrepo.RESCANNING_FOLDER}/**")


class CodekithServer(LanguageServer):
    """Holds per-folder sessions and the embedding models they share."""

    def __init__(self) -> None:
        super().__init__("codekith", __version__, protocol_cls=CodekithProtocol)
        self.options = ServerOptions()
        self.sessions: dict[Path, WorkspaceSession] = {}
        self._models: dict[str, Embedder] = {}
        self._models_lock = threading.Lock()

    def embedder(self, model: str) -> Embedder:
        """One loaded model per model id, shared by all folders (it is ~100 MB in RAM).
        Without ONNX Runtime's memory arena: a long-lived process would keep the largest
        batch's buffers (flask: +300 MB) for ~15% of the CLI's throughput."""
        with self._models_lock:
            if model not in self._models:
                self._models[model] = FastEmbedder(model, arena=False)
            return self._models[model]

    def add_folder(self, root: Path) -> WorkspaceSession:
        session = WorkspaceSession(
            root,
            self.options.settings,
            self.embedder,
            self.start_progress,
            self.show_error,
            self.options.debounce_ms,
            self.notify_indexed,
            self.show_warning,
        )
        self.sessions[session.root] = session
        return session

    def notify_indexed(self, root: Path, report: IndexReport) -> None:
        """Tell the client a run finished: what it indexed is searchable now."""
        self.protocol.notify(INDEXED, convert.indexed_params(root, report))

    def session_for(self, uri: str) -> tuple[WorkspaceSession, str]:
        """The folder holding `uri` (innermost wins) and the file's relative path."""
        for root in sorted(self.sessions, key=lambda p: len(p.parts), reverse=True):
            try:
                return self.sessions[root], convert.path_of(root, uri)
            except OutsideWorkspaceError:
                continue
        raise OutsideWorkspaceError(f"{uri} is outside every workspace folder")

    def show_error(self, message: str) -> None:
        self.window_show_message(types.ShowMessageParams(types.MessageType.Error, message))

    def show_warning(self, message: str) -> None:
        self.window_show_message(
            types.ShowMessageParams(types.MessageType.Warning, f"codekith: {message}")
        )

    async def start_progress(self, title: str) -> ProgressReporter:
        supported = bool(
            self.client_capabilities.window and self.client_capabilities.window.work_done_progress
        )
        if not supported:
            return _SilentProgress()
        token = f"codekith-{id(title)}-{asyncio.get_running_loop().time()}"
        try:
            await self.work_done_progress.create_async(token)
        except Exception:  # a client may refuse; indexing goes on without a bar
            return _SilentProgress()
        self.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title=title, cancellable=True, percentage=0)
        )
        return _ClientProgress(self, token, asyncio.get_running_loop())


class _SilentProgress:
    def report(self, step: Step) -> None:
        pass

    def cancelled(self) -> bool:
        return False

    def end(self, message: str) -> None:
        pass


class _ClientProgress:
    """Reports from the indexing thread are handed to the event loop. The message names
    the phase with its own count and time left; the percentage rises over the whole run.
    A cancel from the client (pygls cancels the token's future) is read by the run at its
    next batch boundary."""

    def __init__(self, server: CodekithServer, token: str, loop: asyncio.AbstractEventLoop):
        self.server, self.token, self.loop = server, token, loop
        self._percentage = 0

    def report(self, step: Step) -> None:
        self._percentage = max(self._percentage, int(100 * step.overall()))
        value = types.WorkDoneProgressReport(message=step.message(), percentage=self._percentage)
        self.loop.call_soon_threadsafe(self.server.work_done_progress.report, self.token, value)

    def cancelled(self) -> bool:
        future = self.server.work_done_progress.tokens.get(self.token)
        return future is not None and future.cancelled()

    def end(self, message: str) -> None:
        self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))


def create_server() -> CodekithServer:
    server = CodekithServer()
    _register_lifecycle(server)
    _register_sync(server)
    _register_commands(server)
    _register_features(server)
    return server


def _register_lifecycle(server: CodekithServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: CodekithServer, params: types.InitializeParams) -> None:
        ls.options = parse_options(params.initialization_options)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: CodekithServer, params: types.InitializedParams) -> None:
        for warning in ls.options.warnings:
            ls.show_warning(warning)
        for folder in _initial_folders(ls):
            ls.add_folder(folder).schedule(scan=True, delay=0)
        await _watch_files(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def folders_changed(
        ls: CodekithServer, params: types.DidChangeWorkspaceFoldersParams
    ) -> None:
        for removed in params.event.removed:
            path = Path(to_fs_path(removed.uri) or "").resolve()
            session = ls.sessions.pop(path, None)
            if session:
                await session.close()
        for added in params.event.added:
            path = Path(to_fs_path(added.uri) or "")
            if path.is_dir():
                ls.add_folder(path).schedule(scan=True, delay=0)

    @server.feature(types.SHUTDOWN)
    async def shutdown(ls: CodekithServer, params: None) -> None:
        for session in ls.sessions.values():
            await session.close()


def _initial_folders(ls: CodekithServer) -> list[Path]:
    folders = [Path(to_fs_path(f.uri) or "") for f in ls.workspace.folders.values()]
    if not folders and ls.workspace.root_path:
        folders = [Path(ls.workspace.root_path)]
    return [f for f in folders if f.is_dir()]


async def _watch_files(ls: CodekithServer) -> None:
    """Ask the client to report file changes (dynamic registration), where it can."""
    capability = ls.client_capabilities.workspace
    watched = capability.did_change_watched_files if capability else None
    if not (watched and watched.dynamic_registration):
        return
    watchers = [  # every file: scripts have no suffix, text files any (`session.watches`)
        types.FileSystemWatcher(glob_pattern="**/*"),
        *(types.FileSystemWatcher(glob_pattern=f"**/.git/{name}") for name in GIT_WATCHED),
    ]
    registration = types.Registration(
        id="codekith-watched-files",
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
    )
    try:
        await ls.client_register_capability_async(types.RegistrationParams([registration]))
    except Exception:
        log.warning("the client refused file watching; relying on didSave")


def _register_sync(server: CodekithServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CodekithServer, params: types.DidOpenTextDocumentParams) -> None:
        found = _locate(ls, params.text_document.uri)
        if found:
            found[0].mark_dirty(found[1], False)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CodekithServer, params: types.DidChangeTextDocumentParams) -> None:
        found = _locate(ls, params.text_document.uri)
        if found:
            found[0].mark_dirty(found[1], True)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CodekithServer, params: types.DidCloseTextDocumentParams) -> None:
        found = _locate(ls, params.text_document.uri)
        if found:
            found[0].mark_dirty(found[1], False)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls: CodekithServer, params: types.DidSaveTextDocumentParams) -> None:
        found = _locate(ls, params.text_document.uri)
        if found:
            session, path = found
            session.mark_dirty(path, False)
            session.schedule({path})

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: CodekithServer, params: types.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            fs_path = to_fs_path(change.uri) or ""
            if "/.git/" in fs_path:
                if gitrepo.rescans(fs_path):
                    for root, session in ls.sessions.items():
                        if root in Path(fs_path).parents:
                            session.schedule(scan=True)
                continue
            found = _watched_file(ls, change.uri, fs_path)
            if found:
                found[0].schedule({found[1]})


def _watched_file(
    ls: CodekithServer, uri: str, fs_path: str
) -> tuple[WorkspaceSession, str] | None:
    """The folder and path of a watched-file event that can change the index. Judged first
    on the path as the client sent it, in the innermost folder holding it: making a
    virtualenv sends thousands of events, and resolving each (links) took ~60 us of the
    event loop. A path that passes is resolved, and judged again if that moved it."""
    judged = None
    roots = [root for root in map(str, ls.sessions) if fs_path.startswith(root + "/")]
    if roots:
        root = max(roots, key=len)
        judged = (Path(root), fs_path[len(root) + 1 :])
        if not ls.sessions[judged[0]].watches(judged[1]):
            return None
    found = _locate(ls, uri)
    if found is None:
        return None
    session, path = found
    return found if (session.root, path) == judged or session.watches(path) else None


def _locate(ls: CodekithServer, uri: str) -> tuple[WorkspaceSession, str] | None:
    try:
        return ls.session_for(uri)
    except OutsideWorkspaceError:
        return None


def _command(
    server: CodekithServer, name: str, spec: type, run: Callable[[CodekithServer, Any], Any]
) -> None:
    """Register `name` with argument parsing and error mapping shared by all commands."""

    @server.command(name)
    async def handler(ls: CodekithServer, *raw: Any) -> Any:
        try:
            parsed = args.parse(spec, name, raw)
            return await run(ls, parsed)
        except (
            args.ArgumentError,
            OutsideWorkspaceError,
            TargetNotFoundError,
            NotServedError,
            ValueError,
        ) as exc:
            raise JsonRpcInvalidParams(str(exc)) from None
        except JsonRpcInvalidParams:
            raise
        except Exception as exc:
            log.exception("%s failed", name)
            raise JsonRpcInternalError(f"{name} failed: {type(exc).__name__}: {exc}") from None


def _register_commands(server: CodekithServer) -> None:
    _command(server, "codekith.search", args.SearchArgs, _search)
    _command(server, "codekith.related", args.RelatedArgs, _related)
    _command(server, "codekith.reindex", args.ReindexArgs, _reindex)
    _command(server, "codekith.status", args.StatusArgs, _status)
    _command(server, "codekith.feedback", args.FeedbackArgs, _feedback)


async def _ready(ls: CodekithServer) -> list[WorkspaceSession]:
    ready = [s for s in ls.sessions.values() if await s.has_index()]
    if not ready:
        raise JsonRpcInvalidParams(
            "the index is still being built; try again shortly (see codekith.status)"
        )
    return ready


async def _search(ls: CodekithServer, a: args.SearchArgs) -> dict[str, Any]:
    """Every ready folder's index searched as one (codekith.repos fuses them); each hit
    names its folder in `repo`, `repos` keeps some folders."""
    ready = await _ready(ls)
    sessions = dict(zip(repository_names(s.root for s in ready), ready, strict=True))
    repositories = Repositories({name: s.answers for name, s in sessions.items()})
    chosen = repositories.chosen(a.repos)
    states = {name: await sessions[name].freshness() for name in chosen}
    filters = Filters(a.pathPrefix, a.language, a.kind)
    found = await asyncio.to_thread(
        repositories.search,
        a.query,
        a.k,
        filters,
        a.mode,
        a.repos,
        states,
        tests=a.tests,
        docs=a.docs,
        tests_apart=a.testsApart,
    )

    def located(hits: list[RepoHit]) -> list[dict[str, Any]]:
        return [
            convert.hit_json(hit.to_json(), sessions[hit.repo].root, sessions[hit.repo].dirty)
            for hit in hits
        ]

    apart = {
        name: located(listed) for name, listed in listed_apart(found.tests, found.docs).items()
    }
    return {
        "query": a.query,
        "hits": located(found.hits),
        **apart,
        "repos": list(chosen),
        **_merged_state([*states.values()]),
    }


def _merged_state(states: list[Any]) -> dict[str, Any]:
    if len(states) == 1:
        return states[0].to_json()
    return {
        "index_head": [s.index_head for s in states],
        "head": [s.head for s in states],
        "fresh": all(s.fresh for s in states),
        "stale": sorted({p for s in states for p in s.stale}),
        "dirty": sorted({p for s in states for p in s.dirty}),
    }


async def _related(ls: CodekithServer, a: args.RelatedArgs) -> dict[str, Any]:
    if a.uri is not None and a.position is not None:
        session, path = ls.session_for(a.uri)
        target = f"{path}:{a.position.line + 1}"
    else:
        session = (await _ready(ls))[0]
        target = a.query or a.symbol or ""
    if not await session.has_index():
        await _ready(ls)
    state = await session.freshness()
    answer = await asyncio.to_thread(
        session.answers.related, target, a.depth, a.budget, state, tests=a.tests
    )
    data = answer.to_json()
    data["items"] = [convert.hit_json(i, session.root, session.dirty) for i in data["items"]]
    if a.format == "markdown":
        data["markdown"] = answer.markdown()
    return data


async def _reindex(ls: CodekithServer, a: args.ReindexArgs) -> dict[str, Any]:
    reports = [await session.index_now(full=a.full) for session in list(ls.sessions.values())]
    done = [r for r in reports if r is not None]
    return {
        "folders": len(reports),
        "indexed": sum(len(r.indexed) for r in done),
        "deleted": sum(len(r.deleted) for r in done),
        "embedded": sum(r.embedded for r in done),
        "chunks": sum(r.chunks_total for r in done),
        "errors": [s.last_error for s in ls.sessions.values() if s.last_error],
    }


async def _status(ls: CodekithServer, a: args.StatusArgs) -> dict[str, Any]:
    folders = []
    for session in ls.sessions.values():
        state = await session.freshness() if await session.has_index() else None
        status = await asyncio.to_thread(session.answers.status, 5, state)
        folders.append({**status, "indexing": session.indexing, "last_error": session.last_error})
    return {"version": __version__, "folders": folders}


async def _feedback(ls: CodekithServer, a: args.FeedbackArgs) -> dict[str, Any]:
    for session in await _ready(ls):
        try:
            await asyncio.to_thread(session.answers.feedback, a.query, a.id, a.vote)
        except UnknownChunkError:
            continue
        return {"recorded": True}
    raise JsonRpcInvalidParams(f"codekith.feedback: no chunk with id {a.id!r}")


def _register_features(server: CodekithServer) -> None:
    @server.feature(types.WORKSPACE_SYMBOL)
    async def workspace_symbol(
        ls: CodekithServer, params: types.WorkspaceSymbolParams
    ) -> list[types.SymbolInformation]:
        query = params.query.strip()
        if not query:
            return []
        symbols: list[types.SymbolInformation] = []
        for session in [s for s in ls.sessions.values() if await s.has_index()]:
            rows = await asyncio.to_thread(session.answers.symbols, query)
            symbols += [convert.symbol_information(r, session.root) for r in rows]
        return symbols

    @server.feature(types.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)
    async def prepare(
        ls: CodekithServer, params: types.CallHierarchyPrepareParams
    ) -> list[types.CallHierarchyItem] | None:
        try:
            session, path = ls.session_for(params.text_document.uri)
        except OutsideWorkspaceError:
            return None
        if not await session.has_index():
            return None
        row = await asyncio.to_thread(session.answers.chunk_at, path, params.position.line + 1)
        if row is None or row["kind"] not in ("function", "method", "class"):
            return None
        return [convert.call_item(row, session.root)]

    @server.feature(types.CALL_HIERARCHY_INCOMING_CALLS)
    async def incoming(
        ls: CodekithServer, params: types.CallHierarchyIncomingCallsParams
    ) -> list[types.CallHierarchyIncomingCall]:
        session, qualname, accessor = _item_session(ls, params.item)
        calls = await asyncio.to_thread(session.answers.calls, qualname, "callers", accessor)
        return [
            types.CallHierarchyIncomingCall(
                from_=convert.call_item(c.row, session.root),
                from_ranges=convert.edge_ranges(c.lines),
            )
            for c in calls
        ]

    @server.feature(types.CALL_HIERARCHY_OUTGOING_CALLS)
    async def outgoing(
        ls: CodekithServer, params: types.CallHierarchyOutgoingCallsParams
    ) -> list[types.CallHierarchyOutgoingCall]:
        session, qualname, accessor = _item_session(ls, params.item)
        calls = await asyncio.to_thread(session.answers.calls, qualname, "callees", accessor)
        return [
            types.CallHierarchyOutgoingCall(
                to=convert.call_item(c.row, session.root), from_ranges=convert.edge_ranges(c.lines)
            )
            for c in calls
        ]

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    async def code_lens(ls: CodekithServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        if not ls.options.code_lens:
            return []
        try:
            session, path = ls.session_for(params.text_document.uri)
        except OutsideWorkspaceError:
            return []
        if not await session.has_index():
            return []
        lenses = await asyncio.to_thread(session.answers.lenses, path)
        return [convert.code_lens(lens, params.text_document.uri) for lens in lenses]


def _item_session(
    ls: CodekithServer, item: types.CallHierarchyItem
) -> tuple[WorkspaceSession, str, str]:
    """The item's workspace, qualified name and accessor (a property's setter shares its
    getter's name; an item from another server names none)."""
    data = item.data if isinstance(item.data, dict) else {}
    qualname = data.get("qualname") or item.detail
    if not qualname:
        raise JsonRpcInvalidParams("call hierarchy item without a qualified name")
    accessor = data.get("accessor") or ""
    if accessor not in ACCESSORS:
        raise JsonRpcInvalidParams(f"call hierarchy item with an unknown accessor: {accessor!r}")
    try:
        session, _ = ls.session_for(item.uri)
    except OutsideWorkspaceError as exc:
        raise JsonRpcInvalidParams(str(exc)) from None
    return session, qualname, accessor


def serve(tcp_port: int | None = None) -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("codekith").setLevel(logging.INFO)
    install_log_filter()

    server = create_server()
    if tcp_port:
        server.start_tcp("127.0.0.1", tcp_port)
    else:
        server.start_io()
