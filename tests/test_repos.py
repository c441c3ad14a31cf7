"""Several repositories searched together: each keeps its own index, the hits are fused
across them, each names its repository, and a `repo` filter keeps some."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from mcp import Client
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from codekith.answers import Answers
from codekith.cli import main
from codekith.mcp import server as mcp_server
from codekith.project import Project
from codekith.related import TargetNotFoundError
from codekith.repos import Repositories, UnknownRepositoryError, repository_names
from codekith.store import Store
from tests.conftest import HTTP_MODULE, MATH_MODULE, git, init_repo, write_files
from tests.lsp_session import end_session

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "codekith.cli", "serve"])

WEB = {
    "web/headers.py": HTTP_MODULE,
    "web/routes.py": '''
        """URL routing."""


        def route(path: str):
            """Register a view function for a URL path."""
            def register(view):
                ROUTES[path] = view
                return view
            return register


        ROUTES: dict = {}
    ''',
    "tests/test_routes.py": '''
        from web.routes import ROUTES, route

        def test_a_view_is_registered_for_its_path():
            """A view registered for a URL path is found in the table of routes."""
            route("/")(print)
            assert ROUTES["/"] is print
    ''',
    "docs/routing.md": """
        # Routing

        Each view is registered for a URL path with the `route` decorator, which records
        the view function in the table of routes.
    """,
}
NUMERIC = {
    "numeric/series.py": MATH_MODULE,
    "numeric/stats.py": '''
        def mean(values: list[float]) -> float:
            """The arithmetic mean of a list of numbers."""
            return sum(values) / len(values)
    ''',
    "tests/test_stats.py": '''
        from numeric.stats import mean

        def test_mean_of_numbers():
            """The mean of a list of numbers is their sum over their count."""
            assert mean([1.0, 2.0, 3.0]) == 2.0
    ''',
    "pyproject.toml": '[tool.codekith]\nrepos = ["../webapp"]\n',
}


def repository(root: Path, files: dict[str, str]) -> Path:
    write_files(init_repo(root), files)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")
    return root


@pytest.fixture(scope="module")
def two_repos(tmp_path_factory, embedder) -> tuple[Path, Path]:
    """Two real git repositories, each indexed on its own."""
    base = tmp_path_factory.mktemp("repos")
    roots = repository(base / "webapp", WEB), repository(base / "numeric", NUMERIC)
    for root in roots:
        project = Project(root, overrides={"jedi": False}, embedder=embedder)
        with project.store.write_lock():
            assert project.indexer.run().embedded > 0
    return roots


def workspace(roots: tuple[Path, ...], embedder) -> Repositories:
    names = repository_names(roots)
    return Repositories(
        {n: Answers(Project(r, embedder=embedder)) for n, r in zip(names, roots, strict=True)}
    )


def test_documentation_apart_is_fused_across_indexes_as_the_hits_are(two_repos, embedder):
    repos = workspace(two_repos, embedder)
    found = repos.search("how is a view registered for a URL path", k=5, docs=3)
    assert found.hits and "section" not in {h.hit.kind for h in found.hits}
    assert found.hits[0].hit.qualname == "web.routes.route"
    docs = found.docs or []
    assert (docs[0].repo, docs[0].hit.path) == ("webapp", "docs/routing.md")
    assert {h.hit.kind for h in docs} == {"section"} and found.to_json()["docs"][0]["repo"]
    together = repos.search("how is a view registered for a URL path", k=5)
    assert together.docs is None and "docs" not in together.to_json()
    assert "docs/routing.md" in {h.hit.path for h in together.hits}


def test_tests_apart_are_fused_across_indexes_as_the_hits_are(two_repos, embedder):
    repos = workspace(two_repos, embedder)
    question = "the mean of a list of numbers"
    found = repos.search(question, k=5, tests_apart=2)
    assert found.hits[0].hit.qualname == "numeric.stats.mean"
    assert not any(h.hit.path.startswith("tests/") for h in found.hits)
    tests = found.tests or []
    assert [(h.repo, h.hit.path) for h in tests] == [
        ("numeric", "tests/test_stats.py"),
        ("webapp", "tests/test_routes.py"),
    ]
    assert found.to_json()["tests"][0]["repo"] == "numeric"
    together = repos.search(question, k=5)
    assert together.tests is None and "tests" not in together.to_json()
    assert "tests/test_stats.py" in {h.hit.path for h in together.hits}


def test_hits_from_both_indexes_are_fused_and_name_their_repository(two_repos, embedder):
    repos = workspace(two_repos, embedder)
    header = repos.search("split an HTTP header line into name and value", k=5)
    assert (header.hits[0].repo, header.hits[0].hit.qualname) == (
        "webapp",
        "web.headers.parse_header",
    )
    prime = repos.search("tell whether a number is prime", k=5)
    assert (prime.hits[0].repo, prime.hits[0].hit.qualname) == (
        "numeric",
        "numeric.series.is_prime",
    )
    assert {h.repo for h in prime.hits} == {"webapp", "numeric"}  # both indexes answered
    scores = [h.hit.score for h in prime.hits]
    assert scores == sorted(scores, reverse=True)
    data = prime.to_json()
    assert data["repos"] == ["webapp", "numeric"] and data["fresh"]
    assert data["hits"][0]["repo"] == "numeric" and data["hits"][0]["path"] == "numeric/series.py"
    assert data["hits"][0]["root"] == str(two_repos[1])

    read: list[str] = []
    real = Store.vectors_of
    with pytest.MonkeyPatch.context() as patch:  # one index: nothing to fuse, no vector read
        patch.setattr(
            Store, "vectors_of", lambda self, ids: read.append("vectors") or real(self, ids)
        )
        only = repos.search("tell whether a number is prime", k=5, repos=["webapp"])
        assert read == []
        assert repos.search("tell whether a number is prime", k=5).hits and read
    assert only.hits and {h.repo for h in only.hits} == {"webapp"}
    assert list(only.freshness) == ["webapp"]
    with pytest.raises(UnknownRepositoryError, match="known: webapp, numeric"):
        repos.search("anything", repos=["nope"])


def test_related_goes_to_the_repository_a_target_names_and_merges_for_a_question(
    two_repos, embedder
):
    web = two_repos[0]
    repos = workspace(two_repos, embedder)
    by_name = repos.related("numeric.series.is_prime")
    assert list(by_name.bundles) == ["numeric"]
    assert {i.repo for i in by_name.items} == {"numeric"}
    assert by_name.items[0].item.hit.qualname == "numeric.series.is_prime"
    lines = (web / "web/headers.py").read_text().splitlines()
    line = next(n for n, text in enumerate(lines, 1) if "def parse_header" in text)
    at = repos.related(f"web/headers.py:{line}").to_json()
    assert at["repos"] == ["webapp"] and at["items"][0]["qualname"] == "web.headers.parse_header"
    assert at["items"][0]["repo"] == "webapp" and at["items"][0]["root"] == str(web)
    with pytest.raises(TargetNotFoundError, match="not in the index"):
        repos.related("nowhere/missing.py:3")

    question = repos.related("split an HTTP header line and tell whether a number is prime")
    assert list(question.bundles) == ["webapp", "numeric"]
    assert {i.repo for i in question.items} == {"webapp", "numeric"}
    scores = [i.item.score for i in question.items]
    assert scores == sorted(scores, reverse=True)
    small = repos.related("tell whether a number is prime", budget=60)
    assert small.truncated and sum(i.item.tokens for i in small.items) <= 60

    found = repos.find_symbol("parse_header")
    assert [(repo, row["qualname"]) for repo, _, row in found] == [
        ("webapp", "web.headers.parse_header")
    ]
    assert repos.find_symbol("mean", repos=["webapp"]) == []


def test_cli_searches_repeated_indexes_and_the_configured_list(two_repos, capsys):
    web, numeric = two_repos

    def run(*args: str) -> tuple[int, str, str]:
        code = main(["search", *args, "--root", str(numeric)])
        out, err = capsys.readouterr()
        return code, out, err

    code, out, err = run(
        "register a view for a URL", "--index", str(web), "--index", str(numeric), "--json"
    )
    assert code == 0, err
    found = json.loads(out)
    assert (
        found["hits"][0]["repo"] == "webapp" and found["hits"][0]["qualname"] == "web.routes.route"
    )

    # numeric's pyproject lists ../webapp: a plain search covers both, --repo narrows it.
    code, out, err = run("the mean of numbers", "--repo", "numeric", "--json")
    assert code == 0, err
    hits = json.loads(out)["hits"]
    assert hits[0]["qualname"] == "numeric.stats.mean" and {h["repo"] for h in hits} == {"numeric"}
    code, out, _ = run("the mean of numbers", "-k", "8")
    assert code == 0 and "numeric: numeric/stats.py:" in out and "webapp: web/" in out

    code, _, err = run("x", "--repo", "nope")
    assert code == 2 and "known: numeric, webapp" in err

    # related: a name goes to its repository; a question spans the configured workspace.
    assert main(["related", "web.routes.route", "--root", str(numeric), "--json"]) == 0
    bundle = json.loads(capsys.readouterr().out)
    assert bundle["repos"] == ["webapp"] and bundle["items"][0]["repo"] == "webapp"
    assert main(["related", "register a view for a URL path", "--root", str(numeric)]) == 0
    out = capsys.readouterr().out
    assert "webapp: web/routes.py:" in out and "tokens, intent" in out
    assert main(["related", "the mean", "--root", str(numeric), "--format", "markdown"]) == 0
    assert "`numeric: numeric/stats.py:" in capsys.readouterr().out


@pytest_lsp.fixture(config=SERVER)
async def multi_root(lsp_client: LanguageClient, two_repos):
    """A language server on a multi-root workspace: both repositories as folders."""
    lsp_client.roots = two_repos  # type: ignore[attr-defined]

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        """The server registers its file watchers."""

    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=two_repos[0].as_uri(),
            workspace_folders=[types.WorkspaceFolder(r.as_uri(), r.name) for r in two_repos],
            initialization_options={"jedi": False},
        )
    )
    yield
    await end_session(lsp_client)


async def ready_folders(client: LanguageClient, count: int, timeout: float = 180) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        status = await execute(client, "codekith.status", {})
        folders = status["folders"]
        if len(folders) == count and all(f["ready"] and not f["indexing"] for f in folders):
            return
        await asyncio.sleep(0.2)
    raise AssertionError("the folders were not ready in time")


async def execute(client: LanguageClient, name: str, argument: dict) -> Any:
    params = types.ExecuteCommandParams(command=name, arguments=[argument])
    return await client.workspace_execute_command_async(params)


@pytest.mark.asyncio
async def test_language_server_searches_every_folder_of_a_multi_root_workspace(
    multi_root: LanguageClient,
):
    web, numeric = multi_root.roots  # type: ignore[attr-defined]
    await ready_folders(multi_root, 2)
    found = await execute(multi_root, "codekith.search", {"query": "the mean of numbers", "k": 8})
    assert found["repos"] == ["webapp", "numeric"]
    top = found["hits"][0]
    assert (top["repo"], top["qualname"]) == ("numeric", "numeric.stats.mean")
    assert top["uri"] == (numeric / "numeric/stats.py").as_uri()
    assert {h["repo"] for h in found["hits"]} == {"webapp", "numeric"}

    only = await execute(
        multi_root, "codekith.search", {"query": "the mean of numbers", "repos": ["webapp"]}
    )
    assert only["repos"] == ["webapp"] and {h["repo"] for h in only["hits"]} == {"webapp"}
    assert all(h["uri"].startswith(web.as_uri()) for h in only["hits"])
    with pytest.raises(JsonRpcException, match="unknown repository nope"):
        await execute(multi_root, "codekith.search", {"query": "x", "repos": ["nope"]})


@pytest.mark.asyncio
async def test_mcp_search_code_takes_repos_and_names_each_hit_repository(two_repos, embedder):
    """numeric's `repos` setting makes webapp part of its workspace."""
    web, numeric = two_repos
    server = mcp_server.create_server(numeric, embedder=embedder)
    async with Client(server) as client:
        both = await client.call_tool("search_code", {"query": "register a view for a URL"})
        assert not both.is_error, both.content[0].text
        data = both.structured_content
        assert data["repos"] == ["numeric", "webapp"]
        assert (data["hits"][0]["repo"], data["hits"][0]["qualname"]) == (
            "webapp",
            "web.routes.route",
        )
        assert data["hits"][0]["root"] == str(web)
        assert "webapp: web/routes.py:" in both.content[0].text
        assert (data["docs"][0]["repo"], data["docs"][0]["path"]) == ("webapp", "docs/routing.md")
        assert "section" not in {h["kind"] for h in data["hits"]}
        only = await client.call_tool(
            "search_code", {"query": "register a view for a URL", "repos": ["numeric"]}
        )
        assert {h["repo"] for h in only.structured_content["hits"]} == {"numeric"}
        wrong = await client.call_tool("search_code", {"query": "x", "repos": ["nope"]})
        assert wrong.is_error and "known: numeric, webapp" in wrong.content[0].text

        related = await client.call_tool(
            "related_code", {"target": "register a view for a URL path", "budget_tokens": 2000}
        )
        assert not related.is_error, related.content[0].text
        bundle = related.structured_content
        assert bundle["repos"] == ["numeric", "webapp"]
        assert (bundle["items"][0]["repo"], bundle["items"][0]["qualname"]) == (
            "webapp",
            "web.routes.route",
        )
        assert "`webapp: web/routes.py:" in related.content[0].text
        named = await client.call_tool("related_code", {"target": "numeric.stats.mean"})
        assert named.structured_content["repos"] == ["numeric"]
        assert named.structured_content["items"][0]["qualname"] == "numeric.stats.mean"

        symbol = await client.call_tool("find_symbol", {"name": "route"})
        assert not symbol.is_error, symbol.content[0].text
        definitions = symbol.structured_content["definitions"]
        assert (definitions[0]["repo"], definitions[0]["qualname"]) == (
            "webapp",
            "web.routes.route",
        )
        assert definitions[0]["root"] == str(web)
        assert "at webapp: web/routes.py:" in symbol.content[0].text


