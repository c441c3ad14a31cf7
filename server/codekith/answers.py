"""The answers a project gives, whichever protocol asks: CLI, language server or MCP.

Each protocol layer parses its arguments, calls one method here and renders the result.
Defaults (k, depth, budget), freshness and stale marking, the write lock of feedback and
which files may be shown are decided here once, so the three layers cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import difflib
import logging
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from codekith import freshness, gitrepo
from codekith.freshness import Freshness
from codekith.graph.model import CALL_KINDS
from codekith.languages import language_of
from codekith.progress import Progress
from codekith.project import Project
from codekith.qualnames import accessor_of, constructed, definition_of, with_constructors
from codekith.related import Bundle, TargetNotFoundError, location_of, to_markdown
from codekith.search import Apart, Hit, listed_apart
from codekith.secrets import load_scanner
from codekith.store import NO_FILTERS, Filters, IndexLockedError, IndexMismatchError
from codekith.template import code_of
from codekith.workspace import (
    NotIndexableError,
    OutsideWorkspaceError,
    WorkspaceFilter,
    indexable_source,
    relative_path,
)

if TYPE_CHECKING:  # the indexer loads the chunkers and parsers: `status` needs none
    import numpy as np

    from codekith.indexer import IndexReport

log = logging.getLogger(__name__)

FEEDBACK_LOCK_WAIT_S = 10.0
DEFINITION_KINDS = ("function", "method", "class")
Direction = Literal["callers", "callees", "both"]
DIRECTIONS: tuple[Direction, ...] = ("callers", "callees", "both")
HOW = {"property": "read", "setter": "write"}  # how a call graph edge calls: else "call"
ACCESSORS = ("", "setter")  # which part of a property a definition is ("": any definition)


class NoIndexError(RuntimeError):
    """The workspace has no index yet."""


class DamagedIndexError(NoIndexError):
    """The index cannot be read as it is; the next index run repairs it."""


class UnknownChunkError(LookupError):
    """No live chunk has the id given."""


class NotServedError(ValueError):
    """A file answers never show: outside the index's selection, a secret, binary..."""


@dataclass
class SearchAnswer:
    """The hits; `tests` and `docs` the tests and documentation sections listed apart when
    asked for (None when not: then they rank among the hits, unless filtered out)."""

    query: str
    hits: list[Hit]
    freshness: Freshness
    docs: list[Hit] | None = None
    tests: list[Hit] | None = None

    def to_json(self) -> dict[str, Any]:
        apart = listed_apart(self.tests, self.docs)
        data = {"query": self.query, "hits": self._marked(self.hits)}
        data |= {name: self._marked(listed) for name, listed in apart.items()}
        return {**data, **self.freshness.to_json()}

    def _marked(self, hits: list[Hit]) -> list[dict[str, Any]]:
        return [self.freshness.mark(hit.to_json()) for hit in hits]


@dataclass
class RelatedAnswer:
    bundle: Bundle
    freshness: Freshness

    def to_json(self) -> dict[str, Any]:
        data = self.bundle.to_json()
        data["items"] = [self.freshness.mark(item) for item in data["items"]]
        return {**data, **self.freshness.to_json()}

    def markdown(self) -> str:
        return to_markdown(self.bundle, self.freshness.to_json())


@dataclass
class Call:
    """The other end of calls to or from a definition, with the lines of its call sites."""

    row: dict[str, Any]
    lines: list[int]


@dataclass
class Lens:
    row: dict[str, Any]
    callers: int
    callees: int


@dataclass
class CallGraph:
    """Call edges around one definition, breadth first up to `depth` steps."""

    qualname: str
    direction: Direction
    depth: int
    edges: list[dict[str, Any]] = field(default_factory=list)
    locations: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass
