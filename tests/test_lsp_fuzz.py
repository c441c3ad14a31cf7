"""Property-based fuzz of the language server's requests through a real LSP client.

Every request gets an answer: a result, or a JSON-RPC error that says what was wrong
(InvalidParams for bad arguments, never InternalError), the server stays alive, and a
rejected request costs one line of log, not a traceback. One server serves the module; the
client runs on its own event loop thread so Hypothesis drives it from plain test functions.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
import threading
from collections.abc import Coroutine, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient, client_capabilities, make_test_lsp_client

from tests.conftest import HTTP_MODULE, git, init_repo, write_files
from tests.lsp_session import SHUTDOWN_GRACE_S, end_session
from tests.test_related import SHOP

INVALID_PARAMS = -32602
ANSWER_TIMEOUT = 60.0
EXAMPLES = int(os.environ.get("CODEKITH_FUZZ_EXAMPLES", "150"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any JSON value (the numbers stay within what JSON parsers accept)."""


class Rpc:
    """A pytest-lsp client on a private event loop thread, with raw requests: the JSON the
    strategies build is exactly what goes over the wire, malformed envelopes included."""

    def __init__(self, root: Path, stderr_log: Path) -> None:
        self.root = root
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.client: LanguageClient = make_test_lsp_client()
        self.client.feature(types.CLIENT_REGISTER_CAPABILITY)(lambda params: None)
        self.ids = itertools.count(1)
        self.requests = 0
        self.stderr_log = stderr_log

    def start(self) -> None:
        # stderr goes to a file so the test can read what the server logged
        command = 'exec "$0" -m codekith.cli serve 2>"$1"'
        self.run(self.client.start_io("sh", "-c", command, sys.executable, str(self.stderr_log)))
        self.initialize = self.run(
            self.client.initialize_session(
                types.InitializeParams(
                    capabilities=client_capabilities("visual-studio-code"),
                    root_uri=self.root.as_uri(),
                    workspace_folders=[types.WorkspaceFolder(self.root.as_uri(), "ws")],
                    initialization_options={"debounceMs": 50, "codeLens": True},
                )
            )
        )

    def run(self, coroutine: Coroutine[Any, Any, Any], timeout: float = 300) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def request(self, method: str, params: Any) -> dict[str, Any]:
        """Send one raw request; its answer as {"result": …} or {"error": {code, message}}."""
        self.requests += 1
        answer: Future[Any] = Future()
        msg_id = f"fuzz-{next(self.ids)}"

        def send() -> None:
            protocol = self.client.protocol
            protocol._request_futures[msg_id] = answer  # pygls resolves it on the response
            protocol._send_data(
                {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}
            )

        self.loop.call_soon_threadsafe(send)
        try:
            return {"result": answer.result(ANSWER_TIMEOUT)}
        except JsonRpcException as exc:
            return {"error": {"code": exc.code, "message": exc.message}}
        except TimeoutError:
            raise AssertionError(f"no answer to {method} {params!r}") from None

    def command(self, name: Any, arguments: Any) -> dict[str, Any]:
        return self.request("workspace/executeCommand", {"command": name, "arguments": arguments})

    def close(self) -> None:
        """Shut the server down (killed when it does not answer in time), stop the loop."""
        try:
            self.run(end_session(self.client), timeout=2 * SHUTDOWN_GRACE_S + 60)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)


@pytest.fixture(scope="module")
def rpc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rpc]:
    base = tmp_path_factory.mktemp("fuzz")
    root = init_repo(base / "ws")
    write_files(root, {**SHOP, "web/http.py": HTTP_MODULE})
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    session = Rpc(root, base / "server.stderr")
    try:
        session.start()
        wait_ready(session)
        yield session
        print(f"\nfuzz: {session.requests} requests sent to one server")
    finally:
        session.close()


def wait_ready(rpc: Rpc, timeout: float = 240) -> None:
    async def poll() -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.2)
            status = await rpc.client.workspace_execute_command_async(
                types.ExecuteCommandParams("codekith.status", [{}])
            )
            folder = status["folders"][0]
            if folder["ready"] and not folder["indexing"] and folder.get("runs"):
                return
        raise AssertionError("the index was not ready in time")

    rpc.run(poll(), timeout + 10)


def commands(rpc: Rpc) -> list[str]:
    provider = rpc.initialize.capabilities.execute_command_provider
    return sorted(provider.commands) if provider else []


def assert_answered(answer: dict[str, Any], what: str) -> None:
    """A result, or InvalidParams with a message; InternalError means a crash."""
    if "error" in answer:
        error = answer["error"]
        assert error["code"] == INVALID_PARAMS, f"{what}: {error}"
        assert error["message"].strip(), f"{what}: an error without a message"


def lines_in(rpc: Rpc, chars: str) -> list[str]:
    text = rpc.stderr_log.read_text(errors="replace")
    return [line for line in text.splitlines() if chars in line]


# -- strategies ----------------------------------------------------------------------------


