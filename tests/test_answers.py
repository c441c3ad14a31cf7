"""The answers layer every protocol uses, on the shop repository with the real model."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from codekith import answers as answers_module
from codekith.answers import Answers, NoIndexError, NotServedError, UnknownChunkError
from codekith.related import TargetNotFoundError
from codekith.store import Filters, IndexLockedError
from codekith.workspace import OutsideWorkspaceError
from tests.conftest import write_files
from tests.test_related import SHOP


@pytest.fixture
def shop_answers(workspace, project_for) -> Answers:
    root = workspace({**SHOP, ".env": "TOKEN=abc\n"})
    answers = Answers(project_for(root))
    answers.reindex()
    return answers


def test_search_and_related_mark_stale_files(shop_answers):
    answer = shop_answers.search("apply a percentage discount", k=3)
    data = answer.to_json()
    assert data["hits"][0]["qualname"] == "shop.pricing.apply_discount"
    assert data["fresh"] is True and not any(h["stale"] for h in data["hits"])
    pricing = shop_answers.root / "shop/pricing.py"
    pricing.write_text(pricing.read_text() + "\n# edited\n")
    again = shop_answers.search("apply a percentage discount", k=3).to_json()
    assert again["stale"] == ["shop/pricing.py"] and again["hits"][0]["stale"] is True
    related = shop_answers.related("shop.pricing.compute_price")
    items = related.to_json()["items"]
    assert items[0]["qualname"] == "shop.pricing.compute_price" and items[0]["stale"] is True
    assert "the index is behind (1 stale files)" in related.markdown()
    line = shop_answers.find_symbol("compute_price")[0]["start_line"]
    absolute = shop_answers.related(f"{shop_answers.root / 'shop/pricing.py'}:{line}")
    assert absolute.bundle.items[0].hit.qualname == "shop.pricing.compute_price"
    with pytest.raises(OutsideWorkspaceError):
        shop_answers.related("/etc/hosts.py:1")
    filtered = shop_answers.search("discount", filters=Filters(path_prefix="shop/cart.py"))
    assert {h.path for h in filtered.hits} == {"shop/cart.py"}


def test_related_defaults_come_from_the_settings(workspace, project_for):
    root = workspace(SHOP)
    answers = Answers(project_for(root, depth=2, budget=120))
    answers.reindex()
    bundle = answers.related("who calls send_receipt").bundle
    assert bundle.depth == 2 and bundle.budget == 120  # not the intent's default depth 1
    assert answers.related("who calls send_receipt", depth=0, budget=999).bundle.depth == 0


def test_catch_up_reindexes_what_changed_on_disk(shop_answers):
    assert shop_answers.catch_up() is None  # nothing changed
    write_files(
        shop_answers.root,
        {"shop/refunds.py": 'def issue_refund(order):\n    """Money back."""\n    return order\n'},
    )
    (shop_answers.root / "shop/noise.py").unlink()
    report = shop_answers.catch_up()
    assert report is not None and report.indexed == ["shop/refunds.py"]
    assert report.deleted == ["shop/noise.py"]
    assert shop_answers.freshness().fresh
    assert shop_answers.find_symbol("issue_refund")[0]["path"] == "shop/refunds.py"


def test_symbols_and_find_symbol(shop_answers):
    assert shop_answers.symbols("compute")[0]["symbol"] == "compute_price"
    found = shop_answers.find_symbol("Item.total")
    assert [r["qualname"] for r in found] == ["shop.models.Item.total"]
    assert [r["qualname"] for r in shop_answers.find_symbol("Item", kind="class")] == [
        "shop.models.Item"
    ]
    prefixed = shop_answers.find_symbol("apply_disc")  # no exact name: names starting with it
    assert [r["qualname"] for r in prefixed] == ["shop.pricing.apply_discount"]
    # none is called or starts with it: the names it is a piece of, in any case convention
    pieces = shop_answers.find_symbol("ComputePrice")
    assert [r["qualname"] for r in pieces] == ["shop.pricing.compute_price"]
    assert [r["qualname"] for r in shop_answers.find_symbol("ReceiptEmail")] == []
    assert shop_answers.find_symbol("no_such_name_anywhere") == []


def test_calls_call_graph_and_lenses(shop_answers):
    callers = shop_answers.calls("shop.pricing.compute_price", "callers")
    assert [c.row["qualname"] for c in callers] == ["shop.models.Item.total"]
    callees = shop_answers.calls("shop.models.Item", "callers")  # calls to the constructor
    assert [c.row["qualname"] for c in callees] == ["shop.cart.checkout"]
    graph = shop_answers.call_graph("compute_price", "callers", depth=2)
    assert graph.qualname == "shop.pricing.compute_price"
    pairs = {(e["caller"], e["callee"], e["depth"]) for e in graph.edges}
    assert ("shop.models.Item.total", "shop.pricing.compute_price", 1) in pairs
    assert ("shop.cart.checkout", "shop.models.Item.total", 2) in pairs
    edge = next(e for e in graph.edges if e["caller"] == "shop.models.Item.total")
    assert edge["path"] == "shop/models.py" and edge["line"] > 0
    assert graph.locations["shop.cart.checkout"]["path"] == "shop/cart.py"
    both = shop_answers.call_graph("shop.pricing.compute_price", "both")
    assert {e["callee"] for e in both.edges} >= {"shop.pricing.apply_discount"}
    with pytest.raises(TargetNotFoundError, match="no definition named"):
        shop_answers.call_graph("nowhere_at_all", "callers")
    with pytest.raises(ValueError, match="direction must be one of"):
        shop_answers.call_graph("compute_price", "sideways")  # type: ignore[arg-type]
    lenses = {lens.row["qualname"]: lens for lens in shop_answers.lenses("shop/pricing.py")}
    compute = lenses["shop.pricing.compute_price"]
    assert (compute.callers, compute.callees) == (1, 1)


def test_get_code_reads_the_disk_and_refuses_what_it_must_not_show(shop_answers):
    code = shop_answers.get_code("shop/pricing.py", 2, 3)
    assert code.code == "from shop.util import log\n"
    assert code.indexed and not code.changed and (code.start_line, code.end_line) == (2, 3)
    row = shop_answers.find_symbol("compute_price")[0]
    by_id = shop_answers.get_code(chunk_id=row["id"])
    assert by_id.code.startswith("def compute_price") and by_id.qualname == row["qualname"]
    pricing = shop_answers.root / "shop/pricing.py"
    pricing.write_text("# moved down\n" + pricing.read_text())
    assert shop_answers.get_code("shop/pricing.py").changed
    with pytest.raises(OutsideWorkspaceError):
        shop_answers.get_code("../outside.py")
    with pytest.raises(NotServedError, match="secret file"):
        shop_answers.get_code(".env")
    with pytest.raises(NotServedError, match="does not exist"):
        shop_answers.get_code("shop/nothing.py")
    with pytest.raises(ValueError, match="past its end"):
        shop_answers.get_code("shop/mail.py", 500)
    with pytest.raises(UnknownChunkError):
        shop_answers.get_code(chunk_id="nope")


def test_feedback_waits_for_the_write_lock_then_says_so(shop_answers, monkeypatch):
    hit = shop_answers.search("email a receipt", k=1).hits[0]
    shop_answers.feedback("email a receipt", hit.id, 1)
    assert shop_answers.project.store.feedback()[0]["id"] == hit.id
    monkeypatch.setattr(answers_module, "FEEDBACK_LOCK_WAIT_S", 0.2)
    with shop_answers.project.store.write_lock(), pytest.raises(IndexLockedError):
        shop_answers.feedback("email a receipt", hit.id, -1)
    assert shop_answers.project.store.feedback()[0]["vote"] == 1  # nothing half-written
    with pytest.raises(UnknownChunkError):
        shop_answers.feedback("q", "nope", 1)
    with pytest.raises(ValueError, match="vote must be"):
        shop_answers.feedback("q", hit.id, 3)


OLD_FEEDBACK = pa.schema(  # the votes' table before it named the query side
    [
        ("query", pa.string()),
        ("vector", pa.list_(pa.float32(), 384)),
        ("id", pa.string()),
        ("vote", pa.int8()),
        ("at", pa.float64()),
    ]
)


def test_votes_an_older_query_side_embedded_still_count_and_the_next_vote_renews_them(
    shop_answers,
):
    """An upgrade may bring a new query adapter and keep the index: a vote of an older
    codekith (no `tower`) holds a question vector the new side would not make. Search
    compares its question embedded again; the next vote renews its vector in the table."""
    query, target = "send the customer an email", "shop.cart.checkout"
    store, searcher = shop_answers.project.store, shop_answers.project.searcher
    chosen = next(h for h in searcher.search(query, k=5) if h.qualname == target)
    assert searcher.search(query, k=5)[0].qualname != target
    elsewhere = np.zeros(384, dtype=np.float32)
    elsewhere[0] = 1.0  # what another query side might have made: far from today's
    row = {"query": query, "vector": elsewhere, "id": chosen.id, "vote": 1, "at": 0.0}
    store.db.create_table("feedback", schema=OLD_FEEDBACK).add(
        pa.Table.from_pylist([row], schema=OLD_FEEDBACK)
    )
    assert searcher.search(query, k=5)[0].qualname == target
    other = shop_answers.search("apply a percentage discount", k=1).hits[0]
    shop_answers.feedback("apply a percentage discount", other.id, 1)
    votes = {v["query"]: v for v in store.feedback()}
    assert {v["tower"] for v in votes.values()} == {searcher.query_id()}
    renewed = np.asarray(votes[query]["vector"], dtype=np.float32)
    assert float(renewed @ searcher.query_vector(query)) == pytest.approx(1.0, abs=1e-4)
    assert votes[query]["id"] == chosen.id and votes[query]["vote"] == 1
    assert searcher.search(query, k=5)[0].qualname == target


def test_a_warm_up_renews_the_votes_an_older_query_side_embedded(shop_answers):
    """Servers and the daemon warm up when they start, as after an upgrade: the votes of the
    old query side get this side's vectors then, not only at the next vote."""
    query = "send the customer an email"
    store, searcher = shop_answers.project.store, shop_answers.project.searcher
    chosen = searcher.search(query, k=1)[0]
    elsewhere = np.zeros(384, dtype=np.float32)
    elsewhere[0] = 1.0
    store.add_feedback(query, elsewhere, chosen.id, 1, "an older query side")
    shop_answers.warm_up()
    (vote,) = store.feedback()
    assert vote["tower"] == searcher.query_id()
    renewed = np.asarray(vote["vector"], dtype=np.float32)
    assert float(renewed @ searcher.query_vector(query)) == pytest.approx(1.0, abs=1e-4)
    assert shop_answers.renew_votes() == 0  # nothing left to renew