@pytest.mark.asyncio
async def test_mcp_follows_a_repos_setting_written_during_the_session(
    two_repos, embedder, tmp_path
):
    """An assistant's session outlives settings edits: a `repos` entry written while the
    MCP server runs brings that repository into the next answer, and removing it takes it
    out again."""
    web, _ = two_repos
    alone = {path: text for path, text in NUMERIC.items() if path != "pyproject.toml"}
    main_root = repository(tmp_path / "numeric", alone)
    question = {"query": "register a view for a URL"}
    server = mcp_server.create_server(main_root, embedder=embedder)
    async with Client(server) as client:
        first = await client.call_tool("search_code", question)
        assert not first.is_error, first.content[0].text
        assert first.structured_content.get("repos") is None
        assert "web.routes.route" not in {h["qualname"] for h in first.structured_content["hits"]}

        (main_root / ".codekith.toml").write_text(f"repos = [{json.dumps(str(web))}]\n")
        both = await client.call_tool("search_code", question)
        assert not both.is_error, both.content[0].text
        assert both.structured_content["repos"] == ["numeric", "webapp"]
        top = both.structured_content["hits"][0]
        assert (top["repo"], top["qualname"]) == ("webapp", "web.routes.route")
        symbol = await client.call_tool("find_symbol", {"name": "route"})
        assert symbol.structured_content["definitions"][0]["repo"] == "webapp"

        (main_root / ".codekith.toml").write_text('repos = ["../nowhere"]\n')
        missing = await client.call_tool("search_code", question)
        assert missing.is_error and "nowhere is not a directory" in missing.content[0].text

        (main_root / ".codekith.toml").write_text("")
        again = await client.call_tool("search_code", question)
        assert again.structured_content.get("repos") is None
        assert {h.get("repo") for h in again.structured_content["hits"]} == {None}


