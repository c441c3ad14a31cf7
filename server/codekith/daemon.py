"""A warm process for the command line, so that a CLI call pays for its work only.

A cold `codekith index` after a one-function edit spends ~0.9 s importing LanceDB, fastembed
and the secret scanner, ~0.2 s loading the model and ~0.4 s reading the call graph back,
for ~0.1 s of work; a cold `codekith search` ~1.5 s for ~0.05 s. After such a command ran
on its own, it starts this process in the background (a detached `python -m
codekith.daemon`); the next `index`, `search`, `related` or `graph` call hands its
arguments, folder and standard streams to it over a Unix socket and prints what comes
back. The daemon keeps the projects it served warm (model, searcher, call-graph builder:
the same long-lived state as the language server's, which notices other writers through
the index's meta) and ends after IDLE_S without a call, or once its sources change.

Calls are served one at a time. A client that the daemon does not take within ACCEPT_S
(it is busy with a long run, it is starting, it is gone) runs the command itself, so the
daemon never makes a call slower than it was. Ctrl-C in the client asks the daemon's run to
stop, as it does locally. The socket lives in a folder only the
user can enter, named after the installation (interpreter, package, the newest source
file's time) and the environment git reads: an upgraded or edited codekith, or another
GIT_DIR, gets a daemon of its own, and a daemon whose sources changed since it started
ends at the next call. `CODEKITH_DAEMON=0` turns it off.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codekith import __version__

if TYPE_CHECKING:
    from codekith.project import IndexFolder, Project

COMMANDS = frozenset({"index", "search", "related", "graph"})
IDLE_S = 900.0  # a daemon ends after this long without a call
CHECK_S = 60.0  # how often an idle daemon checks whether it should end
ACCEPT_S = 0.3  # how long a client waits for the daemon to take its call
REQUEST_S = 5.0  # how long the daemon waits for a taken call's request
PROJECTS_KEPT = 4  # warm projects (workspaces) per daemon
SOCKET_PATH_MAX = 104  # what a Unix socket's address holds (108 bytes on Linux, 104 on BSD)
_PACKAGE = Path(__file__).resolve().parent
_GIT_ENVIRONMENT = ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME")


def enabled() -> bool:
    return os.environ.get("CODEKITH_DAEMON", "1") != "0"


def installation_key() -> str:
    """What a daemon must share with its clients: the same code, the same git setup."""
    newest = max(path.stat().st_mtime_ns for path in _PACKAGE.rglob("*.py"))
    environment = sorted(
        (name, value)
        for name, value in os.environ.items()
        if name.startswith("GIT_") or name in _GIT_ENVIRONMENT
    )
    interpreter = [sys.prefix, os.path.realpath(sys.executable)]  # `python` = `python3`
    made = [*interpreter, str(_PACKAGE), __version__, newest, environment]
    return hashlib.sha1(json.dumps(made).encode()).hexdigest()[:16]


def socket_path(key: str | None = None) -> Path | None:
    """The socket for this installation, in a folder only this user can enter (None when
    such a folder cannot be had: then there is no daemon)."""
    name = f"{key or installation_key()}.sock"
    for base in (os.environ.get("XDG_RUNTIME_DIR"), tempfile.gettempdir()):
        folder = Path(base or tempfile.gettempdir()) / f"codekith-{os.getuid()}"
        if len(str(folder / name)) > SOCKET_PATH_MAX:
            continue
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
            state = folder.stat()
        except OSError:
            return None
        private = state.st_uid == os.getuid() and not state.st_mode & 0o077
        return folder / name if private else None
    return None


# -- the client ---------------------------------------------------------------------------


def call(argv: list[str]) -> int | None:
    """`codekith ARGV` run by the daemon: its exit code, or None when no daemon took the
    call (the caller then runs it itself)."""
    path = socket_path()
    connection = _connect(path, ACCEPT_S) if path is not None else None
    if connection is None:
        return None
    try:
        terminal = {"out": sys.stdout.isatty(), "err": sys.stderr.isatty()}
        _send(connection, {"argv": argv, "cwd": os.getcwd(), "terminal": terminal})
        lines = _Messages(connection)
        if next(lines, {}).get("taken") is not True:
            return None
        connection.settimeout(None)
        return _relay(connection, lines)
    except (OSError, ValueError):  # refused, timed out, a socket left by a dead daemon
        return None
    finally:
        connection.close()


def _relay(connection: socket.socket, lines: _Messages) -> int:
    """Print what the daemon's run writes until it exits; Ctrl-C is passed on."""
    stops = 0
    while True:
        try:
            message = next(lines, None)
            if message is None:
                print("codekith: error: the warm process ended during the call", file=sys.stderr)
                return 1
            if "exit" in message:
                return int(message["exit"])
            stream = sys.stdout if message.get("stream") == "out" else sys.stderr
            stream.write(message.get("text", ""))
            stream.flush()
        except KeyboardInterrupt:
            stops += 1
            if stops > 1:
                return 130
            _send(connection, {"stop": True})
        except BrokenPipeError:  # `codekith search x | head`: the reader has what it wanted
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 141


