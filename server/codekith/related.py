""" "What code is related to this?": seeds, expansion along the graph, re-filter, budget.

Seeds come from hybrid search (or from the chunk at PATH:LINE, or a qualified name). The
graph adds callers, callees, bases and subclasses, up to a depth chosen by the question's
intent; every expanded item must stay similar to the query, so a hub function does not
drag in fifty unrelated callers. The result is cut to a token budget and every item says
why it is there.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, TypeVar

import numpy as np

from codekith.qualnames import constructed, import_table, with_constructors
from codekith.search import Hit, Searcher, hit_from_row, is_side_code, wants_tests
from codekith.store import Filters, Store
from codekith.template import code_of

SEEDS = 4
MIN_SIMILARITY = 0.15
CODE_TARGET_SIMILARITY = 0.2  # code against code scores higher than a question against code
CODE_ONLY = Filters(kind="code")  # what a question's seeds and matches come from

RELATIVE_SIMILARITY = 0.5
SIMILAR_CANDIDATES = 30  # for a code target, its most similar chunks are candidates too
EXPANDED_ITEMS = 8  # candidates kept besides the seeds (a bundle is a reading list)
NEXT_MATCHES = 4  # of those, kept for a question's next search hits (see DESIGN)
GRAPH_MIX = 0.3  # an item's score: (1 - mix) * similarity + mix * sqrt(PageRank / top)
SIBLING_LINK = 2.0  # PageRank weight of a seed's link to a definition next to it (a call: 1)
SIBLING_REACH = 1  # definitions on each side of a seed (same class or module) linked to it
STATE_LINK = 1.0  # PageRank weight of a seed's link to the member sharing the most state
STATE_MEMBERS = 1  # members of a method seed's class kept for the state they share with it
MEMBER_LINK = 0.1  # PageRank weight of a seed's link to every other definition beside it
MEMBER_CANDIDATES = 20  # of those, the most similar to the query (a class of 800 methods)
SIDE_SHARE = 0.4  # share of its score test or vendored code gives up in a bundle (see DESIGN)
DAMPING = 0.5  # PageRank: chance of following an edge rather than going home to the seeds
PAGERANK_STEPS = 8
CHARS_PER_TOKEN = 4
T = TypeVar("T")
# An import alone does not make code related; nor does a property read or write (a field
# read or write, in effect), nor making an instance of a class that has no `__init__` of its
# own (a dataclass, an exception: made or raised all over): with reads co-change recall fell
# on 9 of 16 Python repositories (stop 60), with instances on 6 (-.003 tuning, -.048 held
# out, stop 61); with writes structlog's fell (-.005), no other moved
NOT_RELATING = ("import", "property", "setter", "new")
DEFINITIONS = ("function", "method", "class")
_SELF = ("self", "cls", "this")  # what a method calls its own object (Go names it: below)
_GO_RECEIVER = re.compile(r"^func\s*\(\s*(\w+)\s")
_LOCATION = re.compile(r"^(?P<path>[^\s:]+):(?P<line>\d+)$")
REEXPORT_HOPS = 4  # pkg.name -> pkg.sub.name -> pkg.sub.impl.name ...
_QUALNAME = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)+$")
_USAGE = re.compile(
    r"\b(who|callers?|called|calls|usages?|used|uses|using|examples?|"
    r"call sites?|where is)\b",
    re.IGNORECASE,
)
_IMPLEMENTATION = re.compile(
    r"\b(how|implement\w*|works?|algorithm|logic|internals?|"
    r"what does|flow|steps?|explain)\b",
    re.IGNORECASE,
)


@dataclass
class Item:
    hit: Hit
    reason: str
    score: float
    code: str
    depth: int

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.code)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.hit.to_json(),
            "score": round(self.score, 4),
            "reason": self.reason,
            "depth": self.depth,
            "tokens": self.tokens,
            "code": self.code,
        }


@dataclass
class Bundle:
    query: str
    target: str
    intent: str
    depth: int
    budget: int
    items: list[Item] = field(default_factory=list)
    truncated: bool = False

    @property
    def tokens(self) -> int:
        return sum(item.tokens for item in self.items)

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "target": self.target,
            "intent": self.intent,
            "depth": self.depth,
            "items": [i.to_json() for i in self.items],
            "tokens": self.tokens,
            "budget": self.budget,
            "truncated": self.truncated,
        }


def estimate_tokens(text: str) -> int:
    """About four characters per token for code: close enough to budget a prompt."""
    return len(text) // CHARS_PER_TOKEN + 1


def intent_of(query: str) -> tuple[str, int]:
    """(intent, default depth): usage questions look one step out (callers first),
    implementation questions follow callees two steps deep."""
    if _USAGE.search(query):
        return "usage", 1
    if _IMPLEMENTATION.search(query):
        return "implementation", 2
    return "related", 1


class TargetNotFoundError(ValueError):
    pass


def location_of(
    target: str, indexed: Callable[[str], bool] = lambda path: False
) -> tuple[str, int] | None:
    """(path, line) when the target is written PATH:LINE: a PATH with a folder or a file
    suffix, or a bare name that `indexed` knows as a file (`Makefile:3`, `.env:2`; else a
    word like `TODO:3` stays text)."""
    match = _LOCATION.match(target.strip())
    if match is None:
        return None
    path = match["path"]
    if "/" in path or PurePosixPath(path).suffix or indexed(path):
        return path, int(match["line"])
    return None


@dataclass
class _Seeds:
    rows: list[dict[str, Any]]
    vector: np.ndarray
    query: str
    code_target: bool = False
    matches: list[dict[str, Any]] = field(default_factory=list)  # a question's other hits


def _best_expanded(expanded: list[Item], next_hits: set[str]) -> list[Item]:
    """The best EXPANDED_ITEMS, the question's next search hits among them whatever their
    score: graph context that outranks them would otherwise cost a bundle answers that plain
    search of as many items holds."""
    ranked = sorted(expanded, key=lambda i: -i.score)
    kept = [item for item in ranked if item.hit.qualname in next_hits]
    others = [item for item in ranked if item.hit.qualname not in next_hits]
    return kept + others[: max(EXPANDED_ITEMS - len(kept), 0)]


class Related:
    def __init__(self, store: Store, searcher: Searcher):
        self.store = store
        self.searcher = searcher

    def bundle(
        self, target: str, depth: int | None = None, budget: int = 6000, tests: bool = False
    ) -> Bundle:
        """Tests give up a share of their score unless `tests` is set (the asker looks for
        tests: of the code at a position, or a question's) or a question says "test"."""
        target = target.strip()
        if not target:
            raise ValueError("the target is empty: give text, PATH:LINE or a qualified name")
        found = self._seeds(target, tests)
        seeds, query_vector, query = found.rows, found.vector, found.query
        intent, default_depth = intent_of(query)
        bundle = Bundle(query, target, intent, default_depth if depth is None else depth, budget)
        vectors = self.store.vectors_of(row["id"] for row in [*seeds, *found.matches])
        items = [
            Item(
                hit_from_row(row, 0),
                "seed",
                _similarity(query_vector, vectors.get(row["id"])),
                _code(row),
                0,
            )
            for row in seeds
        ]
        if found.code_target:
            floor = CODE_TARGET_SIMILARITY
        else:
            floor = max(MIN_SIMILARITY, RELATIVE_SIMILARITY * min(i.score for i in items))
        expanded = self._expand(
            seeds,
            query_vector,
            intent,
            bundle.depth,
            floor,
            similar=found.code_target,
            tests_wanted=tests if found.code_target else wants_tests(query, tests),
            matches=[
                {**row, "vector": vectors[row["id"]]}
                for row in found.matches
                if row["id"] in vectors
            ],
            match_floor=max(floor, RELATIVE_SIMILARITY * max(i.score for i in items)),
        )
        next_hits = {row["qualname"] for row in found.matches[:NEXT_MATCHES]}
        items += _best_expanded(expanded, next_hits)
        items = sorted(_merge_nested(_dedupe(items)), key=lambda i: -i.score)
        seed_items = [i for i in items if i.reason == "seed"]
        first = max(seed_items, key=lambda i: i.score) if seed_items else items[0]
        ordered = [first, *(i for i in items if i is not first)]
        bundle.items, bundle.truncated = fit_to_budget(ordered, budget, lambda item: item)
        return bundle

    def _seeds(self, target: str, tests: bool) -> _Seeds:
        """Seed rows, the vector that measures relevance, and the query text for intent."""
        location = location_of(target, self.is_indexed)
        if location:
            row = self.chunk_at(*location)
            if row is None:
                raise TargetNotFoundError(f"no indexed code at {target}")
            vector = self.store.vectors_of([row["id"]])[row["id"]]
            return _Seeds([row], vector, row["qualname"], code_target=True)
        if _QUALNAME.match(target):
            rows = self.definitions_of(target)
            if rows:
                vector = self.store.vectors_of([rows[0]["id"]])[rows[0]["id"]]
                return _Seeds(rows, vector, target, code_target=True)
        hits = [h.extra for h in self._question_hits(target, tests)]
        if not hits:
            raise TargetNotFoundError(f"nothing in the index matches {target!r}")
        vector = self.searcher.query_vector(target)
        return _Seeds(hits[:SEEDS], vector, target, matches=hits[SEEDS:])

    def _question_hits(self, target: str, tests: bool) -> list[Hit]:
        """A question's search hits, code only: documentation sections among the seeds and
        matches took a bundle's places from the code a change needs (docs/DESIGN.md,
        "Question bundles of code"); every kind when no code matches at all (an index of
        documentation alone)."""
        code = self.searcher.search(target, SEEDS * 3, CODE_ONLY, tests=tests)
        return code or self.searcher.search(target, SEEDS * 3, tests=tests)

    def definitions_of(self, qualname: str) -> list[dict[str, Any]]:
        """Chunks named `qualname`, following re-exports: `from .utils import echo` in
        click/__init__.py makes `click.echo` name `click.utils.echo`, and `from .utils
        import echo as say` makes `click.say` name it too (a few hops at most)."""
        name = qualname
        for _ in range(REEXPORT_HOPS):
            rows = self.store.chunks_by_qualname([name], limit=SEEDS)
            if rows:
                return rows
            module, _, last = name.rpartition(".")
            imported = self._bound_by_imports(module, last)
            if imported is None or imported == name:
                return []
            name = imported
        return []

    def _bound_by_imports(self, module: str, name: str) -> str | None:
        """What the imports in `module`'s indexed code bind `name` to (aliases included).
        Code that does not parse on its own: the import whose last part is `name`."""
        for row in self.store.chunks_by_qualname([module]):  # a long module: its parts
            if row["kind"] != "module":
                continue
            package = PurePosixPath(row["path"]).stem == "__init__"
            try:
                bound = import_table(ast.parse(code_of(row["document"])), module, package)
            except (SyntaxError, ValueError):
                bound = {s.rpartition(".")[2]: s for s in sorted(row["imports"], reverse=True)}
            if name in bound:
                return bound[name]
        return None

    def is_indexed(self, path: str) -> bool:
        record = self.store.file_record(path)
        return record is not None and record.status == "indexed"

    def chunk_at(self, path: str, line: int) -> dict[str, Any] | None:
        """The innermost chunk covering the line (a method before its class, a definition
        before the part of the rest of the file around it); on a line no chunk covers (a
        blank line between definitions), the nearest chunk above it. Innermost by name
        first: a part of a long class holding a method's header is shorter than the method
        at times (httpx's `Client.send` lost its own `def` line to one)."""
        rows = self.store.chunks_in_file(path)
        covering = [r for r in rows if r["start_line"] <= line <= r["end_line"]]
        if covering:
            return min(
                covering,
                key=lambda r: (
                    r["kind"] == "module",
                    -r["qualname"].count("."),
                    r["end_line"] - r["start_line"],
                ),
            )
        above = [r for r in rows if r["end_line"] < line]
        return max(above, key=lambda r: (r["end_line"], r["kind"] != "module"), default=None)

    def _expand(
        self,
        seeds: list[dict[str, Any]],
        query_vector: np.ndarray,
        intent: str,
        depth: int,
        floor: float,
        similar: bool,
        tests_wanted: bool,
        matches: list[dict[str, Any]],
        match_floor: float,
    ) -> list[Item]:
        """Candidates are the seeds' graph neighbourhood (up to `depth` steps) and, when
        `similar`, the chunks most similar to the query, each at least `floor` similar to
        it, and a question's other search hits (`matches`, with vectors: a bundle should
        not lose an answer plain search finds) at least `match_floor` similar (half its best
        seed's similarity: the hits of a narrow question soon become noise). They are ranked by
        similarity mixed with personalized PageRank from the seeds over the edges among all
        of them, so code tied to the seeds by several or short paths comes before code that
        only looks alike (what changes together with a function is often not similar to
        it: a caller, a helper)."""
        candidates: dict[str, Item] = {}
        seed_names = {row["qualname"] for row in seeds}
        frontier = sorted(seed_names)
        for level in range(1, depth + 1):
            neighbours = self._neighbours(frontier, intent, level)
            fresh = neighbours.keys() - seed_names - candidates.keys()
            frontier = []
            for row in self._rows_for(fresh):
                similarity = _similarity(query_vector, row["vector"])
                if similarity >= floor and row["qualname"] not in candidates:
                    reason, _ = neighbours[row["qualname"]]
                    candidates[row["qualname"]] = Item(
                        hit_from_row(row, 0), reason, similarity, _code(row), level
                    )
                    frontier.append(row["qualname"])
            if not frontier:
                break
        ties: list[tuple[str, str, float]] = []  # (candidate, seed, PageRank weight)
        beside = self._beside(seeds)
        for row, origin in self._siblings(seeds, beside):
            if self._admit(
                candidates, row, f"sibling of {origin}", query_vector, floor, seed_names
            ):
                ties.append((row["qualname"], origin, SIBLING_LINK))
        for row, origin, share in self._state_sharers(seeds, beside):
            reason = f"shares state with {origin}"
            self._admit(candidates, row, reason, query_vector, floor, seed_names)
            if row["qualname"] in candidates:  # found along an edge too: tied all the same
                ties.append((row["qualname"], origin, STATE_LINK * share))
        for row, origin, scope in self._members(seeds, beside, query_vector):
            reason = f"in the same {scope} as {origin}"
            self._admit(candidates, row, reason, query_vector, floor, seed_names)
            if row["qualname"] in candidates:
                ties.append((row["qualname"], origin, MEMBER_LINK))
        for row in matches:
            reason = "matches the question"
            self._admit(candidates, row, reason, query_vector, match_floor, seed_names)
        first = min(seeds, key=lambda row: row["kind"] == "class")["qualname"]
        alike = self.store.vector_search(query_vector, SIMILAR_CANDIDATES) if similar else []
        for row in alike:
            similarity = 1.0 - float(row["_distance"])
            name = row["qualname"]
            if similarity >= floor and name not in candidates and name not in seed_names:
                candidates[name] = Item(
                    hit_from_row(row, 0), f"similar to {first}", similarity, _code(row), 1
                )
        links = self._links(seed_names | candidates.keys())
        for name, origin, weight in ties:
            _link(links, name, origin, weight)
        rank = personalized_pagerank(links, seed_names)
        top = max((rank.get(name, 0.0) for name in candidates), default=0.0) or 1.0
        for name, item in candidates.items():
            graph = (rank.get(name, 0.0) / top) ** 0.5
            item.score = (1 - GRAPH_MIX) * item.score + GRAPH_MIX * graph
            if is_side_code(item.hit.path, tests_wanted):
                item.score *= 1 - SIDE_SHARE
        return list(candidates.values())

    def _beside(self, seeds: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
        """Seed id -> the definitions beside each function or method seed, in source order,
        with their vectors: the members of its class or the top-level definitions of its
        module (read once for its siblings, the state it shares and its other members, and
        once for all seeds of one class or module: a question's seeds often share one)."""
        scopes: dict[tuple[str, str], list[dict[str, Any]]] = {}
        beside = {}
        for seed in seeds:
            if seed["kind"] not in ("function", "method"):
                continue
            scope = (seed["path"], seed["parent"])
            if scope not in scopes:
                scopes[scope] = self._definitions_in(*scope)
            beside[seed["id"]] = scopes[scope]
        return beside

    def _definitions_in(self, path: str, parent: str) -> list[dict[str, Any]]:
        """The definitions of `path` whose parent is `parent`, in source order, with vectors."""
        rows = sorted(
            (
                row
                for row in self.store.chunks_in_file(path, DEFINITIONS)
                if row["parent"] == parent
            ),
            key=lambda row: row["start_line"],
        )
        vectors = self.store.vectors_of(row["id"] for row in rows)
        return [{**row, "vector": vectors[row["id"]]} for row in rows if row["id"] in vectors]

    def _siblings(
        self, seeds: list[dict[str, Any]], beside: dict[str, list[dict[str, Any]]]
    ) -> list[tuple[dict[str, Any], str]]:
        """(row with vector, seed qualname) for the definitions right before and after each
        function or method seed (SIBLING_REACH of each) among the members of its class or the
        top-level definitions of its module. Code changed together is often defined
        together, though neither calls nor resembles the other."""
        found: list[tuple[dict[str, Any], str]] = []
        for seed in seeds:
            rows = _definitions(beside.get(seed["id"], []))
            names = [row["qualname"] for row in rows]
            if seed["qualname"] not in names:
                continue
            at = names.index(seed["qualname"])
            rows = rows[max(0, at - SIBLING_REACH) : at] + rows[at + 1 : at + 1 + SIBLING_REACH]
            found += [(row, seed["qualname"]) for row in rows]
        return found

    def _members(
        self,
        seeds: list[dict[str, Any]],
        beside: dict[str, list[dict[str, Any]]],
        query_vector: np.ndarray,
    ) -> list[tuple[dict[str, Any], str, str]]:
        """(row with vector, seed qualname, "class", "type", "function" or "module") for the
        other definitions of a function or method seed's class, registering function or
        module, the MEMBER_CANDIDATES most similar to the query: what changes with a function
        is more often in its own file than not, so each gets a weak tie (MEMBER_LINK) that
        similarity and the graph can still outweigh."""
        found: list[tuple[dict[str, Any], str, str]] = []
        for seed in seeds:
            scope = _scope_word(seed)
            members = [
                row
                for row in _definitions(beside.get(seed["id"], []))
                if row["qualname"] != seed["qualname"]
            ]
            members.sort(key=lambda row: -_similarity(query_vector, row["vector"]))
            found += [(row, seed["qualname"], scope) for row in members[:MEMBER_CANDIDATES]]
        return found

    @staticmethod
    def _admit(
        candidates: dict[str, Item],
        row: dict[str, Any],
        reason: str,
        query_vector: np.ndarray,
        floor: float,
        seed_names: set[str],
    ) -> bool:
        """Make `row` a new candidate (with `reason`) when it is similar enough, not a seed
        and not a candidate already; whether it was made one."""
        name = row["qualname"]
        if name in seed_names or name in candidates:
            return False
        similarity = _similarity(query_vector, row["vector"])
        if similarity < floor:
            return False
        candidates[name] = Item(hit_from_row(row, 0), reason, similarity, _code(row), 1)
        return True

    def _state_sharers(
        self, seeds: list[dict[str, Any]], beside: dict[str, list[dict[str, Any]]]
    ) -> list[tuple[dict[str, Any], str, float]]:
        """(row with vector, seed qualname, share in 0..1) for the STATE_MEMBERS members of a
        method seed's class that use most of the attributes it uses (`self.x`, not calls:
        those are edges), each attribute counting less the more members use it. Methods
        that keep one piece of state change together (a constructor that sets it, the
        request handler that reads it) though neither calls the other."""
        found: list[tuple[dict[str, Any], str, float]] = []
        for seed in seeds:
            if seed["kind"] != "method":
                continue
            members = [
                row
                for row in beside[seed["id"]]
                if row["kind"] == "method"
                and (row["id"] == seed["id"] or row["qualname"] != seed["qualname"])
            ]
            used = {row["id"]: _state_of(row) for row in members}
            mine = used.get(seed["id"], set())
            users: dict[str, int] = {}
            for attributes in used.values():
                for attribute in attributes:
                    users[attribute] = users.get(attribute, 0) + 1
            shares = {
                row["id"]: sum(1 / users[a] for a in mine & used[row["id"]])
                for row in members
                if row["id"] != seed["id"]
            }
            by_id = {row["id"]: row for row in members}
            best = sorted(
                (i for i in shares if shares[i] > 0),
                key=lambda i: (-shares[i], by_id[i]["start_line"]),
            )[:STATE_MEMBERS]
            if not best:
                continue
            top = shares[best[0]]
            found += [(by_id[i], seed["qualname"], shares[i] / top) for i in best]
        return found

    def _links(self, qualnames: set[str]) -> dict[str, dict[str, float]]:
        """The call and inheritance edges among these chunks, both ways (a constructor stands
        for its class)."""
        links: dict[str, dict[str, float]] = {name: {} for name in qualnames}
        names = with_constructors(qualnames)
        for edge in self.store.edges_from(names, skip_kinds=NOT_RELATING, into_scopes=True):
            src, dst = names[edge["src"]], names.get(edge["dst"], _owner(edge["dst"]))
            if dst in links and src != dst:
                _link(links, src, dst, 1.0)
        return links

    def _neighbours(
        self, qualnames: list[str], intent: str, level: int
    ) -> dict[str, tuple[str, str]]:
        """qualname -> (reason, origin) one step away along the stored edges: usage
        questions look at callers and subclasses, implementation questions follow callees
        and bases (callers only next to the seeds), anything else goes both ways."""
        if not qualnames:
            return {}
        names = with_constructors(qualnames)
        ends: list[tuple[str, str, str, str]] = []  # origin, other, kind, other's end
        if intent != "usage":
            for edge in self.store.edges_from(names, skip_kinds=NOT_RELATING, into_scopes=True):
                ends.append((names[edge["src"]], _owner(edge["dst"]), edge["kind"], "dst"))
        if intent != "implementation" or level == 1:
            for edge in self.store.edges_to(names, skip_kinds=NOT_RELATING, into_scopes=True):
                ends.append((names[edge["dst"]], edge["src"], edge["kind"], "src"))
        found: dict[str, tuple[str, str]] = {}
        # a decorator's wrapper calls what it decorates: "decorated by" says more than "callee"
        for origin, other, kind, end in sorted(ends, key=lambda e: e[2] != "decorate"):
            found.setdefault(other, (_reason(origin, other, kind, end), origin))
        return found

    def _rows_for(self, qualnames: set[str]) -> list[dict[str, Any]]:
        if not qualnames:
            return []
        return self.store.chunks_by_qualname(qualnames, with_vectors=True)


# What `other` is to `origin` by the kind of the edge between them and the end `other` is on
_EDGE_REASONS = {
    ("call", "dst"): "callee of",
    ("call", "src"): "caller of",
    ("inherit", "dst"): "base of",
    ("inherit", "src"): "subclass of",
    ("decorate", "dst"): "decorator of",
    ("decorate", "src"): "decorated by",
}


def _reason(origin: str, other: str, kind: str, end: str) -> str:
    """Why `other` is in a bundle through an edge with `origin`. C#'s partial classes link
    their parts by inheritance: each part is a chunk of its own file, of one name."""
    if kind == "inherit" and origin.rpartition(".")[2] == other.rpartition(".")[2]:
        return f"other part of {origin}"
    return f"{_EDGE_REASONS.get((kind, end), _EDGE_REASONS['call', end])} {origin}"


def _link(links: dict[str, dict[str, float]], a: str, b: str, weight: float) -> None:
    """Link a and b both ways, keeping the stronger weight when they are linked already."""
    links[a][b] = links[b][a] = max(weight, links[a].get(b, 0.0))


def _scope_word(row: dict[str, Any]) -> str:
    """What holds a definition and the ones beside it, in its language's words: a method's
    class (a Go method's receiver type), the function a route or handler is registered in
    (chunking.python), else its module."""
    if row["kind"] == "method":
        return "type" if row["language"] == "go" else "class"
    return "function" if row["parent"] else "module"


def _definitions(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows in source order with each name's repeats dropped: overloads (`set(a)` and
    `set(a, b)` in a .d.ts, `@overload` stubs) and a property's getter and setter are one
    definition, so they do not use up a seed's reach to the definitions beside it."""
    seen: set[str] = set()
    kept = []
    for row in rows:
        if row["qualname"] not in seen:
            seen.add(row["qualname"])
            kept.append(row)
    return kept


def _state_of(row: dict[str, Any]) -> set[str]:
    """The attributes (fields) of its own object a method's code reads or writes: through
    `self`, `cls`, `this` (JS/TS private `this.#x` too), or a Go method's receiver."""
    names = list(_SELF)
    receiver = _GO_RECEIVER.match(row["signature"] or "")
    if receiver:
        names.append(receiver[1])
    attribute = rf"\b(?:{'|'.join(names)})\.(#?[A-Za-z_$][\w$]*)\b(?!\s*\()"  # not calls
    return set(re.findall(attribute, code_of(row["document"])))


def _owner(qualname: str) -> str:
    """A call to `Class.__init__` relates the class, whose chunk shows the constructor."""
    return constructed(qualname)


def personalized_pagerank(
    links: dict[str, dict[str, float]], seeds: set[str], steps: int = PAGERANK_STEPS
) -> dict[str, float]:
    """A random walk that goes home to the seeds with probability 1 - DAMPING at each step
    (and always from a node without links): how strongly the graph ties a node to them."""
    home = {name: 1.0 / len(seeds) for name in seeds}
    rank = dict(home)
    for _ in range(steps):
        spread: dict[str, float] = {}
        for name, mass in rank.items():
            out = links.get(name, {})
            total = sum(out.values())
            targets = out.items() if total else home.items()
            for other, weight in targets:
                share = weight / total if total else weight
                spread[other] = spread.get(other, 0.0) + mass * share
        rank = {
            name: DAMPING * spread.get(name, 0.0) + (1 - DAMPING) * home.get(name, 0.0)
            for name in spread.keys() | home.keys()
        }
    return rank


def _similarity(query: np.ndarray, vector: np.ndarray | None) -> float:
    return 0.0 if vector is None else float(np.dot(query, vector))


def _code(row: dict[str, Any]) -> str:
    return code_of(row["document"])


def _dedupe(items: list[Item]) -> list[Item]:
    best: dict[str, Item] = {}
    for item in items:
        current = best.get(item.hit.id)
        if (
            current is None
            or (item.reason == "seed") > (current.reason == "seed")
            or (item.score > current.score and current.reason != "seed")
        ):
            best[item.hit.id] = item
    return list(best.values())


def _merge_nested(items: list[Item]) -> list[Item]:
    """Drop an item whose lines lie inside another item of the same file that already shows
    them (functions and windows; a class or module chunk does not repeat method bodies, nor
    a function the functions registered in it)."""
    containers = [i for i in items if i.hit.kind in ("function", "method", "section")]
    kept = []
    for item in items:
        inside = any(
            other is not item
            and other.hit.path == item.hit.path
            and not item.hit.qualname.startswith(f"{other.hit.qualname}.")
            and other.hit.start_line <= item.hit.start_line
            and item.hit.end_line <= other.hit.end_line
            and (other.hit.start_line, other.hit.end_line)
            != (item.hit.start_line, item.hit.end_line)
            for other in containers
        )
        if not inside:
            kept.append(item)
    return kept


def fit_to_budget(
    entries: list[T], budget: int, item_of: Callable[[T], Item]
) -> tuple[list[T], bool]:
    """Greedy by order; the first item is always kept (cut to the budget if needed)."""
    kept: list[T] = []
    used = 0
    truncated = False
    for index, entry in enumerate(entries):
        item = item_of(entry)
        if index == 0 and item.tokens > budget:
            item.code = item.code[: budget * CHARS_PER_TOKEN]
            truncated = True
        if used + item.tokens <= budget:
            kept.append(entry)
            used += item.tokens
        else:
            truncated = True
    return kept, truncated


def to_markdown(bundle: Bundle, freshness: dict[str, Any] | None = None) -> str:
    """The bundle as context to paste into an AI assistant."""
    return markdown_of({**bundle.to_json(), **(freshness or {})})


def markdown_of(data: dict[str, Any]) -> str:
    """Markdown of a bundle's JSON (with its freshness fields): the one rendering the CLI,
    the language server, MCP and the editor extension all show."""
    lines = [
        f"# Code related to: {data['target']}",
        "",
        f"{len(data['items'])} items, ~{data['tokens']} tokens (budget {data['budget']})"
        + (", truncated" if data["truncated"] else "")
        + f"; intent: {data['intent']}.",
    ]
    if not data.get("fresh", True):
        lines.append(
            f"Note: the index is behind ({len(data.get('stale', []))} stale "
            "files); some code may have changed."
        )
    for item in data["items"]:
        lines += [
            "",
            f"## {item['qualname']} ({item['reason']})",
            f"`{_repo_prefix(item)}{item['path']}:{item['start_line']}-{item['end_line']}` · "
            f"{item['kind']} · "
            f"score {item['score']:.3f}",
            "",
            f"```{item['language']}",
            item["code"],
            "```",
        ]
    return "\n".join(lines) + "\n"


def _repo_prefix(item: dict[str, Any]) -> str:
    """A workspace of several repositories names each item's (paths are relative to it)."""
    return f"{item['repo']}: " if item.get("repo") else ""
