"""Hybrid search re-ranks its best candidates by how close the question is to each one's
name as words, and leads with the names a code name in the query is, or is a piece of, with
the real model (the fusion before it is covered in test_index)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from codekith import search
from codekith.answers import Answers
from codekith.search import (
    CLASS_WEIGHT,
    FRAGMENT_LEAD,
    MENTION_LEAD,
    NAME_WEIGHT,
    NO_QUESTION,
    SIDE_LEAD_GAP,
    SIDE_SHARE,
    SYMBOL_LEAD,
    TEST_SHARE,
    TEXT_WEIGHT,
    Apart,
    Searcher,
    Shares,
    asks_for_tests,
    class_lean,
    fuse,
    holds_parts,
    is_side_code,
    lean_to_classes,
    names_a_symbol,
    opening_word,
    query_identifiers,
)
from codekith.store import Filters
from codekith.template import code_of, name_phrase


class _Counting:
    """The real embedder, counting the texts it embeds as documents."""

    def __init__(self, embedder: Any) -> None:
        self.inner, self.embedded = embedder, []
        self.query_id = embedder.query_id

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        self.embedded += list(texts)
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self.inner.embed_query(text)

    def model_inputs(self, texts: list[str]) -> list[Any]:
        return self.inner.model_inputs(texts)  # type: ignore[no-any-return]


def _row(qualname: str) -> dict[str, Any]:
    symbol = qualname.rpartition(".")[2]
    return {
        "id": qualname,
        "qualname": qualname,
        "symbol": symbol,
        "kind": "function",
        "path": "app.py",
    }


def test_a_name_phrase_is_the_definitions_own_name_in_words() -> None:
    assert name_phrase("get_send_file_max_age", "flask.helpers.get_send_file_max_age") == (
        "get send file max age"
    )
    assert name_phrase("", "pkg.HTTPServer") == "http server"


def test_of_two_tied_candidates_the_one_whose_name_the_question_paraphrases_wins(
    embedder: Any,
) -> None:
    counting = _Counting(embedder)
    searcher = Searcher(store=None, embedder_factory=lambda: counting)  # type: ignore[arg-type]
    rows = {r["id"]: r for r in map(_row, ("app.render_page_header", "app.purge_stale_sessions"))}
    scores = dict.fromkeys(rows, 1.0)
    searcher._rerank_by_name(
        "Delete the sessions that have expired.", scores, rows, 30, NO_QUESTION
    )
    assert scores["app.purge_stale_sessions"] == 1.0 + NAME_WEIGHT  # the closest name
    assert 1.0 <= scores["app.render_page_header"] < 1.0 + NAME_WEIGHT / 2
    assert sorted(counting.embedded) == ["purge stale sessions", "render page header"]


def test_name_vectors_are_embedded_once_per_process_and_only_for_the_best_candidates(
    embedder: Any,
) -> None:
    counting = _Counting(embedder)
    searcher = Searcher(store=None, embedder_factory=lambda: counting)  # type: ignore[arg-type]
    rows = {r["id"]: r for r in map(_row, [f"m.helper_{n}" for n in range(40)])}
    scores = {chunk_id: 40.0 - n for n, chunk_id in enumerate(rows)}
    searcher._rerank_by_name("a helper", scores, rows, 30, NO_QUESTION)
    assert len(counting.embedded) == 30  # the 30 best, not all 40
    assert "helper 39" not in counting.embedded
    searcher._rerank_by_name("another helper", scores, rows, 30, NO_QUESTION)
    assert len(counting.embedded) == 30  # the same names: nothing embedded again


def test_a_hybrid_search_checks_the_index_model_once(workspace, project_for, monkeypatch) -> None:
    """Each check reads the index's meta version (~2.5 ms on flask right after a save): the
    vector lookup and the name re-ranking embed the query after the search's one check."""
    root = workspace(
        {"sessions.py": "def purge_stale_sessions(store):\n    return store.clear()\n"}
    )
    project = project_for(root)
    project.indexer.run()
    searcher, store = project.searcher, project.read_store
    checks: list[str] = []
    real = store.check_compatible
    monkeypatch.setattr(
        store, "check_compatible", lambda *args: checks.append("check") or real(*args)
    )
    hits = searcher.search("Delete the sessions that have expired.", 5)
    assert hits[0].symbol == "purge_stale_sessions"
    assert checks == ["check"]


