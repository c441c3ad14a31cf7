"""The CLI as users run it: a subprocess per command, JSON on stdout, exit codes."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from codekith.store import Store
from tests.conftest import HTTP_MODULE, MATH_MODULE, write_files
from tests.interrupt import signalled_cli

CLI = [sys.executable, "-m", "codekith.cli"]


def run(*args: str, cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([*CLI, *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def test_index_search_status_json(workspace):
    root = workspace({"web/http.py": HTTP_MODULE, "mathx.py": MATH_MODULE, ".env": "A=1\n"})
    report = json.loads(run("index", ".", "--json", cwd=root).stdout)
    assert report["indexed"] == 2 and report["skipped"] == {".env": "secret file (.env)"}
    result = json.loads(run("search", "fibonacci number", "-k", "2", "--json", cwd=root).stdout)
    assert result["query"] == "fibonacci number"
    hit = result["hits"][0]
    assert set(hit) == {
        "id",
        "path",
        "qualname",
        "symbol",
        "kind",
        "language",
        "start_line",
        "end_line",
        "score",
        "snippet",
        "stale",
    }
    assert result["fresh"] is True and result["stale"] == []
    assert hit["qualname"] == "mathx.fibonacci" and "def fibonacci" in hit["snippet"]
    status = json.loads(run("status", "--json", cwd=root).stdout)
    assert status["chunks"] == report["chunks_total"] and status["stale"] == []
    (root / "mathx.py").write_text(MATH_MODULE + "\nX = 1\n")
    assert json.loads(run("status", "--json", cwd=root).stdout)["stale"] == ["mathx.py"]
    plain = run("search", "fibonacci number", "-k", "1", cwd=root)
    assert "mathx.py:2-7  function mathx.fibonacci" in plain.stdout
    assert "[stale]" in plain.stdout and "the index is behind (1 stale files)" in plain.stderr
    text_status = run("status", cwd=root).stdout
    assert "stale     1: mathx.py" in text_status


def test_batch_queries_and_eval(workspace, tmp_path):
    cookies = "# Cookies\nThe session remembers cookies between requests.\n"
    root = workspace({"web/http.py": HTTP_MODULE, "mathx.py": MATH_MODULE, "docs/c.md": cookies})
    run("index", "--json", cwd=root)
    queries = tmp_path / "q.jsonl"
    queries.write_text(
        '{"query": "prime number test", "k": 1}\n\n{"query": "cookies", "kind": "method", "k": 3}\n'
        '{"query": "session cookies", "k": 20}\n{"query": "session cookies", "kind": "code"}\n'
    )
    lines = run("search", "--queries", str(queries), "--json", cwd=root).stdout.splitlines()
    answers = [json.loads(line) for line in lines]
    asked = ["prime number test", "cookies", "session cookies", "session cookies"]
    assert [a["query"] for a in answers] == asked
    assert answers[0]["hits"][0]["qualname"] == "mathx.is_prime"
    assert {h["kind"] for h in answers[1]["hits"]} == {"method"}
    # by default the documentation comes apart, after code-only hits
    assert answers[2]["hits"] and "section" not in {h["kind"] for h in answers[2]["hits"]}
    assert [h["path"] for h in answers[2]["docs"]] == ["docs/c.md"]
    assert answers[3]["hits"] and "section" not in {h["kind"] for h in answers[3]["hits"]}
    together = json.loads(
        run("search", "session cookies", "--docs", "0", "--json", cwd=root).stdout
    )
    assert "section" in {h["kind"] for h in together["hits"]} and "docs" not in together
    plain = run("search", "session cookies", cwd=root).stdout.splitlines()
    heading = plain.index("documentation, apart from the code:")
    assert heading > 0 and "docs/c.md:1-2  section" in plain[heading + 1]
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        '{"query": "n-th Fibonacci", "expected": ["mathx.fibonacci"]}\n'
        '{"query": "remember cookies", "expected": ["Session.send"]}\n'
        '{"query": "n-th Fibonacci", "expected": ["mathx.is_prime"]}\n'
        '{"query": "n-th Fibonacci", "expected": ["mathx.is_prime"], "k": 1}\n'
    )
    result = json.loads(run("eval", str(cases), "--json", cwd=root).stdout)
    assert result["summary"]["cases"] == 4 and result["cases"][0]["rank"] == 1
    # a case's own k is how many hits it is judged on, as a --queries line's k is its count
    assert result["cases"][2]["rank"] is not None and result["cases"][3]["rank"] is None
    section = answers[2]["docs"][0]["qualname"]
    cases.write_text(json.dumps({"query": "session cookies", "expected": [section]}) + "\n")
    for kind, found in (("", True), ("code", False)):
        judged = json.loads(run("eval", str(cases), "--kind", kind, "--json", cwd=root).stdout)
        assert (judged["cases"][0]["rank"] is not None) is found


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("path_prefix", 5, "'path_prefix' must be text, not 5"),
        ("kind", ["method"], "'kind' must be text, not ['method']"),
        ("kind", "functon", "'kind' must be one of '', 'module', 'class'"),
        ("mode", "fuzzy", "'mode' must be one of 'hybrid', 'vector', 'text', not 'fuzzy'"),
        ("k", "3", "'k' must be a whole number of at least 1, not '3'"),
        ("k", 0, "'k' must be a whole number of at least 1, not 0"),
        ("k", True, "'k' must be a whole number of at least 1, not True"),
    ],
)
def test_a_malformed_option_in_a_line_is_a_usage_error_naming_it(
    workspace, tmp_path, field, value, said
):
    """A batch line or an eval case whose option has the wrong type or word: exit 2 with
    the file, line and field, as the CLI's own flags would say, and no traceback."""
    root = workspace({"mathx.py": MATH_MODULE})
    run("index", cwd=root)
    lines = tmp_path / "q.jsonl"
    lines.write_text('{"query": "n-th Fibonacci"}\n' + json.dumps({"query": "x", field: value}))
    batch = run("search", "--queries", str(lines), "--json", cwd=root, check=False)
    assert batch.returncode == 2 and f"q.jsonl:2: {said}" in batch.stderr, batch.stderr
    assert "Traceback" not in batch.stderr
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"query": "x", "expected": ["mathx.fibonacci"], field: value}))
    evaluated = run("eval", str(cases), cwd=root, check=False)
    assert evaluated.returncode == 2 and f"cases.jsonl:1: {said}" in evaluated.stderr
    assert "Traceback" not in evaluated.stderr


