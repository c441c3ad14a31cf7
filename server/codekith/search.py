"""Search over the store: vector, full-text, or both fused by normalized scores.

Each list's scores are divided by its best score and summed with per-list weights, so a
chunk far ahead in one list keeps its lead (rank fusion lost such answers); rest-of-file
module chunks, test code and vendored copies give up a share of their score, since a
question about behaviour wants the definition (a question that asks for tests keeps tests
whole, and tests give up less for one that reads like a test's docstring). A question
worded like a class's docstring ("A loader that ...") lifts classes, one worded like a
function's ("Return the ...") lowers them. The best fused candidates are
then re-ranked by how close the question is to each one's name as words (the model
compares a sentence with a short phrase far better than with code: a docstring's first
sentence often paraphrases the name). The weights, the candidate depth and the shares were
chosen on the tuning repositories of scripts/eval_fusion.py and hold on the held-out ones
(docs/DESIGN.md has the figures). Exact symbol matches for identifiers in the query are
looked up first and lead the fused list: someone who types `parse_header` wants that
function before anything similar to it; the names such an identifier is a piece of
(`mapFormBy` -> `mapFormByTag`) come right after them, then the code that holds it as a
whole word (`NO_PROXY`, which no definition is named: what `grep -w` would list). A
pasted error message leads with the code holding the string it was printed from, whatever
else the query is (`TypeError: no loader for this environment specified`, a traceback),
and pasted lines of code with the definition that holds them, as grep would find them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from codekith.embedding import Embedder
from codekith.qualnames import definition_of
from codekith.question_probe import test_probe
from codekith.sidecode import is_test_path, is_vendored_path
from codekith.store import NO_FILTERS, Filters, Store
from codekith.template import (
    TEMPLATE_VERSION,
    code_of,
    name_phrase,
    search_text,
    split_identifier,
)
from codekith.vocabulary import KIND_FILTERS, MODES

# Chosen with the default model's code adapter on flask and axios (docstring plus fix -> files
# MRR@10, tuning means: 0.5/0.5 and NAME_WEIGHT 0.25, the old choice, .698 + .425; 0.7/0.3
# and 0.1 .719 + .427; docs/DESIGN.md has the grid).
VECTOR_WEIGHT = 0.7
TEXT_WEIGHT = 0.3
CANDIDATE_DEPTH = 50  # per list, for k = 10
SYMBOL_LEAD = 10.0  # added to exact symbol matches: more than any fused score
ASSIGNMENTS_KEPT = 5  # module or class chunks assigning a name that is no chunk's symbol
ASSIGNING_KINDS = ("module", "class")  # where constants live: a file's top, a class's body
FRAGMENT_LEAD = 5.0  # added to names that hold a fragment of a name written in the query
LITERAL_FRAGMENT = 1.0  # more when the name holds it as written: AppCtx -> _AppCtxGlobals first
FRAGMENT_MATCHES = 20  # names looked up per fragment
MENTION_LEAD = 2.0  # added to chunks that hold a code name of the query as a whole word
MENTION_DEPTH = 100  # full-text candidates read per code name for its whole-word holders
PASTED_LEAD = 12.0  # added to code holding what was pasted: a line of it, or a message's string
PASTED_CHAR_LEAD = 0.1  # more per character of it held: 13 more outweigh any fused score
SNIPPET_MIN_CHARS = 20  # a pasted line counts from this long (whitespace runs as one space)
MESSAGE_MIN_WORDS = 4  # what makes a string literal a message: the words (apart) and
MESSAGE_MIN_CHARS = 20  # characters it has besides its placeholders
MODULE_SHARE = 0.2  # share of its score a module (rest of a file) chunk gives up
SIDE_SHARE = 0.2  # share of its score vendored code (and test code, with no probe) gives up
# Most a test gives up, for a question that does not read at all like a test's docstring:
# it gives up TEST_SHARE x (1 - p), p the test probe's likelihood (chosen from 0.2, 0.3,
# 0.4 on the tuning repositories by scripts/eval_test_probe.py; docs/DESIGN.md).
TEST_SHARE = 0.3
SIDE_LEAD_GAP = 0.5  # taken from a side definition's name lead: the project's own comes first
NAME_WEIGHT = 0.1  # of the name's similarity to the query, relative to the best candidate
NAME_DEPTH = 30  # fused candidates re-ranked by name (for k = 10)
NAME_CACHE = 1 << 15  # name phrases' vectors kept per process
FEEDBACK_MIN_SIMILARITY = 0.8
CLASS_WEIGHT = 0.2  # of how much likelier than usual a question's opening says "a class"
CLASS_OPENINGS = Path(__file__).parent / "data" / "class_openings.json"
_ASKS_FOR_TESTS = re.compile(r"\btest(s|ed|ing)?\b", re.IGNORECASE)
SNIPPET_LINES = 12
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# dotted names, a JavaScript class's private members too (`Ky.#retry`)
_IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*(?:\.#?[A-Za-z_][A-Za-z0-9_]*)*\b")


@dataclass
class Hit:
    id: str
    path: str
    qualname: str
    symbol: str
    kind: str
    language: str
    start_line: int
    end_line: int
    score: float
    snippet: str
    extra: dict[str, Any] = field(default_factory=dict, repr=False)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("extra")
        data["score"] = round(self.score, 6)
        return data


@dataclass(frozen=True)
class Apart:
    """How many tests and documentation sections a search lists apart from its hits (0:
    none apart, they rank among the hits unless filtered out)."""

    tests: int = 0
    docs: int = 0

    @classmethod
    def asked(cls, query: str, filters: Filters, tests: bool, tests_apart: int, docs: int) -> Apart:
        """What comes apart of what the asker wants apart.

        Documentation comes apart when no kind filter chose what to see (`code` leaves it
        out, `section` keeps it alone): ranked with code, sections take a code question's
        first places, and code a documentation question's (docs/DESIGN.md, "Documentation
        apart"). Tests come apart unless they are wanted among the hits (`wants_tests`: the
        asker or the question says so) or a filter chose them already (a path inside
        tests, documentation only): ranked with the project's code, a test gives up a share
        of its score, which costs the questions a test answers ("Tests apart")."""
        prefix = filters.prefix()
        inside_tests = bool(prefix) and (is_test_path(prefix) or is_test_path(prefix + "/"))
        tests_listed = not (
            wants_tests(query, tests)
            or filters.test_paths is not None
            or filters.kind == "section"
            or inside_tests
        )
        return cls(tests_apart if tests_listed else 0, 0 if filters.kind else docs)


NOTHING_APART = Apart()


@dataclass
class Found:
    """A search's hits, and the tests and documentation sections listed apart from them
    (None when not asked for apart)."""

    hits: list[Hit]
    tests: list[Hit] | None = None
    docs: list[Hit] | None = None


Listed = TypeVar("Listed")


def listed_apart(tests: list[Listed] | None, docs: list[Listed] | None) -> dict[str, list[Listed]]:
    """The lists an answer holds apart from its hits, under their JSON names and in the
    order they are read (tests, then documentation); one not listed apart is left out."""
    named = (("tests", tests), ("docs", docs))
    return {name: listed for name, listed in named if listed is not None}


def one_per_definition(ranked: list[str], rows: Mapping[str, dict[str, Any]], k: int) -> list[str]:
    """The first k of `ranked` that are no further chunk of a definition listed above them
    (its best part stands for it): a split class, a file's module parts or overloads took
    several of ten places (200 of the bench's 3,103 docstring questions, 386 places)."""
    seen: set[tuple[str, str, str]] = set()
    kept: list[str] = []
    for chunk_id in ranked:
        definition = definition_of(rows[chunk_id])
        if definition not in seen:
            seen.add(definition)
            kept.append(chunk_id)
            if len(kept) == k:
                break
    return kept


def opening_parts(named: list[dict[str, Any]]) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Each definition the question names -> its first part: a name asks where the
    definition starts (`Client` listed httpx's class by its third part, lines 1043-1207 of
    a class opening at 594), a question by its best part, the lines that answer it."""
    opening: dict[tuple[str, str, str], dict[str, Any]] = {}
    for row in named:
        definition = definition_of(row)
        if definition not in opening or row["start_line"] < opening[definition]["start_line"]:
            opening[definition] = row
    return opening


def hit_from_row(row: dict[str, Any], score: float) -> Hit:
    snippet = "\n".join(code_of(row["document"]).split("\n")[:SNIPPET_LINES])
    return Hit(
        row["id"],
        row["path"],
        row["qualname"],
        row["symbol"],
        row["kind"],
        row["language"],
        row["start_line"],
        row["end_line"],
        score,
        snippet,
        extra=row,
    )


def is_side_code(path: str, tests_wanted: bool = False) -> bool:
    """Tests and vendored copies: a question about behaviour wants the project's own code.
    Tests are not side code to a question that asks for tests (`wants_tests`)."""
    return is_vendored_path(path) or (not tests_wanted and is_test_path(path))


def asks_for_tests(query: str) -> bool:
    """Whether the query names tests as words ("the test for redirects", "tested"); a name
    like `test_client` does not (chosen on flask and axios: docstring MRR@10 flask +.003,
    held out requests +.015, click +.003, gin +.010; no identifier case moved)."""
    return bool(_ASKS_FOR_TESTS.search(query))


def wants_tests(query: str, asked: bool = False) -> bool:
    """Whether tests rank with the project's own code: the asker said so (`--tests`, the
    MCP and LSP `tests` argument) or the question names tests. A question's wording tells a
    bug report from a test's docstring only so far ("hooks don't work with callable
    classes"): it lowers the tests' share (`Searcher.test_share`), and a question that wants
    a test and does not say "test" needs the asker's word to keep them whole (see
    docs/DESIGN.md)."""
    return asked or asks_for_tests(query)


@dataclass(frozen=True)
class SearchOptions:
    """The search options of a JSON line (`codekith search --queries` lines, eval cases);
    None where the line does not say, so the caller's default applies."""

    filters: Filters = NO_FILTERS
    k: int | None = None
    mode: str | None = None
    tests: bool | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str) -> SearchOptions:
        """Checked as the CLI checks its flags: `path_prefix` and `language` are text,
        `kind` and `mode` one of their words, `k` a whole number of at least 1, `tests` true
        or false; else a ValueError naming `where` (the file and line) and the field."""
        text = {name: data.get(name, "") for name in ("path_prefix", "language", "kind")}
        for name, value in text.items():
            if not isinstance(value, str):
                raise ValueError(f"{where}: '{name}' must be text, not {value!r}")
        _check_word(where, "kind", text["kind"], ("", *KIND_FILTERS))
        mode, k, tests = data.get("mode"), data.get("k"), data.get("tests")
        if mode is not None:
            _check_word(where, "mode", mode, MODES)
        if k is not None and (type(k) is not int or k < 1):
            raise ValueError(f"{where}: 'k' must be a whole number of at least 1, not {k!r}")
        if tests is not None and not isinstance(tests, bool):
            raise ValueError(f"{where}: 'tests' must be true or false, not {tests!r}")
        return cls(Filters(**text), k, mode, tests)