def test_whole_parts_in_order_make_a_fragment_of_a_name() -> None:
    assert holds_parts(["map", "form", "by", "tag"], ["form", "by"])
    assert holds_parts(["set", "by", "form"], ["by", "form"])
    assert not holds_parts(["set", "by", "format"], ["by", "form"])
    assert not holds_parts(["form", "map", "by"], ["map", "form"])


FORMS = """
export function mapForm(values) { return values; }
export function mapFormByTag(values, tag) { return values.filter((v) => v.tag === tag); }
export function setByForm(target, form) { return Object.assign(target, form); }
export function setByFormat(target, format) { return target.format(format); }
export function renderPage(page) { return page.body; }
"""


def test_a_fragment_of_a_name_finds_the_names_it_is_a_piece_of_after_exact_names(
    workspace, project_for
) -> None:
    """A camelCase piece of a name (a symbol search as people type it) brings the names
    that hold it as whole parts first; an exact name still comes before them."""
    root = workspace({"forms.js": FORMS})
    project = project_for(root)
    project.indexer.run()
    searcher = project.searcher
    assert searcher.search("mapFormBy", 3)[0].symbol == "mapFormByTag"
    by_form = [hit.symbol for hit in searcher.search("ByForm", 5)]
    assert by_form[0] == "setByForm"
    assert [hit.symbol for hit in searcher.search("mapForm", 2)] == ["mapForm", "mapFormByTag"]
    fragments = searcher.fragment_matches("ByForm")
    assert [row["symbol"] for row, _ in fragments] == ["setByForm"]  # not setByFormat
    assert [(row["symbol"], lead) for row, lead in searcher.fragment_matches("form_by")] == [
        ("mapFormByTag", FRAGMENT_LEAD)  # its parts, not as written: no literal bonus
    ]


CONSTANTS = {
    "net/limits.py": (
        '"""Limits of the connection pool."""\n\n'
        "POOL_TIMEOUT_S = 30\nMAX_POOL_SIZE: int = 10\n\n\n"
        "def pool_size(wanted):\n    return min(wanted, MAX_POOL_SIZE)\n"
    ),
    "net/client.py": (
        "from net.limits import MAX_POOL_SIZE, POOL_TIMEOUT_S\n\n\n"
        "class Client:\n    def connect(self):\n        return POOL_TIMEOUT_S * MAX_POOL_SIZE\n"
    ),
    "web/config.ts": "export const API_BASE_URL = 'https://example.org';\n",
    "web/errors.go": (
        "package web\n\ntype ErrorType uint64\n\nconst (\n"
        "\tErrorTypeBind ErrorType = 1 << 63\n\tErrorTypeRender ErrorType = 1 << 62\n)\n"
    ),
    "web/bind.go": (
        "package web\n\nfunc Bind(err error) ErrorType {\n\tif err != nil {\n"
        "\t\treturn ErrorTypeBind\n\t}\n\treturn ErrorTypeRender\n}\n"
    ),
    "net/retry.py": (
        "class Backoff:\n    BASE_DELAY_S = 0.5\n\n"
        "    def delay(self, attempt):\n        return self.BASE_DELAY_S * 2**attempt\n"
    ),
    "net/pool.py": (
        "from net.retry import Backoff\n\n\ndef wait(n):\n    return Backoff.BASE_DELAY_S * n\n"
    ),
}


def test_a_constants_name_finds_the_file_that_assigns_it_first(workspace, project_for) -> None:
    """A constant is no chunk's symbol: its name found the code that uses it (`Client`,
    `pool_size`) before the rest of the file, or the class, that sets it, where
    `grep "^NAME ="` goes first."""
    root = workspace(CONSTANTS)
    project = project_for(root)
    project.indexer.run()
    for name, path in [
        ("ErrorTypeBind", "web/errors.go"),  # Go: the type after the name
        ("POOL_TIMEOUT_S", "net/limits.py"),
        ("MAX_POOL_SIZE", "net/limits.py"),
        ("API_BASE_URL", "web/config.ts"),
    ]:
        top = project.searcher.search(name, 3)[0]
        assert (top.path, top.kind) == (path, "module"), (name, top)
    top = project.searcher.search("BASE_DELAY_S", 3)[0]  # a class's constant: its class
    assert (top.path, top.qualname) == ("net/retry.py", "net.retry.Backoff"), top
    assert search.assigns("    MAX_POOL_SIZE: int = 10", "MAX_POOL_SIZE")
    assert search.assigns("#define MAX_POOL_SIZE 10", "MAX_POOL_SIZE")
    assert search.assigns("pub(crate) static MAX_POOL_SIZE: usize = 1;", "MAX_POOL_SIZE")
    assert not search.assigns("return min(wanted, MAX_POOL_SIZE)", "MAX_POOL_SIZE")
    assert not search.assigns("if MAX_POOL_SIZE == 1:", "MAX_POOL_SIZE")
    assert not search.assigns("MAX_POOL_SIZES = 1", "MAX_POOL_SIZE")


