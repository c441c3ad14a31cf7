"""Bad command arguments get clear errors: every case as a unit test of the parser, and the
same cases through one real server (a pytest-lsp client), which must answer each with
InvalidParams naming the problem and stay alive."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pytest_lsp import LanguageClient, client_capabilities

from codekith.lsp import arguments as args
from tests.lsp_session import end_session
from tests.test_lsp import SERVER, command, make_workspace, wait_ready

SPECS = {
    "codekith.search": args.SearchArgs,
    "codekith.related": args.RelatedArgs,
    "codekith.feedback": args.FeedbackArgs,
    "codekith.reindex": args.ReindexArgs,
    "codekith.status": args.StatusArgs,
}

# (command, the one argument, what the error says)
MALFORMED = [
    ("codekith.search", {"query": ""}, "query must not be empty"),
    ("codekith.search", {"query": "   "}, "query must not be empty"),
    ("codekith.search", {"query": "x", "k": "ten"}, "k must be int, not str"),
    ("codekith.search", {"query": "x", "k": True}, "k must be int, not bool"),
    ("codekith.search", {"query": "x", "k": 0}, "k must be between 1 and 500"),
    ("codekith.search", {"query": "x", "docs": -1}, "docs must be between 0 and 50"),
    ("codekith.search", {"query": "x", "docs": "five"}, "docs must be int, not str"),
    ("codekith.search", {"query": "x", "testsApart": 51}, "testsApart must be between 0 and 50"),
    ("codekith.search", {"query": "x", "testsApart": True}, "testsApart must be int, not bool"),
    ("codekith.search", {"query": "x", "bogus": 1}, "unknown field(s) bogus"),
    ("codekith.search", ["not", "an", "object"], "must be a JSON object, not list"),
    ("codekith.search", {}, "missing required field 'query'"),
    ("codekith.search", {"query": "x", "kind": "galaxy"}, "kind must be one of"),
    ("codekith.search", {"query": "x", "mode": "psychic"}, "mode must be one of"),
    ("codekith.related", {}, "give exactly one of"),
    ("codekith.related", {"query": "a", "symbol": "b"}, "give exactly one of"),
    ("codekith.related", {"uri": "file:///x.py"}, "uri and position go together"),
    ("codekith.related", {"query": "a", "depth": 9}, "depth must be between 0 and 5"),
    ("codekith.related", {"query": "a", "budget": 0}, "budget must be between 1 and 200000"),
    ("codekith.related", {"query": "a", "format": "html"}, "format must be json or markdown"),
    (
        "codekith.related",
        {"uri": "file:///x.py", "position": {"line": -1}},
        "must not be negative",
    ),
    ("codekith.related", {"uri": "file:///x.py", "position": 3}, "position must be Position"),
    ("codekith.feedback", {"query": "q", "id": "x", "vote": 3}, "vote must be 1 or -1"),
    ("codekith.feedback", {"query": " ", "id": "x", "vote": 1}, "must not be empty"),
    ("codekith.reindex", {"full": "yes"}, "full must be bool, not str"),
    ("codekith.search", {"query": "x", "tests": "yes"}, "tests must be bool, not str"),
    ("codekith.related", {"query": "a", "tests": 1}, "tests must be bool, not int"),
]


@pytest.mark.parametrize("name, argument, message", MALFORMED)
def test_the_parser_names_what_is_wrong(name, argument, message):
    with pytest.raises(args.ArgumentError) as error:
        args.parse(SPECS[name], name, (argument,))
    assert str(error.value).startswith(f"{name}: ") and message in str(error.value)


def test_the_parser_takes_empty_forms_and_refuses_extra_arguments():
    for empty in ((), (None,), ([],), ({},)):
        assert args.parse(args.StatusArgs, "codekith.status", empty) == args.StatusArgs()
    assert args.parse(args.SearchArgs, "s", ({"query": "q", "k": 3},)).k == 3
    assert args.parse(args.SearchArgs, "s", ({"query": "q", "kind": "code"},)).kind == "code"
    related = args.parse(args.RelatedArgs, "r", ({"uri": "file:///x.py", "position": {"line": 2}},))
    assert related.position == args.Position(2, 0)
    with pytest.raises(args.ArgumentError, match="expected one JSON object, got 2 arguments"):
        args.parse(args.SearchArgs, "s", ({"query": "q"}, {}))


# -- the same through one real server (module-scoped: one index for every case) -------------

SERVER_CASES = [
    *MALFORMED,
    (
        "codekith.related",
        {"uri": "file:///etc/passwd", "position": {"line": 1}},
        "outside every workspace folder",
    ),
    ("codekith.feedback", {"query": "q", "id": "nope", "vote": 1}, "no chunk with id"),
]


@pytest_lsp.fixture(config=SERVER, scope="module")
async def shared(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root: Path = make_workspace(tmp_path_factory.mktemp("arguments"))
    lsp_client.root = root  # type: ignore[attr-defined]
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("neovim"),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(root.as_uri(), "ws")],
        )
    )
    await wait_ready(lsp_client)
    yield
    await end_session(lsp_client)


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("name, argument, message", SERVER_CASES)
async def test_the_server_answers_invalid_params_and_stays_up(
    shared: LanguageClient, name, argument, message
):
    with pytest.raises(JsonRpcInvalidParams) as error:
        await command(shared, name, argument)
    assert message in str(error.value)
    status = await command(shared, "codekith.status")
    assert status["folders"][0]["ready"]  # still alive and answering


@pytest.mark.asyncio(loop_scope="module")
async def test_an_unknown_symbol_falls_back_to_free_text(shared: LanguageClient):
    bundle = await command(shared, "codekith.related", {"symbol": "no.such.symbol_anywhere_xyz"})
    assert "items" in bundle


@pytest.mark.asyncio(loop_scope="module")
async def test_a_position_past_the_end_or_an_unindexed_file_is_invalid_params(
    shared: LanguageClient,
):
    """The answers layer's target check, as the editor meets it (issue 12, item 4)."""
    path: Path = shared.root / "web/http.py"  # type: ignore[attr-defined]
    lines = path.read_bytes().count(b"\n") + 1
    past = {"uri": path.as_uri(), "position": {"line": lines + 5, "character": 0}}
    with pytest.raises(JsonRpcInvalidParams) as error:
        await command(shared, "codekith.related", past)
    assert f"web/http.py has lines 1 to {lines}, not {lines + 6}" in str(error.value)
    missing = {"uri": (path.parent / "htpp.py").as_uri(), "position": {"line": 0}}
    with pytest.raises(JsonRpcInvalidParams) as error:
        await command(shared, "codekith.related", missing)
    assert "web/htpp.py is not in the index; did you mean web/http.py?" in str(error.value)
