"""The language server end to end: a real pytest-lsp client talks to `codekith serve`."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.conftest import HTTP_MODULE, git, init_repo, write_files
from tests.lsp_session import command, end_session, until
from tests.test_related import APP_FACTORY, SETTERS, SHOP

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "codekith.cli", "serve"])


def make_workspace(base: Path) -> Path:
    root = init_repo(base / "ws")
    write_files(
        root,
        {
            **SHOP,
            **APP_FACTORY,
            "shop/ledger.py": SETTERS,
            "web/http.py": HTTP_MODULE,
            ".env": "TOKEN=1\n",
            "docs/guide.md": "# Pricing\nDiscounts apply.\n",
        },
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


PROFILES = ["visual-studio-code", "neovim"]


async def start(lsp_client: LanguageClient, profile: str, base: Path) -> None:
    """Initialize a server on a fresh workspace under `base` and wait for its first index."""
    root = make_workspace(base)
    lsp_client.root = root  # type: ignore[attr-defined]
    lsp_client.registrations = []  # type: ignore[attr-defined]
    lsp_client.indexed = []  # type: ignore[attr-defined]

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        lsp_client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    @lsp_client.feature("codekith/indexed")
    def indexed(params: Any) -> None:
        lsp_client.indexed.append(params)  # type: ignore[attr-defined]

    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(profile),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(root.as_uri(), "ws")],
            initialization_options={"debounceMs": 50, "codeLens": True, "k": "many"},
        )
    )
    await wait_ready(lsp_client)


@pytest_lsp.fixture(config=SERVER, params=PROFILES, scope="module")
async def shared(lsp_client: LanguageClient, request, tmp_path_factory):
    """One server per client profile for the tests that leave the workspace's files as they
    found them (a test that saves writes a file of its own; buffers opened are closed)."""
    await start(lsp_client, request.param, tmp_path_factory.mktemp("lsp"))
    yield
    await end_session(lsp_client)


@pytest_lsp.fixture(config=SERVER, params=PROFILES)
async def client(lsp_client: LanguageClient, request, tmp_path):
    """A server of its own, for a test that deletes files and switches branches."""
    await start(lsp_client, request.param, tmp_path)
    yield
    await end_session(lsp_client)


async def wait_ready(client: LanguageClient, timeout: float = 180) -> dict:
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        status = await command(client, "codekith.status", {})
        folder = status["folders"][0]
        if folder["ready"] and not folder["indexing"] and folder.get("runs"):
            return status
        await asyncio.sleep(0.2)
    raise AssertionError("the index was not ready in time")


def uri(client, path: str) -> str:
    return (client.root / path).as_uri()


@pytest.mark.asyncio(loop_scope="module")
async def test_search_related_status_and_progress(shared: LanguageClient):
    client = shared
    result = await command(
        client, "codekith.search", {"query": "apply a percentage discount", "k": 3}
    )
    top = result["hits"][0]
    assert top["qualname"] == "shop.pricing.apply_discount"
    asked = {"query": "apply a percentage discount", "k": 3, "tests": True}
    wanted = await command(client, "codekith.search", asked)
    assert wanted["hits"] == result["hits"]  # no tests here: the same hits
    assert top["uri"] == uri(client, "shop/pricing.py") and top["stale"] is False
    assert result["fresh"] is True and result["index_head"]
    filtered = await command(
        client, "codekith.search", {"query": "discount", "kind": "section", "pathPrefix": "docs"}
    )
    assert {h["path"] for h in filtered["hits"]} == {"docs/guide.md"} and "docs" not in filtered
    apart = await command(client, "codekith.search", {"query": "discount", "docs": 2})
    assert apart["hits"] and "section" not in {h["kind"] for h in apart["hits"]}
    assert apart["docs"][0]["uri"] == uri(client, "docs/guide.md")
    assert {h["kind"] for h in apart["docs"]} == {"section"} and "tests" not in apart
    asked = {"query": "apply a percentage discount", "k": 3, "testsApart": 2}
    no_tests = await command(client, "codekith.search", asked)  # none in this workspace
    assert no_tests["tests"] == [] and no_tests["hits"] == result["hits"]
    bundle = await command(client, "codekith.related", {"query": "who calls send_receipt"})
    reasons = {i["qualname"]: i["reason"] for i in bundle["items"]}
    assert reasons["shop.mail.send_receipt"] == "seed"
    asked = {"query": "who calls send_receipt", "tests": True}
    assert (await command(client, "codekith.related", asked))["items"] == bundle["items"]
    assert reasons["shop.cart.checkout"] in ("seed", "caller of shop.mail.send_receipt")
    status = await command(client, "codekith.status")
    folder = status["folders"][0]
    assert folder["skipped"][".env"] == "secret file (.env)"
    assert folder["chunks"] > 10 and folder["edges"] > 5 and folder["fresh"] is True
    warnings = [m.message for m in client.messages if m.type == types.MessageType.Warning]
    assert "codekith: options: k must be a int; using 10" in warnings  # bad option, default
    rebuilt = await command(client, "codekith.reindex", {"full": True})
    assert rebuilt["chunks"] == folder["chunks"] == rebuilt["embedded"]
    again = await command(client, "codekith.reindex")
    assert again["embedded"] == 0 and again["chunks"] == folder["chunks"]

    watchers = [
        w["globPattern"] for r in client.registrations for w in r.register_options["watchers"]
    ]
    workspace_caps = client.capabilities.workspace
    if workspace_caps.did_change_watched_files.dynamic_registration:
        assert "**/.git/HEAD" in watchers and "**/*" in watchers
    else:
        assert watchers == []  # never registered with a client that cannot take it

    if client.capabilities.window and client.capabilities.window.work_done_progress:
        kinds = [type(v).__name__ for reports in client.progress_reports.values() for v in reports]
        assert "WorkDoneProgressBegin" in kinds and "WorkDoneProgressEnd" in kinds


@pytest.mark.asyncio(loop_scope="module")
async def test_related_at_cursor_and_dirty_buffers(shared: LanguageClient):
    client = shared
    path = client.root / "shop/pricing.py"
    text = path.read_text()
    line = next(i for i, t in enumerate(text.splitlines()) if "percent = 10" in t)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri(client, "shop/pricing.py"), "python", 1, text)
        )
    )
    bundle = await command(
        client,
        "codekith.related",
        {"uri": uri(client, "shop/pricing.py"), "position": {"line": line, "character": 4}},
    )
    assert bundle["items"][0]["qualname"] == "shop.pricing.compute_price"
    assert bundle["items"][0]["dirty"] is False
    as_markdown = await command(
        client,
        "codekith.related",
        {"symbol": "shop.pricing.compute_price", "format": "markdown", "budget": 200},
    )
    assert as_markdown["markdown"].startswith("# Code related to: shop.pricing.compute_price")

    try:
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(2, uri(client, "shop/pricing.py")),
                [types.TextDocumentContentChangeWholeDocument(text + "\n# edited\n")],
            )
        )
        again = await command(client, "codekith.related", {"symbol": "shop.pricing.compute_price"})
        assert again["items"][0]["dirty"] is True and again["dirty"] == ["shop/pricing.py"]
    finally:  # the shared server's other tests see no unsaved buffer
        client.text_document_did_close(
            types.DidCloseTextDocumentParams(
                types.TextDocumentIdentifier(uri(client, "shop/pricing.py"))
            )
        )
    closed = await command(client, "codekith.related", {"symbol": "shop.pricing.compute_price"})
    assert closed["items"][0]["dirty"] is False and closed["dirty"] == []


async def save_refunds(client: LanguageClient) -> Any:
    """Write and save a new file; the `codekith/indexed` notice that names it."""
    (client.root / "shop/refunds.py").write_text(
        'def issue_refund(order_id):\n    """Give the customer their money back '
        'for a cancelled order."""\n    return order_id\n'
    )
    saved = uri(client, "shop/refunds.py")
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(saved))
    )

    async def announced() -> bool:
        return any(saved in n.indexed for n in client.indexed)  # type: ignore[attr-defined]

    await until(announced, "codekith/indexed to name the saved file")
    return next(n for n in client.indexed if saved in n.indexed)  # type: ignore[attr-defined]