def test_a_line_without_a_usable_query_or_answers_is_a_usage_error(workspace, tmp_path):
    """A batch line or eval case that is not an object, has no query as text, or (a case)
    whose answers are not a list of names: exit 2 naming the line, before anything is
    counted (a string's letters were taken for answers, null searched for "None")."""
    root = workspace({"mathx.py": MATH_MODULE})
    run("index", cwd=root)
    lines = tmp_path / "q.jsonl"
    cases = tmp_path / "cases.jsonl"
    for line, said in [
        ("[1, 2]", "expected a JSON object, not [1, 2]"),
        ('{"query": null}', "'query' must be non-empty text, not None"),
        ('{"query": "  "}', "'query' must be non-empty text, not '  '"),
        ('{"query": "x"', "not a JSON line"),
    ]:
        lines.write_text(line + "\n")
        batch = run("search", "--queries", str(lines), "--json", cwd=root, check=False)
        assert batch.returncode == 2 and f"q.jsonl:1: {said}" in batch.stderr, batch.stderr
        cases.write_text(line + "\n")
        evaluated = run("eval", str(cases), cwd=root, check=False)
        assert evaluated.returncode == 2 and f"cases.jsonl:1: {said}" in evaluated.stderr
    for expected in ("mathx.fibonacci", [], [1], [""]):
        cases.write_text(json.dumps({"query": "n-th Fibonacci", "expected": expected}))
        evaluated = run("eval", str(cases), "--json", cwd=root, check=False)
        said = "cases.jsonl:1: 'expected' must be a non-empty list of qualified names or paths"
        assert evaluated.returncode == 2 and said in evaluated.stderr, evaluated.stderr
        assert evaluated.stdout == ""