def start(root: Path, db: str | None) -> None:
    """Start a daemon in the background for the next call (none when one is up), warming
    the project just used."""
    path = socket_path()
    if path is None or answers_at(path):
        return
    command = [sys.executable, "-m", "codekith.daemon", "--warm", str(root)]
    with open(path.with_suffix(".log"), "w", encoding="utf-8") as log:  # what went wrong
        subprocess.Popen(
            [*command, *(["--db", db] if db else [])],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
            cwd=root,
        )


def stop() -> bool:
    """Ask this installation's daemon to end; whether one was up."""
    asked = _ask({"shutdown": True})
    return asked is not None and (asked[1] or {}).get("taken") is True


def status() -> dict[str, Any] | None:
    """This installation's daemon: its pid, socket, calls served and warm workspaces; None
    when none is up."""
    asked = _ask({"status": True})
    if asked is None:
        return None
    path, answer = asked
    if answer is None:  # up, but in the middle of a call
        return {"socket": str(path), "busy": True}
    return {"socket": str(path), "busy": False, **answer.get("status", {})}


def _ask(message: dict[str, Any]) -> tuple[Path, dict[str, Any] | None] | None:
    """The daemon's one answer to `message` (None in place of it when the daemon did not
    answer within REQUEST_S), or None when no daemon is up."""
    path = socket_path()
    connection = _connect(path, REQUEST_S) if path is not None else None
    if path is None or connection is None:
        return None
    with connection:
        try:
            _send(connection, message)
            return path, next(_Messages(connection), {})
        except (OSError, ValueError):
            return path, None


def answers_at(path: Path) -> bool:
    """Whether a daemon listens at `path`."""
    probe = _connect(path, ACCEPT_S)
    if probe is None:
        return False
    probe.close()
    return True


def _connect(path: Path, timeout: float) -> socket.socket | None:
    """A connection to the daemon at `path` (calls on it time out after `timeout`), or
    None when none listens there (no file, a dead daemon's file, refused)."""
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(timeout)
    try:
        connection.connect(str(path))
    except OSError:
        connection.close()
        return None
    return connection


def _send(connection: socket.socket, message: dict[str, Any]) -> None:
    connection.sendall(json.dumps(message).encode() + b"\n")


class _Messages:
    """The JSON messages of a connection, one per line. A Ctrl-C while it waits leaves it
    whole (a generator would be finished by the exception)."""

    def __init__(self, connection: socket.socket) -> None:
        self._connection, self._pending = connection, b""

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return self

    def __next__(self) -> dict[str, Any]:
        while b"\n" not in self._pending:
            chunk = self._connection.recv(65536)
            if not chunk:
                raise StopIteration
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        return json.loads(line)  # type: ignore[no-any-return]


# -- the daemon ---------------------------------------------------------------------------


ProjectSource = Callable[[Path, "str | None", "str | None"], "Project"]


class Projects:
    """The warm projects, by workspace and index; one whose settings files changed, or whose
    index folder was deleted or replaced since its last call (`rm -rf .codekith`: its open
    tables point at files that are gone), is made again."""

    def __init__(self, kept: int = PROJECTS_KEPT) -> None:
        self._kept = kept
        self.ready: Callable[[], None] = lambda: None  # waits for the warm-up, if any
        self._projects: OrderedDict[tuple[Any, ...], tuple[Project, IndexFolder]] = OrderedDict()

    def workspaces(self) -> list[str]:
        return [str(root) for root, _, _ in self._projects]

    def get(self, root: Path, db: str | None, remote_index: str | None) -> Project:
        from codekith.project import Project

        where = db if db is None or "://" in db else os.path.abspath(db)  # a relative --db
        key = (root, where, remote_index)
        known = self._projects.get(key)
        if known is None:
            project = Project(root, db=db, remote_index=remote_index)
        else:
            project, seen = known
            folder = project.index_folder()
            same = seen is None or folder == seen  # a first run made it: the same index
            if same and not project.settings_changed():
                self._projects[key] = (project, folder)
                self._projects.move_to_end(key)
                return project
            old, project = project, project.reopened()  # the model stays loaded
            old.close_graph()  # calls are served one at a time: no run holds it
        self._projects[key] = (project, project.index_folder())
        while len(self._projects) > self._kept:
            _, (evicted, _) = self._projects.popitem(last=False)
            evicted.close_graph()
        return project


class _Stream(io.TextIOBase):
    """stdout or stderr of a call: each write goes to the client at once. It is a terminal
    when the client's is (progress bars are drawn on terminals only)."""

    def __init__(
        self, connection: socket.socket, name: str, lock: threading.Lock, terminal: bool
    ) -> None:
        self._connection, self._name, self._lock = connection, name, lock
        self._terminal = terminal

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._terminal

    def write(self, text: str) -> int:
        with self._lock, contextlib.suppress(OSError):  # a client gone: the run goes on
            _send(self._connection, {"stream": self._name, "text": text})
        return len(text)


