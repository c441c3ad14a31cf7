"""A team index: CI publishes the index of the default branch to object storage (a real
S3-compatible server on 127.0.0.1); a developer's clone answers from it at once, and after a
local edit stores only what differs in a small local overlay. Every answer must equal a
local full index of the same tree."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import boto3
import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from codekith.answers import Answers
from codekith.cli import main
from codekith.layered import LayeredStore, RemoteIndexError
from codekith.project import Project
from codekith.store import Filters, Store
from tests.conftest import HTTP_MODULE, MATH_MODULE, git, init_repo, write_files
from tests.lsp_session import command, end_session, until
from tests.objectstore import REGION, S3Server
from tests.test_index import old_full_text_rule

APP_MODULE = '''
    """The request handler."""
    from pkg.headers import parse_header
    from pkg.mathx import fibonacci


    def handle(line: str) -> str:
        """Answer a request line with the Fibonacci number of its value's length."""
        name, value = parse_header(line)
        return f"{name}: {fibonacci(len(value))}"
'''
EDITED_APP = APP_MODULE.replace("fibonacci", "is_prime").replace(
    "the Fibonacci number of", "whether it is prime,"
)
OLD_MODULE = '''
    def legacy_checksum(data: bytes) -> int:
        """Sum the bytes modulo 255 for clients of the old wire protocol."""
        return sum(data) % 255
'''
NEW_MODULE = '''
    """Rate limiting."""
    from pkg.mathx import fibonacci


    def backoff_delay(attempt: int) -> float:
        """Seconds to wait before retrying a throttled request: Fibonacci backoff."""
        return float(fibonacci(attempt))
'''
LUCAS = '''

    def lucas(n: int) -> int:
        """Return the n-th Lucas number."""
        return fibonacci(n - 1) + fibonacci(n + 1)
