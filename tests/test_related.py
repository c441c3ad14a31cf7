"""Call graph in the store and "related code" bundles, on a small real repository."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from codekith import related as related_module
from codekith.answers import Answers
from codekith.chunking import chunk_file
from codekith.related import TargetNotFoundError, intent_of, to_markdown
from codekith.template import code_of
from tests.conftest import write_files

SHOP = {
    "shop/__init__.py": "",
    "shop/util.py": '''
        def log(message):
            """Write a diagnostic message to standard error."""
            print(message)
    ''',
    "shop/pricing.py": '''
        from shop.util import log


        def apply_discount(amount, percent):
            """Reduce an amount of money by a percentage discount."""
            log("discount")
            return amount * (100 - percent) / 100


        def compute_price(unit_price, quantity):
            """Price of a quantity of items after the volume discount."""
            percent = 10 if quantity > 100 else 0
            return apply_discount(unit_price * quantity, percent)
    ''',
    "shop/models.py": '''
        from shop.pricing import compute_price


        class Base:
            """Something that can describe itself."""

            def describe(self):
                return type(self).__name__


        class Item(Base):
            """A product with a name and a unit price."""

            def __init__(self, name, price):
                self.name = name
                self.price = price

            def total(self, quantity):
                """What buying `quantity` of this item costs."""
                return compute_price(self.price, quantity)
    ''',
    "shop/cart.py": '''
        from shop.mail import send_receipt
        from shop.models import Item


        def checkout(email):
            """Buy one coffee and send the receipt by email."""
            coffee = Item("coffee", 3.5)
            total = coffee.total(1)
            send_receipt(email, total)
            return total
    ''',
    "shop/mail.py": '''
        def send_receipt(email, total):
            """Email the customer a receipt for the amount paid."""
            return f"to {email}: {total}"
    ''',
    "shop/noise.py": "\n".join(
        f'def {name}():\n    """{doc}"""\n    from shop.util import log\n    log(\'x\')\n'
        for name, doc in [
            ("render_html_page", "Render the HTML template of the landing page."),
            ("open_socket", "Open a TCP socket to the database server."),
            ("resize_thumbnail", "Shrink an uploaded photo to a thumbnail."),
            ("parse_cli_flags", "Parse command line flags for the tool."),
            ("rotate_log_files", "Rotate the log files every night."),
            ("compile_shaders", "Compile GPU shaders for the renderer."),
            ("sync_calendar", "Synchronise the calendar with the remote service."),
        ]
    ),
}


@pytest.fixture
def shop(workspace, project_for):
    root = workspace(SHOP)
    project = project_for(root)
    project.indexer.run()
    return project


def edges(project) -> set[tuple[str, str, str]]:
    return {(e["src"], e["dst"], e["kind"]) for e in project.store.live_edges()}


def test_edges_are_stored_with_kinds(shop):
    found = edges(shop)
    assert ("shop.pricing.compute_price", "shop.pricing.apply_discount", "call") in found
    assert ("shop.models.Item", "shop.models.Base", "inherit") in found
    assert ("shop.cart.checkout", "shop.models.Item.__init__", "call") in found
    assert ("shop.cart.checkout", "shop.models.Item.total", "call") in found
    assert ("shop.cart.checkout", "shop.mail.send_receipt", "call") in found
    assert ("shop.cart", "shop.mail.send_receipt", "import") in found


def test_intent_decides_depth():
    assert intent_of("who calls apply_discount") == ("usage", 1)
    assert intent_of("how is the discount computed") == ("implementation", 2)
    assert intent_of("discount") == ("related", 1)


def test_implementation_question_follows_callees_deeper(shop):
    bundle = shop.related.bundle("how does an item compute its total price")
    reasons = {i.hit.qualname: i.reason for i in bundle.items}
    assert bundle.intent == "implementation" and bundle.depth == 2
    assert "shop.models.Item.total" in reasons
    assert reasons.get("shop.pricing.compute_price") in ("seed", "callee of shop.models.Item.total")
    assert "shop.pricing.apply_discount" in reasons
    assert all(
        i.reason in ("seed", "matches the question") or " of " in i.reason for i in bundle.items
    )


def test_usage_question_brings_callers(shop):
    bundle = shop.related.bundle("who calls send_receipt")
    reasons = {i.hit.qualname: i.reason for i in bundle.items}
    assert reasons["shop.mail.send_receipt"] == "seed"
    assert reasons["shop.cart.checkout"] in ("caller of shop.mail.send_receipt", "seed")
    assert bundle.intent == "usage"


def test_position_and_qualname_targets(shop):
    line = next(
        n
        for n, text in enumerate((shop.root / "shop/pricing.py").read_text().splitlines(), 1)
        if "percent = 10" in text
    )
    bundle = shop.related.bundle(f"shop/pricing.py:{line}")
    assert bundle.items[0].hit.qualname == "shop.pricing.compute_price"
    assert bundle.items[0].reason == "seed"
    reasons = {i.hit.qualname: i.reason for i in bundle.items}
    assert reasons.get("shop.pricing.apply_discount") == "callee of shop.pricing.compute_price"
    assert reasons.get("shop.models.Item.total") == "caller of shop.pricing.compute_price"
    by_name = shop.related.bundle("shop.models.Item")
    names = {i.hit.qualname: i.reason for i in by_name.items}
    assert names["shop.models.Base"] == "base of shop.models.Item"
    last = len((shop.root / "shop/pricing.py").read_text().splitlines())
    below = shop.related.bundle(f"shop/pricing.py:{last + 1}")
    assert below.items[0].hit.qualname == "shop.pricing.compute_price"  # nearest above
    with pytest.raises(TargetNotFoundError):
        shop.related.bundle("shop/nowhere.py:3")


def test_definitions_next_to_a_code_target_join_its_bundle(shop):
    """Code changed together is often defined together: the functions right before and
    after the target in its module come in as its siblings, farther ones with the weaker
    tie of sharing its module."""
    line = next(
        n
        for n, text in enumerate((shop.root / "shop/noise.py").read_text().splitlines(), 1)
        if text.startswith("def resize_thumbnail")
    )
    bundle = shop.related.bundle(f"shop/noise.py:{line}")
    reasons = {i.hit.symbol: i.reason for i in bundle.items}
    assert reasons["resize_thumbnail"] == "seed"
    for near in ("open_socket", "parse_cli_flags"):
        assert reasons.get(near) == "sibling of shop.noise.resize_thumbnail", reasons
    for far in ("render_html_page", "rotate_log_files", "sync_calendar"):
        assert reasons.get(far) == "in the same module as shop.noise.resize_thumbnail", reasons


def _bundle_at(project, path: str, marker: str, tests: bool = False):  # type: ignore[no-untyped-def]
    """Index the project; the bundle of the first line of `path` with `marker`."""
    project.indexer.run()
    text = (project.root / path).read_text().splitlines()
    line = next(n for n, t in enumerate(text, 1) if marker in t)
    return project.related.bundle(f"{path}:{line}", tests=tests)


def _reasons_at(project, path: str, marker: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Symbol -> reason in the bundle of the first line with `marker`."""
    return {i.hit.symbol: i.reason for i in _bundle_at(project, path, marker).items}


