"""The MCP tools: argument schemas, one call into the answers layer, a budgeted result.

Every tool answers with structured content (its output schema is in models.py) and the
same facts as readable text (render.py), both fitted to a token budget (fit.py). Paths
are relative to the workspace root; one outside it is refused with a tool error. Errors
the caller can fix come back as tool errors with a message saying what to change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from codekith import __version__
from codekith.answers import Answers, NoIndexError, UnknownChunkError
from codekith.embedding import Embedder, ModelUnavailableError
from codekith.freshness import Freshness
from codekith.mcp import fit, models, render
from codekith.mcp.state import FRESHNESS_TTL_S, IndexNotReadyError, WorkspaceState
from codekith.project import Project
from codekith.search import Filters
from codekith.store import IndexLockedError, IndexMismatchError
from codekith.template import code_of
from codekith.vocabulary import DOCS_APART, TESTS_APART
from codekith.workspace import OutsideWorkspaceError, relative_path

log = logging.getLogger(__name__)
STALE_SHOWN = 20
T = TypeVar("T")
Kind = Literal["", "module", "class", "function", "method", "section"]  # vocabulary.KINDS
SearchKind = Literal["", "module", "class", "function", "method", "section", "code"]  # KIND_FILTERS
Mode = Literal["hybrid", "vector", "text"]  # vocabulary.MODES

INSTRUCTIONS = """\
codekith answers questions about the code of one repository from a local index (semantic
and full-text search, a call graph), or of several when its settings list others (search_code,
related_code and find_symbol then name each item's `repo` and take `repos` to keep some).
Start with search_code or related_code (a question, PATH:LINE or a qualified name), follow up
with get_code (by path and lines, or by an id from an earlier answer), find_symbol and
call_graph. Paths are relative to the repository root.
Answers say whether the index is behind the files on disk (`fresh`, `stale`) and whether
they were cut to the token budget (`truncated`). search_code lists the tests and the
documentation sections that match apart from the code hits, under `tests` and `docs`: pass
`tests_apart: 0` or `docs: 0` to rank them among the hits instead, `kind: "section"` for
documentation only. related_code ranks tests below the code they test. Pass `tests: true`
to either when you look for tests: they then rank with the project's own code."""

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITES_INDEX = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
# Errors whose message tells the caller what to change (or what is going on).
EXPECTED = (
    ValueError,  # TargetNotFoundError, NotServedError, OutsideWorkspaceError, bad values
    UnknownChunkError,
    IndexNotReadyError,
    NoIndexError,  # another repository of the workspace without an index
    IndexLockedError,
    IndexMismatchError,
    ModelUnavailableError,
)

Budget = Annotated[
    int,
    Field(
        ge=500,
        le=fit.MAX_BUDGET_TOKENS,
        description="largest answer to send, in tokens (about 4 characters each)",
    ),
]
Repos = Annotated[
    list[str] | None,
    Field(
        description="only these repositories of the workspace (its `repos` setting lists the "
        "others); default: all"
    ),
]
Tests = Annotated[
    bool,
    Field(
        description="true when looking for tests: they then rank with the project's own "
        "code (by default search_code lists them apart and related_code ranks them below "
        "it, unless the question says 'test')"
    ),
]


def create_server(
    root: Path, db: str | None = None, embedder: Embedder | None = None
) -> MCPServer[Any]:
    """An MCP server for the workspace at `root` (tests pass the shared embedder)."""
    project = Project(root, db=db, embedder=embedder)
    state = WorkspaceState(Answers(project, freshness_ttl_s=FRESHNESS_TTL_S))
    server: MCPServer[Any] = MCPServer(
        "codekith",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        lifespan=_warming_up(state.answers),
    )
    _register_retrieval(server, state)
    _register_graph_and_code(server, state)
    _register_index(server, state)
    return server


def _warming_up(
    answers: Answers,
) -> Callable[[MCPServer[Any]], contextlib.AbstractAsyncContextManager[None]]:
    """While the client starts its session, load what its first question would stop for
    (`Answers.warm_up`: the model, the secret scanner, the search path, ~0.5 s of it)."""

    @contextlib.asynccontextmanager
    async def lifespan(server: MCPServer[Any]) -> AsyncIterator[None]:
        warm_up = asyncio.create_task(asyncio.to_thread(answers.warm_up))
        try:
            yield None
        finally:
            warm_up.cancel()  # a thread runs on, but nothing waits for it

    return lifespan


async def _answer(state: WorkspaceState, ctx: Context, work: Callable[[], T]) -> T:
    """Make the index ready (building or catching up), then run `work` in a thread, with
    expected failures turned into tool errors the caller can act on."""
    try:
        await state.ready(_reporter(ctx))
        return await asyncio.to_thread(work)
    except EXPECTED as exc:
        raise ToolError(str(exc)) from exc


def _states(bundles: dict[str, Any]) -> dict[str, Freshness]:
    return {repo: answer.freshness for repo, answer in bundles.items()}


def _reporter(ctx: Context) -> Callable[[float, float | None, str], Awaitable[None]]:
    async def report(done: float, total: float | None, message: str) -> None:
        await ctx.report_progress(done, total, message)

    return report


def _result(data: dict[str, Any], text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def _fresh(state: Freshness) -> dict[str, Any]:
    return {
        "index_head": state.index_head,
        "head": state.head,
        "fresh": state.fresh,
        "stale": state.stale[:STALE_SHOWN],
        "stale_count": len(state.stale),
    }


def _fresh_many(states: dict[str, Freshness]) -> dict[str, Any]:
    """Several repositories: the first one's commits, fresh when all are, stale files
    named `repo: path`."""
    first = next(iter(states.values()))
    stale = [f"{repo}: {path}" for repo, state in states.items() for path in state.stale]
    return {
        "index_head": first.index_head,
        "head": first.head,
        "fresh": all(state.fresh for state in states.values()),
        "stale": stale[:STALE_SHOWN],
        "stale_count": len(stale),
    }


def _hits_and_apart(answer: dict[str, Any]) -> dict[str, Any]:
    return {
        "hits": answer["hits"],
        "tests": answer.get("tests", []),
        "docs": answer.get("docs", []),
    }


def _in_root(answers: Answers, path: str) -> str:
    """A root-relative path, or a tool error for one outside the root."""
    try:
        return relative_path(answers.root, path)
    except OutsideWorkspaceError as exc:
        raise ToolError(f"{exc}; paths must be inside the repository root") from exc


def _register_retrieval(server: MCPServer[Any], state: WorkspaceState) -> None:
    answers = state.answers

    @server.tool(annotations=READ_ONLY, structured_output=True)
    async def search_code(
        query: Annotated[
            str,
            Field(
                min_length=1,
                description="words, a question, a name (`parse_header`, `NO_PROXY`) or a "
                "pasted error message (it finds the code that raises it)",
            ),
        ],
        ctx: Context,
        k: Annotated[int, Field(ge=1, le=50, description="number of hits")] = 10,
        path_prefix: Annotated[str, Field(description="only under this directory or file")] = "",
        language: Annotated[str, Field(description="e.g. python, typescript, markdown")] = "",
        kind: Annotated[
            SearchKind,
            Field(description="only chunks of this kind; code: all but documentation sections"),
        ] = "",
        mode: Annotated[Mode, Field(description="hybrid (default), vector or text")] = "hybrid",
        tests: Tests = False,
        repos: Repos = None,
        docs: Annotated[
            int,
            Field(
                ge=0,
                le=20,
                description="documentation sections listed apart under `docs`, after the "
                "code hits (which are then code only); 0: sections rank among the hits. "
                "Only with no kind",
            ),
        ] = DOCS_APART,
        tests_apart: Annotated[
            int,
            Field(
                ge=0,
                le=20,
                description="tests listed apart under `tests`, after the code hits (which "
                "then hold none); 0: tests rank among the hits, each giving up part of its "
                "score (less for a question that reads like a test's). Not when tests are "
                "wanted: `tests: true`, a query that says 'test'",
            ),
        ] = TESTS_APART,
    ) -> Annotated[CallToolResult, models.SearchResult]:
        """Search the repository by meaning and by words: code hits (functions, classes,
        methods, modules) with a snippet and an id, and apart from them the tests and the
        documentation sections that match. In a workspace of several repositories each
        hit names its `repo`."""
        prefix = _in_root(answers, path_prefix) if path_prefix.strip() else ""
        filters = Filters(prefix, language, kind)

        def work() -> dict[str, Any]:
            workspace = state.spanning(repos)
            if workspace is not None:
                many = workspace.search(
                    query, k, filters, mode, repos, tests=tests, docs=docs, tests_apart=tests_apart
                )
                return {
                    "query": query,
                    "mode": mode,
                    **_hits_and_apart(many.to_json()),
                    "repos": list(many.freshness),
                    **_fresh_many(many.freshness),
                }
            found = answers.search(
                query, k, filters, mode, tests=tests, docs=docs, tests_apart=tests_apart
            )
            return {
                "query": query,
                "mode": mode,
                **_hits_and_apart(found.to_json()),
                **_fresh(found.freshness),
            }

        data = await _answer(state, ctx, work)
        text = fit.fit(
            data, render.search, fit.DEFAULT_BUDGET_TOKENS, ("docs", "tests", "hits"), "snippet"
        )
        return _result(data, text)

    @server.tool(annotations=READ_ONLY, structured_output=True)
    async def related_code(
        target: Annotated[
            str,
            Field(
                min_length=1,
                description="a question, PATH:LINE (a position in a file) or a qualified name",
            ),
        ],
        ctx: Context,
        depth: Annotated[
            int | None, Field(ge=0, le=5, description="call-graph steps (default: by intent)")
        ] = None,
        budget_tokens: Budget = fit.DEFAULT_BUDGET_TOKENS,
        tests: Tests = False,
        repos: Repos = None,
    ) -> Annotated[CallToolResult, models.RelatedResult]:
        """The code related to a question, a position or a definition: the best matches
        plus their callers, callees, bases and subclasses, each with why it is there and its
        code, cut to the token budget. The context to read before changing code. In a
        workspace of several repositories, a position or name is answered by its
        repository and a question by all of them, each item naming its `repo`."""

        def work() -> dict[str, Any]:
            workspace = state.spanning(repos)
            if workspace is not None:
                many = workspace.related(target, depth, budget_tokens, repos, tests=tests)
                return {**many.to_json(), **_fresh_many(_states(many.bundles))}
            bundle = answers.related(target, depth, budget_tokens, tests=tests)
            return {**bundle.to_json(), **_fresh(bundle.freshness)}

        data = await _answer(state, ctx, work)
        for name in ("tokens", "budget", "dirty", "freshness"):
            data.pop(name, None)
        for item in data["items"]:
            item.pop("snippet", None)
        return _result(data, fit.fit(data, render.related, budget_tokens, "items"))

    @server.tool(annotations=READ_ONLY, structured_output=True)
    async def find_symbol(
        name: Annotated[
            str, Field(min_length=1, description="a name, Class.method or a full qualified name")
        ],
        ctx: Context,
        kind: Annotated[Kind, Field(description="only definitions of this kind")] = "",
        include_body: Annotated[bool, Field(description="add each definition's code")] = False,
        repos: Repos = None,
    ) -> Annotated[CallToolResult, models.SymbolResult]:
        """Where a function, class or method is defined (names starting with it when none
        matches exactly, else names it is a piece of: `ComputePrice` -> `compute_price`),
        with signature, docstring and optionally the code. In a workspace of several
        repositories each definition names its `repo`."""

        def work() -> dict[str, Any]:
            workspace = state.spanning(repos)
            if workspace is not None:
                found = workspace.find_symbol(name, kind, repos)
                states = {repo: a.freshness() for repo, a in workspace.indexed(repos).items()}
                definitions = [
                    {**_definition(row, states[repo], include_body), "repo": repo}
                    | {"root": str(owner.root)}
                    for repo, owner, row in found
                ]
                return {"definitions": definitions, "repos": list(states), **_fresh_many(states)}
            rows, freshness = answers.find_symbol(name, kind), answers.freshness()
            return {
                "definitions": [_definition(row, freshness, include_body) for row in rows],
                **_fresh(freshness),
            }

        data = {"name": name, **await _answer(state, ctx, work)}
        return _result(
            data, fit.fit(data, render.symbols, fit.DEFAULT_BUDGET_TOKENS, "definitions")
        )


def _definition(row: dict[str, Any], freshness: Freshness, include_body: bool) -> dict[str, Any]:
    item = {
        key: row[key]
        for key in (
            "id",
            "path",
            "qualname",
            "symbol",
            "kind",
            "language",
            "start_line",
            "end_line",
        )
    }
    item.update(
        signature=row["signature"],
        docstring=(row["docstring"].strip().splitlines() or [""])[0],
        code=code_of(row["document"]) if include_body else None,
    )
    return freshness.mark(item)


def _register_graph_and_code(server: MCPServer[Any], state: WorkspaceState) -> None:
    answers = state.answers

    @server.tool(annotations=READ_ONLY, structured_output=True)
    async def call_graph(
        qualname: Annotated[
            str, Field(min_length=1, description="a qualified name, or Class.method / a name")
        ],
        direction: Annotated[
            Literal["callers", "callees", "both"], Field(description="who calls it, what it calls")
        ],
        ctx: Context,
        depth: Annotated[int, Field(ge=1, le=5, description="steps to follow")] = 1,
    ) -> Annotated[CallToolResult, models.CallGraphResult]:
        """Calls into or out of a definition, each with the file and line of the call site,
        and where every name involved is defined. In Python a read of a property
        (`order.total`) is a call of its getter, a write (`order.total = 0`) of its setter."""

        def work() -> tuple[Any, Freshness]:
            return answers.call_graph(qualname, direction, depth), answers.freshness()

        graph, freshness = await _answer(state, ctx, work)
        data = {
            "qualname": graph.qualname,
            "direction": graph.direction,
            "depth": graph.depth,
            "edges": graph.edges,
            "locations": graph.locations,
            **_fresh(freshness),
        }
        return _result(data, fit.fit(data, render.call_graph, fit.DEFAULT_BUDGET_TOKENS, "edges"))

    @server.tool(annotations=READ_ONLY, structured_output=True)
    async def get_code(
        ctx: Context,
        path: Annotated[str, Field(description="file path relative to the root")] = "",
        start_line: Annotated[int | None, Field(ge=1, description="first line, 1-based")] = None,
        end_line: Annotated[int | None, Field(ge=1, description="last line, inclusive")] = None,
        id: Annotated[str, Field(description="a chunk id from an earlier answer")] = "",
    ) -> Annotated[CallToolResult, models.CodeResult]:
        """The code as it is on disk now, by path (and lines) or by a chunk id; says when
        the file differs from what the index holds. Secrets and files outside the root or
        the index's selection are never shown."""
        if bool(path) == bool(id):
            raise ToolError("give either path (with optional start_line/end_line) or id")
        relative = _in_root(answers, path) if path else None

        def work() -> tuple[Any, Freshness]:
            found = answers.get_code(relative, start_line, end_line, id or None)
            return found, answers.freshness()

        code, freshness = await _answer(state, ctx, work)
        data = {**code.to_json(), "next_start_line": None, **_fresh(freshness)}
        text = fit.fit(data, render.code, fit.DEFAULT_BUDGET_TOKENS)
        if data["truncated"]:
            kept = data["code"].removesuffix(fit.CUT_MARK).count("\n") + 1
            data["end_line"] = data["start_line"] + max(kept, 1) - 1
            data["next_start_line"] = data["end_line"] + 1
            text = render.code(data)
        return _result(data, text)


def _register_index(server: MCPServer[Any], state: WorkspaceState) -> None:
    answers = state.answers

    @server.tool(annotations=READ_ONLY, structured_output=True)
    async def index_status() -> Annotated[CallToolResult, models.StatusResult]:
        """What the index holds (files, chunks, edges, skipped files and why), the last
        run, and how fresh it is. Never starts indexing."""
        status = await asyncio.to_thread(answers.status, 1)
        data: dict[str, Any] = {
            "root": status["root"],
            "ready": status["ready"],
            "indexing": state.indexing,
        }
        if status["ready"]:
            reasons = Counter(reason.split(" (")[0] for reason in status["skipped"].values())
            data.update(
                {key: status[key] for key in ("model", "chunks", "edges", "files", "indexed_at")},
                skipped_count=len(status["skipped"]),
                skipped_reasons=dict(reasons),
                partial_count=len(status["partial"]),
                index_head=status["index_head"],
                head=status["head"],
                fresh=status["fresh"],
                stale=status["stale"][:STALE_SHOWN],
                stale_count=len(status["stale"]),
            )
        full = models.StatusResult(**data).model_dump()
        return _result(full, render.status(full))

    @server.tool(annotations=WRITES_INDEX, structured_output=True)
    async def reindex(
        ctx: Context,
        full: Annotated[
            bool, Field(description="rebuild from scratch instead of updating")
        ] = False,
    ) -> Annotated[CallToolResult, models.ReindexResult]:
        """Bring the index up to date now (or rebuild it), reporting progress."""
        try:
            report = await state.reindex(full, _reporter(ctx))
        except (*EXPECTED, RuntimeError) as exc:
            raise ToolError(str(exc)) from exc
        data = {
            "mode": report.mode,
            **{
                key: value
                for key, value in report.to_json().items()
                if key
                in (
                    "files",
                    "unchanged",
                    "chunks_written",
                    "embedded",
                    "reused",
                    "chunks_total",
                    "seconds",
                )
            },
            "indexed": len(report.indexed),
            "deleted": len(report.deleted),
            "skipped": len(report.skipped),
            "errors": len(report.errors),
        }
        return _result(data, render.reindex(data))

    @server.tool(annotations=WRITES_INDEX, structured_output=True)
    async def feedback(
        query: Annotated[str, Field(min_length=1, description="the query the result answered")],
        id: Annotated[str, Field(min_length=1, description="the chunk id of the result")],
        vote: Annotated[Literal["up", "down"], Field(description="up: more like this; down: less")],
        ctx: Context,
    ) -> Annotated[CallToolResult, models.FeedbackResult]:
        """Tell the index a result was useful (up) or not (down) for a query: similar
        later queries rank it higher or lower."""
        await _answer(state, ctx, lambda: answers.feedback(query, id, 1 if vote == "up" else -1))
        data = {"recorded": True, "query": query, "id": id, "vote": vote}
        return _result(data, render.feedback(data))


def serve(root: Path, db: str | None = None) -> None:
    """Run over stdio until the client closes it (stdout carries only the protocol)."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    create_server(root, db).run("stdio")
