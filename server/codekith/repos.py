"""Several repositories searched together, each hit naming its repository.

Each repository keeps its own index and answers with its own (single-index) search. The
hits are then fused across indexes by reciprocal rank over two global rankings: the
indexes' own scores (each a fusion of vector, full-text and symbol rankings, on one scale),
and the cosine similarity of each hit to the query, which the embedding model makes
comparable across indexes. Neither alone is enough: a repository whose best hit is
irrelevant still tops its own list, and similarity alone forgets the exact-name and
full-text evidence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from codekith.answers import Answers, NoIndexError, RelatedAnswer, SearchAnswer
from codekith.embedding import Embedder, FastEmbedder
from codekith.freshness import Freshness
from codekith.project import Project
from codekith.related import Item, fit_to_budget, markdown_of
from codekith.search import Hit, listed_apart
from codekith.store import NO_FILTERS, Filters

RRF_K = 60  # reciprocal rank fusion's constant: ranks past the first few weigh alike


class UnknownRepositoryError(ValueError):
    """A `repo` filter names no repository of the workspace."""


@dataclass
class FromRepository:
    """Where an answer's hit or item comes from: its repository, and whether its file
    changed there since indexing."""

    repo: str
    root: Path
    stale: bool

    def _with_origin(self, data: dict[str, Any]) -> dict[str, Any]:
        return {**data, "repo": self.repo, "root": str(self.root), "stale": self.stale}


@dataclass
class RepoHit(FromRepository):
    hit: Hit

    def to_json(self) -> dict[str, Any]:
        return self._with_origin(self.hit.to_json())


@dataclass
class MultiSearchAnswer:
    query: str
    hits: list[RepoHit]
    freshness: dict[str, Freshness]
    docs: list[RepoHit] | None = None  # documentation listed apart (`Answers.search`)
    tests: list[RepoHit] | None = None  # tests listed apart

    def to_json(self) -> dict[str, Any]:
        """The hits, and per repository how fresh its index is; `fresh` when all are."""
        data = {
            "query": self.query,
            "repos": list(self.freshness),
            "hits": [hit.to_json() for hit in self.hits],
        }
        apart = listed_apart(self.tests, self.docs)
        data |= {name: [hit.to_json() for hit in listed] for name, listed in apart.items()}
        return {
            **data,
            "fresh": all(state.fresh for state in self.freshness.values()),
            "freshness": {repo: state.to_json() for repo, state in self.freshness.items()},
        }


@dataclass
class RepoItem(FromRepository):
    item: Item

    def to_json(self) -> dict[str, Any]:
        return self._with_origin(self.item.to_json())


@dataclass
class MultiRelatedAnswer:
    """A related bundle over several repositories: from the one a position or name belongs
    to, or, for a question, every repository's bundle merged by score within the budget."""

    target: str
    bundles: dict[str, RelatedAnswer]
    items: list[RepoItem]
    budget: int
    truncated: bool

    def to_json(self) -> dict[str, Any]:
        first = next(iter(self.bundles.values())).bundle
        freshness = {repo: answer.freshness for repo, answer in self.bundles.items()}
        return {
            "query": first.query,
            "target": self.target,
            "intent": first.intent,
            "depth": first.depth,
            "repos": list(self.bundles),
            "items": [item.to_json() for item in self.items],
            "tokens": sum(item.item.tokens for item in self.items),
            "budget": self.budget,
            "truncated": self.truncated,
            "fresh": all(state.fresh for state in freshness.values()),
            "freshness": {repo: state.to_json() for repo, state in freshness.items()},
        }

    def markdown(self) -> str:
        return markdown_of(self.to_json())


def repository_names(roots: Iterable[Path]) -> list[str]:
    """Each root's directory name; a repeated name gets its parent's name in front."""
    roots = list(roots)
    names = [root.name for root in roots]
    return [
        f"{root.parent.name}/{root.name}" if names.count(root.name) > 1 else root.name
        for root in roots
    ]