LEDGER = {
    "ledger/__init__.py": "",
    "ledger/book.py": '''
        class Ledger:
            """A book of account entries."""

            def __init__(self, owner):
                self.owner = owner
                self.entries = []

            def title(self):
                return "Ledger of " + self.owner

            def record(self, amount):
                self.entries.append(amount)
                self.balance = self.balance + amount

            def pages(self):
                return 1

            def currency(self):
                return "EUR"

            def undo_last(self):
                amount = self.entries.pop()
                self.balance -= amount
    ''',
}


def test_methods_that_keep_the_same_state_join_a_method_bundle(workspace, project_for):
    """Methods that keep one piece of state change together though neither calls the
    other: the member sharing most of the target's attributes (the rarer an attribute, the
    more it counts) comes in as such: `undo_last` (entries and balance), not `__init__`
    (entries only), `title` (the owner) or `currency` (nothing)."""
    reasons = _reasons_at(project_for(workspace(LEDGER)), "ledger/book.py", "def record")
    assert reasons["record"] == "seed"
    assert reasons.get("undo_last") == "shares state with ledger.book.Ledger.record", reasons
    assert reasons.get("title") == "sibling of ledger.book.Ledger.record", reasons
    for other in ("__init__", "currency"):
        assert "shares state" not in reasons.get(other, ""), reasons


OVERLOADS = {
    "climate/__init__.py": "",
    "climate/thermostat.py": '''
        class Thermostat:
            """Keeps a room at a target temperature."""

            def __init__(self, mode):
                self._mode = mode

            @property
            def target(self):
                return self._target

            @target.setter
            def target(self, degrees):
                self._target = min(30.0, degrees)

            def schedule(self, hour):
                return hour >= 6

            def report(self):
                return f"{self._mode} to {self._target}"
    ''',
    "types/index.d.ts": """
        export class Headers {
          constructor(init?: string);

          set(name: string, value: string): Headers;
          set(headers: Record<string, string>): Headers;

          get(name: string): string | undefined;

          toJSON(): Record<string, string>;
        }
    """,
}


def test_overloads_and_a_setter_do_not_use_up_the_reach_to_siblings(workspace, project_for):
    """A property's getter and setter, or a method's overloads, share one name and are one
    definition: the definitions beside them are still its siblings (`schedule` after the
    setter, `get` after the second `set`), and the member sharing its state is another
    method (`report`), not its own setter."""
    project = project_for(workspace(OVERLOADS))
    getter = _reasons_at(project, "climate/thermostat.py", "def target(self):")
    assert getter.get("schedule") == "sibling of climate.thermostat.Thermostat.target", getter
    assert getter.get("report") == "shares state with climate.thermostat.Thermostat.target"
    declared = _reasons_at(project, "types/index.d.ts", "set(name: string")
    assert declared.get("constructor", "").startswith("sibling of"), declared
    assert declared.get("get", "").startswith("sibling of"), declared