def test_tests_flag_lets_tests_rank_with_the_code(workspace, tmp_path):
    """`--tests` (or "tests": true in a batch line or an eval case): a test's copy of the
    code keeps its whole score; with `--tests-apart 0` the copy gives up its share and
    comes after, and by default it is listed apart, after the hits."""
    root = workspace({"mathx.py": MATH_MODULE, "tests/test_mathx.py": MATH_MODULE})
    run("index", cwd=root)
    query = ["search", "n-th Fibonacci number", "-k", "2", "--json"]

    def scores(*extra: str) -> dict[str, float]:
        hits = json.loads(run(*query, *extra, cwd=root).stdout)["hits"]
        return {hit["path"]: hit["score"] for hit in hits}

    apart = json.loads(run(*query, cwd=root).stdout)
    assert {h["path"] for h in apart["hits"]} == {"mathx.py"}
    assert {h["path"] for h in apart["tests"]} == {"tests/test_mathx.py"}
    plain = run("search", "n-th Fibonacci number", "-k", "2", cwd=root).stdout.splitlines()
    heading = plain.index("tests, apart from the code:")
    assert heading > 0 and "tests/test_mathx.py" in plain[heading + 1]
    default, wanted = scores("--tests-apart", "0"), scores("--tests")
    assert default["tests/test_mathx.py"] < 0.85 * default["mathx.py"], default
    assert wanted["tests/test_mathx.py"] == pytest.approx(wanted["mathx.py"], rel=0.02), wanted
    lines = tmp_path / "q.jsonl"
    lines.write_text('{"query": "n-th Fibonacci number", "k": 2, "tests": true}\n')
    batch = json.loads(run("search", "--queries", str(lines), "--json", cwd=root).stdout)
    assert {h["path"]: h["score"] for h in batch["hits"]} == wanted
    lines.write_text('{"query": "n-th Fibonacci number", "tests": "yes"}\n')
    bad = run("search", "--queries", str(lines), "--json", cwd=root, check=False)
    assert bad.returncode == 2 and "q.jsonl:1: 'tests' must be true or false" in bad.stderr
    cases = tmp_path / "cases.jsonl"
    case = {"query": "n-th Fibonacci number", "expected": ["tests/test_mathx.py"]}
    cases.write_text(json.dumps(case) + "\n" + json.dumps({**case, "tests": True}) + "\n")
    ranks = [
        c["rank"] for c in json.loads(run("eval", str(cases), "--json", cwd=root).stdout)["cases"]
    ]
    flagged = list(wanted).index("tests/test_mathx.py") + 1  # as search ranks it with --tests
    assert ranks == [1, flagged], ranks  # judged on the tests apart, where it comes first
    together = json.loads(run("eval", str(cases), "--tests-apart", "0", "--json", cwd=root).stdout)
    assert [c["rank"] for c in together["cases"]] == [2, flagged]
    cases.write_text(json.dumps({**case, "tests": "yes"}) + "\n")
    unclear = run("eval", str(cases), cwd=root, check=False)
    assert unclear.returncode == 2
    assert "cases.jsonl:1: 'tests' must be true or false" in unclear.stderr


def test_errors_and_usage(workspace, tmp_path):
    root = workspace({"a.py": "x = 1\n"})
    missing = run("search", "x", cwd=root, check=False)
    assert missing.returncode == 1 and "run `codekith index" in missing.stderr
    assert run("search", "-k", "0", "x", cwd=root, check=False).returncode == 2
    negative = run("search", "--docs", "-1", "x", cwd=root, check=False)
    assert negative.returncode == 2 and "--docs" in negative.stderr
    assert run("bogus", cwd=root, check=False).returncode == 2
    assert run("index", str(tmp_path / "nope"), cwd=root, check=False).returncode == 1
    run("index", cwd=root)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    result = run("eval", str(bad), cwd=root, check=False)
    assert result.returncode == 2 and "bad.jsonl:1" in result.stderr