class Repositories:
    """The answers of several repositories (name -> Answers), searched as one."""

    def __init__(self, repos: dict[str, Answers]):
        if not repos:
            raise ValueError("a workspace needs at least one repository")
        self.repos = repos

    def chosen(self, names: Sequence[str] | None) -> dict[str, Answers]:
        """The repositories a `repo` filter keeps (all when it is empty)."""
        if not names:
            return self.repos
        unknown = [n for n in names if n not in self.repos]
        if unknown:
            raise UnknownRepositoryError(
                f"unknown repository {', '.join(unknown)}; known: {', '.join(self.repos)}"
            )
        return {n: self.repos[n] for n in self.repos if n in names}

    def indexed(self, names: Sequence[str] | None) -> dict[str, Answers]:
        """The chosen repositories, each of which must have an index."""
        chosen = self.chosen(names)
        for name, answers in chosen.items():
            if not answers.root.is_dir():
                raise NoIndexError(
                    f"repository {name}: {answers.root} is not a directory; fix or remove "
                    "it in the `repos` setting"
                )
            if not answers.has_index():
                raise NoIndexError(
                    f"repository {name} has no index; run `codekith index {answers.root}`"
                )
        return chosen

    def search(
        self,
        query: str,
        k: int | None = None,
        filters: Filters = NO_FILTERS,
        mode: str = "hybrid",
        repos: Sequence[str] | None = None,
        states: dict[str, Freshness] | None = None,
        tests: bool = False,
        docs: int = 0,
        tests_apart: int = 0,
    ) -> MultiSearchAnswer:
        """The k best hits over the chosen repositories, and with `docs` and `tests_apart`
        that many documentation sections and tests apart (`Answers.search`), each list
        fused on its own; `states` gives the freshness a caller keeps per repository, as
        the language server does."""
        chosen = self.indexed(repos)
        count = k or max(a.project.settings.k for a in chosen.values())
        fusing = len(chosen) > 1

        def one(item: tuple[str, Answers]) -> tuple[str, SearchAnswer, dict[str, float]]:
            name, answers = item
            state = (states or {}).get(name)
            answer = answers.search(query, count, filters, mode, state, tests, docs, tests_apart)
            # only fusion needs them: reading the hits' vectors took a lone index ~20 ms
            shown = answer.hits + (answer.tests or []) + (answer.docs or [])
            found = _similarities(answers, query, shown) if fusing else {}
            return name, answer, found

        if fusing:
            with ThreadPoolExecutor(len(chosen), thread_name_prefix="codekith-repos") as pool:
                results = list(pool.map(one, chosen.items()))
        else:
            results = [one(item) for item in chosen.items()]
        similarity = {(name, i): s for name, _, found in results for i, s in found.items()}

        def merged(hits_of: Callable[[SearchAnswer], list[Hit]]) -> list[RepoHit]:
            candidates = [
                RepoHit(name, chosen[name].root, answer.freshness.mark(hit.to_json())["stale"], hit)
                for name, answer, _ in results
                for hit in hits_of(answer)
            ]
            return fuse_across(candidates, similarity) if fusing else candidates

        def apart(
            hits_of: Callable[[SearchAnswer], list[Hit] | None], limit: int
        ) -> list[RepoHit] | None:
            """A list apart, fused across indexes, when the indexes listed it apart."""
            if all(hits_of(answer) is None for _, answer, _ in results):
                return None
            return merged(lambda answer: hits_of(answer) or [])[:limit]

        return MultiSearchAnswer(
            query,
            merged(lambda answer: answer.hits)[:count],
            {n: a.freshness for n, a, _ in results},
            apart(lambda answer: answer.docs, docs),
            apart(lambda answer: answer.tests, tests_apart),
        )

    def related(
        self,
        target: str,
        depth: int | None = None,
        budget: int | None = None,
        repos: Sequence[str] | None = None,
        states: dict[str, Freshness] | None = None,
        tests: bool = False,
    ) -> MultiRelatedAnswer:
        """A position, path or name is answered by the repository that holds it (the
        first one's error when none does); a question by every repository, the items of
        their bundles (scored by similarity to the question, one model for all) merged."""
        chosen = self.indexed(repos)
        owners = [name for name, answers in chosen.items() if answers.holds(target)]
        if owners:
            chosen = {owners[0]: chosen[owners[0]]}
        elif _names_a_place(target):
            chosen = dict([next(iter(chosen.items()))])  # its error names the nearest path
        limit = budget or max(a.project.settings.budget for a in chosen.values())

        def one(item: tuple[str, Answers]) -> tuple[str, RelatedAnswer]:
            name, answers = item
            return name, answers.related(target, depth, limit, (states or {}).get(name), tests)

        with ThreadPoolExecutor(len(chosen), thread_name_prefix="codekith-repos") as pool:
            bundles = dict(pool.map(one, chosen.items()))
        merged = [
            RepoItem(name, chosen[name].root, answer.freshness.mark(item.to_json())["stale"], item)
            for name, answer in bundles.items()
            for item in answer.bundle.items
        ]
        if len(bundles) > 1:
            merged.sort(key=lambda entry: -entry.item.score)
        kept, cut = fit_to_budget(merged, limit, lambda entry: entry.item)
        truncated = cut or any(answer.bundle.truncated for answer in bundles.values())
        return MultiRelatedAnswer(target, bundles, kept, limit, truncated)

    def find_symbol(
        self, name: str, kind: str = "", repos: Sequence[str] | None = None, limit: int = 20
    ) -> list[tuple[str, Answers, dict[str, Any]]]:
        """Definitions called `name` in every chosen repository: (repo, its answers, row);
        exact names before prefix or fragment matches, then by repository order."""
        found = [
            (repo, answers, row)
            for repo, answers in self.indexed(repos).items()
            for row in answers.find_symbol(name, kind, limit)
        ]
        found.sort(key=lambda entry: entry[2]["qualname"] != name and entry[2]["symbol"] != name)
        return found[:limit]