GO_LEDGER = {
    "go.mod": "module example.com/ledger\n\ngo 1.21\n",
    "ledger.go": """
        package ledger

        type Ledger struct {
            owner   string
            entries []int
            balance int
        }

        func New(owner string) *Ledger {
            return &Ledger{owner: owner}
        }

        func (l *Ledger) Title() string {
            return "Ledger of " + l.owner
        }

        func (l *Ledger) Record(amount int) {
            l.entries = append(l.entries, amount)
            l.balance = l.balance + amount
        }

        func (l *Ledger) Pages() int {
            return 1
        }

        func (l *Ledger) Currency() string {
            return "EUR"
        }

        func (l *Ledger) UndoLast() {
            last := l.entries[len(l.entries)-1]
            l.entries = l.entries[:len(l.entries)-1]
            l.balance -= last
        }
    """,
}


def test_a_go_method_shares_state_through_its_receiver(workspace, project_for):
    reasons = _reasons_at(project_for(workspace(GO_LEDGER)), "ledger.go", "Record(amount")
    assert reasons["Record"] == "seed"
    assert reasons.get("UndoLast") == "shares state with ledger.Ledger.Record", reasons
    assert reasons.get("Currency") == "in the same type as ledger.Ledger.Record", reasons


TS_LEDGER = {
    "ledger.ts": """
        export class Ledger {
          #owner: string;
          #entries: number[] = [];
          #balance = 0;

          constructor(owner: string) {
            this.#owner = owner;
          }

          title(): string {
            return "Ledger of " + this.#owner;
          }

          record(amount: number): void {
            this.#entries.push(amount);
            this.#balance = this.#balance + amount;
          }

          pages(): number {
            return 1;
          }

          currency(): string {
            return "EUR";
          }

          undoLast(): void {
            const amount = this.#entries.pop() ?? 0;
            this.#balance -= amount;
          }
        }
    """,
}


def test_a_typescript_method_shares_state_through_private_fields(workspace, project_for):
    """`this.#balance` is state like `this.balance`: ky's and got's classes keep theirs in
    private fields."""
    reasons = _reasons_at(project_for(workspace(TS_LEDGER)), "ledger.ts", "record(amount")
    assert reasons["record"] == "seed"
    assert reasons.get("undoLast") == "shares state with ledger.Ledger.record", reasons


CALLERS_ALIKE = {
    "shop/invoice.py": """
        from shop.pricing import apply_discount


        def discounted_invoice(amount):
            return apply_discount(amount, 5)
    """,
    "tests/test_invoice.py": """
        from shop.pricing import apply_discount


        def discounted_invoice_check(amount):
            return apply_discount(amount, 5)
    """,
}


def test_a_test_gives_up_its_side_share_to_the_projects_own_code(workspace, project_for):
    """Two callers written alike, one in the project and one in its tests: the test comes
    after, at about (1 - SIDE_SHARE) of the other's score (a code target is not a question
    that asks for tests)."""
    project = project_for(workspace({**SHOP, **CALLERS_ALIKE}))
    bundle = _bundle_at(project, "shop/pricing.py", "def apply_discount")
    scores = {i.hit.symbol: i.score for i in bundle.items}
    own, test = scores["discounted_invoice"], scores["discounted_invoice_check"]
    assert test == pytest.approx((1 - related_module.SIDE_SHARE) * own, rel=0.1), scores


def test_an_asker_who_wants_the_tests_of_a_function_gets_them_at_full_score(workspace, project_for):
    """`tests=True` (the tests of the code at a position): the test caller keeps its score."""
    project = project_for(workspace({**SHOP, **CALLERS_ALIKE}))
    bundle = _bundle_at(project, "shop/pricing.py", "def apply_discount", tests=True)
    scores = {i.hit.symbol: i.score for i in bundle.items}
    own, test = scores["discounted_invoice"], scores["discounted_invoice_check"]
    assert test == pytest.approx(own, rel=0.1), scores


RETRIED = ("upload", "download", "login", "sync", "publish", "checkout", "lookup")
RETRIES = {
    f"net/retry_{name}.py": f'''
        def {name}_with_backoff(attempt):
            """Wait before retrying a failed {name} request, doubling the delay each time."""
            return min(60, 2 ** attempt)
    '''
    for name in RETRIED
}


def test_a_question_keeps_the_search_hits_its_seeds_were_picked_from(workspace, project_for):
    """Seven unconnected answers to one question: the four best are seeds, and the others
    plain search finds come in too (they have no edge to follow) instead of being lost."""
    project = project_for(workspace(RETRIES))
    project.indexer.run()
    bundle = project.related.bundle("wait before retrying a failed request with backoff")
    reasons = {item.hit.symbol: item.reason for item in bundle.items}
    assert set(reasons) == {f"{name}_with_backoff" for name in RETRIED}, reasons
    assert list(reasons.values()).count("seed") == 4
    assert list(reasons.values()).count("matches the question") == 3, reasons


RETRY_GUIDE = "".join(
    f"## Retrying a failed {name} request\n\nWait before retrying a failed {name} request "
    "with backoff: the wait doubles each time.\n\n"
    for name in RETRIED
)


