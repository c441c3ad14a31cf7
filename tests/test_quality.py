"""Retrieval-quality regression guard on a fixture repository, with the real model.

tests/fixtures/quality_repo is indexed with its function and class docstrings removed; the
first sentence of each docstring must find its definition (MRR@10 of hybrid search), and
`related` on a function must bring the functions a change to it would also touch (recall of
hand-made co-change groups), and code names (a name, `Class.method`, a piece of a longer
name) must find their definition first (Recall@1). With the shop's tests indexed too
(tests/fixtures/quality_tests), the docstring questions are also answered as users get
them, tests and documentation apart, each judged on the list that holds its answer. All are
compared with the figures recorded in
tests/fixtures/quality_baseline.json: a drop of more than 0.02 fails. When a change improves
them, record the new figures (the failure message prints them).
"""

from __future__ import annotations

import ast
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codekith.answers import Answers
from codekith.evaluation import Case, evaluate, judged_hits
from codekith.project import Project
from codekith.qualnames import join, module_name
from codekith.search import SIDE_SHARE, Hit, assigns, holds_parts, is_code_name
from codekith.template import code_of, split_identifier
from codekith.vocabulary import DOCS_APART, TESTS_APART

FIXTURES = Path(__file__).parent / "fixtures"
REPO = FIXTURES / "quality_repo"
TESTS_OF_REPO = FIXTURES / "quality_tests"  # tests/test_shop.py, of quality_repo's shop
BASELINE = FIXTURES / "quality_baseline.json"
TOLERANCE = 0.02
Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _definitions(tree: ast.Module, module: str) -> list[tuple[str, Definition]]:
    found: list[tuple[str, Definition]] = []

    def visit(body: list[ast.stmt], scope: str) -> None:
        for node in body:
            if isinstance(node, Definition):
                found.append((join(scope, node.name), node))
                if isinstance(node, ast.ClassDef):
                    visit(node.body, join(scope, node.name))

    visit(tree.body, module)
    return found


def _first_sentence(docstring: str) -> str:
    text = " ".join(docstring.split("\n\n", 1)[0].split())
    match = re.match(r"(.+?[.!?])(?:\s|$)", text)
    return match.group(1) if match else text


def strip_docstrings(source: str) -> tuple[str, list[Case]]:
    """The source without definition docstrings, and a case per removed docstring."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    cases, drop = [], set()
    for qualname, node in _definitions(tree, ""):
        first = node.body[0]
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            cases.append(Case(_first_sentence(str(first.value.value)), [qualname]))
            if len(node.body) > 1:
                drop |= set(range(first.lineno - 1, first.end_lineno or first.lineno))
            else:  # a class whose body is only its docstring keeps a body
                lines[first.lineno - 1] = " " * first.col_offset + "pass\n"
                drop |= set(range(first.lineno, first.end_lineno or first.lineno))
    return "".join(line for i, line in enumerate(lines) if i not in drop), cases


def _stripped_copy(root: Path, sources: list[Path]) -> tuple[Path, list[Case]]:
    """The sources' Python files without docstrings under `root`, with their cases."""
    cases: list[Case] = []
    for source_root in sources:
        for path in sorted(source_root.rglob("*.py")):
            rel = path.relative_to(source_root).as_posix()
            source, found = strip_docstrings(path.read_text(encoding="utf-8"))
            module = module_name(rel)
            cases += [Case(c.query, [join(module, c.expected[0])]) for c in found]
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(source, encoding="utf-8")
    return root, cases


@pytest.fixture(scope="module")
def stripped(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Case]]:
    return _stripped_copy(tmp_path_factory.mktemp("quality") / "repo", [REPO])


def _baseline() -> dict[str, Any]:
    return json.loads(BASELINE.read_text())


def _guard(name: str, value: float) -> None:
    recorded = _baseline()[name]
    print(f"{name}: {value:.4f} (recorded {recorded:.4f})")
    assert value >= recorded - TOLERANCE, (
        f"{name} dropped from {recorded:.3f} to {value:.3f} (tolerance {TOLERANCE})"
    )
    if value > recorded + TOLERANCE:
        print(f"{name} improved: {recorded:.3f} -> {value:.3f}; record it in {BASELINE.name}")


def test_docstring_queries_find_their_definitions(
    stripped: tuple[Path, list[Case]], project_for: Callable[..., Project]
) -> None:
    root, cases = stripped
    assert len(cases) >= 35
    project = project_for(root)
    project.indexer.run()
    result = evaluate(cases, lambda c: project.searcher.search(c.query, 10))
    _guard("docstring_mrr@10", result["summary"]["mrr@10"])


