"""Shared fixtures: the real offline model (loaded once), workspaces made in tmp dirs, and
the clean-up every test gets: no process it started (a detached `codekith refine`, a Jedi
child, a language server) outlives it."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import textwrap
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from codekith.embedding import FastEmbedder
from codekith.project import Project
from tests.objectstore import S3Server, start_s3_server

# Fixture repositories hold tests of their own (tests/fixtures/quality_repo/tests): data
# to index, not tests to run.
collect_ignore_glob = ["fixtures/*"]

WriteFiles = Callable[[dict[str, str]], Path]
# CLI calls in tests run on their own: a warm daemon (codekith.daemon) would outlive its test
# and serve the next one's calls. tests/test_daemon.py turns it on where it is tested, and
# CODEKITH_TEST_DAEMON=1 runs every CLI call after a test's first through daemons of their
# own (.ci/run does so for the CLI's tests: a daemon must answer as a lone call does).
if os.environ.get("CODEKITH_TEST_DAEMON") == "1":
    os.environ["CODEKITH_DAEMON"] = "1"
    os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="ck-")
else:
    os.environ["CODEKITH_DAEMON"] = "0"


def processes_mentioning(marker: Path) -> list[int]:
    """Processes (not this one) whose command line names `marker`: the Jedi children and
    detached refiners of a workspace under it."""
    needle, found = str(marker).encode(), []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if needle in command:
            found.append(int(entry.name))
    return found


def reap(marker: Path) -> list[int]:
    """Kill every process naming `marker` (resumed first: a stopped one must die too)."""
    pids = processes_mentioning(marker)
    for pid in pids:
        for sig in (signal.SIGCONT, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
    return pids


@pytest.fixture(autouse=True)
def no_leftover_processes(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test, kill what it left running under its tmp dir (a detached refine
    that `codekith index` started, a Jedi child of a server that died)."""
    yield
    tmp = request.node.funcargs.get("tmp_path") if hasattr(request.node, "funcargs") else None
    if tmp is not None:
        reap(tmp)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Module- and session-scoped fixtures' leftovers too, before pytest exits."""
    factory = getattr(session.config, "_tmp_path_factory", None)
    base = getattr(factory, "_basetemp", None)
    if base is not None:
        reap(base)


# The slowest modules first (measured with --durations, slowest first): the suite runs on two
# pytest-xdist workers, one module per worker at a time (--dist loadfile, no reordering), so
# starting the long modules early keeps one worker from ending the run alone on a long one.
SLOWEST_FIRST = (
    "test_cli.py",
    "test_mcp.py",
    "test_rebuild.py",
    "test_object_storage.py",
    "test_lsp.py",
    "test_faults.py",
    "test_graph_state.py",
    "test_writers.py",
    "test_bad_input.py",
    "test_neovim.py",
    "test_lsp_fuzz.py",
    "test_team_index.py",
    "test_lsp_control.py",
    "test_related.py",
    "test_distributed.py",
    "test_git_incremental.py",
    "test_lsp_polyglot.py",
)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules in SLOWEST_FIRST order, then the rest as collected (a stable sort: the tests
    of a module keep their order)."""
    rank = {name: number for number, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.fixture(scope="session")
def embedder() -> FastEmbedder:
    return FastEmbedder()


class RecordingEmbedder:
    """The real embedder, noting which of its methods were asked (and from which thread)."""

    def __init__(self, real: Any) -> None:
        self.real, self.model_id, self.dim = real, real.model_id, real.dim
        self.query_id = real.query_id
        self.asked: list[tuple[str, threading.Thread]] = []

    def embed_documents(self, texts: Any) -> Any:
        self.asked.append(("documents", threading.current_thread()))
        return self.real.embed_documents(texts)

    def embed_query(self, text: str) -> Any:
        self.asked.append(("query", threading.current_thread()))
        return self.real.embed_query(text)

    def model_inputs(self, texts: Any) -> Any:
        return self.real.model_inputs(texts)


def write_files(root: Path, files: Mapping[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content), encoding="utf-8")
    return root


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args],
        check=True,
        capture_output=True,
        text=True,
        env={
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@t",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t",
            "PATH": "/usr/bin:/bin:/usr/local/bin",
            "HOME": str(root),
        },
    ).stdout


def init_repo(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    return root


@pytest.fixture
def workspace(tmp_path: Path) -> WriteFiles:
    """A git repository in a tmp dir; call it with {path: content} to add files."""
    root = init_repo(tmp_path / "ws")

    def add(files: dict[str, str]) -> Path:
        return write_files(root, files)

    return add


@pytest.fixture
def project_for(embedder: FastEmbedder) -> Callable[..., Project]:
    def make(root: Path, **overrides: object) -> Project:
        return Project(root, overrides=dict(overrides) or None, embedder=embedder)

    return make


HTTP_MODULE = '''
    """HTTP helpers."""
    import re

    HEADER = re.compile(r"^([^:]+):(.*)$")


    def parse_header(line: str) -> tuple[str, str]:
        """Split an HTTP header line into its name and value."""
        name, _, value = line.partition(":")
        return name.strip().lower(), value.strip()


    class Session:
        """Keeps cookies between requests."""

        timeout: float = 10.0

        def send(self, request):
            """Send a request and remember the cookies of the response."""
            response = self.adapter.send(request)
            self.cookies.update(response.cookies)
            return response


    async def fetch_json(url):
        """Download a URL and decode its JSON body."""
        return await get(url)
'''

MATH_MODULE = '''
    def fibonacci(n: int) -> int:
        """Return the n-th Fibonacci number."""
        a, b = 0, 1
        for _ in range(n):
            a, b = b, a + b
        return a


    def is_prime(n: int) -> bool:
        """Tell whether n is a prime number."""
        return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))
'''


@pytest.fixture(scope="session")
def s3_server() -> Iterator[S3Server]:
    server = start_s3_server()
    yield server
    server.stop()


@pytest.fixture
def s3_uri(s3_server: S3Server, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh bucket on the session's S3 server, with the AWS variables set for this test
    (and the subprocesses it starts)."""
    for name, value in s3_server.env.items():
        monkeypatch.setenv(name, value)
    return f"s3://{s3_server.new_bucket()}/index"