def test_a_question_bundle_is_code_even_where_documentation_matches_it_better(
    workspace, project_for
):
    """Sections that say what the question says would take the seeds' places: the bundle
    holds code, the same seven answers; an index of documentation alone still answers."""
    project = project_for(workspace({**RETRIES, "docs/retries.md": RETRY_GUIDE}))
    project.indexer.run()
    question = "wait before retrying a failed request with backoff"
    together = [hit.kind for hit in project.searcher.search(question, 4)]
    assert "section" in together, together  # ranked with the code, sections take seed places
    bundle = project.related.bundle(question)
    assert {item.hit.symbol for item in bundle.items} == {f"{n}_with_backoff" for n in RETRIED}
    for path in RETRIES:
        (project.root / path).unlink()
    project.indexer.run()
    assert {i.hit.kind for i in project.related.bundle(question).items} == {"section"}


EIGHT_RETRIED = (*RETRIED, "search")
RETRIES_WITH_HELPERS = {
    f"net/retry_{name}.py": f'''
        def {name}_with_backoff(attempt):
            """Wait before retrying a failed {name} request, doubling the delay each time."""
            return {name}_delay(attempt) + {name}_jitter(attempt)


        def {name}_delay(attempt):
            """Seconds to wait before the next {name} retry."""
            return min(60, 2 ** attempt)


        def {name}_jitter(attempt):
            """Random seconds added to a {name} retry's wait."""
            return attempt % 3
    '''
    for name in EIGHT_RETRIED
}


def test_a_questions_next_search_hits_outlast_its_seeds_graph_context(
    workspace, project_for, monkeypatch
):
    """Eight answers, each with two helpers it calls: the four seeds' helpers are tied to
    them by edges and would take every slot, so the other four answers plain search finds
    right after the seeds keep theirs (NEXT_MATCHES)."""
    project = project_for(workspace(RETRIES_WITH_HELPERS))
    project.indexer.run()
    question = "wait before retrying a failed request with backoff"
    answers = {f"{name}_with_backoff" for name in EIGHT_RETRIED}

    def symbols() -> set[str]:
        return {item.hit.symbol for item in project.related.bundle(question).items}

    assert answers <= symbols()
    monkeypatch.setattr(related_module, "NEXT_MATCHES", 0)
    assert len(answers & symbols()) == 4  # the seeds: their callees crowd the others out


def test_hub_callers_are_refiltered_by_similarity(shop, monkeypatch):
    noise = {
        "render_html_page",
        "open_socket",
        "resize_thumbnail",
        "parse_cli_flags",
        "compile_shaders",
        "sync_calendar",
        "rotate_log_files",
    }

    def symbols(bundle):
        return {i.hit.symbol for i in bundle.items}

    bundle = shop.related.bundle("apply a percentage discount to an amount", depth=2)
    assert "apply_discount" in symbols(bundle)
    assert not symbols(bundle) & noise
    monkeypatch.setattr(related_module, "MIN_SIMILARITY", -1.0)
    monkeypatch.setattr(related_module, "RELATIVE_SIMILARITY", -1.0)
    unfiltered = shop.related.bundle("apply a percentage discount to an amount", depth=2)
    assert symbols(unfiltered) & noise  # the filter, not a missing edge, kept them out


def test_budget_cuts_and_says_so(shop):
    full = shop.related.bundle("how does an item compute its total price", budget=10_000)
    small = shop.related.bundle("how does an item compute its total price", budget=80)
    assert not full.truncated and full.tokens <= 10_000
    assert small.truncated and small.tokens <= 80 and len(small.items) < len(full.items)
    assert small.items[0].hit.id == full.items[0].hit.id
    text = to_markdown(small)
    assert "truncated" in text and "```python" in text


def test_edges_follow_edits_and_deletions(shop):
    root = shop.root
    pricing = (root / "shop/pricing.py").read_text()
    (root / "shop/pricing.py").write_text(
        pricing.replace(
            "return apply_discount(unit_price * quantity, percent)", "return unit_price * quantity"
        )
    )
    (root / "shop/mail.py").unlink()
    report = shop.indexer.run()
    assert report.graph["removed"] >= 3
    found = edges(shop)
    assert ("shop.pricing.compute_price", "shop.pricing.apply_discount", "call") not in found
    assert not any(dst.startswith("shop.mail") for _, dst, _ in found)
    write_files(root, {"shop/mail.py": "def send_receipt(email, total):\n    return 1\n"})
    shop.indexer.run()
    assert ("shop.cart.checkout", "shop.mail.send_receipt", "call") in edges(shop)


def test_feedback_moves_results(shop):
    query = "send the customer an email"
    before = [h.qualname for h in shop.searcher.search(query, k=5)]
    target = next(h for h in shop.searcher.search(query, k=5) if h.qualname == "shop.cart.checkout")
    assert before[0] != "shop.cart.checkout"
    tower = shop.searcher.query_id()
    shop.store.add_feedback(query, shop.embedder().embed_query(query), target.id, 1, tower)
    assert shop.searcher.search(query, k=5)[0].qualname == "shop.cart.checkout"
    similar = shop.searcher.search("send the customer an e-mail", k=5)
    assert similar[0].qualname == "shop.cart.checkout"
    shop.store.add_feedback(query, shop.embedder().embed_query(query), target.id, -1, tower)
    after = [h.qualname for h in shop.searcher.search(query, k=5)]
    assert (
        after.index("shop.cart.checkout") > before.index("shop.cart.checkout")
        if ("shop.cart.checkout" in after)
        else True
    )