def search_request(line: str, where: str) -> tuple[str, SearchOptions, dict[str, Any]]:
    """A JSON line asking for a search (`--queries` lines, eval cases): its query, its
    checked options and the whole object (an eval case's 'expected' is in it). Not a JSON
    object, or no query as non-empty text: a ValueError naming `where`."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: not a JSON line ({exc})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected a JSON object, not {json.dumps(data)[:60]}")
    query = data.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ValueError(f"{where}: 'query' must be non-empty text, not {query!r}")
    return query, SearchOptions.from_json(data, where), data


def _check_word(where: str, name: str, value: object, words: Sequence[str]) -> None:
    if value not in words:
        listed = ", ".join(repr(w) for w in words)
        raise ValueError(f"{where}: '{name}' must be one of {listed}, not {value!r}")


def query_identifiers(query: str) -> list[str]:
    """Words of the query that look like code names: snake_case, camelCase or dotted
    (a query of one bare word counts too). All-caps words like WSGI are prose."""
    words = _IDENTIFIER.findall(query)
    if len(query.split()) == 1 and len(words) == 1:
        return words
    return [w for w in words if "." in w or is_code_name(w)]


def opening_word(text: str) -> str:
    """The first word of a question, lowercased, letters only ("A", "a" and "*A*" alike)."""
    words = text.split(maxsplit=1)
    return re.sub(r"[^a-z]", "", words[0].lower()) if words else ""


@cache
def _class_tables() -> dict[str, tuple[float, dict[str, float]]]:
    data = json.loads(CLASS_OPENINGS.read_text(encoding="utf-8"))
    return {
        language: (float(table["overall"]), {w: float(v) for w, v in table["words"].items()})
        for language, table in data.items()
    }


def class_lean(query: str, language: str = "python") -> float:
    """How much likelier than usual a definition in `language` described by a sentence
    opening like the query is a class (the share among docstrings of that language,
    `scripts/question_openings.py kinds`; Python's where it has none): "A context manager
    that ..." and "Raised if ..." describe classes, "Return ..." functions; 0 for an opening
    word not seen often."""
    tables = _class_tables()
    overall, shares = tables.get(language, tables["python"])
    share = shares.get(opening_word(query))
    return 0.0 if share is None else share - overall


def assigns(code: str, name: str, in_class: bool = False) -> bool:
    """Whether `code` gives `name` its value at the start of a line: `NAME = …`,
    `NAME: int = …`, `NAME := …`, `const NAME = …` (with `export`, `static`, `pub`,
    `final` or a type before it, or Go's after it), `#define NAME`. In a class's chunk,
    which may hold its methods' local variables, only a declaration (`const`, `static
    final`, `val`) or an UPPER_CASE name counts (click's `Context` set `default_map` in a
    method)."""
    return any(
        not in_class or name.isupper() or match.group("keywords")
        for match in _assignment_of(name).finditer(code)
    )


_DECLARING = (  # words a declaration may open with: `export const`, `pub static`, `final`
    "export|pub(?:\\([^)]*\\))?|const|let|var|static|final|val|readonly|public|private|"
    "protected|internal"
)


@lru_cache(maxsize=256)
def _assignment_of(name: str) -> re.Pattern[str]:
    word = re.escape(name)
    keywords = rf"(?P<keywords>(?:(?:{_DECLARING})[ \t]+)*)"
    typed = r"(?::[^=\n]*|[ \t]+[\w.\[\]*]+)?"  # `NAME: int =`, Go's `NAME ErrorType =`
    declared = rf"{keywords}(?:[\w.<>\[\]*]+[ \t]+)?{word}{typed}[ \t]*:?=(?!=)"
    return re.compile(rf"(?m)^[ \t]*(?:#[ \t]*define[ \t]+{word}\b|{declared})")


_STRING = re.compile(  # a literal on one line: "...", '...' or `...`, escapes kept
    r'"([^"\\\n]*(?:\\.[^"\\\n]*)*)"'
    r"|'([^'\\\n]*(?:\\.[^'\\\n]*)*)'"
    r"|`([^`\\\n]*(?:\\.[^`\\\n]*)*)`"
)
_PLACEHOLDER = re.compile(  # f-string and format fields, %-verbs (Python's, Go's), ${...}
    r"\$\{[^{}]*\}|\{[^{}]*\}|%(?:\(\w+\))?[-#0 +]*\d*(?:\.\d+)?[sdrifxXoeEgGcvqwT]"
)
_BARE_NAME = re.compile(r"[\w.$#]+")  # a line that is a name (or a chain) is no paste
_CODE_MARK = re.compile(r"[()\[\]{}=;<>]|\w\.\w|:$|^(#|//|/\*)")  # not prose: a call, a comment
_TRACEBACK_FRAME = re.compile(  # a traceback's own lines: doctests hold them too
    r"Traceback \(most recent call last\):|File \".*\", line \d+"
    r"|During handling of the above exception|The above exception was the direct cause"
)
_LETTER = re.compile(r"[^\W\d_]")


def _words(text: str) -> int:
    """Words as a message has them, apart: `render_to_log_kwargs` is one."""
    return sum(1 for token in text.split() if _LETTER.search(token))


def names_a_symbol(query: str) -> bool:
    """Short queries, or queries made mostly of code names, are looking for a definition;
    in a sentence the names usually point at a neighbour of the answer."""
    names = query_identifiers(query)
    return bool(names) and (len(query.split()) <= 3 or 2 * len(names) >= len(query.split()))


class Searcher:
    def __init__(self, store: Store, embedder_factory: Callable[[], Embedder], model: str = ""):
        self.store = store
        self.embedder = embedder_factory  # loads the model on first call, then caches it
        self.model = model  # when set, every query first checks the index was built with it
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="codekith-search")
        self._query_vectors = lru_cache(maxsize=256)(
            lambda text: embedder_factory().embed_query(text)
        )
        self._name_vectors: dict[str, np.ndarray] = {}

    def query_vector(self, text: str) -> np.ndarray:
        """Each distinct query is embedded once: search, feedback and related all need it."""
        self.check_compatible()
        return self._query_vectors(text)

    def forget_questions(self) -> None:
        """Forget the questions embedded so far: a benchmark then times each search as a
        new question's, embedding included."""
        self._query_vectors.cache_clear()  # type: ignore[attr-defined]

    def query_id(self) -> str:
        """What embeds this searcher's questions (Embedder.query_id)."""
        return self.embedder().query_id

    def check_compatible(self) -> None:
        """IndexMismatchError when the index was built with another model or template: its
        vectors and this query's would not be comparable."""
        if self.model:
            self.store.check_compatible(self.model, None, TEMPLATE_VERSION)

    def search(
        self,
        query: str,
        k: int = 10,
        filters: Filters | None = None,
        mode: str = "hybrid",
        tests: bool = False,
    ) -> list[Hit]:
        """The k best chunks for the query. Tests give up part of their score unless `tests`
        is set or the query says "test" (`wants_tests`)."""
        self._check(mode)
        return self._ranked(query, k, filters or NO_FILTERS, mode, tests)

    def search_apart(
        self,
        query: str,
        k: int,
        filters: Filters | None = None,
        mode: str = "hybrid",
        tests: bool = False,
        apart: Apart = NOTHING_APART,
    ) -> Found:
        """The k best chunks and, apart from them, the best documentation sections (the
        hits are then code only) and the best tests (the hits then hold none), each list
        ranked among its own kind (`Apart.asked` says when and why).
        The searches of one question check the index and embed the question once, and run
        side by side."""
        self._check(mode)
        chosen = filters or NO_FILTERS
        if not apart.docs and not apart.tests:
            return Found(self._ranked(query, k, chosen, mode, tests))
        if mode != "text":
            self._query_vectors(query)  # cached here, so the searches do not each embed it
        code = replace(chosen, kind="code") if apart.docs else chosen
        asked: dict[str, tuple[Filters, int, bool]] = {}
        if apart.docs:
            asked["docs"] = (replace(chosen, kind="section"), apart.docs, tests)
        if apart.tests:
            asked["tests"] = (replace(code, test_paths=True), apart.tests, True)
            code = replace(code, test_paths=False)
        with ThreadPoolExecutor(len(asked), thread_name_prefix="codekith-apart") as pool:
            listed = {
                name: pool.submit(self._ranked, query, count, where, mode, whole)
                for name, (where, count, whole) in asked.items()
            }
            hits = self._ranked(query, k, code, mode, tests)
            return Found(
                hits,
                *(listed[name].result() if name in listed else None for name in ("tests", "docs")),
            )

    def _check(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.check_compatible()  # once: the lookups and re-rankers below embed unchecked

    def _ranked(self, query: str, k: int, chosen: Filters, mode: str, tests: bool) -> list[Hit]:
        depth = max(k * 5, CANDIDATE_DEPTH)
        lookups: dict[str, Callable[[], list[Any]]] = {}
        named = mode == "hybrid" and names_a_symbol(query)
        if named:
            lookups["symbols"] = lambda: self.symbol_matches(query, chosen)
            lookups["fragments"] = lambda: self.fragment_matches(query, chosen)
        if mode in ("hybrid", "vector"):
            lookups["vector"] = lambda: self.store.vector_search(
                self._query_vectors(query), depth, chosen
            )
        if mode in ("hybrid", "text"):
            read = max(depth, MENTION_DEPTH) if named else depth  # the mentions' candidates
            lookups["text"] = lambda: self.store.text_search(
                search_text(query), read, chosen, vectors=mode == "hybrid"
            )
        # The model and LanceDB release the GIL: the lookups really run side by side.
        results = self._pool.map(lambda name: lookups[name](), lookups)
        found = dict(zip(lookups, results, strict=True))
        if named:
            found["mentions"] = self.mention_matches(query, chosen, found["text"])
            found["text"] = found["text"][:depth]  # the same rows as a search that deep
        if mode == "hybrid":
            found["pasted"] = [
                *message_matches(query, found["text"]),
                *snippet_matches(query, found["text"]),
            ]
            found["vector"] = self._with_stored_cosines(query, found["vector"], found["text"])
        tests_wanted = wants_tests(query, tests)
        asks_probe = mode == "hybrid" and not tests_wanted  # only fusion gives up shares
        shares = Shares(tests_wanted, self.test_share(query) if asks_probe else SIDE_SHARE)
        scores, rows = fuse(
            found.get("symbols", []),
            found.get("vector", []),
            found.get("text", []),
            [*found.get("fragments", []), *found.get("mentions", []), *found.get("pasted", [])],
            shares,
        )
        if mode == "hybrid":
            if not named:
                lean_to_classes(query, scores, rows)
            depth = max(k * 3, NAME_DEPTH)
            self._rerank_by_name(query, scores, rows, depth, shares)
        self._apply_feedback(query, scores, rows, chosen)
        best = one_per_definition(sorted(scores, key=lambda i: (-scores[i], i)), rows, k)
        opening = opening_parts(found.get("symbols", []))
        return [hit_from_row(opening.get(definition_of(rows[i]), rows[i]), scores[i]) for i in best]

    def test_share(self, query: str) -> float:
        """What a test gives up of its fused score for this question, unless tests are
        wanted: less the more the question reads like a test's docstring. SIDE_SHARE for
        every question when the probe was trained on another model's questions."""
        probe = test_probe()
        if probe.query_side != self.query_id():
            return SIDE_SHARE
        return TEST_SHARE * (1 - probe.likelihood(self._query_vectors(query), query))

    def _with_stored_cosines(
        self, query: str, vector: list[dict[str, Any]], text: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """The vector list, plus the text list's candidates that are not in it, each with its
        stored vector's cosine: a candidate only the text list found counted no similarity
        at all, below ones the model thinks much less of (chosen on flask and axios:
        docstring MRR@10 tuning mean .673 -> .677, held out requests, click, gin +.008
        to +.009)."""
        carried = {row["id"]: row.pop("vector") for row in text if "vector" in row}
        seen = {row["id"] for row in vector}
        missing = [row for row in text if row["id"] not in seen]
        if not vector or not missing:
            return vector
        stored = {
            r["id"]: np.asarray(carried[r["id"]], dtype=np.float32)
            for r in missing
            if r["id"] in carried
        }
        stored.update(self.store.vectors_of(r["id"] for r in missing if r["id"] not in stored))
        asked = self._query_vectors(query)
        return vector + [
            {**row, "_distance": 1.0 - float(stored[row["id"]] @ asked)}
            for row in missing
            if row["id"] in stored
        ]

    def _rerank_by_name(
        self,
        query: str,
        scores: dict[str, float],
        rows: dict[str, dict[str, Any]],
        depth: int,
        shares: Shares,
    ) -> None:
        """The best `depth` candidates gain up to NAME_WEIGHT by their name's similarity to
        the query, relative to the closest name among them, less the shares that module
        chunks and side code give up in the fusion (NAME_WEIGHT chosen on the tuning
        repositories, see docs/DESIGN.md: with the code adapter it helps flask's docstring
        questions and costs bug-report ones, so it fell from 0.25 to 0.1)."""
        best = sorted(scores, key=lambda i: (-scores[i], i))[:depth]
        if not best:
            return
        phrases = {i: name_phrase(rows[i]["symbol"] or "", rows[i]["qualname"]) for i in best}
        similarity = self.name_vectors(list(phrases.values())) @ self._query_vectors(query)
        top = float(similarity.max())
        if top <= 0:
            return
        for chunk_id, value in zip(phrases, similarity, strict=True):
            bonus = NAME_WEIGHT * max(float(value), 0.0) / top
            scores[chunk_id] += bonus * kept_share(rows[chunk_id], shares)

    def name_vectors(self, phrases: list[str]) -> np.ndarray:
        """Vectors of name phrases, embedded once per process (names recur across queries;
        a cold query embeds its ~30 in one call)."""
        known = {p: self._name_vectors.get(p) for p in set(phrases)}
        missing = sorted(p for p, vector in known.items() if vector is None)
        if missing:
            embedded = dict(zip(missing, self.embedder().embed_documents(missing), strict=True))
            known.update(embedded)
            if len(self._name_vectors) + len(missing) > NAME_CACHE:
                self._name_vectors.clear()
            self._name_vectors.update(embedded)
        return np.stack([known[p] for p in phrases])  # type: ignore[misc]

    def _apply_feedback(
        self,
        query: str,
        scores: dict[str, float],
        rows: dict[str, dict[str, Any]],
        filters: Filters,
    ) -> None:
        """Votes on similar past queries move items: an up vote on a query this close is
        worth about a first place in both rankings, a down vote takes as much away. A vote
        whose question another query side embedded (an upgrade's new query adapter) is
        compared by its question embedded again, until the next vote renews it."""
        votes = self.store.feedback()
        if not votes:
            return
        vector, tower = self._query_vectors(query), self.query_id()
        adjust: dict[str, float] = {}
        for vote in votes:
            same_side = vote.get("tower") == tower
            asked = vote["vector"] if same_side else self._query_vectors(vote["query"])
            similarity = float(np.dot(vector, asked))
            if similarity >= FEEDBACK_MIN_SIMILARITY:
                weight = (similarity - FEEDBACK_MIN_SIMILARITY) / (1 - FEEDBACK_MIN_SIMILARITY)
                adjust[vote["id"]] = adjust.get(vote["id"], 0.0) + vote["vote"] * (
                    0.5 + 0.5 * weight
                ) * (VECTOR_WEIGHT + TEXT_WEIGHT)
        missing = [i for i, delta in adjust.items() if delta > 0 and i not in rows]
        if missing:
            for row in self.store.chunks_by_id(missing, filters):
                rows[row["id"]] = row
                scores[row["id"]] = 0.0
        for chunk_id, delta in adjust.items():
            if chunk_id in scores:
                scores[chunk_id] += delta

    def symbol_matches(self, query: str, filters: Filters = NO_FILTERS) -> list[dict[str, Any]]:
        """Chunks whose symbol or qualname is an identifier written in the query; for a
        bare name no chunk is called (a constant, a module variable, a class's constant),
        the module or class chunks that assign it at the start of a line, as
        `grep "^NAME ="` finds them."""
        names = query_identifiers(query)[:8]
        found = self.store.chunks_named(names, filters, limit=20) if names else []
        symbols = {row["symbol"] for row in found}
        unnamed = [n for n in names if "." not in n and n not in symbols]
        if unnamed:
            found += [
                row
                for row in self.store.chunks_mentioning(unnamed, ASSIGNING_KINDS, filters)
                if any(assigns(row["document"], name, row["kind"] == "class") for name in unnamed)
            ][:ASSIGNMENTS_KEPT]
        return found

    def fragment_matches(
        self, query: str, filters: Filters = NO_FILTERS
    ) -> list[tuple[dict[str, Any], float]]:
        """Definitions whose name holds an undotted identifier of the query, of two parts or
        more, as whole parts in order whatever the case convention (`mapFormBy` ->
        `mapFormByTag`, `ByForm` -> `setByForm` but not `setByFormat`, `form_by` ->
        `mapFormByTag`): someone who types a piece of a name wants the names
        it is a piece of, and similar code only after them."""
        found: list[tuple[dict[str, Any], float]] = []
        for name in query_identifiers(query)[:4]:
            parts = split_identifier(name)
            if "." in name or len(parts) < 2:
                continue
            led = [
                (row, FRAGMENT_LEAD + (LITERAL_FRAGMENT if name.lower() in symbol.lower() else 0))
                for row in self.store.symbols_containing(parts, filters)
                if (symbol := row["symbol"]) != name
                and holds_parts(split_identifier(symbol), parts)
            ]
            found += sorted(led, key=lambda pair: -pair[1])[:FRAGMENT_MATCHES]
        return found

    def mention_matches(
        self, query: str, filters: Filters = NO_FILTERS, read: list[dict[str, Any]] | None = None
    ) -> list[tuple[dict[str, Any], float]]:
        """Chunks whose code holds a code name of the query (snake_case, camelCase, a
        dotted chain) as a whole word, as `grep -w` finds them: someone who types `NO_PROXY` or
        `deferred_functions`, which no definition is named, wants the code that reads or
        sets it before code that is only like it (and a definition's uses right after it).
        The candidates are the best full-text matches of the name's parts (`read`: those of
        the query's own text, MENTION_DEPTH deep, when the search has them); when none of
        them holds it and they may not be all the chunks holding its parts (as many as were
        asked for, `do_get`; none: stop words, `do_it`), every chunk that holds it, by a
        scan."""
        found: list[tuple[dict[str, Any], float]] = []
        asked = search_text(query)
        for name in [n for n in query_identifiers(query) if is_code_name(n)][:4]:
            words = search_text(name)
            rows = (
                read
                if read is not None and words == asked
                else self.store.text_search(words, MENTION_DEPTH, filters)
            )
            held = [row for row in rows if holds_word(code_of(row["document"]), name)]
            if not held and (not rows or len(rows) >= MENTION_DEPTH):  # else none holds it
                rows = self.store.chunks_mentioning([name], None, filters, MENTION_DEPTH)
                held = [row for row in rows if holds_word(code_of(row["document"]), name)]
            found += [(row, MENTION_LEAD) for row in held]
        return found


def message_matches(query: str, rows: list[dict[str, Any]]) -> list[tuple[dict[str, Any], float]]:
    """Rows whose code holds a string literal the query holds as printed: its text around
    the placeholders (`{name!r}`, `%s`, `${x}`), in order. Someone who pastes an error
    message (`TypeError: no loader for this environment specified`, or a traceback) asks
    where it comes from, before anything it is only like. The literal that explains more
    of the message comes first (`Blob is not supported. Use a Buffer instead.` before
    `Blob is not supported`)."""
    if len(query.split()) < MESSAGE_MIN_WORDS:
        return []
    found = []
    for row in rows:
        covered = max(
            (len(s) for s in printed_literals(code_of(row["document"]), query)), default=0
        )
        if covered:
            found.append((row, PASTED_LEAD + PASTED_CHAR_LEAD * covered))
    return found


def snippet_matches(query: str, rows: list[dict[str, Any]]) -> list[tuple[dict[str, Any], float]]:
    """Rows whose code holds lines of the query as written (whitespace aside), each line
    SNIPPET_MIN_CHARS or longer, marked as code (a bracket, `=`, an access, a closing `:`,
    a comment's `#` or `//`: "n-th Fibonacci number" is a question even where a docstring
    holds it; a paste of short lines counts whole) and more than a name
    (`Flask.create_jinja_environment` asks for its definition, which the name leads carry):
    someone who pastes code asks where it is, as grep would answer, before code that is
    only like it. The chunk that holds more of it comes first: all of it in one
    run, then the most of its lines (a paste across two functions: the one with more of
    them; lines such as `self.name = name` are in many)."""
    written = [" ".join(line.split()) for line in query.splitlines() if line.strip()]
    lines = {line for line in written if _is_code(line)}
    joined = " ".join(written)
    whole = joined if len(written) > 1 and _is_code(joined) else ""
    if not lines and not whole:
        return []
    found = []
    for row in rows:
        code = " ".join(code_of(row["document"]).split())
        held = sum(len(line) for line in lines if line in code)
        if whole and whole in code:  # all of it, in one run
            held += len(whole)
        if held:
            found.append((row, PASTED_LEAD + PASTED_CHAR_LEAD * held))
    return found


def _is_code(line: str) -> bool:
    """A pasted line worth finding: long enough, and code or a comment, not a name."""
    return (
        len(line) >= SNIPPET_MIN_CHARS
        and bool(_CODE_MARK.search(line))
        and not (_BARE_NAME.fullmatch(line) or _TRACEBACK_FRAME.match(line))
    )


def printed_literals(code: str, text: str) -> list[str]:
    """The static text of each message literal of `code` that `text` holds as printed."""
    held = []
    for literal in _STRING.finditer(code):
        body = literal[literal.lastindex or 0]
        if len(body) < MESSAGE_MIN_CHARS:  # most are keys and names: not worth a split
            continue
        pieces = [p.strip() for p in _PLACEHOLDER.split(body)]
        pieces = [p for p in pieces if p]
        static = " ".join(pieces)
        if len(static) < MESSAGE_MIN_CHARS or _words(static) < MESSAGE_MIN_WORDS:
            continue
        at = 0
        for piece in pieces:
            at = text.find(piece, at)
            if at < 0:
                break
            at += len(piece)
        else:
            held.append(static)
    return held


def is_code_name(word: str) -> bool:
    """A name no prose word looks like: parts joined by `_` or camelCase, or a chain of
    names as code writes it (`self.deferred_functions`, `os.environ.get`)."""
    if "." in word:
        return all(_NAME.fullmatch(part) for part in word.split("."))
    core = word.strip("_")
    return "_" in core or bool(re.search(r"[a-z][A-Z]", core))


def holds_word(text: str, name: str) -> bool:
    """Whether `text` holds `name` as a whole word, as `grep -w` (`$name` in a shell too)."""
    return name in text and _whole_word(name).search(text) is not None


@lru_cache(maxsize=256)
def _whole_word(name: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(name)}\b")


def lean_to_classes(
    query: str, scores: dict[str, float], rows: Mapping[str, Mapping[str, Any]]
) -> None:
    """Classes move up by `CLASS_WEIGHT` times the question's lean to them in their language
    (down when it leans away): a class's skeleton has fewer words than its methods, whose
    names the question often shares."""
    leans: dict[str, float] = {}
    for chunk_id, row in rows.items():
        if row["kind"] == "class":
            language = row["language"]
            if language not in leans:
                leans[language] = class_lean(query, language)
            scores[chunk_id] += CLASS_WEIGHT * leans[language]


@dataclass(frozen=True)
class Shares:
    """How one question ranks side code: whether tests rank as the project's own code,
    and the share of its score a test gives up when they do not (Searcher.test_share)."""

    tests_wanted: bool = False
    test_share: float = SIDE_SHARE


NO_QUESTION = Shares()  # the shares with no question to go by


def side_share(path: str, shares: Shares = NO_QUESTION) -> float:
    """The share of its score the file's code gives up as side code (0 for own code)."""
    if not is_side_code(path, shares.tests_wanted):
        return 0.0
    return SIDE_SHARE if is_side_code(path, tests_wanted=True) else shares.test_share