@pytest.mark.asyncio(loop_scope="module")
async def test_did_save_makes_new_code_searchable(shared: LanguageClient):
    """The server says when a save is searchable (`codekith/indexed`): one search then finds
    it, no polling."""
    client = shared
    notice = await save_refunds(client)
    assert notice.root == client.root.as_uri() and notice.chunks > 10
    found = await command(
        client, "codekith.search", {"query": "money back for a cancelled order", "k": 1}
    )
    assert found["hits"][0]["qualname"] == "shop.refunds.issue_refund"


@pytest.mark.asyncio
async def test_watched_files_deletion_and_branch_switch(client: LanguageClient):
    """Changes made outside the editor: a file deleted, a script (no suffix: the watcher
    takes every file), a text file, a branch switch."""
    (client.root / "shop/mail.py").unlink()
    write_files(
        client.root,
        {
            "bin/restock": "#!/bin/bash\n# Order more units of every product that ran out.\n"
            "reorder_sold_out() {\n  echo restock\n}\n",
            "deploy/stores.cfg": "[warehouse]\nnightly inventory count starts at 02:00\n",
        },
    )
    created = types.FileChangeType.Created
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            [
                types.FileEvent(uri(client, "shop/mail.py"), types.FileChangeType.Deleted),
                types.FileEvent(uri(client, "bin/restock"), created),
                types.FileEvent(uri(client, "deploy/stores.cfg"), created),
            ]
        )
    )

    async def outside_edits_indexed() -> bool:
        named = {u for n in client.indexed for u in n.indexed}  # type: ignore[attr-defined]
        return {uri(client, "bin/restock"), uri(client, "deploy/stores.cfg")} <= named

    await until(outside_edits_indexed, "the script and the text file to be indexed")
    asked = {"query": "order more units of products that ran out", "k": 1}
    assert (await command(client, "codekith.search", asked))["hits"][0]["qualname"] == (
        "bin.restock.reorder_sold_out"
    )
    asked = {"query": "when does the nightly inventory count start", "pathPrefix": "deploy/"}
    assert (await command(client, "codekith.search", asked))["hits"][0]["path"] == (
        "deploy/stores.cfg"
    )

    async def mail_hits() -> int:
        found = await command(
            client, "codekith.search", {"query": "email a receipt", "pathPrefix": "shop/mail.py"}
        )
        return len(found["hits"])

    async def mail_gone() -> bool:
        return await mail_hits() == 0

    await until(mail_gone, "the deleted file to leave the index")
    git(client.root, "checkout", "-q", "-b", "other")
    git(client.root, "checkout", "-q", "--", "shop/mail.py")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            [types.FileEvent((client.root / ".git/HEAD").as_uri(), types.FileChangeType.Changed)]
        )
    )
    await until(mail_hits, "the restored file to be indexed after the HEAD change")