def _names_a_place(target: str) -> bool:
    word = target.strip()
    return " " not in word and ("/" in word or ":" in word)


def _similarities(answers: Answers, query: str, hits: list[Hit]) -> dict[str, float]:
    """Cosine similarity of each hit to the query, with the repository's own model."""
    if not hits:
        return {}
    project = answers.project
    vectors = project.read_store.vectors_of(hit.id for hit in hits)
    query_vector = project.searcher.query_vector(query)
    return {chunk_id: _cosine(query_vector, vector) for chunk_id, vector in vectors.items()}


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    norm = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.dot(a, b)) / norm if norm else 0.0


def fuse_across(hits: list[RepoHit], similarity: dict[tuple[str, str], float]) -> list[RepoHit]:
    """Reciprocal rank fusion of two global rankings: by each index's own score and by
    similarity to the query. The fused score replaces the hit's score."""
    by_score = sorted(hits, key=lambda h: -h.hit.score)
    by_similarity = sorted(hits, key=lambda h: -similarity.get((h.repo, h.hit.id), -1.0))
    fused: dict[int, float] = {}
    for ranking in (by_score, by_similarity):
        for rank, item in enumerate(ranking):
            fused[id(item)] = fused.get(id(item), 0.0) + 1.0 / (RRF_K + rank + 1)
    ordered = sorted(hits, key=lambda h: -fused[id(h)])
    for item in ordered:
        item.hit.score = fused[id(item)]
    return ordered


def workspace_roots(root: Path, settings_repos: Sequence[str]) -> list[Path]:
    """This repository, then the others its `repos` setting lists (relative to it)."""
    roots = [root.resolve()]
    for entry in settings_repos:
        other = (root / Path(entry).expanduser()).resolve()
        if other not in roots:
            roots.append(other)
    return roots


def open_repositories(
    roots: Sequence[Path], project_of: Callable[[Path, Callable[[str], Embedder]], Project]
) -> Repositories:
    """Answers for each root, the embedding model loaded once per model for all of them."""
    missing = [str(root) for root in roots if not root.is_dir()]
    if missing:
        raise ValueError(f"not a directory: {', '.join(missing)}")
    models: dict[str, Embedder] = {}

    def model(name: str) -> Embedder:
        if name not in models:
            models[name] = FastEmbedder(name)
        return models[name]

    names = repository_names(roots)
    return Repositories(
        {n: Answers(project_of(r, model)) for n, r in zip(names, roots, strict=True)}
    )


def workspace_of(main: Answers, freshness_ttl_s: float = 0.0) -> Repositories:
    """This repository and the others its `repos` setting lists, sharing its model (the
    others' freshness checked at most every `freshness_ttl_s`)."""
    project = main.project
    roots = workspace_roots(project.root, project.settings.repos)
    names = repository_names(roots)

    def model(name: str) -> Embedder:
        return project.embedder() if name == project.settings.model else FastEmbedder(name)

    others = {
        name: Answers(Project(root, embedder_factory=model), freshness_ttl_s)
        for name, root in zip(names[1:], roots[1:], strict=True)
    }
    return Repositories({names[0]: main, **others})
