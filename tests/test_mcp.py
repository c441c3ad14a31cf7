"""`codekith mcp` through the SDK's own clients: in memory for every tool, and over stdio
against the real command. The real model, LanceDB and git repositories throughout."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import sys
import threading
import typing
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from codekith import related as related_module
from codekith.mcp import fit, render, state
from codekith.mcp import server as mcp_server
from codekith.project import Project
from codekith.store import Store
from codekith.vocabulary import DOCS_APART, KIND_FILTERS, KINDS, MODES
from tests.conftest import RecordingEmbedder, git, init_repo, write_files
from tests.lsp_session import until
from tests.test_answers import PRICING_TESTS
from tests.test_related import CALLERS_ALIKE, SHOP

BIG_LINES = 600  # ~50k characters: more than a default answer may hold
TOOLS = {
    "search_code",
    "related_code",
    "find_symbol",
    "call_graph",
    "get_code",
    "index_status",
    "reindex",
    "feedback",
}


def shop_repo(base: Path) -> Path:
    root = init_repo(base / "ws")
    big = "\n".join(  # sections of 20 lines: each answers on its own (a long one, once)
        (f"## Ledger {n // 20}\n" if n % 20 == 0 else "")
        + f"Line {n}: the warehouse ledger records stock moves, returns and audits here."
        for n in range(BIG_LINES)
    )
    files = {
        **SHOP,
        **CALLERS_ALIKE,
        ".env": "TOKEN=abc\n",
        "docs/ledger.md": f"# Ledger\n{big}\n",
        "tests/test_pricing.py": PRICING_TESTS,
    }
    write_files(root, files)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return shop_repo(tmp_path)


@pytest.fixture
def server(root: Path, embedder):
    return mcp_server.create_server(root, embedder=embedder)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, embedder) -> Path:
    """The shop repository indexed once, by the server's own first build (Jedi included:
    it runs in the build). A test that needs an index gets a copy (`ready_root`)."""
    root = shop_repo(tmp_path_factory.mktemp("built"))

    async def first_question() -> None:
        async with connected(mcp_server.create_server(root, embedder=embedder)) as call:
            await call.ok("search_code", {"query": "discount"})

    asyncio.run(first_question())
    return root


@pytest.fixture
def ready_root(built: Path, tmp_path: Path) -> Path:
    """A folder of its own with the built index (files keep their mtimes: it is fresh)."""
    return Path(shutil.copytree(built, tmp_path / "ws", symlinks=True))


@pytest.fixture
def ready_server(ready_root: Path, embedder):
    return mcp_server.create_server(ready_root, embedder=embedder)


class Calls:
    """A connected client that records progress notifications."""

    def __init__(self, client: Client):
        self.client = client
        self.progress: list[tuple[float, float | None, str | None]] = []

    async def __call__(self, name: str, arguments: dict[str, Any] | None = None) -> Any:
        async def progress(done: float, total: float | None, message: str | None) -> None:
            self.progress.append((done, total, message))

        return await self.client.call_tool(name, arguments or {}, progress_callback=progress)

    async def ok(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        result = await self(name, arguments)
        assert not result.is_error, result.content[0].text
        text = result.content[0].text
        data = result.structured_content
        assert fit.size_of(data, text) <= fit.MAX_CHARS
        data["_text"] = text
        return data

    async def error(self, name: str, arguments: dict[str, Any]) -> str:
        result = await self(name, arguments)
        assert result.is_error, result.content[0].text
        return result.content[0].text


@contextlib.asynccontextmanager
async def connected(server: Any) -> AsyncIterator[Calls]:
    """A client in memory. (Not a fixture: the SDK's task group must close in the task
    that opened it, and pytest-asyncio tears fixtures down in another.)"""
    async with Client(server) as client:
        yield Calls(client)


@pytest.mark.asyncio
async def test_tools_are_listed_with_schemas_and_hints(server):
    async with connected(server) as call:
        tools = {tool.name: tool for tool in (await call.client.list_tools()).tools}
        assert set(tools) == TOOLS
        for tool in tools.values():
            assert tool.output_schema and tool.description
            assert tool.annotations.read_only_hint is (tool.name not in ("reindex", "feedback"))
        properties = tools["search_code"].input_schema["properties"]
        assert properties["kind"]["enum"] == ["", *KIND_FILTERS]
        assert properties["mode"]["enum"] == list(MODES)
        assert typing.get_args(mcp_server.Kind) == ("", *KINDS)
        assert typing.get_args(mcp_server.SearchKind) == ("", *KIND_FILTERS)


@pytest.mark.asyncio
async def test_the_model_and_search_path_load_while_the_session_starts(ready_root, embedder):
    """An assistant starts the server, then asks: the model and the search path (~0.5 s
    of a first answer) load as the session starts, not when the first question comes."""
    recording = RecordingEmbedder(embedder)

    async def asked() -> bool:
        return bool(recording.asked)

    async with connected(mcp_server.create_server(ready_root, embedder=recording)):
        await until(asked, "the model to load as the session starts", timeout=120)
    assert recording.asked[0][0] == "query"
    assert threading.main_thread() not in [thread for _, thread in recording.asked]


@pytest.mark.asyncio
async def test_first_question_builds_the_index_with_progress(server, root):
    async with connected(server) as call:
        status = await call.ok("index_status")
        assert status["ready"] is False and not Store(str(root / ".codekith")).has_index()
        found = await call.ok("search_code", {"query": "apply a percentage discount", "k": 3})
        assert found["hits"][0]["qualname"] == "shop.pricing.apply_discount"
        assert found["fresh"] is True and found["truncated"] is False
        assert found["hits"][0]["path"] == "shop/pricing.py"  # relative to the root
        assert "shop/pricing.py:" in found["_text"] and found["hits"][0]["id"] in found["_text"]
        totals = [total for _, total, _ in call.progress if total]
        assert totals and call.progress[0][2] == "building the index"
        status = await call.ok("index_status")
        assert (
            status["ready"]
            and status["chunks"] > 10
            and status["skipped_reasons"] == {"secret file": 1}
        )


@pytest.mark.asyncio
async def test_an_interrupted_build_is_finished_before_the_first_answer(server, root, embedder):
    partial = Project(root, overrides={"batch_chunks": 2}, embedder=embedder)
    with partial.store.write_lock():
        stopped = partial.indexer.run(cancelled=lambda: partial.store.count() > 0)
    part = partial.store.count()
    assert stopped.cancelled and part > 0 and "shop/pricing.py" not in stopped.indexed
    async with connected(server) as call:
        found = await call.ok("search_code", {"query": "apply a percentage discount", "k": 3})
        assert found["hits"][0]["qualname"] == "shop.pricing.apply_discount"
        assert call.progress[0][2] == "building the index" and found["fresh"]
        status = await call.ok("index_status")
        assert status["chunks"] > part + 10 and status["skipped_reasons"] == {"secret file": 1}


@pytest.mark.asyncio
async def test_an_index_of_another_template_is_rebuilt_before_the_first_answer(
    ready_server, ready_root
):
    """After an upgrade that changed the template or the default model, the first question
    rebuilds the index instead of answering "run codekith index --full"."""
    store = Project(ready_root).store
    store.set_meta({"template": "0"})  # as the previous codekith wrote
    async with connected(ready_server) as call:
        found = await call.ok("search_code", {"query": "apply a percentage discount", "k": 3})
        assert found["hits"][0]["qualname"] == "shop.pricing.apply_discount"
        assert call.progress[0][2] == "building the index"
    assert Project(ready_root).store.meta()["template"] != "0"


@pytest.mark.asyncio
async def test_a_build_longer_than_the_wait_says_so_then_answers(server, monkeypatch):
    async with connected(server) as call:
        monkeypatch.setattr(state, "FIRST_BUILD_WAIT_S", 0.0)
        message = await call.error("search_code", {"query": "discount"})
        assert "still being built" in message and "ask again shortly" in message
        monkeypatch.setattr(state, "FIRST_BUILD_WAIT_S", 600.0)
        assert (await call.ok("search_code", {"query": "discount"}))["hits"]


@pytest.mark.asyncio
async def test_search_code_filters_budget_and_bad_arguments(ready_server):
    async with connected(ready_server) as call:
        docs = await call.ok("search_code", {"query": "ledger", "path_prefix": "docs", "k": 5})
        assert docs["hits"] == [] and {h["path"] for h in docs["docs"]} == {"docs/ledger.md"}
        code = await call.ok("search_code", {"query": "warehouse ledger", "kind": "code", "k": 50})
        assert code["hits"] and "section" not in {h["kind"] for h in code["hits"]}
        assert code["docs"] == []  # a kind says what to see: no documentation apart
        methods = await call.ok("search_code", {"query": "price", "kind": "method"})
        assert {h["kind"] for h in methods["hits"]} == {"method"} and methods["docs"] == []
        many = await call.ok("search_code", {"query": "warehouse ledger stock", "k": 50, "docs": 0})
        assert many["truncated"] is True and many["tokens"] <= fit.DEFAULT_BUDGET_TOKENS
        assert 1 < len(many["hits"]) < 50 and "truncated to fit 6000 tokens" in many["_text"]
        assert "must be inside" in await call.error(
            "search_code", {"query": "x", "path_prefix": "../"}
        )
        assert "greater than or equal to 1" in await call.error(
            "search_code", {"query": "x", "k": 0}
        )
        assert "mode" in await call.error("search_code", {"query": "x", "mode": "fuzzy"})
        assert "query" in await call.error("search_code", {"query": ""})
        assert "docs" in await call.error("search_code", {"query": "x", "docs": -1})
        assert "docs" in await call.error("search_code", {"query": "x", "docs": "some"})
        assert "tests_apart" in await call.error("search_code", {"query": "x", "tests_apart": 21})
        assert "tests_apart" in await call.error(
            "search_code", {"query": "x", "tests_apart": "some"}
        )


@pytest.mark.asyncio
async def test_search_code_lists_documentation_apart_from_the_code(ready_server):
    """Sections that match come under `docs`, after code hits that are code only (ranked
    together, documentation takes a code question's first places); `docs: 0` ranks them
    together again, and documentation goes first when an answer must be cut."""
    question = {"query": "warehouse ledger records stock moves and audits"}
    async with connected(ready_server) as call:
        apart = await call.ok("search_code", question)
        assert apart["hits"] and "section" not in {h["kind"] for h in apart["hits"]}
        assert len(apart["docs"]) == DOCS_APART
        assert {h["path"] for h in apart["docs"]} == {"docs/ledger.md"}
        text = apart["_text"]
        assert text.index(apart["hits"][-1]["id"]) < text.index("Documentation, apart from")
        assert text.index("Documentation, apart from") < text.index(apart["docs"][0]["id"])
        together = await call.ok("search_code", {**question, "docs": 0})
        assert together["hits"][0]["kind"] == "section" and together["docs"] == []
        sections = await call.ok("search_code", {**question, "kind": "section"})
        assert {h["kind"] for h in sections["hits"]} == {"section"} and sections["docs"] == []

        code = await call.ok("search_code", {**question, "k": 50, "docs": 0, "kind": "code"})
        cut = await call.ok("search_code", {**question, "k": 50, "docs": 20})
        assert not code["truncated"] and cut["truncated"]
        assert [h["id"] for h in cut["hits"]] == [h["id"] for h in code["hits"]]
        assert 0 < len(cut["docs"]) < 20 and cut["tokens"] <= fit.DEFAULT_BUDGET_TOKENS


@pytest.mark.asyncio
async def test_search_code_lists_tests_apart_unless_tests_are_wanted(ready_server):
    """Tests that match come under `tests`, after hits that hold none and before the
    documentation; `tests_apart: 0`, `tests: true` or a query that says "test" rank them
    among the hits, and cut to the budget, tests go after the documentation, before hits."""
    question = {"query": "a tenth off the amount"}
    async with connected(ready_server) as call:
        apart = await call.ok("search_code", question)
        assert apart["hits"] and not any(h["path"].startswith("tests/") for h in apart["hits"])
        assert apart["tests"][0]["qualname"] == "tests.test_pricing.test_a_tenth_off"
        assert all(h["path"].startswith("tests/") for h in apart["tests"])
        text = apart["_text"]
        assert text.index(apart["hits"][-1]["id"]) < text.index("Tests, apart from the code")
        assert text.index(apart["tests"][-1]["id"]) < text.index("Documentation, apart from")
        for wanted in ({**question, "tests_apart": 0}, {**question, "tests": True}):
            together = await call.ok("search_code", wanted)
            assert together["tests"] == [], wanted
            assert "tests.test_pricing.test_a_tenth_off" in {
                h["qualname"] for h in together["hits"]
            }
        said = await call.ok("search_code", {"query": "the test of a tenth off the amount"})
        assert said["tests"] == [] and said["hits"][0]["path"] == "tests/test_pricing.py"
        many = {**question, "k": 50, "tests_apart": 20}
        whole = await call.ok("search_code", {**many, "kind": "code"})
        cut = await call.ok("search_code", {**many, "docs": 20})
        assert not whole["truncated"] and cut["truncated"] and 0 < len(cut["docs"]) < 20
        for listed in ("tests", "hits"):  # the documentation goes first
            assert [h["id"] for h in cut[listed]] == [h["id"] for h in whole[listed]], listed


@pytest.mark.asyncio
async def test_related_code_targets_budget_and_errors(ready_server, ready_root):
    async with connected(ready_server) as call:
        bundle = await call.ok("related_code", {"target": "who calls send_receipt"})
        reasons = {i["qualname"]: i["reason"] for i in bundle["items"]}
        assert reasons["shop.mail.send_receipt"] == "seed" and bundle["intent"] == "usage"
        assert bundle["_text"].startswith("# Code related to: who calls send_receipt")
        line = 12  # inside compute_price
        absolute = await call.ok(
            "related_code", {"target": f"{ready_root / 'shop/pricing.py'}:{line}"}
        )
        assert absolute["items"][0]["qualname"] == "shop.pricing.compute_price"
        small = await call.ok(
            "related_code",
            {"target": "how does an item compute its total price", "budget_tokens": 500},
        )
        assert small["truncated"] is True and small["tokens"] <= 500
        assert "outside the workspace" in await call.error(
            "related_code", {"target": "/etc/hosts.py:1"}
        )
        assert "shop/nowhere.py is not in the index" in await call.error(
            "related_code", {"target": "shop/nowhere.py:3"}
        )
        too_big = {"target": "x", "budget_tokens": fit.MAX_BUDGET_TOKENS + 1}
        assert "less than or equal to 20000" in await call.error("related_code", too_big)


@pytest.mark.asyncio
async def test_an_assistant_that_wants_tests_gets_them_at_full_score(ready_server):
    """`tests: true`: a test that calls the code ranks with the project's own callers, and
    a question's test hits keep their score; by default they give up their share."""
    position = {"target": "shop/pricing.py:5"}  # apply_discount
    async with connected(ready_server) as call:
        scores = {}
        for wanted in (False, True):
            bundle = await call.ok("related_code", {**position, "tests": wanted})
            scores[wanted] = {i["qualname"].split(".")[-1]: i["score"] for i in bundle["items"]}
        for wanted, expected in ((False, 1 - related_module.SIDE_SHARE), (True, 1.0)):
            test, own = (
                scores[wanted][name] for name in ("discounted_invoice_check", "discounted_invoice")
            )
            assert test / own == pytest.approx(expected, rel=0.1), scores
        question = {"query": "invoice with a discount applied", "k": 3}
        found = {}
        for wanted in (False, True):
            asked = {**question, "tests": wanted, "tests_apart": 0}
            hits = (await call.ok("search_code", asked))["hits"]
            found[wanted] = {h["path"]: h["score"] for h in hits}
        test = "tests/test_invoice.py"
        assert found[True][test] > found[False][test], found
        apart = await call.ok("search_code", question)  # by default, tests come apart
        assert test in {h["path"] for h in apart["tests"]}
        assert not any(h["path"].startswith("tests/") for h in apart["hits"])
        assert "tests" in await call.error("search_code", {**question, "tests": "maybe"})


@pytest.mark.asyncio
async def test_find_symbol_and_call_graph(ready_server):
    async with connected(ready_server) as call:
        found = await call.ok("find_symbol", {"name": "Item.total", "include_body": True})
        definition = found["definitions"][0]
        assert (
            definition["qualname"] == "shop.models.Item.total"
            and "compute_price(" in definition["code"]
        )
        assert definition["docstring"] == "What buying `quantity` of this item costs."
        classes = await call.ok("find_symbol", {"name": "Item", "kind": "class"})
        assert [d["qualname"] for d in classes["definitions"]] == ["shop.models.Item"]
        assert classes["definitions"][0]["code"] is None
        assert (await call.ok("find_symbol", {"name": "nothing_like_this"}))["definitions"] == []
        assert "kind" in await call.error("find_symbol", {"name": "Item", "kind": "struct"})

        graph = await call.ok(
            "call_graph", {"qualname": "compute_price", "direction": "callers", "depth": 2}
        )
        assert graph["qualname"] == "shop.pricing.compute_price"
        steps = {(e["caller"], e["callee"], e["depth"]) for e in graph["edges"]}
        assert ("shop.cart.checkout", "shop.models.Item.total", 2) in steps
        assert {e["how"] for e in graph["edges"]} == {"call"}  # no property in the shop
        assert graph["locations"]["shop.cart.checkout"]["path"] == "shop/cart.py"
        assert "-> shop.pricing.compute_price at shop/models.py:" in graph["_text"]
        assert "no definition named" in await call.error(
            "call_graph", {"qualname": "nowhere_at_all", "direction": "callers"}
        )
        assert "direction" in await call.error(
            "call_graph", {"qualname": "compute_price", "direction": "sideways"}
        )


def test_the_call_graph_text_says_which_edges_read_or_write_a_property():
    edge = {"caller": "m.configure", "callee": "m.Ledger.limit", "path": "m.py", "depth": 1}
    data = {
        "qualname": "m.Ledger.limit",
        "direction": "callers",
        "depth": 1,
        "edges": [{**edge, "line": 20, "how": "write"}, {**edge, "line": 21, "how": "read"}],
        "locations": {},
    }
    text = render.call_graph(data)
    assert "at m.py:20 (step 1, writes the property)" in text
    assert "at m.py:21 (step 1, reads the property)" in text


@pytest.mark.asyncio
async def test_get_code_reads_the_disk_pages_and_refuses(ready_server, ready_root):
    async with connected(ready_server) as call:
        code = await call.ok(
            "get_code", {"path": "shop/pricing.py", "start_line": 5, "end_line": 8}
        )
        assert code["code"].startswith("def apply_discount") and code["changed"] is False
        hit = (await call.ok("search_code", {"query": "send the receipt by email", "k": 1}))[
            "hits"
        ][0]
        by_id = await call.ok("get_code", {"id": hit["id"]})
        assert by_id["qualname"] == hit["qualname"] and by_id["start_line"] == hit["start_line"]
        page = await call.ok("get_code", {"path": "docs/ledger.md"})
        assert page["truncated"] is True and page["tokens"] <= fit.DEFAULT_BUDGET_TOKENS
        assert 1 < page["end_line"] < page["total_lines"]
        assert page["next_start_line"] == page["end_line"] + 1
        rest = await call.ok(
            "get_code", {"path": "docs/ledger.md", "start_line": page["next_start_line"]}
        )
        lines = (ready_root / "docs/ledger.md").read_text().splitlines()
        assert rest["code"].startswith(lines[page["next_start_line"] - 1])
        assert "outside the workspace" in await call.error("get_code", {"path": "/etc/passwd"})
        assert "outside the workspace" in await call.error("get_code", {"path": "../ws/../../x.py"})
        assert "secret file" in await call.error("get_code", {"path": ".env"})
        assert "either path" in await call.error("get_code", {})
        assert "no chunk with id" in await call.error("get_code", {"id": "nope"})
        assert "past its end" in await call.error(
            "get_code", {"path": "shop/mail.py", "start_line": 99}
        )


@pytest.mark.asyncio
async def test_changed_files_are_reindexed_first_or_flagged_stale(
    ready_server, ready_root, monkeypatch
):
    monkeypatch.setattr(state, "CATCH_UP_WAIT_S", 600.0)  # a loaded machine is slow: no race
    async with connected(ready_server) as call:
        await call.ok("search_code", {"query": "discount"})
        refund = 'def issue_refund(order):\n    """Refund a cancelled order."""\n    return 1\n'
        write_files(ready_root, {"shop/refunds.py": refund})
        found = await call.ok("search_code", {"query": "refund a cancelled order", "k": 1})
        assert found["fresh"] is True
        assert found["hits"][0]["qualname"] == "shop.refunds.issue_refund"
        pricing = ready_root / "shop/pricing.py"
        pricing.write_text(pricing.read_text() + "\n# edited\n")
        writer = Store(str(ready_root / ".codekith"))
        with writer.write_lock():  # another process (an editor's server) is writing
            held = await call.ok("search_code", {"query": "apply a percentage discount", "k": 1})
            code = await call.ok("get_code", {"path": "shop/pricing.py", "start_line": 1})
        assert held["fresh"] is False and held["stale"] == ["shop/pricing.py"]
        assert held["hits"][0]["stale"] is True and "[stale]" in held["_text"]
        assert code["changed"] is True and "# edited" in code["code"]
        again = await call.ok("search_code", {"query": "apply a percentage discount", "k": 1})
        assert again["fresh"] is True and again["hits"][0]["stale"] is False


@pytest.mark.asyncio
async def test_a_settings_file_edited_during_the_session_takes_effect(
    ready_server, ready_root, monkeypatch
):
    """The server lives as long as the assistant's session: a `.codekith.toml` written
    meanwhile decides the next answer (the settings were read once, at start); a
    `.gitignore` too."""
    monkeypatch.setattr(state, "CATCH_UP_WAIT_S", 600.0)  # a loaded machine is slow: no race
    asked = {"query": "email a receipt", "path_prefix": "shop/mail.py"}
    async with connected(ready_server) as call:
        assert (await call.ok("search_code", asked))["hits"]
        write_files(ready_root, {".codekith.toml": 'exclude = ["shop/mail.py"]\n'})
        excluded = await call.ok("search_code", asked)
        assert excluded["hits"] == [] and excluded["fresh"] is True
        (ready_root / ".codekith.toml").unlink()
        assert (await call.ok("search_code", asked))["hits"]
        table = 'def lookup_table():\n    """Build the generated lookup table."""\n'
        write_files(ready_root, {"gen/table.py": table})
        generated = {"query": "generated lookup table", "path_prefix": "gen/"}
        assert (await call.ok("search_code", generated))["hits"]
        write_files(ready_root, {".gitignore": "gen/\n"})  # a run over it alone kept gen/
        assert (await call.ok("search_code", generated))["hits"] == []


@pytest.mark.asyncio
async def test_reindex_status_and_feedback(ready_server):
    async with connected(ready_server) as call:
        await call.ok("search_code", {"query": "discount"})
        call.progress.clear()
        rebuilt = await call.ok("reindex", {"full": True})
        assert rebuilt["mode"] == "full" and rebuilt["embedded"] == rebuilt["chunks_total"] > 10
        assert any(total for _, total, _ in call.progress)
        again = await call.ok("reindex")
        assert again["embedded"] == 0 and again["indexed"] == 0
        status = await call.ok("index_status")
        assert status["chunks"] == rebuilt["chunks_total"] and status["fresh"] is True
        assert "full" in await call.error("reindex", {"full": "sometimes"})
        query = "send the customer an email"
        before = [h["id"] for h in (await call.ok("search_code", {"query": query, "k": 5}))["hits"]]
        voted = await call.ok("feedback", {"query": query, "id": before[-1], "vote": "up"})
        assert voted["recorded"] is True
        after = [h["id"] for h in (await call.ok("search_code", {"query": query, "k": 5}))["hits"]]
        assert after.index(before[-1]) < len(before) - 1  # the vote moved it up
        hit = {"id": before[-1]}
        assert "no chunk with id" in await call.error(
            "feedback", {"query": query, "id": "x", "vote": "up"}
        )
        assert "vote" in await call.error(
            "feedback", {"query": query, "id": hit["id"], "vote": "meh"}
        )


@pytest.mark.asyncio
async def test_codekith_mcp_over_stdio(tmp_path):
    root = shop_repo(tmp_path)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "codekith.cli", "mcp", "--root", str(root)],
        cwd=tmp_path,
    )
    async with Client(params, mode="legacy", read_timeout_seconds=600) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        assert tools == TOOLS
        found = await client.call_tool("search_code", {"query": "email the customer a receipt"})
        assert not found.is_error, found.content[0].text
        assert found.structured_content["hits"][0]["qualname"] == "shop.mail.send_receipt"
        bundle = await client.call_tool("related_code", {"target": "shop.pricing.compute_price"})
        items = bundle.structured_content["items"]
        assert items[0]["qualname"] == "shop.pricing.compute_price"
        code = await client.call_tool("get_code", {"id": items[0]["id"]})
        assert code.structured_content["code"].startswith("def compute_price")
        refused = await client.call_tool("get_code", {"path": "/etc/passwd"})
        assert refused.is_error and "outside the workspace" in refused.content[0].text
        text = json.dumps(found.structured_content)
        assert str(root) not in text  # paths are relative to the root