def kept_share(row: dict[str, Any], shares: Shares = NO_QUESTION) -> float:
    """What a fused score keeps: module chunks and side code give up their shares."""
    share = 1 - MODULE_SHARE if row["kind"] == "module" else 1.0
    return share * (1 - side_share(row["path"], shares))


def holds_parts(name: list[str], parts: list[str]) -> bool:
    """Whether `parts` occur in `name` as consecutive whole parts."""
    width = len(parts)
    return any(name[start : start + width] == parts for start in range(len(name) - width + 1))


def fuse(
    symbols: list[dict[str, Any]],
    vector: list[dict[str, Any]],
    text: list[dict[str, Any]],
    leads: Sequence[tuple[dict[str, Any], float]] = (),
    shares: Shares = NO_QUESTION,
) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    """Scores of the fused lists (see the module docstring); a single list keeps its order
    (the module and test shares were tuned for the fusion only). Exact names lead, then the
    rows of `leads` by their lead (the names a fragment of the query is a piece of, then the
    code that holds a name of the query), each group in fused order with side code after
    the project's own (`should_strip_auth` before `test_should_strip_auth_*` for
    `strip_auth`)."""
    scores: dict[str, float] = {}
    rows: dict[str, dict[str, Any]] = {}
    for ranking, values, weight in (
        (vector, [1.0 - float(r["_distance"]) for r in vector], VECTOR_WEIGHT),
        (text, [float(r["_score"]) for r in text], TEXT_WEIGHT),
    ):
        top = max(values, default=0.0)
        scale = weight / top if top > 0 else 0.0
        for row, value in zip(ranking, values, strict=True):
            scores[row["id"]] = scores.get(row["id"], 0.0) + scale * value
            rows.setdefault(row["id"], row)
    for chunk_id, row in rows.items() if vector and text else ():
        scores[chunk_id] *= kept_share(row, shares)
    led: dict[str, float] = {}
    for row, lead in [*((row, SYMBOL_LEAD) for row in symbols), *leads]:
        rows.setdefault(row["id"], row)
        if is_side_code(row["path"], shares.tests_wanted) or row["kind"] == "section":
            lead -= SIDE_LEAD_GAP  # a name asks for its definition: docs titled so come after
        led[row["id"]] = max(led.get(row["id"], 0.0), lead)
    for chunk_id, lead in led.items():
        scores[chunk_id] = scores.get(chunk_id, 0.0) + lead
    return scores, rows