@pytest.mark.asyncio
async def test_mcp_catches_up_the_other_repositories_before_answering(embedder, tmp_path):
    """A file written in another repository of the workspace during the session is in the
    next answer, as one written in the server's own root is (before, that repository's
    index was only read: the new code was missing, its path flagged stale), and that
    repository's own settings, edited, decide what it holds."""
    web = repository(tmp_path / "webapp", WEB)
    project = Project(web, overrides={"jedi": False}, embedder=embedder)
    with project.store.write_lock():
        project.indexer.run()
    alone = {path: text for path, text in NUMERIC.items() if path != "pyproject.toml"}
    main_root = repository(
        tmp_path / "numeric", {**alone, ".codekith.toml": 'repos = ["../webapp"]\n'}
    )
    question = {"query": "compress a response body with gzip"}
    server = mcp_server.create_server(main_root, embedder=embedder)
    async with Client(server) as client:
        before = await client.call_tool("search_code", question)
        assert not before.is_error, before.content[0].text
        assert "web.gzip.compress_body" not in {
            h["qualname"] for h in before.structured_content["hits"]
        }

        write_files(
            web,
            {
                "web/gzip.py": '''
                    import gzip


                    def compress_body(body: bytes) -> bytes:
                        """Compress a response body with gzip for clients that accept it."""
                        return gzip.compress(body)
                ''',
            },
        )
        after = await client.call_tool("search_code", question)
        assert not after.is_error, after.content[0].text
        data = after.structured_content
        assert (data["hits"][0]["repo"], data["hits"][0]["qualname"]) == (
            "webapp",
            "web.gzip.compress_body",
        )
        assert data["fresh"] and data["stale"] == [], data["stale"]

        (web / ".codekith.toml").write_text('exclude = ["web/gzip.py"]\n')
        excluded = await client.call_tool("search_code", question)
        assert not excluded.is_error, excluded.content[0].text
        hits = excluded.structured_content["hits"]
        assert "web.gzip.compress_body" not in {h["qualname"] for h in hits}