SPLIT = {
    "net/__init__.py": "",
    "net/huge.py": "def reconcile_ledgers(entries):\n"
    + "\n".join(f"    total_{i} = settle_account({i}, 'ledger padding text')" for i in range(300))
    + "\n\n\nclass Meter:\n"
    + "    @property\n    def reading(self):\n        return self._reading\n\n"
    + "    @reading.setter\n    def reading(self, value):\n        self._reading = value\n",
}


def test_a_definition_is_one_hit_whichever_of_its_parts_match(workspace, project_for) -> None:
    """The parts of a definition too long for one embedding all matched its name and took
    the first places (starlette's `TestClient`: three of four); its best part stands for
    it in a search (its first part when the search names it), and a name finds it once and
    whole (workspace symbols, find_symbol). A property's getter and setter share a name
    but stay two definitions."""
    project = project_for(workspace(SPLIT))
    project.indexer.run()
    parts = project.store.chunks_by_qualname(["net.huge.reconcile_ledgers"])
    assert len(parts) > 2
    for mode in ("hybrid", "vector", "text"):
        hits = project.searcher.search("reconcile_ledgers settle account", 10, mode=mode)
        names = [(h.qualname, h.start_line) for h in hits]
        assert [q for q, _ in names].count("net.huge.reconcile_ledgers") == 1, (mode, names)
    for name in ("reconcile_ledgers", "net.huge.reconcile_ledgers"):  # where it starts
        hits = project.searcher.search(name, 10)
        assert (hits[0].qualname, hits[0].start_line) == ("net.huge.reconcile_ledgers", 1)
    hits = project.searcher.search("Meter.reading", 10)
    assert sorted((h.qualname, h.start_line) for h in hits[:2]) == [
        ("net.huge.Meter.reading", 305),  # the getter
        ("net.huge.Meter.reading", 309),  # the setter
    ]
    answers = Answers(project)
    for found in (answers.find_symbol("reconcile_ledgers"), answers.symbols("reconcile_ledg")):
        whole = [r for r in found if r["qualname"] == "net.huge.reconcile_ledgers"]
        assert [(r["start_line"], r["end_line"]) for r in whole] == [(1, 301)]
        assert len(code_of(whole[0]["document"]).splitlines()) == 301


def _fused(path: str, qualname: str, distance: float, score: float) -> dict[str, Any]:
    return {**_row(qualname), "path": path, "_distance": distance, "_score": score}


def test_a_question_that_names_tests_lets_tests_keep_their_share() -> None:
    own = _fused("pkg/backoff.py", "pkg.backoff.retry_delay", 0.4, 8.0)
    test = _fused("tests/test_backoff.py", "tests.test_backoff.test_retry_delay", 0.4, 8.0)
    vendored = _fused("pkg/_vendor/x/backoff.py", "pkg._vendor.x.backoff.retry_delay", 0.4, 8.0)
    rows = [own, test, vendored]
    behaviour, _ = fuse([], rows, rows)
    assert behaviour[test["id"]] == behaviour[vendored["id"]] == (1 - SIDE_SHARE) * 1.0
    reads_like_a_test, _ = fuse([], rows, rows, shares=Shares(test_share=0.05))
    assert reads_like_a_test[test["id"]] == pytest.approx(0.95)
    assert reads_like_a_test[vendored["id"]] == (1 - SIDE_SHARE) * 1.0  # copies: the same
    asking, _ = fuse([], rows, rows, shares=Shares(tests_wanted=True))
    assert asking[test["id"]] == asking[own["id"]] == 1.0
    assert asking[vendored["id"]] == (1 - SIDE_SHARE) * 1.0  # a copy stays a copy
    assert asks_for_tests("the test for the retry delay") and asks_for_tests("Tested paths")
    assert not asks_for_tests("test_client") and not asks_for_tests("attest the delay")