@pytest.mark.asyncio
async def test_a_settings_file_edited_under_the_server_takes_effect(client: LanguageClient):
    """`.codekith.toml` edited while the server runs: files it now excludes leave the index
    and come back when the exclusion goes, and its new mistakes are reported, without a
    restart (the settings were read once, at start). A `.gitignore` likewise."""
    settings = client.root / ".codekith.toml"

    def save_settings(text: str) -> None:
        settings.write_text(text)
        client.text_document_did_save(
            types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(settings.as_uri()))
        )

    async def web_hits() -> int:
        asked = {"query": "send an http request", "pathPrefix": "web/"}
        return len((await command(client, "codekith.search", asked))["hits"])

    async def web_gone() -> bool:
        return await web_hits() == 0

    assert await web_hits() > 0
    save_settings('exclude = ["web/**"]\nbudget = "large"\n')
    await until(web_gone, "the files the settings now exclude to leave the index")
    folder = (await command(client, "codekith.status"))["folders"][0]
    assert folder["skipped"]["web/http.py"] == "excluded by configuration"

    async def warned() -> bool:
        return any("budget must be a int" in m.message for m in client.messages)

    await until(warned, "the settings file's new mistake to be reported")
    save_settings("")
    await until(web_hits, "the files no longer excluded to come back")

    # a .gitignore changed outside the editor: the files it now ignores leave (a run over
    # the changed file alone kept them)
    write_files(
        client.root,
        {"gen/table.py": 'def lookup_table():\n    """Build the generated lookup table."""\n'},
    )
    changed = types.FileChangeType.Changed
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent(uri(client, "gen/table.py"), changed)])
    )

    async def generated_hits() -> int:
        asked = {"query": "generated lookup table", "pathPrefix": "gen/"}
        return len((await command(client, "codekith.search", asked))["hits"])

    async def generated_gone() -> bool:
        return await generated_hits() == 0

    await until(generated_hits, "the untracked generated file to be indexed")
    write_files(client.root, {".gitignore": "gen/\n"})
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent(uri(client, ".gitignore"), changed)])
    )
    await until(generated_gone, "the files the .gitignore now ignores to leave the index")