class Code:
    """Lines of a file as they are on disk now; `changed` when the file differs from the
    version the index holds (or the index does not hold it)."""

    path: str
    start_line: int
    end_line: int
    total_lines: int
    language: str
    code: str
    indexed: bool
    changed: bool
    id: str = ""
    qualname: str = ""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class Answers:
    """One workspace's answers. Each carries the index's freshness: checked here (at most
    every `freshness_ttl_s`), or given by a caller with its own policy (the language server
    keeps it current from its runs and adds unsaved buffers)."""

    def __init__(self, project: Project, freshness_ttl_s: float = 0.0):
        self.project = project
        self._ttl_s = freshness_ttl_s
        self._cached: tuple[float, Freshness] | None = None
        self._cache_lock = threading.Lock()

    @property
    def root(self) -> Path:
        return self.project.root

    # -- index state ----------------------------------------------------------------------

    def has_index(self) -> bool:
        """Asked without creating anything: a read never leaves an empty index behind."""
        return self.project.index_exists() and self.project.read_store.has_index()

    def unfinished(self) -> bool:
        """The last index run stopped before the end (killed or cancelled): the index
        holds only part of the workspace until a run completes it."""
        from codekith.indexer import INTERRUPTED  # the indexer loads the parsers: not at import

        return self.project.read_store.meta().get("run_state") in INTERRUPTED

    def require_index(self, compatible: bool = True) -> None:
        """NoIndexError unless an index exists and its tables open; IndexMismatchError when
        (`compatible`) it was built with another model or template."""
        if not self.has_index():
            raise NoIndexError(
                f"no index at {self.project.settings.db_location(self.root)}; "
                f"run `codekith index {self.root}` first"
            )
        problems = self.project.read_store.damage(deep=False)
        if problems:
            table, problem = next(iter(problems.items()))
            raise DamagedIndexError(
                f"the index at {self.project.read_store.location} is damaged ({table}: "
                f"{problem}); run `codekith index` to repair it"
            )
        if compatible:
            self.project.searcher.check_compatible()

    def freshness(self) -> Freshness:
        """How far the index is behind git and the disk."""
        with self._cache_lock:
            cached = self._cached
        if cached and time.monotonic() - cached[0] < self._ttl_s:
            return cached[1]
        state = freshness.check(self.root, self.project.settings, self.project.read_store)
        with self._cache_lock:
            self._cached = (time.monotonic(), state)
        return state

    def forget_freshness(self) -> None:
        """Files changed or an index run ended: the next answer checks again."""
        with self._cache_lock:
            self._cached = None

    def reopen_if_reconfigured(self) -> bool:
        """Open the project again when its settings files say something else now (an MCP
        server lives as long as the assistant's session); whether it did. The caller then
        scans: the settings may take files in or out."""
        if not self.project.settings_changed():
            return False
        old, self.project = self.project, self.project.reopened()
        old.close_graph()
        self.forget_freshness()
        return True

    def status(self, runs: int = 10, state: Freshness | None = None) -> dict[str, Any]:
        """Root, index location, whether it is ready, and when it is, the summary of what
        it holds and how fresh it is."""
        status: dict[str, Any] = {
            "root": str(self.root),
            "db": self.project.settings.db_location(self.root),
            "ready": self.has_index(),
        }
        if status["ready"]:
            status["problem"] = self.compatibility_problem()
            status.update(self.project.read_store.summary(runs=runs))
            status.update((state or self.freshness()).to_json())
        return status

    def compatibility_problem(self) -> str:
        """Why the index cannot answer this model's queries ("" when it can): it was built
        with another model or template."""
        try:
            self.project.searcher.check_compatible()
        except IndexMismatchError as exc:
            return str(exc)
        return ""

    def warm_up(self) -> None:
        """Load now what the first save and the first question would stop to load: the
        model (with a query embedded), the secret scanner and the index's search path. A
        language server's first save on flask took 587 ms of which ~0.5 s was loading.
        Never raises: a failure costs the first question its load time, nothing more."""
        try:
            load_scanner()
            if self.has_index() and not self.compatibility_problem():
                self.project.searcher.search("warm up", 1)
                self.renew_votes()
        except IndexLockedError:
            pass  # another process writes: the next vote or warm-up renews them
        except Exception:
            log.exception("warming up %s failed", self.root)

    def reindex(
        self,
        full: bool = False,
        paths: list[str] | None = None,
        since: str | None = None,
        dry_run: bool = False,
        progress: Progress | None = None,
        refine: bool = True,
        cancelled: Callable[[], bool] | None = None,
        edges_later: bool = False,
    ) -> IndexReport:
        """An index run under the write lock (IndexLockedError when another one writes);
        `refine=False` leaves the Jedi pass to the caller (the language server runs it in
        the background), `edges_later` a save's fast edges too (`update_graph`)."""
        try:
            with self.project.store.write_lock():
                return self.project.indexer.run(
                    full=full,
                    dry_run=dry_run,
                    paths=paths,
                    since=since,
                    progress=progress,
                    refine=refine,
                    cancelled=cancelled,
                    edges_later=edges_later,
                )
        finally:
            self.forget_freshness()

    def catch_up(self, progress: Progress | None = None) -> IndexReport | None:
        """Re-index what changed since the last run (None when nothing did): the files
        that changed on disk, or whatever git says changed when HEAD moved."""
        self.forget_freshness()
        state = self.freshness()
        if state.fresh:
            return None
        paths = state.stale if state.head == state.index_head else None
        return self.reindex(paths=paths, progress=progress)

    # -- retrieval ------------------------------------------------------------------------

    def search(
        self,
        query: str,
        k: int | None = None,
        filters: Filters = NO_FILTERS,
        mode: str = "hybrid",
        state: Freshness | None = None,
        tests: bool = False,
        docs: int = 0,
        tests_apart: int = 0,
    ) -> SearchAnswer:
        """The k best hits and, apart from them, up to `tests_apart` tests and `docs`
        documentation sections, when the question and filters let them come apart
        (`Apart.asked`)."""
        k = k or self.project.settings.k
        apart = Apart.asked(query, filters, tests, tests_apart, docs)
        found = self.project.searcher.search_apart(query, k, filters, mode, tests, apart)
        return SearchAnswer(query, found.hits, state or self.freshness(), found.docs, found.tests)

    def related(
        self,
        target: str,
        depth: int | None = None,
        budget: int | None = None,
        state: Freshness | None = None,
        tests: bool = False,
    ) -> RelatedAnswer:
        """A bundle for text, PATH:LINE or a qualified name; depth 0 in the settings means
        "by the question's intent". PATH may be absolute, but not outside the root."""
        settings = self.project.settings
        location = location_of(target, self.project.related.is_indexed)
        if location:
            path = relative_path(self.root, location[0])
            self._check_position(path, location[1])
            target = f"{path}:{location[1]}"
        elif _looks_like_path(target):
            self._check_path(relative_path(self.root, target.strip()))
        if depth is None:
            depth = settings.depth or None
        bundle = self.project.related.bundle(target, depth, budget or settings.budget, tests)
        return RelatedAnswer(bundle, state or self.freshness())

    def holds(self, target: str) -> bool:
        """Whether a PATH:LINE, path or qualified-name target points into this index: a
        workspace of several repositories asks each which one a target belongs to."""
        target = target.strip()
        location = location_of(target, self.project.related.is_indexed)
        if location or _looks_like_path(target):
            try:
                path = relative_path(self.root, location[0] if location else target)
            except OutsideWorkspaceError:
                return False
            record = self.project.read_store.file_record(path)
            return record is not None and record.status == "indexed"
        return " " not in target and bool(self.project.related.definitions_of(target))

    def chunk_at(self, path: str, line: int) -> dict[str, Any] | None:
        return self.project.related.chunk_at(path, line)

    def _check_path(self, path: str) -> None:
        """TargetNotFoundError naming the nearest indexed path when `path` is not indexed."""
        record = self.project.read_store.file_record(path)
        if record is not None and record.status == "indexed":
            return
        if record is not None:
            raise TargetNotFoundError(f"{path} is not indexed: {record.reason}")
        indexed = [p for p, r in self.project.read_store.catalog().items() if r.status == "indexed"]
        nearest = difflib.get_close_matches(path, indexed, n=1, cutoff=0.5)
        hint = f"; did you mean {nearest[0]}?" if nearest else ""
        raise TargetNotFoundError(f"{path} is not in the index{hint}")

    def _check_position(self, path: str, line: int) -> None:
        """TargetNotFoundError when the file is not indexed or has no such line (a position
        past the end would otherwise seed from the file's last definition)."""
        self._check_path(path)
        try:
            last = (self.root / path).read_bytes().count(b"\n") + 1  # as editors count
        except OSError:  # deleted since it was indexed: the indexed code's extent
            last = max(
                (r["end_line"] for r in self.project.read_store.chunks_in_file(path)), default=0
            )
        if not 1 <= line <= last:
            raise TargetNotFoundError(f"{path} has lines 1 to {last}, not {line}")

    def symbols(self, query: str) -> list[dict[str, Any]]:
        """Workspace symbols: names that start with the query first, then semantic matches."""
        named = self.project.read_store.symbols_like(query, limit=50)
        semantic = [hit.extra for hit in self.project.searcher.search(query, k=30)]
        return whole_definitions(_unique_by_id(named + semantic))

    def find_symbol(self, name: str, kind: str = "", limit: int = 20) -> list[dict[str, Any]]:
        """Definitions called `name` (a bare name, a qualified name or its tail); when none
        is, those whose name starts with it; when none does, those it is a piece of
        (`discountFor` -> `apply_discount_for_member`, whole parts in order)."""
        store = self.project.read_store
        rows = store.chunks_named([name], Filters(kind=kind), limit=limit)
        last = name.rsplit(".", 1)[-1]
        if not rows:
            rows = [r for r in store.symbols_like(last, limit) if not kind or r["kind"] == kind]
        if not rows:
            pieces = self.project.searcher.fragment_matches(last, Filters(kind=kind))
            rows = [row for row, _ in pieces[:limit]]
        rows = whole_definitions(rows)
        return sorted(rows, key=lambda r: (r["qualname"] != name, r["path"], r["start_line"]))

    # -- the call graph -------------------------------------------------------------------

    def calls(
        self, qualname: str, direction: Literal["callers", "callees"], accessor: str = ""
    ) -> list[Call]:
        """Who calls the definition, or what it calls; a class counts calls to its
        constructor. A property's setter (`accessor` "setter": it shares the getter's
        qualified name) is called by writes (`order.total = 0`), the getter by reads."""
        keys = with_constructors([qualname])
        store = self.project.read_store
        callers = direction == "callers"
        if callers:
            edges = store.edges_to(keys, kinds=caller_kinds(accessor))
        else:
            edges = store.edges_from(keys, kinds=CALL_KINDS)
        ends = [(e["src"] if callers else constructed(e["dst"]), e) for e in edges]
        if not ends:
            return []
        named = _by_qualname(store.chunks_by_qualname({name for name, _ in ends} | {qualname}))
        own = named.get(qualname, [])
        if not callers and len({accessor_of(r) for r in own}) > 1:
            # a getter and a setter: each makes the calls in its own lines
            ends = [(n, e) for n, e in ends if _accessor_at(own, e) in (None, accessor)]
        found: dict[tuple[str, str], Call] = {}
        for name, edge in ends:
            row = _end_row(named.get(name, []), edge, callers)
            if row is not None:
                key = (row["qualname"], accessor_of(row))
                found.setdefault(key, Call(row, [])).lines.append(edge["line"])
        calls = sorted(found.values(), key=lambda c: (c.row["qualname"], c.row["start_line"]))
        return [Call(c.row, sorted(c.lines)) for c in calls]

    def call_graph(self, qualname: str, direction: Direction, depth: int = 1) -> CallGraph:
        """Call edges around a definition (resolved from a tail like `Class.method` when that
        names exactly one), each with the file and line of its call site."""
        if direction not in DIRECTIONS:
            raise ValueError(f"direction must be one of {', '.join(DIRECTIONS)}")
        if not 1 <= depth <= 5:
            raise ValueError("depth must be between 1 and 5")
        start = self._definition(qualname)
        graph = CallGraph(start, direction, depth)
        store = self.project.read_store
        seen_edges: set[str] = set()
        for side in ("callers", "callees") if direction == "both" else (direction,):
            frontier, visited = {start}, {start}
            for level in range(1, depth + 1):
                keys = with_constructors(frontier)
                edges = list(
                    store.edges_to(keys, kinds=CALL_KINDS)
                    if side == "callers"
                    else store.edges_from(keys, kinds=CALL_KINDS)
                )
                frontier = set()
                hidden = _wrapper_calls(store, edges) if side == "callees" else set()
                for edge in sorted(edges, key=lambda e: (e["path"], e["line"])):
                    if edge["id"] in hidden:
                        continue
                    caller = edge["src"]
                    callee = keys.get(edge["dst"]) or constructed(edge["dst"])
                    if edge["id"] not in seen_edges:
                        seen_edges.add(edge["id"])
                        graph.edges.append(
                            {
                                "caller": caller,
                                "callee": callee,
                                "path": edge["path"],
                                "line": edge["line"],
                                "depth": level,
                                "how": HOW.get(edge["kind"], "call"),
                            }
                        )
                    frontier.add(caller if side == "callers" else callee)
                frontier -= visited
                visited |= frontier
        names = {start} | {e["caller"] for e in graph.edges} | {e["callee"] for e in graph.edges}
        for name, row in _first_by_qualname(store.chunks_by_qualname(names)).items():
            graph.locations[name] = _location(row)
        return graph

    def _definition(self, name: str) -> str:
        store = self.project.read_store
        if store.chunks_by_qualname([name], limit=1) or store.edges_to([name], kinds=CALL_KINDS):
            return name
        found = sorted(
            {r["qualname"] for r in store.chunks_named([name]) if r["kind"] in DEFINITION_KINDS}
        )
        if len(found) == 1:
            return found[0]
        if found:
            raise TargetNotFoundError(
                f"{name!r} names {len(found)} definitions; give one of: {', '.join(found[:10])}"
            )
        raise TargetNotFoundError(f"no definition named {name!r} in the index")

    def lenses(self, path: str) -> list[Lens]:
        """How many callers and callees each definition of a file has, in file order: the
        definitions `calls` lists (a caller calling three times is one caller; a call of a
        decorated function reaches its wrapper and it, but only it is a definition; a
        property's getter and setter each count their own)."""
        store = self.project.read_store
        rows = store.chunks_in_file(path, kinds=DEFINITION_KINDS)
        if not rows:
            return []
        names = {r["qualname"] for r in rows}
        keys = with_constructors(names)
        callers: dict[tuple[str, str], set[str]] = defaultdict(set)
        for edge in store.edges_to(keys, kinds=CALL_KINDS):
            callers[(keys[edge["dst"]], called_accessor(edge["kind"]))].add(edge["src"])
        unique = {(r["qualname"], accessor_of(r)): r for r in rows}
        callees: dict[tuple[str, str], set[str]] = defaultdict(set)
        for edge in store.edges_from(names, kinds=CALL_KINDS):
            split = (edge["src"], "setter") in unique  # a getter and a setter: whose lines?
            end = (edge["src"], (_accessor_at(rows, edge) or "") if split else "")
            callees[end].add(constructed(edge["dst"]))
        defined = _defined(store, set().union(*callers.values(), *callees.values()))
        return [
            Lens(row, len(callers[key] & defined), len(callees[key] & defined))
            for key, row in sorted(unique.items(), key=lambda item: item[1]["start_line"])
        ]

    # -- code and votes -------------------------------------------------------------------

    def get_code(
        self,
        path: str | None = None,
        start_line: int | None = None,
        end_line: int | None = None,
        chunk_id: str | None = None,
    ) -> Code:
        """Lines of a file (or a chunk's lines) read from disk now. Only files the index may
        hold are shown: never a secret, a binary or a file outside the root."""
        row: dict[str, Any] | None = None
        if chunk_id is not None:
            row = self.project.read_store.chunk(chunk_id)
            if row is None:
                raise UnknownChunkError(f"no chunk with id {chunk_id!r} in the index")
            path = row["path"]
            start_line = start_line or row["start_line"]
            end_line = end_line or row["end_line"]
        if not path:
            raise ValueError("give a path or an id")
        relative = relative_path(self.root, path)
        source, language, file_hash = self._servable(relative)
        lines = source.splitlines()
        start = start_line or 1
        end = min(end_line or len(lines), len(lines))
        if start < 1 or (end_line is not None and end_line < start):
            raise ValueError("lines are 1-based and end_line must not be before start_line")
        if start > max(len(lines), 1):
            raise ValueError(
                f"{relative} has {len(lines)} lines; start_line {start} is past its end"
            )
        record = self.project.read_store.file_record(relative)
        indexed = record is not None and record.status == "indexed"
        return Code(
            relative,
            start,
            end,
            len(lines),
            language,
            "\n".join(lines[start - 1 : end]),
            indexed,
            changed=not indexed or record is None or record.file_hash != file_hash,
            id=row["id"] if row else "",
            qualname=row["qualname"] if row else "",
        )

    def _servable(self, relative: str) -> tuple[str, str, str]:
        """Text, language and content hash of a file answers may show, or NotServedError
        saying why not."""
        candidate = WorkspaceFilter(self.root, self.project.settings).candidate(relative)
        if candidate is None:
            raise NotServedError(f"{relative} does not exist")
        if candidate.reason is not None:
            raise NotServedError(f"{relative} is not indexed: {candidate.reason}")
        data = (self.root / relative).read_bytes()
        try:
            source = indexable_source(relative, data, self.project.settings.secret_patterns).text
        except NotIndexableError as exc:
            raise NotServedError(f"{relative} is not indexed: {exc}") from None
        return source, candidate.language or "", gitrepo.blob_id(data)

    def feedback(self, query: str, chunk_id: str, vote: int) -> None:
        """Remember a vote (1 or -1) on a result; similar later queries move it."""
        if vote not in (1, -1):
            raise ValueError("vote must be 1 or -1")
        if not query.strip():
            raise ValueError("query must not be empty")
        if self.project.read_store.chunk(chunk_id) is None:
            raise UnknownChunkError(f"no chunk with id {chunk_id!r} in the index")
        searcher, store = self.project.searcher, self.project.store
        vector, tower = searcher.query_vector(query), searcher.query_id()
        renewed = self._older_votes(tower, query)
        with store.write_lock(wait_s=FEEDBACK_LOCK_WAIT_S):
            store.add_feedback(query, vector, chunk_id, vote, tower)
            store.renew_feedback(renewed, tower)

    def renew_votes(self) -> int:
        """Give the votes an older query side embedded (an upgrade's new query adapter, see
        Embedder.query_id) this side's vectors; how many questions were renewed. Servers
        and the daemon do it when they warm up, a vote does it too: until then search
        embeds such a vote's question again on each process's first use."""
        tower = self.project.searcher.query_id()
        renewed = self._older_votes(tower)
        if renewed:
            with self.project.store.write_lock():
                self.project.store.renew_feedback(renewed, tower)
        return len(renewed)

    def _older_votes(self, tower: str, besides: str = "") -> dict[str, np.ndarray]:
        """Question -> its vector by this side, for the votes another side embedded."""
        votes = self.project.store.feedback()
        old = {v["query"] for v in votes if v.get("tower") != tower} - {besides}
        return {text: self.project.searcher.query_vector(text) for text in sorted(old)}