def test_questions_find_their_answers_as_users_are_answered(
    tmp_path: Path, project_for: Callable[..., Project]
) -> None:
    """With the shop's tests indexed too (their docstrings ask for them in the words of the
    code they test), as `codekith search` answers (tests and documentation apart) and
    `codekith eval` judges (on the list that holds the answer): the questions a test
    answers must rank it higher than one list that makes tests give up a share does."""
    root, cases = _stripped_copy(tmp_path / "repo", [REPO, TESTS_OF_REPO])
    of_tests = [c for c in cases if answered_by_a_test(c)]
    assert len(cases) >= 50 and len(of_tests) >= 15
    project = project_for(root)
    project.indexer.run()
    answers = Answers(project)

    def answered(case: Case, tests_apart: int = TESTS_APART) -> list[Hit]:
        found = answers.search(case.query, 10, docs=DOCS_APART, tests_apart=tests_apart)
        return judged_hits(found.hits, (found.tests, found.docs), case.expected)

    _guard("answered_mrr@10", evaluate(cases, answered)["summary"]["mrr@10"])
    apart = evaluate(of_tests, answered)["summary"]["mrr@10"]
    _guard("answered_test_mrr@10", apart)
    together = evaluate(of_tests, lambda c: answered(c, 0))["summary"]["mrr@10"]
    assert apart > together + 0.05, (apart, together)


def answered_by_a_test(case: Case) -> bool:
    return case.expected[0].startswith("tests.")  # the fixture's tests/test_shop.py