def test_status_and_a_missing_index(shop_answers, tmp_path, project_for):
    status = shop_answers.status()
    assert status["ready"] and status["chunks"] > 10 and status["fresh"] is True
    assert status["skipped"][".env"] == "secret file (.env)"
    empty = Answers(project_for(tmp_path))
    assert empty.status() == {
        "root": str(tmp_path.resolve()),
        "db": str(tmp_path.resolve() / ".codekith"),
        "ready": False,
    }
    with pytest.raises(NoIndexError, match="run `codekith index"):
        empty.require_index()


PRICING_TESTS = '''
from shop.pricing import apply_discount, compute_price


def test_a_tenth_off():
    """A tenth off the amount leaves nine tenths of it."""
    assert apply_discount(200, 10) == 180


def test_volume_discount():
    """Buying more than a hundred items takes a tenth off the price."""
    assert compute_price(1, 200) == 180
'''


def test_tests_come_apart_from_the_hits_unless_tests_are_wanted(workspace, project_for):
    """With `tests_apart`, the hits hold no test and the tests that match come in a list of
    their own, ranked among themselves at their whole score (among the hits they give up a
    share of it); a question, a flag or a path prefix that wants tests keeps one list."""
    answers = Answers(project_for(workspace({**SHOP, "tests/test_pricing.py": PRICING_TESTS})))
    answers.reindex()
    question = "a tenth off the amount"
    apart = answers.search(question, k=10, tests_apart=5)
    assert apart.hits and not any(h.path.startswith("tests/") for h in apart.hits)
    assert apart.tests is not None and {h.path for h in apart.tests} == {"tests/test_pricing.py"}
    assert apart.tests[0].qualname == "tests.test_pricing.test_a_tenth_off"
    assert apart.to_json()["tests"][0]["qualname"] == apart.tests[0].qualname
    together = answers.search(question, k=10)
    assert together.tests is None and "tests" not in together.to_json()
    shared = next(h for h in together.hits if h.qualname == apart.tests[0].qualname)
    assert shared.score < apart.tests[0].score  # apart, a test gives up no share
    for wanted in (
        answers.search("the test of a tenth off the amount", k=10, tests_apart=5),
        answers.search(question, k=10, tests=True, tests_apart=5),
        answers.search(question, k=10, filters=Filters(path_prefix="tests"), tests_apart=5),
    ):
        assert wanted.tests is None
        assert wanted.hits[0].qualname == "tests.test_pricing.test_a_tenth_off"
    documented = answers.search(question, k=10, docs=5, tests_apart=5)
    assert documented.tests == apart.tests and documented.docs == []