def test_cli_related_graph_and_feedback(shop):
    def cli(*args):
        return subprocess.run(
            [sys.executable, "-m", "codekith.cli", *args],
            cwd=shop.root,
            capture_output=True,
            text=True,
            timeout=300,
        )

    result = cli("related", "who calls send_receipt", "--json")
    assert result.returncode == 0, result.stderr
    bundle = json.loads(result.stdout)
    assert {"tokens", "budget", "truncated", "index_head", "stale", "items"} <= set(bundle)
    assert all({"reason", "score", "id", "qualname", "stale"} <= set(i) for i in bundle["items"])
    markdown = cli("related", "shop.pricing.compute_price", "--format", "markdown")
    assert markdown.stdout.startswith("# Code related to: shop.pricing.compute_price")
    plain = cli("related", "shop.pricing.compute_price").stdout.splitlines()
    assert "shop/pricing.py:" in plain[0] and "shop.pricing.compute_price  [seed]" in plain[0]
    assert "tokens, intent related, depth 1" in plain[-1]
    probe = (
        "import sys, json; from codekith.cli import main; main(['graph']); "
        "assert 'fastembed' not in sys.modules and 'onnxruntime' not in sys.modules"
    )
    graph = subprocess.run(
        [sys.executable, "-c", probe], cwd=shop.root, capture_output=True, text=True, timeout=300
    )
    assert graph.returncode == 0, graph.stderr
    callgraph = json.loads(graph.stdout)
    assert "shop.pricing.apply_discount" in callgraph["shop.pricing.compute_price"]
    assert "shop.models.Item.__init__" in callgraph["shop.cart.checkout"]
    hit_id = bundle["items"][0]["id"]
    assert cli("feedback", "q", hit_id, "--vote", "up").returncode == 0
    assert cli("feedback", "q", "nope", "--vote", "up").returncode == 1
    assert cli("feedback", "q", hit_id, "--vote", "sideways").returncode == 2
    assert cli("related", "", "--json").returncode == 2


def test_warm_incremental_edges_equal_a_cold_rebuild(shop, project_for, tmp_path):
    """Saves in a long-lived process re-resolve only the neighbourhood of the change."""
    import shutil

    root = shop.root
    pricing = (root / "shop/pricing.py").read_text()
    edits = {
        "shop/pricing.py": pricing.replace("return apply_discount(", "return round_price(")
        + "\n\ndef round_price(amount, percent):\n    return round(apply_discount(amount, "
        "percent), 2)\n",
        "shop/mail.py": None,
        "shop/cart.py": (root / "shop/cart.py")
        .read_text()
        .replace("from shop.mail import send_receipt", "from shop.pricing import round_price")
        .replace("send_receipt(email, total)", "round_price(total, 0)"),
    }
    for path, text in edits.items():
        if text is None:
            (root / path).unlink()
        else:
            (root / path).write_text(text)
        report = shop.indexer.run(paths=[path])
        assert report.graph["files_resolved"] <= 4  # the neighbourhood, not all 7 files
    copy = tmp_path / "copy"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".codekith"))
    cold = project_for(copy)
    cold.indexer.run()
    assert edges(shop) == edges(cold)
    assert ("shop.cart.checkout", "shop.pricing.round_price", "call") in edges(shop)
    assert ("shop.pricing.round_price", "shop.pricing.apply_discount", "call") in edges(shop)


def test_warm_update_retries_calls_to_a_name_that_appears_later(workspace, project_for):
    root = workspace(  # main reaches tools only through a re-export in helpers
        {
            "app/__init__.py": "",
            "app/tools.py": "def existing():\n    return 1\n",
            "app/helpers.py": "from app.tools import *  # noqa: F403\n",
            "app/main.py": "from app.helpers import *  # noqa: F403\n\n\ndef run():\n"
            "    return later()\n",
        }
    )
    project = project_for(root)
    project.indexer.run()
    assert ("app.main.run", "app.tools.later", "call") not in edges(project)
    (root / "app/tools.py").write_text(
        "def existing():\n    return 1\n\n\ndef later():\n    return 2\n"
    )
    report = project.indexer.run(paths=["app/tools.py"])
    # tools itself, and main, whose lookup of `later` went through helpers' star import
    # into tools; helpers' own edges read nothing of tools' content
    assert report.graph["files_resolved"] == 2
    assert ("app.main.run", "app.tools.later", "call") in edges(project)