def field_values(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly plausible values, sometimes anything."""
    return st.one_of(valid, valid, JSON)


POSITION = st.fixed_dictionaries(
    {"line": field_values(st.integers(-3, 200)), "character": field_values(st.integers(-3, 80))}
)
FIELDS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "codekith.search": {
        "query": st.text(max_size=40),
        "k": st.integers(-2, 600),
        "pathPrefix": st.sampled_from(["", "shop", "shop/", "web/http.py", "../", "nope"]),
        "language": st.sampled_from(["", "python", "markdown", "cobol"]),
        "kind": st.sampled_from(["", "function", "class", "method", "module", "section", "x"]),
        "mode": st.sampled_from(["hybrid", "vector", "text", "fuzzy"]),
    },
    "codekith.related": {
        "query": st.text(max_size=40),
        "symbol": st.sampled_from(["shop.pricing.compute_price", "shop", "no.such", ""]),
        "uri": st.sampled_from(["file:///etc/passwd", "shop/pricing.py", "http://x/y", ""]),
        "position": POSITION,
        "depth": st.integers(-1, 7),
        "budget": st.integers(-5, 300_000),
        "format": st.sampled_from(["json", "markdown", "html"]),
    },
    "codekith.feedback": {
        "query": st.text(max_size=20),
        "id": st.text(max_size=12),
        "vote": st.integers(-2, 2),
    },
    "codekith.reindex": {"full": st.just(False)},  # a full rebuild per example is too slow
    "codekith.status": {},
}


@st.composite
def command_arguments(draw: st.DrawFn, name: str) -> Any:
    """The `arguments` array of a command: one object built from the command's fields
    (each present or not, plausible or any JSON, plus unknown keys), or anything."""
    fields = FIELDS.get(name, {})
    shape = draw(st.sampled_from(["object", "object", "object", "any"]))
    if shape == "any":
        return draw(st.one_of(JSON, st.lists(JSON, max_size=3)))
    chosen = draw(st.lists(st.sampled_from(sorted(fields)), unique=True)) if fields else []
    argument = {key: draw(field_values(fields[key])) for key in chosen}
    if draw(st.integers(0, 9)) == 0:
        argument[draw(st.text(min_size=1, max_size=8))] = draw(JSON)
    return [argument]


# -- properties ----------------------------------------------------------------------------


@FUZZ
@given(data=st.data())
def test_every_command_answers_any_arguments(rpc: Rpc, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(commands(rpc)), label="command")
    arguments = data.draw(command_arguments(name), label="arguments")
    arguments = resolve_uris(rpc, arguments)
    assert_answered(rpc.command(name, arguments), f"{name} {arguments!r}")


ENVELOPE = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {},
        optional={
            "command": st.one_of(st.none(), st.integers(), st.text(max_size=20), JSON),
            "arguments": JSON,
        },
    ),
)


@FUZZ
@given(params=ENVELOPE)
def test_malformed_execute_command_requests_get_errors(rpc: Rpc, params: Any) -> None:
    answer = rpc.request("workspace/executeCommand", params)
    assert_answered(answer, f"executeCommand {params!r}")


STANDARD_REQUESTS = st.sampled_from(
    [
        "workspace/symbol",
        "textDocument/prepareCallHierarchy",
        "callHierarchy/incomingCalls",
        "callHierarchy/outgoingCalls",
        "textDocument/codeLens",
    ]
)
ITEM = st.fixed_dictionaries(
    {
        "name": st.text(max_size=10),
        "kind": st.integers(-1, 30),
        "uri": st.sampled_from(["file:///etc/passwd", "shop/pricing.py", "x:", ""]),
        "range": JSON,
        "selectionRange": JSON,
    },
    optional={"detail": st.text(max_size=30), "data": JSON},
)
FEATURE_PARAMS = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {},
        optional={
            "query": field_values(st.text(max_size=20)),
            "textDocument": field_values(
                st.fixed_dictionaries(
                    {"uri": st.sampled_from(["file:///etc/passwd", "shop/pricing.py", "x"])}
                )
            ),
            "position": field_values(POSITION),
            "item": field_values(ITEM),
        },
    ),
)


@FUZZ
@given(method=STANDARD_REQUESTS, params=FEATURE_PARAMS)
def test_standard_requests_answer_any_params(rpc: Rpc, method: str, params: Any) -> None:
    params = resolve_uris(rpc, params)
    assert_answered(rpc.request(method, params), f"{method} {params!r}")


def resolve_uris(rpc: Rpc, value: Any) -> Any:
    """The workspace-relative `shop/pricing.py` placeholders become the real file URI."""
    if value == "shop/pricing.py":
        return (rpc.root / "shop/pricing.py").as_uri()
    if isinstance(value, list):
        return [resolve_uris(rpc, v) for v in value]
    if isinstance(value, dict):
        return {k: resolve_uris(rpc, v) for k, v in value.items()}
    return value


@pytest.mark.parametrize(
    "method, params",
    [
        (
            "callHierarchy/incomingCalls",
            {
                "item": {
                    "name": "passwd",
                    "kind": 12,
                    "uri": "file:///etc/passwd",
                    "detail": "root",
                    "range": {
                        "start": {"line": 0, "character": 0},
                        "end": {"line": 0, "character": 1},
                    },
                    "selectionRange": {
                        "start": {"line": 0, "character": 0},
                        "end": {"line": 0, "character": 1},
                    },
                }
            },
        ),
        ("workspace/executeCommand", {"command": None}),
        ("workspace/executeCommand", 7),
        ("workspace/executeCommand", {"command": "codekith.status", "arguments": "x"}),
    ],
)
def test_known_bad_requests_get_invalid_params(rpc: Rpc, method: str, params: Any) -> None:
    answer = rpc.request(method, params)
    assert answer.get("error", {}).get("code") == INVALID_PARAMS, answer


def test_the_server_survived_and_logged_no_tracebacks(rpc: Rpc) -> None:
    """Runs after the properties (file order): still answering, and every rejected request
    logged at most one line."""
    status = rpc.command("codekith.status", [{}])
    assert status["result"].folders[0].ready  # pygls' client gives JSON objects as named tuples
    assert lines_in(rpc, "Traceback") == []