def test_tests_give_up_less_the_more_a_question_reads_like_a_tests_docstring(
    embedder: Any,
) -> None:
    """The shipped probe reads the real model's question vectors, first words and shape."""
    searcher = Searcher(store=None, embedder_factory=lambda: embedder)  # type: ignore[arg-type]
    share = searcher.test_share
    like_a_test = share("Test that the delay is capped.")
    ensure = share("Ensure the retry delay never exceeds the cap.")
    docstring = share("Return the delay before the next attempt, capped.")
    bug_report = share("fix retry delay exceeding the cap")
    assert like_a_test < ensure < docstring < bug_report <= TEST_SHARE, (
        like_a_test,
        ensure,
        docstring,
        bug_report,
    )
    assert like_a_test < 0.05 and bug_report > SIDE_SHARE


def test_a_probe_trained_on_another_models_questions_is_not_asked() -> None:
    """Its weights mean nothing for other vectors: every question keeps the flat share."""

    class OtherModel:
        query_id = "another/model"

        def embed_query(self, text: str) -> np.ndarray:
            raise AssertionError("the probe needs no vector when it is not asked")

    searcher = Searcher(store=None, embedder_factory=OtherModel)  # type: ignore[arg-type]
    assert searcher.test_share("Test that the delay is capped.") == SIDE_SHARE


def test_tests_and_copies_are_side_code_wherever_they_live() -> None:
    tests = [
        "tests/test_app.py",
        "pkg/tests/helpers.py",
        "src/pkg/app_test.py",
        "conftest.py",
        "e2e-tests/server/app.py",
        "render_test.go",
        "testdata/proto/example.pb.go",
        "src/__tests__/client.ts",
        "lib/client.test.mjs",
        "src/ky.spec.ts",
        "spec/axios.js",
    ]
    copies = ["pip/_vendor/rich/text.py", "requests/packages/urllib3/util.py"]
    own = [
        "src/pkg/testing_utils.py",
        "src/contest.py",
        "latest/app.py",
        "attest.go",
        "packages/core/index.ts",
        "src/testament.ts",
        "lib/latest.spec.md",
    ]
    assert all(is_side_code(path) for path in tests + copies), [
        p for p in tests + copies if not is_side_code(p)
    ]
    assert not any(is_side_code(path) for path in own), [p for p in own if is_side_code(p)]
    assert not any(is_side_code(path, tests_wanted=True) for path in tests)


def test_of_two_names_led_alike_the_projects_own_comes_before_side_code() -> None:
    """`strip_auth` is a piece of `should_strip_auth` and of the tests named after it: the
    function comes first however the fusion scores them."""
    own = _fused("requests/sessions.py", "requests.sessions.should_strip_auth", 0.6, 2.0)
    test = _fused("tests/test_requests.py", "tests.test_requests.test_should_strip_auth", 0.3, 9)
    scores, _ = fuse([], [own, test], [own, test], [(test, FRAGMENT_LEAD), (own, FRAGMENT_LEAD)])
    assert scores[own["id"]] > scores[test["id"]] > FRAGMENT_LEAD - SIDE_LEAD_GAP
    exact, _ = fuse([test], [own], [own], [(own, FRAGMENT_LEAD)])  # typed whole: still first
    assert exact[test["id"]] > exact[own["id"]]


def test_a_name_leads_to_its_definition_before_the_docs_titled_with_it() -> None:
    """With documentation indexed, `RetryCallState` is the class's name and the title of
    its section in the docs (tenacity): the class comes first however the fusion scores
    them, the section next (found on tenacity's and ky's identifier cases)."""
    code = _fused("tenacity/__init__.py", "tenacity.RetryCallState", 0.5, 2.0)
    docs = {
        **_fused("doc/index.rst", "doc/index.rst#RetryCallState", 0.2, 9.0),
        "kind": "section",
        "symbol": "RetryCallState",
    }
    scores, _ = fuse([docs, code], [code, docs], [docs, code])
    assert scores[code["id"]] > scores[docs["id"]] > SYMBOL_LEAD - SIDE_LEAD_GAP
    # a JavaScript class's private member is a name too, not prose
    assert query_identifiers("Ky.#retry") == ["Ky.#retry"] and names_a_symbol("Ky.#retry")