def test_a_line_of_a_long_files_top_level_code_targets_the_part_that_holds_it(
    workspace, project_for
) -> None:
    """Each part of a long rest of a file spans its own lines, so `PATH:LINE` on top-level
    code seeds the bundle with the part holding that line, and a blank line after it with
    the part above."""
    calls = [f"register_route('/page/{i}', render_page_number_{i}, cache={i})" for i in range(150)]
    root = workspace({"routes.py": "\n".join([*calls[:140], "", "", *calls[140:]]) + "\n"})
    project = project_for(root)
    project.indexer.run()
    target = project.related.chunk_at("routes.py", 120)
    assert target is not None and target["kind"] == "module"
    assert "render_page_number_119," in code_of(target["document"])
    assert target["start_line"] <= 120 <= target["end_line"] and target["start_line"] > 1
    blank = project.related.chunk_at("routes.py", 141)
    assert blank is not None and "render_page_number_139," in code_of(blank["document"])


CS_PARTIAL = {
    "Billing/Invoice.cs": """
        namespace Billing
        {
            /// <summary>An invoice of a customer's order lines.</summary>
            public partial class Invoice
            {
                private decimal total;

                /// <summary>Adds one line's price to the invoice.</summary>
                public void Add(decimal price) { total += price; }
            }
        }
    """,
    "Billing/Invoice.Tax.cs": """
        namespace Billing
        {
            public partial class Invoice
            {
                /// <summary>The tax due on the invoice's total.</summary>
                public decimal Tax() { return total * 0.2m; }
            }
        }
    """,
    "Billing/Receipt.cs": """
        namespace Billing
        {
            public class Receipt : Invoice
            {
                public string Print() { return "receipt"; }
            }
        }
    """,
}


def test_the_parts_of_a_partial_class_are_named_parts_not_bases(workspace, project_for):
    """C#'s call graph links a partial class's parts by inheritance (a call on one part
    reaches what another declares); a bundle says they are parts of one class, and keeps
    "subclass" for a real one."""
    project = project_for(workspace(CS_PARTIAL))
    project.indexer.run()
    reasons = {
        i.hit.qualname: i.reason for i in project.related.bundle("Billing.Invoice.Invoice").items
    }
    assert reasons["Billing.Invoice.Tax.Invoice"] == "other part of Billing.Invoice.Invoice", (
        reasons
    )
    assert reasons["Billing.Receipt.Receipt"] == "subclass of Billing.Invoice.Invoice", reasons


CALLBACKS = {
    "jobs/__init__.py": "",
    "jobs/queue.py": """
        import functools


        class Store:
            def save(self, job):
                return job

            def purge(self):
                return []


        class Queue:
            def __init__(self, store: Store):
                self.store = store

            def later(self, work):
                return work()

            def flush(self):
                self.later(lambda: self.store.purge())

            def retrying(self, job):
                def attempt():
                    return self.store.save(job)

                return attempt()


        def logged(function):
            @functools.wraps(function)
            def wrapper(*args):
                print(function.__name__)
                return function(*args)

            return wrapper


        @logged
        def ship(job):
            return job


        def dispatch(job):
            return ship(job)


        class Account:
            @property
            def balance(self):
                return 0


        def report(account: Account):
            return account.balance
    """,
}


def test_calls_in_lambdas_and_nested_functions_are_their_definitions_calls(workspace, project_for):
    """A lambda or a nested function is no chunk: the calls made in it are its enclosing
    definition's, for bundles, callers and callees, the call graph and lenses alike, and in
    bundles the calls into it relate its caller to that definition (they were lost: the
    graph names the scope `Queue.flush.<lambda1>` or `logged.wrapper`, which no chunk has)."""
    project = project_for(workspace(CALLBACKS))
    project.indexer.run()
    reasons = _reasons_at(project, "jobs/queue.py", "def flush")
    assert reasons.get("purge") == "callee of jobs.queue.Queue.flush", reasons
    reasons = _reasons_at(project, "jobs/queue.py", "def retrying")
    assert reasons.get("save") == "callee of jobs.queue.Queue.retrying", reasons

    answers = Answers(project)
    callers = {
        call.row["qualname"]: call.lines
        for call in answers.calls("jobs.queue.Store.purge", "callers")
    }
    assert callers == {"jobs.queue.Queue.flush": [21]}
    callees = {
        call.row["qualname"] for call in answers.calls("jobs.queue.Queue.retrying", "callees")
    }
    assert callees == {"jobs.queue.Store.save"}
    graph = answers.call_graph("jobs.queue.Store.save", "callers")
    assert [(e["caller"], e["line"]) for e in graph.edges] == [("jobs.queue.Queue.retrying", 25)]
    assert "jobs.queue.Queue.retrying" in graph.locations
    lenses = {
        lens.row["symbol"]: (lens.callers, lens.callees) for lens in answers.lenses("jobs/queue.py")
    }
    assert lenses["flush"] == (0, 2) and lenses["purge"] == (1, 0)
    # `later` runs flush's lambda and `dispatch` the wrapper `logged` made: code they relate
    # to (bundles), though neither calls that definition (call hierarchy, lenses)
    assert answers.calls("jobs.queue.Queue.flush", "callers") == []
    callers = {call.row["qualname"] for call in answers.calls("jobs.queue.logged", "callers")}
    assert callers == {"jobs.queue"}  # where `@logged` is applied
    reasons = _reasons_at(project, "jobs/queue.py", "def logged")
    assert reasons.get("dispatch") == "caller of jobs.queue.logged", reasons
    assert {e["src"] for e in project.store.live_edges()} >= {"jobs.queue.Queue.flush.<lambda1>"}