@pytest.mark.asyncio
async def test_an_index_folder_deleted_under_the_server_is_built_again(client: LanguageClient):
    """`rm -rf .codekith` while the server runs, the way users start over: every later run
    failed with "cannot write the index" (its tables were gone) until a restart. Now the
    next command is told the index is being built while a run indexes the whole folder
    again, and a save after it is searchable as before."""
    folder = client.root / ".codekith"

    async def deleted() -> bool:  # the server may be writing in it (compaction): as a
        shutil.rmtree(folder, ignore_errors=True)  # user would, delete again what it wrote
        return not folder.exists()

    await until(deleted, "the index folder to stay deleted")
    with pytest.raises(JsonRpcException, match="still being built"):  # and a run starts
        await command(client, "codekith.search", {"query": "email a receipt"})

    async def rebuilt() -> bool:
        status = await command(client, "codekith.status", {})
        return bool(status["folders"][0]["ready"] and not status["folders"][0]["indexing"])

    await until(rebuilt, "the deleted index to be built again without a save")
    found = await command(client, "codekith.search", {"query": "email a receipt", "k": 1})
    assert found["hits"][0]["path"] == "shop/mail.py"
    assert (await save_refunds(client)).chunks > 10
    found = await command(client, "codekith.search", {"query": "money back", "k": 1})
    assert found["hits"][0]["qualname"] == "shop.refunds.issue_refund"
    status = await command(client, "codekith.status", {})
    assert status["folders"][0]["last_error"] == "", status


@pytest.mark.asyncio(loop_scope="module")
async def test_workspace_symbols_call_hierarchy_and_code_lens(shared: LanguageClient):
    client = shared
    symbols = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="compute"))
    assert symbols[0].name == "compute_price"
    assert symbols[0].location.uri == uri(client, "shop/pricing.py")
    semantic = await client.workspace_symbol_async(
        types.WorkspaceSymbolParams(query="send an email receipt")
    )
    assert "send_receipt" in [s.name for s in semantic[:3]]
    text = (client.root / "shop/pricing.py").read_text().splitlines()
    line = next(i for i, t in enumerate(text) if t.startswith("def compute_price"))
    items = await client.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(
            types.TextDocumentIdentifier(uri(client, "shop/pricing.py")), types.Position(line, 6)
        )
    )
    assert items and items[0].name == "compute_price"
    incoming = await client.call_hierarchy_incoming_calls_async(
        types.CallHierarchyIncomingCallsParams(items[0])
    )
    assert [c.from_.detail for c in incoming] == ["shop.models.Item.total"]
    outgoing = await client.call_hierarchy_outgoing_calls_async(
        types.CallHierarchyOutgoingCallsParams(items[0])
    )
    assert "shop.pricing.apply_discount" in [c.to.detail for c in outgoing]
    assert outgoing[0].from_ranges[0].start.line > line
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(types.TextDocumentIdentifier(uri(client, "shop/pricing.py")))
    )
    titles = {lens.range.start.line: lens.command.title for lens in lenses}
    assert titles[line].startswith("1 caller · 1 callee")
    assert lenses[0].command.command == "codekith.related"