def serve(path: Path, key: str, warm: Callable[[Projects], None] | None = None) -> None:
    """Take calls until IDLE_S pass without one, a shutdown is asked or the sources change."""
    bound = _listen(path)
    if bound is None:
        return
    listener, inode = bound
    projects = Projects()
    served = 0
    try:
        if warm is not None:  # calls are taken meanwhile; the first one waits for it
            warming = threading.Thread(target=_warm_quietly, args=(warm, projects))
            warming.start()
            projects.ready = warming.join
        listener.settimeout(CHECK_S)
        last_call = time.monotonic()
        while True:
            try:
                connection, _ = listener.accept()
            except TimeoutError:  # idle, or an upgraded codekith that has daemons of its own
                if time.monotonic() - last_call > IDLE_S or installation_key() != key:
                    return
                continue
            last_call = time.monotonic()
            with connection:
                taken = _take(connection, projects, key, served)
                if taken is None:
                    return
                served += taken
    finally:
        listener.close()
        with contextlib.suppress(OSError):
            if path.stat().st_ino == inode:  # not a successor's socket
                path.unlink()


def _warm_quietly(warm: Callable[[Projects], None], projects: Projects) -> None:
    """A failed warm-up costs the first call its loading; its traceback goes to the
    daemon's log (the socket's name, .log)."""
    try:
        warm(projects)
    except Exception:
        traceback.print_exc()


def _listen(path: Path) -> tuple[socket.socket, int] | None:
    """The listening socket at `path` and its file's inode, taking over a file left by a
    dead daemon; None when a live one answers there (two clients started one each)."""
    if answers_at(path):
        return None
    _forget_dead(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(str(path))
    except OSError:
        listener.close()
        return None
    listener.listen(16)
    return listener, path.stat().st_ino


def _forget_dead(path: Path) -> None:
    """Remove the sockets that killed daemons left beside `path` (its own dead file
    included: nothing answers there any more), and the logs of other installations' (this
    one's log is the starting daemon's stderr)."""
    for other in path.parent.glob("*.sock"):
        if not answers_at(other):
            with contextlib.suppress(OSError):
                other.unlink()
                if other != path:
                    other.with_suffix(".log").unlink(missing_ok=True)


def _take(connection: socket.socket, projects: Projects, key: str, served: int) -> int | None:
    """Serve one call: how many CLI calls it ran (0 or 1), None to stop serving."""
    connection.settimeout(REQUEST_S)
    lines = _Messages(connection)
    try:
        request = next(lines, None)
    except (OSError, ValueError):
        return 0
    if request is None:
        return 0
    if request.get("shutdown") or request.get("status"):
        state = {"pid": os.getpid(), "served": served, "workspaces": projects.workspaces()}
        with contextlib.suppress(OSError):
            _send(connection, {"taken": True, "status": state})
        return None if request.get("shutdown") else 0
    if installation_key() != key:  # codekith changed under us: the client runs it itself
        return None
    try:
        _send(connection, {"taken": True})
    except OSError:
        return 0  # the client gave up waiting and runs it itself
    connection.settimeout(None)
    return 1 if _run(connection, lines, request, projects) else None


def _run(
    connection: socket.socket,
    lines: _Messages,
    request: dict[str, Any],
    projects: Projects,
) -> bool:
    """Run the CLI on the request's arguments in its folder; whether to go on serving (a
    bug's traceback goes to the client and ends the daemon: its state may be damaged)."""
    from codekith import cli

    stop = threading.Event()
    lock = threading.Lock()
    terminal = request.get("terminal") or {}
    out = _Stream(connection, "out", lock, bool(terminal.get("out")))
    err = _Stream(connection, "err", lock, bool(terminal.get("err")))

    def watch() -> None:  # a stop message, or the client gone, asks the run to stop
        with contextlib.suppress(OSError, ValueError):
            for message in lines:
                if message.get("stop") and not stop.is_set():
                    stop.set()
                    err.write("\ncodekith: stopping after this batch (Ctrl-C again to abort)\n")
        stop.set()

    threading.Thread(target=watch, daemon=True, name="codekith-daemon-client").start()
    healthy = True
    projects.ready()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):  # type: ignore[type-var]
        try:
            os.chdir(request["cwd"])
            code = cli.main(list(request["argv"]), projects=projects.get, stopped=stop.is_set)
        except SystemExit as exc:  # usage errors: argparse exits
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            traceback.print_exc()
            code, healthy = 1, False
    with contextlib.suppress(OSError):
        _send(connection, {"exit": code})
    return healthy


def _warm(root: Path, db: str | None) -> Callable[[Projects], None]:
    def warm(projects: Projects) -> None:
        from codekith.answers import Answers

        project = projects.get(root, db, None)
        Answers(project).warm_up()
        project.indexer  # noqa: B018 - the indexer's imports and the graph's modules

    return warm


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codekith.daemon")
    parser.add_argument("--warm", type=Path, help="load this workspace's project first")
    parser.add_argument("--db", default=None)
    args = parser.parse_args(argv)
    key = installation_key()
    path = socket_path(key)
    if path is None:
        return 1
    serve(path, key, _warm(args.warm.resolve(), args.db) if args.warm else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