def test_a_decorated_function_has_its_callers_and_its_decorator(workspace, project_for):
    """`dispatch` calls `ship`, which `@logged` replaced by a wrapper: call hierarchy,
    lenses and bundles had `logged` as ship's only caller and `dispatch` as no relation;
    and the bundles said "callee of" for a decorator and what it decorates."""
    project = project_for(workspace(CALLBACKS))
    project.indexer.run()
    answers = Answers(project)
    callers = {
        call.row["qualname"]: call.lines for call in answers.calls("jobs.queue.ship", "callers")
    }
    assert callers == {"jobs.queue.dispatch": [45], "jobs.queue.logged": [34]}
    callees = {call.row["qualname"] for call in answers.calls("jobs.queue.dispatch", "callees")}
    assert callees == {"jobs.queue.ship"}
    graph = answers.call_graph("jobs.queue.dispatch", "callees")  # not the wrapper besides
    assert [(e["callee"], e["line"]) for e in graph.edges] == [("jobs.queue.ship", 45)]
    lenses = {
        lens.row["symbol"]: (lens.callers, lens.callees) for lens in answers.lenses("jobs/queue.py")
    }
    assert lenses["ship"] == (2, 0) and lenses["dispatch"] == (
        0,
        1,
    )  # not the wrapper: no definition
    reasons = _reasons_at(project, "jobs/queue.py", "def ship")
    assert reasons.get("logged") == "decorator of jobs.queue.ship", reasons
    assert reasons.get("dispatch") == "caller of jobs.queue.ship", reasons
    reasons = _reasons_at(project, "jobs/queue.py", "def logged")
    assert reasons.get("ship") == "decorated by jobs.queue.logged", reasons


SETTERS = """
class Ledger:
    def __init__(self, limit):
        self.limit = limit

    @property
    def limit(self):
        return self._limit

    @limit.setter
    def limit(self, value):
        self._limit = clamp(value)


def clamp(value):
    return max(value, 0)


def configure(ledger: Ledger):
    ledger.limit = 10
    return ledger.limit
"""


def test_writing_a_property_is_a_call_of_its_setter(workspace, project_for):
    """A property's getter and setter share a qualified name: the setter's lens counted the
    getter's readers and the getter had no lens; a write (`ledger.limit = 10`) called
    nothing. Now writes call the setter, reads the getter, and each counts its own."""
    project = project_for(workspace({"books/__init__.py": "", "books/ledger.py": SETTERS}))
    project.indexer.run()
    answers = Answers(project)

    def calls(direction, accessor=""):
        found = answers.calls("books.ledger.Ledger.limit", direction, accessor)
        return {call.row["qualname"]: call.lines for call in found}

    assert calls("callers") == {"books.ledger.configure": [21]}
    assert calls("callers", "setter") == {
        "books.ledger.Ledger.__init__": [4],
        "books.ledger.configure": [20],
    }
    assert calls("callees") == {}
    assert calls("callees", "setter") == {"books.ledger.clamp": [12]}
    callees = answers.calls("books.ledger.configure", "callees")
    assert [(c.row["qualname"], c.row["start_line"], c.lines) for c in callees] == [
        ("books.ledger.Ledger.limit", 6, [21]),
        ("books.ledger.Ledger.limit", 10, [20]),
    ]
    lenses = [
        (lens.row["start_line"], lens.callers, lens.callees)
        for lens in answers.lenses("books/ledger.py")
        if lens.row["symbol"] == "limit"
    ]
    assert lenses == [(6, 1, 0), (10, 2, 1)]
    graph = answers.call_graph("books.ledger.Ledger.limit", "callers")
    assert sorted((e["caller"], e["line"], e["how"]) for e in graph.edges) == [
        ("books.ledger.Ledger.__init__", 4, "write"),
        ("books.ledger.configure", 20, "write"),
        ("books.ledger.configure", 21, "read"),
    ]


def test_a_class_without_its_own_init_has_the_callers_that_make_it(workspace, project_for):
    """A dataclass or an exception runs no `__init__` of the workspace: its lens said "0
    callers" and call hierarchy listed nobody, wherever it was made or raised. Bundles leave
    such edges out (co-change recall fell on six of sixteen repositories with them)."""
    files = {
        "books/__init__.py": "",
        "books/entry.py": """
from dataclasses import dataclass


@dataclass
class Entry:
    amount: int


class Overdrawn(Exception):
    pass


def post(amount):
    if amount < 0:
        raise Overdrawn(amount)
    return Entry(amount)
""",
    }
    project = project_for(workspace(files))
    project.indexer.run()
    answers = Answers(project)
    for name, line in (("books.entry.Entry", 17), ("books.entry.Overdrawn", 16)):
        callers = answers.calls(name, "callers")
        assert [(c.row["qualname"], c.lines) for c in callers] == [("books.entry.post", [line])]
    callees = {c.row["qualname"] for c in answers.calls("books.entry.post", "callees")}
    assert callees == {"books.entry.Entry", "books.entry.Overdrawn"}
    lenses = {lens.row["symbol"]: lens.callers for lens in answers.lenses("books/entry.py")}
    assert lenses["Entry"] == 1 and lenses["Overdrawn"] == 1
    reasons = _reasons_at(project, "books/entry.py", "def post")  # bundles leave them out
    assert not reasons.get("Entry", "").startswith("callee"), reasons