def _looks_like_path(target: str) -> bool:
    """A target of one word with a folder or a file suffix (`pkg/mod.py`), not text or a
    qualified name (`pkg.mod.func`)."""
    word = target.strip()
    return bool(word) and " " not in word and ("/" in word or language_of(word) is not None)


def whole_definitions(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per definition, where the first of its rows stood: a split definition's
    parts as one (the first part's fields, the lines and code of all of them that are
    here), so a name finds it once and whole (starlette's `TestClient` was three)."""
    parts: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for row in rows:
        parts.setdefault(definition_of(row), []).append(row)
    return [_joined(found) for found in parts.values()]


def _joined(parts: list[dict[str, Any]]) -> dict[str, Any]:
    if len(parts) == 1:
        return parts[0]
    first, *rest = sorted(_unique_by_id(parts), key=lambda r: r["start_line"])
    code = [code_of(part["document"]) for part in rest]
    return {
        **first,
        "end_line": max(part["end_line"] for part in parts),
        "document": "\n".join([first["document"], *code]),
    }


def _unique_by_id(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    unique: dict[str, dict[str, Any]] = {}
    for row in rows:
        unique.setdefault(row["id"], row)
    return list(unique.values())


def _wrapper_calls(store: Any, edges: list[dict[str, Any]]) -> set[str]:
    """Ids of the call edges to a wrapper (no definition: `logged.wrapper`) at a call site
    that also has the "wrapped" edge to the function it stands in for, which is the callee
    the caller wrote."""
    sites = {(e["src"], e["path"], e["line"]) for e in edges if e["kind"] == "wrapped"}
    calls = [e for e in edges if e["kind"] == "call" and (e["src"], e["path"], e["line"]) in sites]
    defined = _defined(store, {constructed(e["dst"]) for e in calls})
    return {e["id"] for e in calls if constructed(e["dst"]) not in defined}


def _defined(store: Any, names: set[str]) -> set[str]:
    """Those of `names` that a chunk defines (one query; none for no names)."""
    return {r["qualname"] for r in store.chunks_by_qualname(names)} if names else set()


def called_accessor(kind: str) -> str:
    """Which accessor of its callee an edge of this kind calls: a write calls the setter,
    any other call the definition itself (a property's getter)."""
    return "setter" if kind == "setter" else ""


def caller_kinds(accessor: str) -> tuple[str, ...]:
    """The edge kinds that call a definition (those `called_accessor` gives it)."""
    return tuple(kind for kind in CALL_KINDS if called_accessor(kind) == accessor)


def _by_qualname(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Rows by qualified name, each name's in line order."""
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in sorted(rows, key=lambda r: r["start_line"]):
        found[row["qualname"]].append(row)
    return found


def _holder(rows: list[dict[str, Any]], edge: dict[str, Any]) -> dict[str, Any] | None:
    """Which of the rows of the edge's source holds its call site."""
    return next(
        (
            r
            for r in rows
            if r["qualname"] == edge["src"]
            and r["path"] == edge["path"]
            and r["start_line"] <= edge["line"] <= r["end_line"]
        ),
        None,
    )


def _accessor_at(rows: list[dict[str, Any]], edge: dict[str, Any]) -> str | None:
    held = _holder(rows, edge)
    return accessor_of(held) if held is not None else None


def _end_row(
    named: list[dict[str, Any]], edge: dict[str, Any], caller: bool
) -> dict[str, Any] | None:
    """The chunk an edge's end stands for, of the chunks of its name (in line order): its
    definition's first (a split one's first part); the setter for the callee of a write
    and for a caller whose call is in the setter's lines."""
    wanted = (_accessor_at(named, edge) or "") if caller else called_accessor(edge["kind"])
    return next((r for r in named if accessor_of(r) == wanted), named[0] if named else None)


def _first_by_qualname(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """One row per qualname: the first in its file (a split definition's first part)."""
    return {name: named[0] for name, named in _by_qualname(rows).items()}


def _location(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "path": row["path"],
        "start_line": row["start_line"],
        "end_line": row["end_line"],
        "kind": row["kind"],
    }