def _pieces(name: str) -> list[str]:
    """A name's parts as written (`OutOfStockError` -> Out, Of, Stock, Error)."""
    return [p for part in name.split("_") for p in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+", part)]


def _identifier_cases(root: Path) -> list[Case]:
    """As people type code names: each definition's own name (one defined once), each
    method as `Class.method`, and each name of three parts or more without its last part
    (`is_working`, `OutOfStock`), where no other name holds those parts."""
    defined = [
        (name, node)
        for path in sorted(root.rglob("*.py"))
        for name, node in _definitions(
            ast.parse(path.read_text(encoding="utf-8")),
            module_name(path.relative_to(root).as_posix()),
        )
        if not node.name.startswith("__")
    ]
    symbols = [node.name for _, node in defined]
    cases = [Case(node.name, [name]) for name, node in defined if symbols.count(node.name) == 1]
    cases += [
        Case(".".join(name.split(".")[-2:]), [name])
        for name, node in defined
        if isinstance(node, ast.FunctionDef) and name.split(".")[-2][:1].isupper()
    ]
    for name, node in defined:
        pieces = _pieces(node.name)
        if len(pieces) < 3:
            continue
        joiner = "_" if "_" in node.name else ""
        fragment = joiner.join(pieces[:-1])
        words = split_identifier(fragment)
        holders = [s for s in symbols if holds_parts(split_identifier(s), words)]
        if holders == [node.name]:
            cases.append(Case(fragment, [name]))
    return cases


def test_code_names_find_their_definition_first(
    tmp_path: Path, project_for: Callable[..., Project]
) -> None:
    """A name, `Class.method` or a piece of a longer name: the definition comes first."""
    root = shutil.copytree(REPO, tmp_path / "repo")
    cases = _identifier_cases(root)
    assert len(cases) >= 40 and sum(1 for c in cases if c.query.startswith(("is_", "Out"))) >= 2
    project = project_for(root)
    project.indexer.run()
    result = evaluate(cases, lambda c: project.searcher.search(c.query, 10))
    _guard("identifier_recall@1", result["summary"]["recall@1"])


def _literal_cases(project: Project) -> list[Case]:
    """Code names no definition has, none assigns and no definition's name holds as a piece
    (`default_factory`, `card_number`, `KeyError`), written in 1 to 3 chunks: the chunks
    that hold one answer it, as `grep -w` finds them (scripts/quality_cases.py builds the
    bench's so)."""
    rows = project.read_store.rows("true")
    symbols = [split_identifier(row["symbol"]) for row in rows if row["symbol"]]
    holders: dict[str, set[str]] = {}
    for row in rows:
        for word in set(re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", code_of(row["document"]))):
            if len(word.strip("_")) >= 6 and is_code_name(word):
                holders.setdefault(word, set()).add(row["qualname"])
    settings = [row for row in rows if row["kind"] in ("module", "class")]
    return [
        Case(word, sorted(where))
        for word, where in sorted(holders.items())
        if len(where) <= 3
        and not any(holds_parts(symbol, split_identifier(word)) for symbol in symbols)
        and not any(
            assigns(code_of(row["document"]), word, row["kind"] == "class") for row in settings
        )
    ]


def test_code_names_no_definition_has_find_the_code_that_holds_them(
    tmp_path: Path, project_for: Callable[..., Project]
) -> None:
    root = shutil.copytree(REPO, tmp_path / "repo")
    project = project_for(root)
    project.indexer.run()
    cases = _literal_cases(project)
    assert len(cases) >= 5 and {"card_number", "KeyError"} <= {c.query for c in cases}
    result = evaluate(cases, lambda c: project.searcher.search(c.query, 10))
    _guard("literal_mrr@10", result["summary"]["mrr@10"])


def _location(root: Path, qualname: str) -> str:
    """PATH:LINE of a definition, as an editor would ask `related` about it."""
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, node in _definitions(tree, module_name(rel)):
            if name == qualname:
                return f"{rel}:{node.lineno}"
    raise LookupError(qualname)


def test_related_brings_what_changes_together(
    tmp_path: Path, project_for: Callable[..., Project]
) -> None:
    root = shutil.copytree(REPO, tmp_path / "repo")
    project = project_for(root)
    project.indexer.run()
    recalls = []
    for group in _baseline()["cochange"]:
        bundle = project.related.bundle(_location(root, group["target"]))
        names = {item.hit.qualname for item in bundle.items}
        recalls.append(sum(1 for e in group["expected"] if e in names) / len(group["expected"]))
    _guard("cochange_recall", sum(recalls) / len(recalls))


def test_vendored_copies_and_tests_rank_below_the_projects_own_code(
    workspace: Callable[[dict[str, str]], Path], project_for: Callable[..., Project]
) -> None:
    """The same function in the project, in a vendored copy and in a test: a question about
    behaviour gets the project's own definition first, the copies give up their share."""
    body = """
        def retry_delay(attempt, base=0.5, cap=30.0):
            delay = base * (2 ** attempt)
            return min(delay, cap)
    """
    root = workspace(
        {
            "pkg/__init__.py": "",
            "pkg/backoff.py": body,
            "pkg/packages/urllib3/backoff.py": body,
            "pkg/_vendor/tenacity/backoff.py": body,
            "tests/test_backoff.py": body,
        }
    )
    project = project_for(root)
    project.indexer.run()
    hits = project.searcher.search("exponential delay before the next retry, capped", 4)
    assert hits[0].path == "pkg/backoff.py", [h.path for h in hits]
    own = hits[0].score
    assert all(h.score <= 0.81 * own for h in hits[1:]), [(h.path, h.score) for h in hits]


def _retry_project(
    workspace: Callable[[dict[str, str]], Path],
    project_for: Callable[..., Project],
    test_module: str,
) -> Project:
    """An indexed project of a capped retry delay and `test_module` as its tests."""
    root = workspace(
        {
            "pkg/__init__.py": "",
            "pkg/backoff.py": """
                def retry_delay(attempt, base=0.5, cap=30.0):
                    # The retry delay doubles with each attempt and is capped at `cap`.
                    delay = base * (2 ** attempt)
                    return min(delay, cap)
            """,
            "tests/test_retry.py": test_module,
        }
    )
    project = project_for(root)
    project.indexer.run()
    return project


def test_a_question_that_asks_for_the_test_gets_the_test(
    workspace: Callable[[dict[str, str]], Path], project_for: Callable[..., Project]
) -> None:
    """Test code gives up a share of its score only to questions about behaviour."""
    test_module = """
        from pkg.backoff import retry_delay


        def test_retry_delay_is_capped():
            assert retry_delay(10) == 30.0
            assert retry_delay(0) == 0.5
    """
    project = _retry_project(workspace, project_for, test_module)
    asked = project.searcher.search("the tests of the retry delay cap", 3)
    assert asked[0].qualname == "tests.test_retry.test_retry_delay_is_capped", asked
    own = next(hit for hit in asked if hit.path == "pkg/backoff.py")
    assert asked[0].score > 1.15 * own.score, asked  # ~1.0x when the test gives up a share
    behaviour = project.searcher.search("the retry delay cap", 3)
    assert behaviour[0].qualname == "pkg.backoff.retry_delay", behaviour


def test_an_asker_who_wants_tests_gets_them_for_a_question_that_does_not_say_test(
    workspace: Callable[[dict[str, str]], Path], project_for: Callable[..., Project]
) -> None:
    """A test's docstring can read like a bug report ("no attempt waits longer than the
    cap"): the test gives up less for it than for a bug report, but only the asker can say a
    test is wanted (`tests=True`, the CLI's `--tests`): then the test keeps its whole score
    and comes first; without it the code does."""
    test_module = """
        from pkg.backoff import retry_delay


        def test_retry_delay_never_exceeds_the_cap():
            for attempt in range(20):
                assert retry_delay(attempt) <= 30.0
    """
    project = _retry_project(workspace, project_for, test_module)
    question = "no attempt waits longer than the cap"
    default = {h.qualname: h.score for h in project.searcher.search(question, 3)}
    wanted = project.searcher.search(question, 3, tests=True)
    test, own = "tests.test_retry.test_retry_delay_never_exceeds_the_cap", "pkg.backoff.retry_delay"
    assert max(default, key=default.__getitem__) == own, default
    assert wanted[0].qualname == test, wanted
    scores = {h.qualname: h.score for h in wanted}
    lift = (scores[test] / scores[own]) / (default[test] / default[own])
    given_up = project.searcher.test_share(question)  # the probe's: ~0.155
    assert lift == pytest.approx(1 / (1 - given_up), rel=0.02), (default, scores, given_up)
    assert abs(given_up - SIDE_SHARE) > 0.03  # so the lift tells the two apart