'''
PUBLISHED = {
    "pkg/__init__.py": "",
    "pkg/headers.py": HTTP_MODULE,
    "pkg/mathx.py": MATH_MODULE,
    "pkg/app.py": APP_MODULE,
    "pkg/old.py": OLD_MODULE,
}
QUERIES = [
    "retry delay for throttled requests",
    "checksum of bytes for old clients",
    "handle a request line",
]
NO_JEDI = {"jedi": False}  # the fast resolver's edges: Jedi adds minutes, not coverage here


def clone(origin: Path, target: Path) -> Path:
    git(origin, "clone", "-q", str(origin), str(target))
    return target


@pytest.fixture
def published(tmp_path: Path, s3_uri: str, embedder) -> tuple[Path, str]:
    """The team's repository, and its index as CI published it from its own clone."""
    origin = write_files(init_repo(tmp_path / "origin"), PUBLISHED)
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "first")
    publish(clone(origin, tmp_path / "ci"), s3_uri, embedder)
    return origin, s3_uri


def publish(ci: Path, uri: str, embedder) -> None:
    """What CI does on each push to the default branch."""
    git(ci, "pull", "-q", "--ff-only")
    project = Project(ci, db=uri, overrides=NO_JEDI, embedder=embedder)
    with project.store.write_lock():
        report = project.indexer.run()
    assert not report.errors


def fresh_index(root: Path, db: Path, embedder) -> Project:
    """A local full index of the tree as it is now, built from nothing."""
    project = Project(root, db=str(db), overrides=NO_JEDI, embedder=embedder)
    with project.store.write_lock():
        project.indexer.run()
    return project


def bucket_objects(server: S3Server, uri: str) -> dict[str, str]:
    bucket = uri.removeprefix("s3://").split("/", 1)[0]
    client = boto3.client(
        "s3",
        endpoint_url=server.endpoint,
        region_name=REGION,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    pages = client.get_paginator("list_objects_v2").paginate(Bucket=bucket)
    return {o["Key"]: o["ETag"] for page in pages for o in page.get("Contents", [])}


def answers_of(project: Project, queries: list[str] = QUERIES) -> dict[str, Any]:
    """Everything a client can ask, in comparable form (freshness checked once)."""
    answers = Answers(project, freshness_ttl_s=math.inf)
    out: dict[str, Any] = {}
    for query in queries:
        for mode in ("vector", "hybrid"):
            hits = answers.search(query, k=8, mode=mode).to_json()["hits"]
            out[f"search {mode} {query}"] = [_hit(h) for h in hits]
        bundle = answers.related(query).to_json()
        out[f"related {query}"] = [
            (i["id"], i["reason"], round(i["score"], 4)) for i in bundle["items"]
        ]
    # Ids and order only: LanceDB scores rows not yet in the full-text index (a small fresh
    # index holds only such rows) with BM25 statistics of the rows passing the filter, the
    # indexed ones (the mirror's) with the whole corpus's.
    out["filtered"] = [
        (h.id, h.start_line)
        for h in project.searcher.search("number", k=5, filters=Filters(path_prefix="pkg/mathx.py"))
    ]
    for name in ("pkg.mathx.fibonacci", "pkg.headers.parse_header", "pkg.mathx.is_prime"):
        bundle = answers.related(name).to_json()  # seeded by the name: no full-text scores
        out[f"bundle of {name}"] = [
            (i["id"], i["reason"], round(i["score"], 4)) for i in bundle["items"]
        ]
        graph = answers.call_graph(name, "both", depth=2)
        out[f"graph {name}"] = sorted(
            (e["caller"], e["callee"], e["path"], e["line"]) for e in graph.edges
        )
    out["symbols"] = sorted(r["id"] for r in answers.symbols("backoff"))
    out["find legacy"] = [r["id"] for r in answers.find_symbol("legacy_checksum")]
    out["find a piece"] = [r["id"] for r in answers.find_symbol("LegacyChecksum")]
    out["search a piece"] = [h.id for h in project.searcher.search("legacyChecksum", k=3)]
    out["lenses app"] = [
        (lens.row["qualname"], lens.callers, lens.callees) for lens in answers.lenses("pkg/app.py")
    ]
    status = answers.status()
    out["status"] = {
        k: status[k] for k in ("chunks", "edges", "files", "skipped", "fresh", "stale", "head")
    }
    return out


def assert_same_answers(got: dict[str, Any], expected: dict[str, Any]) -> None:
    """Equal to a fresh local index: the same items in the same order, the same everything
    else; scores within 1e-3 (BM25 sums its floats in another order over the text mirror's
    storage than over the full index's)."""
    assert got.keys() == expected.keys()
    for key in expected:
        assert _close(got[key], expected[key]), "\n".join(
            [key, *(f"{g} | {e}" for g, e in zip(got[key], expected[key], strict=False))]
        )


def _close(a: Any, b: Any) -> bool:
    """Equal, floats within 1e-3."""
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, abs_tol=1e-3)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    return bool(a == b)


def _hit(hit: dict[str, Any]) -> tuple[Any, ...]:
    return (hit["id"], hit["path"], hit["start_line"], round(hit["score"], 4), hit["stale"])


def test_a_clone_answers_from_the_published_index_and_overlays_only_its_changes(
    tmp_path, published, s3_server, embedder, capsys
):
    origin, uri = published
    dev = clone(origin, tmp_path / "dev")
    team = Project(dev, remote_index=uri, overrides=NO_JEDI, embedder=embedder)
    assert isinstance(team.read_store, LayeredStore)

    # A new clone answers at once, fresh, without indexing anything locally.
    first = Answers(team).search("split a header line into name and value", k=3).to_json()
    assert first["hits"][0]["qualname"] == "pkg.headers.parse_header"
    assert first["fresh"] and first["index_head"] == git(dev, "rev-parse", "HEAD").strip()
    query = ["search", "split a header line", "--json", "--root", str(dev)]
    assert main([*query, "--remote-index", uri]) == 0  # the CLI as a new clone runs it
    assert json.loads(capsys.readouterr().out)["hits"][0]["qualname"] == "pkg.headers.parse_header"
    assert not (dev / ".codekith").exists()  # reads created nothing locally
    overlay = Store(str(dev / ".codekith"))

    # Local work: one edited file, one new, one deleted (not committed).
    write_files(dev, {"pkg/app.py": EDITED_APP, "pkg/backoff.py": NEW_MODULE})
    (dev / "pkg/old.py").unlink()
    assert Answers(team).search("handle a request line").to_json()["stale"] == [
        "pkg/app.py",
        "pkg/backoff.py",
        "pkg/old.py",
    ]
    before = bucket_objects(s3_server, uri)
    with team.store.write_lock():
        report = team.indexer.run()
    assert report.mode == "git"
    assert sorted(report.indexed) == ["pkg/app.py", "pkg/backoff.py"]
    assert report.deleted == ["pkg/old.py"]
    # Two chunks per changed file (module rest, function), all new; nothing else embedded.
    assert report.chunks_written == report.embedded == 4
    assert bucket_objects(s3_server, uri) == before  # the published index is never written
    assert sorted(overlay.catalog()) == ["pkg/app.py", "pkg/backoff.py"]

    full = fresh_index(dev, tmp_path / "full-db", embedder)
    expected, got = answers_of(full), answers_of(team)
    assert_same_answers(got, expected)
    assert got["status"]["fresh"] and got["find legacy"] == []
    assert ("pkg.app.handle", "pkg.mathx.is_prime", "pkg/app.py", 10) in got[
        "graph pkg.mathx.is_prime"
    ]
    assert all(h[1] != "pkg/old.py" for h in got["search vector checksum of bytes for old clients"])

    # Undoing the edit and the deletion leaves the overlay with the new file only.
    git(dev, "checkout", "--", "pkg/app.py", "pkg/old.py")
    with team.store.write_lock():
        again = team.indexer.run()
    assert again.embedded == 0
    assert sorted(overlay.catalog()) == ["pkg/backoff.py"]
    full = fresh_index(dev, tmp_path / "full-after-undo", embedder)
    assert_same_answers(answers_of(team), answers_of(full))

    # The team publishes a newer commit and the developer pulls it: the overlay follows.
    write_files(origin, {"pkg/mathx.py": MATH_MODULE + LUCAS})
    git(origin, "commit", "-qam", "lucas numbers")
    publish(tmp_path / "ci", uri, embedder)
    git(dev, "pull", "-q", "--ff-only")
    with team.store.write_lock():
        followed = team.indexer.run()
    assert followed.embedded == 0 and sorted(overlay.catalog()) == ["pkg/backoff.py"]
    full = fresh_index(dev, tmp_path / "full-after-pull", embedder)
    expected, got = answers_of(full), answers_of(team)
    assert_same_answers(got, expected)
    assert ("pkg.mathx.lucas", "pkg.mathx.fibonacci") in {
        (caller, callee) for caller, callee, _, _ in got["graph pkg.mathx.fibonacci"]
    }


def test_a_published_index_under_an_older_full_text_rule_answers_as_a_fresh_one(
    tmp_path, published, embedder
):
    """CI published with a codekith whose full-text rule was older: the text mirror holds
    the published rows under the current rule, so answers still equal a fresh index's."""
    origin, uri = published
    remote = Store(uri)
    with remote.write_lock():
        remote.rewrite_search_text(old_full_text_rule)
        remote._table("meta").delete("key = 'text'")
    dev = clone(origin, tmp_path / "dev")
    team = Project(dev, remote_index=uri, overrides=NO_JEDI, embedder=embedder)
    write_files(dev, {"pkg/app.py": EDITED_APP})
    with team.store.write_lock():
        team.indexer.run()
    assert_same_answers(answers_of(team), answers_of(fresh_index(dev, tmp_path / "full", embedder)))


def test_a_missing_published_index_is_a_clear_error(tmp_path, s3_uri, embedder):
    root = write_files(init_repo(tmp_path / "ws"), {"a.py": "def f():\n    return 1\n"})
    team = Project(root, remote_index=s3_uri, embedder=embedder)
    assert not Answers(team).has_index()
    with pytest.raises(RemoteIndexError, match="no published index"), team.store.write_lock():
        team.indexer.run()


SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "codekith.cli", "serve"])


@pytest.fixture
def published_with_jedi(tmp_path: Path, s3_uri: str, embedder) -> tuple[Path, str]:
    """The team's index as CI publishes it with the default settings (Jedi included)."""
    origin = write_files(init_repo(tmp_path / "origin"), PUBLISHED)
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "first")
    ci = clone(origin, tmp_path / "ci")
    project = Project(ci, db=s3_uri, embedder=embedder)
    with project.store.write_lock():
        assert not project.indexer.run().errors
    return origin, s3_uri


@pytest_lsp.fixture(config=SERVER)
async def team_server(lsp_client: LanguageClient, published_with_jedi, s3_server, tmp_path: Path):
    """`codekith serve` on a fresh clone with `remoteIndex` and otherwise default options.
    The server started before the test's AWS variables were set: the store's credentials
    and endpoint come as `storageOptions`, the settings' `storage-options`."""
    origin, uri = published_with_jedi
    storage = {
        "aws_endpoint": s3_server.endpoint,
        "allow_http": "true",
        "aws_access_key_id": "testing",
        "aws_secret_access_key": "testing",
        "aws_region": REGION,
    }
    dev = clone(origin, tmp_path / "dev")
    lsp_client.root = dev  # type: ignore[attr-defined]
    lsp_client.uri = uri  # type: ignore[attr-defined]

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        """The server registers its file watchers."""

    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=dev.as_uri(),
            workspace_folders=[types.WorkspaceFolder(dev.as_uri(), dev.name)],
            initialization_options={"remoteIndex": uri, "storageOptions": storage},
        )
    )
    yield
    await end_session(lsp_client)


@pytest.mark.asyncio
async def test_language_server_on_a_team_index_serves_it_and_overlays_a_saved_file(
    team_server: LanguageClient, s3_server
):
    client, dev = team_server, team_server.root  # type: ignore[attr-defined]
    uri = client.uri  # type: ignore[attr-defined]

    async def idle() -> bool:
        folder = (await command(client, "codekith.status", {}))["folders"][0]
        return bool(folder["ready"]) and not folder["indexing"] and folder["jedi_pending"] == 0

    await until(idle, "the server to be ready on the published index")
    status = (await command(client, "codekith.status", {}))["folders"][0]
    assert status["remote"]["index"] == uri and status["fresh"]
    found = await command(client, "codekith.search", {"query": "split a header line", "k": 1})
    assert found["hits"][0]["qualname"] == "pkg.headers.parse_header"

    before = bucket_objects(s3_server, uri)
    write_files(dev, {"pkg/backoff.py": NEW_MODULE})
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(
            types.TextDocumentIdentifier((dev / "pkg/backoff.py").as_uri())
        )
    )

    async def searchable() -> bool:
        hits = (
            await command(
                client, "codekith.search", {"query": "retry delay for throttled requests", "k": 1}
            )
        )["hits"]
        return bool(hits) and hits[0]["qualname"] == "pkg.backoff.backoff_delay"

    await until(searchable, "the saved file to be searchable from the overlay")
    await until(idle, "the overlay's Jedi pass to finish")
    math_lines = (dev / "pkg/mathx.py").read_text().splitlines()
    line = next(i for i, t in enumerate(math_lines) if t.startswith("def fibonacci"))
    items = await client.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(
            types.TextDocumentIdentifier((dev / "pkg/mathx.py").as_uri()), types.Position(line, 6)
        )
    )
    incoming = await client.call_hierarchy_incoming_calls_async(
        types.CallHierarchyIncomingCallsParams(items[0])
    )
    callers = {call.from_.detail for call in incoming}
    assert {"pkg.app.handle", "pkg.backoff.backoff_delay"} <= callers  # published + overlay
    symbols = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="backoff"))
    assert symbols[0].name == "backoff_delay"
    assert bucket_objects(s3_server, uri) == before  # the published index is never written
    assert sorted(Store(str(dev / ".codekith")).catalog()) == ["pkg/backoff.py"]