def test_a_candidate_only_the_full_text_found_counts_its_stored_similarity() -> None:
    class Stored:
        def vectors_of(self, ids: Any) -> dict[str, np.ndarray]:
            return {i: np.array([1.0, 0.0]) for i in ids if i == "only_text"}

    class Model:
        def embed_query(self, text: str) -> np.ndarray:
            return np.array([0.6, 0.8])

    searcher = Searcher(store=Stored(), embedder_factory=Model)  # type: ignore[arg-type]
    vector = [{**_row("both"), "_distance": 0.2}]
    text = [{**_row("both"), "_score": 3.0}, {**_row("only_text"), "_score": 5.0}]
    rows = searcher._with_stored_cosines("q", vector, text)
    assert [r["id"] for r in rows] == ["both", "only_text"]
    assert rows[1]["_distance"] == 1.0 - 0.6
    scores, _ = fuse([], rows, text)
    assert scores["only_text"] > TEXT_WEIGHT  # it has a share of the vector weight too
    # A text row that carries its vector (Store.text_search(vectors=True)) is not looked
    # up again, and gives it up: a hit's row holds no vector.
    carried = {**_row("carried"), "_score": 4.0, "vector": [0.0, 1.0]}
    rows = searcher._with_stored_cosines("q", vector, [*text, carried])
    assert [r["id"] for r in rows] == ["both", "only_text", "carried"]
    assert rows[2]["_distance"] == pytest.approx(1.0 - 0.8)
    assert "vector" not in carried and "vector" not in rows[2]


def test_a_question_worded_like_a_class_docstring_leans_to_classes() -> None:
    """Among the installed packages' docstrings (codekith/data/class_openings.json), "A ..."
    and "Raised if ..." mostly describe classes, "Return ..." never; an opening seldom seen
    says nothing."""
    assert opening_word("*A* loader") == opening_word("a loader") == "a"
    assert opening_word("  ") == ""
    assert class_lean("A loader that looks for templates.") > 0.4
    assert class_lean("Raised if an application cannot be found.") > 0.4
    assert class_lean("Return the loader of a blueprint.") < -0.1
    assert class_lean("Zyxwv the loader.") == 0.0
    assert class_lean("A loader.", "rust") == class_lean("A loader.")  # no table: Python's
    # a Go doc comment opens with the name, which a question leaves out: a type "is ..."
    assert class_lean("is the context of a request.", "go") > 0.2
    assert class_lean("is the context of a request.") < 0
    assert class_lean("returns the context of a request.", "go") < -0.2
    rows = {r["id"]: {**r, "language": "python"} for r in map(_row, ("app.Loader", "app.load"))}
    rows["app.Loader"]["kind"] = "class"
    scores = dict.fromkeys(rows, 1.0)
    question = "A loader that looks for templates."
    lean_to_classes(question, scores, rows)
    assert scores == {"app.Loader": 1.0 + CLASS_WEIGHT * class_lean(question), "app.load": 1.0}


def test_a_search_leans_by_the_question_but_not_by_a_name(
    workspace, project_for, monkeypatch
) -> None:
    """Through the real index and model: the class's fused lead over its method grows by
    the weight times the question's lean; a query naming a symbol is left as the names
    lead it."""
    root = workspace(
        {
            "errors.py": (
                "class ErrorCollector:\n"
                "    def __enter__(self):\n        return self\n\n"
                "    def __exit__(self, kind, error, trace):\n"
                "        self.errors.append(error)\n        return True\n\n"
                "    def raise_collected(self, message):\n"
                "        raise RuntimeError(message, self.errors)\n"
            )
        }
    )
    project = project_for(root)
    project.indexer.run()

    def lead(query: str, weight: float) -> float:
        monkeypatch.setattr(search, "CLASS_WEIGHT", weight)
        hits = {h.qualname: h.score for h in project.searcher.search(query, 10)}
        return hits["errors.ErrorCollector"] - hits["errors.ErrorCollector.raise_collected"]

    question = "A context manager that records and silences errors raised within it."
    grown = lead(question, 0.2) - lead(question, 0.0)
    assert abs(grown - 0.2 * class_lean(question)) < 1e-6 and grown > 0
    assert lead("ErrorCollector", 0.2) == lead("ErrorCollector", 0.0)