@pytest.mark.asyncio(loop_scope="module")
async def test_call_hierarchy_tells_a_property_getter_from_its_setter(shared: LanguageClient):
    """Both are `Ledger.limit`: the item says which one it is, so the setter lists the writes
    (and its own calls) and the getter the reads; each has its lens."""
    client = shared
    ledger = uri(client, "shop/ledger.py")
    text = (client.root / "shop/ledger.py").read_text().splitlines()
    getter, setter = [  # 0-based lines of the two `def`s; each lens is on its decorator
        i
        for i, t in enumerate(text)
        if t.strip() in ("def limit(self):", "def limit(self, value):")
    ]

    async def hierarchy(line: int) -> tuple[list[str], list[str]]:
        items = await client.text_document_prepare_call_hierarchy_async(
            types.CallHierarchyPrepareParams(
                types.TextDocumentIdentifier(ledger), types.Position(line, 8)
            )
        )
        assert items and items[0].name == "limit"
        incoming = await client.call_hierarchy_incoming_calls_async(
            types.CallHierarchyIncomingCallsParams(items[0])
        )
        outgoing = await client.call_hierarchy_outgoing_calls_async(
            types.CallHierarchyOutgoingCallsParams(items[0])
        )
        return [c.from_.name for c in incoming], [c.to.name for c in outgoing]

    assert await hierarchy(getter) == (["configure"], [])
    assert await hierarchy(setter) == (["__init__", "configure"], ["clamp"])
    items = await client.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(
            types.TextDocumentIdentifier(ledger), types.Position(setter, 8)
        )
    )
    items[0].data = {**items[0].data, "accessor": "deleter"}  # not one this server names
    with pytest.raises(JsonRpcException, match="unknown accessor"):
        await client.call_hierarchy_incoming_calls_async(
            types.CallHierarchyIncomingCallsParams(items[0])
        )
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(types.TextDocumentIdentifier(ledger))
    )
    titles = {lens.range.start.line: lens.command.title for lens in lenses}
    assert titles[getter - 1].startswith("1 caller · 0 callees"), titles
    assert titles[setter - 1].startswith("2 callers · 1 callee"), titles


@pytest.mark.asyncio(loop_scope="module")
async def test_a_handler_registered_in_a_function_has_a_symbol_and_a_call_hierarchy(
    shared: LanguageClient,
):
    """A route decorated inside an app factory was a part of the factory: no workspace
    symbol named it, and call hierarchy at its `def` gave the factory and its calls."""
    client = shared
    views = uri(client, "shop/views.py")
    symbols = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="basket"))
    assert (symbols[0].name, symbols[0].container_name) == ("basket", "shop.views.create_app")
    text = (client.root / "shop/views.py").read_text().splitlines()
    line = next(i for i, t in enumerate(text) if t.strip() == "def home():")
    items = await client.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(
            types.TextDocumentIdentifier(views), types.Position(line, 8)
        )
    )
    assert [item.name for item in items] == ["home"]
    outgoing = await client.call_hierarchy_outgoing_calls_async(
        types.CallHierarchyOutgoingCallsParams(items[0])
    )
    assert [(c.to.name, [r.start.line for r in c.from_ranges]) for c in outgoing] == [
        ("render_page", [line + 2])
    ]
    render = uri(client, "shop/pages.py")
    items = await client.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(types.TextDocumentIdentifier(render), types.Position(1, 6))
    )
    incoming = await client.call_hierarchy_incoming_calls_async(
        types.CallHierarchyIncomingCallsParams(items[0])
    )
    assert sorted(c.from_.name for c in incoming) == ["basket", "create_app", "home"]