def numbered_modules(stem: str) -> dict[str, str]:
    """30 modules of 6 functions, embedded in batches of 7: a run of 26 batch writes."""
    files = {
        f"pkg/mod{i}.py": "\n".join(
            f"def {stem}_{i}_{j}(value):\n    '''Step {j} of {stem} {i}.'''\n"
            f"    return value * {j} + {i}\n"
            for j in range(6)
        )
        for i in range(30)
    }
    return {**files, ".codekith.toml": "batch-chunks = 7\n"}


def index_snapshot(root: Path) -> tuple[set[tuple[str, int, int]], dict[str, str]]:
    store = Store(str(root / ".codekith"))
    rows = store.rows("true", columns=["id", "start_line", "end_line"])
    catalog = {p: r.file_hash for p, r in store.catalog().items()}
    return {(r["id"], r["start_line"], r["end_line"]) for r in rows}, catalog


def test_kill_9_mid_run_then_resume_equals_an_uninterrupted_run(tmp_path):
    files = numbered_modules("function")
    interrupted = write_files(tmp_path / "a", files)
    reference = write_files(tmp_path / "b", files)
    process = signalled_cli(
        "codekith.store:Store.write_files", 3, signal.SIGKILL, "index", "--json", str(interrupted)
    )
    _, err = process.communicate(timeout=600)
    assert process.returncode == -signal.SIGKILL, err
    partial = Store(str(interrupted / ".codekith")).count()
    assert 0 < partial < 30 * 7
    resumed = json.loads(run("index", "--json", cwd=interrupted).stdout)
    assert resumed["embedded"] < 30 * 7  # what was written before the kill is not redone
    run("index", "--json", cwd=reference)
    assert index_snapshot(interrupted) == index_snapshot(reference)


def test_ctrl_c_while_a_batch_embeds_keeps_its_vectors_and_the_next_run_embeds_the_rest(
    tmp_path,
):
    """One batch of 180 chunks (the default batch size): the run stops after the model's
    first step instead of embedding the whole batch, writes the files it has every vector
    of, and keeps the vectors it made, so the next run embeds only the others."""
    files = {k: v for k, v in numbered_modules("step").items() if k.endswith(".py")}
    stopped = write_files(tmp_path / "a", files)
    reference = write_files(tmp_path / "b", files)
    process = signalled_cli(
        "codekith.embedding:FastEmbedder.embed_documents",
        1,
        signal.SIGINT,
        "index",
        "--json",
        str(stopped),
    )
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    report = json.loads(out)
    assert report["cancelled"] and "stopped" in err
    assert 0 < report["embedded"] < 180 and report["chunks_written"] < 180
    resumed = json.loads(run("index", "--json", cwd=stopped).stdout)
    assert not resumed["cancelled"]
    assert resumed["embedded"] == 180 - report["embedded"]  # nothing embedded twice
    run("index", "--json", cwd=reference)
    assert index_snapshot(stopped) == index_snapshot(reference)


def test_ctrl_c_stops_at_a_batch_boundary_and_the_next_run_completes_the_index(tmp_path):
    files = numbered_modules("task")
    stopped = write_files(tmp_path / "a", files)
    reference = write_files(tmp_path / "b", files)
    process = signalled_cli(
        "codekith.store:Store.write_files", 1, signal.SIGINT, "index", "--json", str(stopped)
    )
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    report = json.loads(out)
    assert report["cancelled"] and 0 < report["chunks_written"] < 30 * 6
    store = Store(str(stopped / ".codekith"))
    assert "stopped" in err and store.meta()["run_state"] == "cancelled"
    resumed = json.loads(run("index", "--json", cwd=stopped).stdout)
    assert not resumed["cancelled"] and resumed["mode"] == "scan"
    assert set(resumed["indexed_paths"]).isdisjoint(report["indexed_paths"])
    run("index", "--json", cwd=reference)
    assert index_snapshot(stopped) == index_snapshot(reference)