def test_tests_and_documentation_come_apart_unless_the_question_or_a_filter_chose_them():
    asked = Apart.asked  # (query, filters, tests flag, tests apart, docs apart)
    plain = Filters()
    assert asked("retry delay", plain, False, 5, 5) == Apart(tests=5, docs=5)
    assert asked("the test of the retry delay", plain, False, 5, 5) == Apart(docs=5)
    assert asked("retry delay", plain, True, 5, 5) == Apart(docs=5)
    assert asked("retry delay", Filters(kind="code"), False, 5, 5) == Apart(tests=5)
    assert asked("retry delay", Filters(kind="section"), False, 5, 5) == Apart()
    for prefix in ("tests", "tests/", "pkg/tests/unit", "src/test_retry.py", "web/a.test.ts"):
        assert asked("retry delay", Filters(path_prefix=prefix), False, 5, 5).tests == 0, prefix
    assert asked("retry delay", Filters(path_prefix="src/latest"), False, 5, 5).tests == 5
    assert asked("retry delay", Filters(test_paths=False), False, 5, 5).tests == 0
    assert asked("retry delay", plain, False, 0, 0) == Apart()


PROXIES = {
    "net/proxies.py": (
        "class Proxy:\n"
        "    def __init__(self, url, auth=None, headers=None):\n"
        "        self.url = url\n        self.auth = auth\n        self.headers = headers or {}\n\n"
        "    def proxy_url(self):\n        return self.url\n\n\n"
        "class ProxyPool:\n"
        "    def __init__(self):\n        self.proxies = []\n        self.deferred_setups = []\n\n"
        "    def add_proxy(self, proxy):\n        self.proxies.append(proxy)\n\n"
        "    def proxy_for(self, url):\n"
        "        for proxy in self.proxies:\n"
        "            if url.startswith(proxy.url):\n                return proxy\n"
        "        return None\n\n"
        "    def set_up(self):\n"
        "        for do_it in self.deferred_setups:\n            do_it(self)\n"
    ),
    "net/environment.py": (
        "import os\n\n\n"
        "def environment_proxies():\n"
        "    found = {}\n"
        "    for key, value in os.environ.items():\n"
        "        if key.lower().endswith('_proxy'):\n"
        "            found[key.lower()[:-6]] = value\n"
        "    # hosts in NO_PROXY bypass every proxy\n"
        "    for host in found.pop('no', '').split(','):\n"
        "        found['all://' + host.strip()] = None\n"
        "    return found\n\n\n"
        "def bypassed_hosts(NO_PROXY_HOSTS=()):\n"
        "    return list(NO_PROXY_HOSTS)\n"
    ),
}


def test_a_code_name_no_definition_has_finds_the_code_that_holds_it(workspace, project_for) -> None:
    """`grep -w NO_PROXY` finds the function that reads it in a comment; a search for it
    found the classes about proxies first (httpx: `get_environment_proxies` 6th). A name
    no definition or assignment has (an environment variable, an attribute) leads with the
    code that holds it as a whole word, as written; a definition's name still leads with
    the definition, its uses right after it."""
    root = workspace(PROXIES)
    project = project_for(root)
    project.indexer.run()
    searcher = project.searcher
    assert searcher.search("NO_PROXY", 3)[0].qualname == "net.environment.environment_proxies"
    holders = {hit.qualname for hit in searcher.search("deferred_setups", 2)}
    assert holders == {"net.proxies.ProxyPool.__init__", "net.proxies.ProxyPool.set_up"}
    assert [hit.qualname for hit in searcher.search("add_proxy", 1)] == [
        "net.proxies.ProxyPool.add_proxy"
    ]
    # both parts are stop words: no full-text match, the scan finds it
    assert [row["qualname"] for row, _ in searcher.mention_matches("do_it")] == [
        "net.proxies.ProxyPool.set_up"
    ]
    led = {row["qualname"]: lead for row, lead in searcher.mention_matches("NO_PROXY")}
    assert led == {"net.environment.environment_proxies": MENTION_LEAD}  # not NO_PROXY_HOSTS
    assert searcher.mention_matches("proxies") == []  # a word: the fusion alone ranks it
    pasted = {row["qualname"] for row, _ in searcher.mention_matches("self.deferred_setups")}
    assert pasted == holders  # a chain as code writes it: the code that writes it so
    words = ("NO_PROXY", "deferredSetups", "self.proxies", "Proxy", "a.#b")
    assert [search.is_code_name(w) for w in words] == [True, True, True, False, False]