def test_reading_a_property_is_a_call_of_its_getter(workspace, project_for):
    """`account.balance` runs `Account.balance`: call hierarchy and lenses had no caller
    for a property (nothing calls it with parentheses). Bundles leave such reads out (a
    field read, in effect: co-change recall fell with them)."""
    project = project_for(workspace(CALLBACKS))
    project.indexer.run()
    answers = Answers(project)
    callers = answers.calls("jobs.queue.Account.balance", "callers")
    assert {call.row["qualname"]: call.lines for call in callers} == {"jobs.queue.report": [55]}
    lenses = {lens.row["symbol"]: lens.callers for lens in answers.lenses("jobs/queue.py")}
    assert lenses["balance"] == 1
    reasons = _reasons_at(project, "jobs/queue.py", "def report")
    assert not reasons.get("balance", "").startswith("callee"), reasons


APP_FACTORY = {
    "shop/__init__.py": "",
    "shop/pages.py": """
        def render_page(name):
            return f"<html>{name}</html>"
    """,
    "shop/views.py": '''
        from shop.pages import render_page


        def create_app(app):
            """Wire the shop's pages into the web application."""
            app.config["banner"] = render_page("banner")

            @app.route("/")
            def home():
                """Show the shop's front page with today's offers."""
                return render_page("home")

            @app.route("/basket")
            def basket():
                return render_page("basket")

            return app
    ''',
}


def test_a_function_registered_inside_another_is_a_definition_of_its_own(workspace, project_for):
    """A route or a language server's handler decorated inside a setup function was a part
    of that function's chunk: no search, symbol lookup or call hierarchy could name it, and
    its calls were the setup function's. Now it is a definition of its own."""
    project = project_for(workspace(APP_FACTORY))
    project.indexer.run()
    answers = Answers(project)
    views = (project.root / "shop/views.py").read_text().splitlines()
    home_line = next(n for n, text in enumerate(views, 1) if "def home" in text)
    [home] = answers.find_symbol("home")
    assert (home["qualname"], home["start_line"]) == ("shop.views.create_app.home", home_line - 1)
    assert answers.symbols("basket")[0]["qualname"] == "shop.views.create_app.basket"
    hits = answers.search("the front page with today's offers").hits
    assert hits[0].qualname == "shop.views.create_app.home"
    assert answers.chunk_at("shop/views.py", home_line + 2)["qualname"] == home["qualname"]
    callers = answers.calls("shop.pages.render_page", "callers")
    assert {call.row["symbol"]: call.lines for call in callers} == {
        "create_app": [home_line - 3],
        "home": [home_line + 2],
        "basket": [home_line + 6],
    }
    lenses = {lens.row["symbol"]: lens.callees for lens in answers.lenses("shop/views.py")}
    assert lenses == {"create_app": 1, "home": 1, "basket": 1}
    reasons = _reasons_at(project, "shop/views.py", "def home")
    assert reasons["basket"].startswith("sibling of"), reasons
    home_row = answers.chunk_at("shop/views.py", home_line)
    assert related_module._scope_word(home_row) == "function"  # "in the same function as"
    # a bundle holding the function and what it registers shows both: its chunk shows
    # their bodies as `...`
    usage = {i.hit.symbol: i.reason for i in _bundle_at(project, "shop/pages.py", "def ").items}
    assert {"create_app", "home", "basket"} <= set(usage), usage


def test_a_method_is_the_chunk_at_its_own_lines_in_a_class_cut_in_parts(workspace, project_for):
    """`related PATH:LINE` and call hierarchy at a method's `def` took the class when a
    part of the class (holding the method's header) spanned fewer lines than the method."""
    from tests.test_chunking import long_class

    def shadowing(source: str) -> list[int]:  # method lines a shorter class part covers
        chunks = chunk_file("reg.py", "python", source).chunks
        parts = [c for c in chunks if c.kind == "class"]
        return [
            method.start_line
            for method in chunks
            if method.kind == "method"
            for part in parts
            if part.start_line <= method.start_line <= part.end_line
            and part.end_line - part.start_line < method.end_line - method.start_line
        ]

    source = next(s for n in range(40, 120) if shadowing(s := long_class("python", n)))
    project = project_for(workspace({"reg.py": source}))
    project.indexer.run()
    answers = Answers(project)
    for row in project.read_store.chunks_in_file("reg.py"):
        if row["kind"] == "method":
            for line in (row["start_line"], row["end_line"]):
                assert answers.chunk_at("reg.py", line)["qualname"] == row["qualname"], line
    [line] = shadowing(source)
    assert _bundle_at(project, "reg.py", (source.splitlines()[line - 1])).items[0].hit.kind == (
        "method"
    )
