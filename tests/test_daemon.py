"""The warm daemon as users meet it: after a first run on its own, CLI calls go to the daemon,
print what they print on their own, see what other writers did, and run on their own
whenever the daemon cannot take them."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from codekith import daemon
from codekith.store import Store
from tests.test_graph_state import PKG, all_edges, fresh_edges

CLI = [sys.executable, "-m", "codekith.cli"]
DEADLINE_S = 180.0  # a daemon starting on a loaded machine


@pytest.fixture
def daemons_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Daemons on, with their sockets under this test's tmp dir; none left after it."""
    runtime = Path(tempfile.mkdtemp(prefix="ck-"))  # short: a socket's path has ~100 bytes
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.setenv("CODEKITH_DAEMON", "1")
    yield
    daemon.stop()
    shutil.rmtree(runtime, ignore_errors=True)


def cli(*args: str, cwd: Path, alone: bool = False) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **({"CODEKITH_DAEMON": "0"} if alone else {})}
    return subprocess.run(
        [*CLI, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def index(root: Path, alone: bool = False) -> dict[str, Any]:
    done = cli("index", "--json", "--wait", cwd=root, alone=alone)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def started_daemon() -> dict[str, Any]:
    deadline = time.monotonic() + DEADLINE_S
    while (state := daemon.status()) is None:
        assert time.monotonic() < deadline, "no daemon started"
        time.sleep(0.2)
    return state


def test_calls_after_the_first_go_to_the_daemon_print_the_same_and_see_other_writers(
    daemons_on: None, workspace: Any, project_for: Any, tmp_path: Path
) -> None:
    root = workspace(PKG)
    assert index(root)["indexed"]  # on its own: no daemon yet
    assert started_daemon()["served"] == 0
    core = root / "pkg/core.py"
    core.write_text(core.read_text() + "\n\ndef later():\n    return helper()\n")
    assert index(root)["indexed_paths"] == ["pkg/core.py"]
    state = daemon.status()
    assert state is not None and state["served"] == 1 and state["workspaces"] == [str(root)]
    main = root / "app/main.py"  # another writer meanwhile: the daemon's builder is behind
    main.write_text(main.read_text().replace("twice()\n", "twice()\n    later()\n"))
    assert index(root, alone=True)["indexed_paths"] == ["app/main.py"]
    extra = root / "pkg/extra.py"
    extra.write_text(extra.read_text() + "\n\ndef thrice():\n    twice()\n")
    assert index(root)["indexed_paths"] == ["pkg/extra.py"]
    assert daemon.status()["served"] == 2  # type: ignore[index]
    assert all_edges(Store(str(root / ".codekith"))) == fresh_edges(root, tmp_path, project_for)
    for args in (("search", "start the engine", "--json"), ("related", "pkg.core.helper")):
        warm, alone = cli(*args, cwd=root), cli(*args, cwd=root, alone=True)
        assert warm.returncode == alone.returncode == 0, warm.stderr
        assert warm.stdout == alone.stdout and warm.stdout
    nothing = tmp_path / "nothing"
    nothing.mkdir()
    warm, alone = cli("search", "x", cwd=nothing), cli("search", "x", cwd=nothing, alone=True)
    assert warm.returncode == alone.returncode == 1 and warm.stderr == alone.stderr
    assert daemon.status()["served"] == 5  # type: ignore[index]
    stopped = cli("daemon", "stop", cwd=root)
    assert stopped.stdout == "stopped\n" and daemon.status() is None


def test_a_daemon_that_cannot_take_the_call_leaves_it_to_the_cli(
    daemons_on: None, workspace: Any
) -> None:
    """One that never answers (busy, hung) costs a call a short wait; a socket file left by
    a dead one costs nothing, and the next daemon takes its place."""
    root = workspace(PKG)
    path = daemon.socket_path()
    assert path is not None
    hung = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    hung.bind(str(path))
    hung.listen(8)  # connections wait in its backlog, never taken
    try:
        assert index(root)["indexed"]
    finally:
        hung.close()  # its file stays, as a killed daemon's does
    assert path.exists() and daemon.status() is None
    upgraded = path.with_name("0123456789abcdef.sock")  # a killed daemon of another version
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as gone:
        gone.bind(str(upgraded))
    found = cli("search", "start the engine", "--json", cwd=root)
    assert found.returncode == 0 and json.loads(found.stdout)["hits"], found.stderr
    assert started_daemon()["served"] == 0
    assert not upgraded.exists()  # the new daemon cleared it


def test_an_index_folder_deleted_under_the_daemon_is_built_again(
    daemons_on: None, workspace: Any
) -> None:
    """`rm -rf .codekith` then `codekith index`, the way users start over: the daemon's warm
    project held tables of the deleted folder and failed ("cannot write the index"); it
    now opens the new one, and searches see what was indexed again."""
    root = workspace(PKG)
    assert index(root)["indexed"]
    started_daemon()
    found = cli("search", "start the engine", "--json", cwd=root)
    assert found.returncode == 0 and json.loads(found.stdout)["hits"], found.stderr
    shutil.rmtree(root / ".codekith")
    again = index(root)
    assert again["indexed"] and daemon.status()["served"] == 2  # type: ignore[index]
    query = ("search", "start the engine", "--json")
    warm, alone = cli(*query, cwd=root), cli(*query, cwd=root, alone=True)
    assert warm.returncode == alone.returncode == 0, warm.stderr
    assert warm.stdout == alone.stdout and json.loads(warm.stdout)["hits"]


def test_a_settings_file_written_between_calls_decides_the_next_one(
    daemons_on: None, workspace: Any
) -> None:
    """The daemon's warm project was made with the settings of its first call: a
    `.codekith.toml` written since takes effect at the next call, as on its own."""
    root = workspace(PKG)
    assert index(root)["indexed"]
    started_daemon()
    query = ("search", "start the engine", "--json", "--path-prefix", "app/")
    found = cli(*query, cwd=root)
    assert found.returncode == 0 and json.loads(found.stdout)["hits"], found.stderr
    (root / ".codekith.toml").write_text('exclude = ["app/**"]\n')
    again = index(root)
    assert again["skipped"]["app/main.py"] == "excluded by configuration", again
    warm, alone = cli(*query, cwd=root), cli(*query, cwd=root, alone=True)
    assert warm.returncode == alone.returncode == 0, warm.stderr
    assert warm.stdout == alone.stdout and json.loads(warm.stdout)["hits"] == []
    assert daemon.status()["served"] == 3  # type: ignore[index]


def test_one_installation_has_one_daemon_whatever_its_interpreter_is_called(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`codekith` (whose script runs python3) and `python -m codekith.cli` meet the same
    daemon; another git setup meets another."""
    alias = tmp_path / "python-alias"
    alias.symlink_to(sys.executable)
    key = daemon.installation_key()
    monkeypatch.setattr(sys, "executable", str(alias))
    assert daemon.installation_key() == key
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere.git"))
    assert daemon.installation_key() != key


def test_on_a_terminal_the_daemons_run_draws_its_progress_bars_there(
    daemons_on: None, workspace: Any
) -> None:
    root = workspace(PKG)
    assert index(root)["indexed"]
    started_daemon()
    (root / "pkg/more.py").write_text("def more():\n    return 1\n")
    screen, terminal = pty.openpty()
    run = subprocess.Popen(
        [*CLI, "index"], cwd=root, stdin=terminal, stdout=terminal, stderr=terminal
    )
    os.close(terminal)
    shown = b""
    with contextlib.suppress(OSError):  # the terminal closes with the process
        while chunk := os.read(screen, 65536):
            shown += chunk
    assert run.wait(timeout=600) == 0, shown
    assert "━".encode() in shown and b"indexed 1 files" in shown, shown
    assert daemon.status()["served"] == 1  # type: ignore[index]
