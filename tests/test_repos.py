"""Several repositories searched together: each keeps its own index, the hits are fused
across them, each names its repository, and a `repo` filter keeps some."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codekith.answers import Answers
from codekith.cli import main
from codekith.project import Project
from codekith.repos import Repositories, UnknownRepositoryError, repository_names
from tests.conftest import HTTP_MODULE, MATH_MODULE, git, init_repo, write_files

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
}
NUMERIC = {
    "numeric/series.py": MATH_MODULE,
    "numeric/stats.py": '''
        def mean(values: list[float]) -> float:
            """The arithmetic mean of a list of numbers."""
            return sum(values) / len(values)
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

    only = repos.search("tell whether a number is prime", k=5, repos=["webapp"])
    assert only.hits and {h.repo for h in only.hits} == {"webapp"}
    assert list(only.freshness) == ["webapp"]
    with pytest.raises(UnknownRepositoryError, match="known: webapp, numeric"):
        repos.search("anything", repos=["nope"])


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
