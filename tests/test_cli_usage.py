"""The CLI as a new user meets it (issue 12, items 3-6 and 10): usage errors in one line
with the command's own usage, --version, no traceback for a missing input file or a closed
pipe, subfolders use the enclosing index and reads create nothing, targets that do not
exist are errors naming the nearest valid thing, dry runs count every file.

Mostly in-process `main()` calls over one small index, built once with the shared model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from codekith.answers import Answers
from codekith.cli import main
from codekith.config import enclosing_root
from codekith.project import Project
from codekith.related import TargetNotFoundError
from tests.conftest import HTTP_MODULE, MATH_MODULE, git, init_repo, write_files

MAKEFILE = "build:\n\tpython -m build\n\ntest:\n\tpytest -q\n"
ENGINE = ("lancedb", "numpy", "pyarrow", "fastembed", "onnxruntime")


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory, embedder) -> Path:
    """A git repository with a package two folders deep, indexed (no Jedi: not needed)."""
    root = init_repo(tmp_path_factory.mktemp("usage") / "ws")
    write_files(
        root,
        {
            "pkg/__init__.py": "from .sub.mathx import fibonacci\n"
            "from .sub.mathx import is_prime as prime\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/mathx.py": MATH_MODULE,
            "pkg/web.py": HTTP_MODULE,
            "Makefile": MAKEFILE,
        },
    )
    git(root, "add", ".")
    git(root, "commit", "-qm", "one")
    project = Project(root, overrides={"jedi": False}, embedder=embedder)
    with project.store.write_lock():
        project.indexer.run()
    return root


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse: --version, --help, usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_usage_errors_name_the_command_and_the_bad_value(capsys, tmp_path):
    code, _, err = run_main(capsys, "search", "x", "-k", "abc")
    assert code == 2 and "usage: codekith search" in err
    assert "argument -k: expected a whole number, not 'abc'" in err
    code, _, err = run_main(capsys, "search", "foo", "--bogus")
    assert code == 2 and "usage: codekith search" in err
    assert "unrecognized arguments: --bogus" in err
    code, _, err = run_main(capsys, "search", "--root", str(tmp_path))
    assert code == 2 and "give a QUERY or --queries FILE" in err
    code, out, _ = run_main(capsys, "--version")
    assert code == 0 and out.startswith("codekith ")


def test_missing_input_files_are_one_line_errors(capsys, tmp_path):
    missing = tmp_path / "missing.jsonl"
    for args in (["eval", str(missing)], ["search", "--queries", str(missing)]):
        code, _, err = run_main(capsys, *args, "--root", str(tmp_path))
        assert code == 1, err
        assert err == f"codekith: error: cannot read {missing}: No such file or directory\n"


def test_help_and_usage_errors_load_no_engine():
    """The engine's libraries take seconds to import; help and usage errors need none."""
    script = (
        "import sys\n"
        "from codekith.cli import main\n"
        "for argv in (['--help'], ['--version'], ['search', '--help'], ['search'],\n"
        "             ['search', 'x', '-k', '0'], ['search', 'x', '--bogus'], ['related']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        f"print([m for m in {ENGINE!r} if m in sys.modules], file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert result.stderr.strip().splitlines()[-1] == "[]", result.stderr


STATUS_SCRIPT = """
import json, sys
from codekith.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "lancedb": "lancedb" in sys.modules}), file=sys.stderr)
"""


def status_in_child(root: Path) -> tuple[dict, dict]:
    """`codekith status --json` in a new process: its status and how it went (exit code,
    whether it imported LanceDB, what it said on stderr)."""
    result = subprocess.run(
        [sys.executable, "-c", STATUS_SCRIPT, "status", "--json", "--root", str(root)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    *said, last = result.stderr.strip().splitlines()
    how = {**json.loads(last), "said": said}
    return (json.loads(result.stdout) if result.stdout else {}), how


def test_status_starts_without_lancedb_and_stays_true(tmp_path, project_for):
    """Issue 12 item 10: `status` on an unchanged index reads the snapshot saved beside the
    tables (no LanceDB import); freshness is still checked against HEAD and the disk, and a
    commit or a damaged table file sends it back to the tables."""
    root = init_repo(tmp_path / "ws")
    write_files(root, {"mathx.py": MATH_MODULE, "web.py": HTTP_MODULE})
    git(root, "add", ".")
    git(root, "commit", "-qm", "one")
    project = project_for(root, jedi=False)
    project.indexer.run()
    store = project.read_store

    def truth() -> dict:
        return {"chunks": store.count(), "files": len(store.catalog()), "edges": store.edge_count()}

    status_in_child(root)  # the first reader after a run reads the tables and saves
    status, how = status_in_child(root)
    assert how == {"code": 0, "lancedb": False, "said": []}
    assert {k: status[k] for k in ("chunks", "files", "edges")} == truth()
    assert status["fresh"] and status["stale"] == [] and len(status["runs"]) == 1

    (root / "web.py").write_text(HTTP_MODULE + "\n\ndef added():\n    return 1\n")
    status, how = status_in_child(root)
    assert how == {"code": 0, "lancedb": False, "said": []}
    assert status["stale"] == ["web.py"] and not status["fresh"]

    project.indexer.run()
    status, how = status_in_child(root)
    assert how["code"] == 0 and status["fresh"] and len(status["runs"]) == 2
    assert {k: status[k] for k in ("chunks", "files", "edges")} == truth()
    assert status["chunks"] == truth()["chunks"] > 0

    db = root / ".codekith"
    data = max((db / "chunks.lance" / "data").glob("*.lance"), key=lambda p: p.stat().st_size)
    os.truncate(data, 100)
    status, how = status_in_child(root)
    assert how["code"] == 1 and how["lancedb"] and status == {}
    assert len(how["said"]) == 1 and "damaged" in how["said"][0], how


def test_a_subfolder_uses_the_enclosing_index_and_reads_create_nothing(
    capsys, monkeypatch, indexed, tmp_path
):
    subfolder = indexed / "pkg" / "sub"
    assert enclosing_root(subfolder) == indexed
    monkeypatch.chdir(subfolder)
    code, out, err = run_main(capsys, "status", "--json")
    assert code == 0, err
    assert json.loads(out)["root"] == str(indexed)
    assert not (subfolder / ".codekith").exists()

    bare = init_repo(tmp_path / "bare")
    (bare / "src").mkdir()
    monkeypatch.chdir(bare / "src")
    code, _, err = run_main(capsys, "search", "confirm")
    assert code == 1 and f"no index at {bare / '.codekith'}" in err
    assert sorted(p.name for p in bare.iterdir()) == [".git", "src"]
    assert not any((bare / "src").iterdir())


def test_targets_that_do_not_exist_are_errors_naming_the_nearest(capsys, monkeypatch, indexed):
    monkeypatch.chdir(indexed)
    code, out, err = run_main(capsys, "related", "pkg/sub/mathx.py:3", "--json")
    assert code == 0, err
    assert json.loads(out)["items"][0]["qualname"].endswith("fibonacci")
    lines = (indexed / "pkg/sub/mathx.py").read_text().count("\n") + 1
    code, _, err = run_main(capsys, "related", "pkg/sub/mathx.py:999999")
    assert code == 1
    assert err == f"codekith: error: pkg/sub/mathx.py has lines 1 to {lines}, not 999999\n"
    code, _, err = run_main(capsys, "related", "pkg/sub/mahtx.py")
    assert code == 1
    assert "pkg/sub/mahtx.py is not in the index; did you mean pkg/sub/mathx.py?" in err
    # The same check for every layer (the language server answers it as InvalidParams).
    answers = Answers(Project(indexed))
    with pytest.raises(TargetNotFoundError, match="not in the index"):
        answers.related("nonexistent/path.py")


def test_a_line_of_a_file_without_suffix_is_a_location(capsys, monkeypatch, indexed):
    """`related Makefile:4` is that line of the Makefile (it was free text: a location
    needed a file suffix); a word that names no indexed file stays text."""
    monkeypatch.chdir(indexed)
    code, out, err = run_main(capsys, "related", "Makefile:4", "--json")
    assert code == 0, err
    assert json.loads(out)["items"][0]["path"] == "Makefile"
    code, _, err = run_main(capsys, "related", "Makefile:99")
    assert code == 1 and err == "codekith: error: Makefile has lines 1 to 6, not 99\n"
    code, out, err = run_main(capsys, "related", "TODO:3", "--json")
    assert code == 0 and json.loads(out)["target"] == "TODO:3", err


def test_a_re_exported_name_is_its_definition(indexed):
    """`pkg.fibonacci` is `from .sub.mathx import fibonacci` in pkg/__init__.py (issue 12,
    item 7: `codekith related click.echo` landed on some other `_echo`)."""
    related = Project(indexed).related
    assert [r["qualname"] for r in related.definitions_of("pkg.fibonacci")] == [
        "pkg.sub.mathx.fibonacci"
    ]
    assert related.definitions_of("pkg.is_prime") == []  # not re-exported under that name
    assert [r["qualname"] for r in related.definitions_of("pkg.prime")] == [
        "pkg.sub.mathx.is_prime"
    ]  # `from .sub.mathx import is_prime as prime`
    bundle = Answers(Project(indexed)).related("pkg.fibonacci").bundle
    assert bundle.items[0].hit.qualname == "pkg.sub.mathx.fibonacci"


def test_a_closed_pipe_is_no_traceback(indexed):
    """`codekith status | head -0`: the reader is gone before anything is written."""
    read, write = os.pipe()
    os.close(read)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "codekith.cli", "status", "--root", str(indexed)],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    finally:
        os.close(write)
    assert result.returncode == 141 and "Traceback" not in result.stderr, result.stderr


def test_dry_runs_count_every_file(capsys, indexed):
    (indexed / "pkg/web.py").write_text(HTTP_MODULE + "\nX = 1\n")
    try:
        code, out, err = run_main(capsys, "index", str(indexed), "--dry-run", "--json")
        assert code == 0, err
        report = json.loads(out)
        assert report["indexed_paths"] == ["pkg/web.py"]
        assert report["unchanged"] == report["files"] - 1 >= 3
        code, out, err = run_main(capsys, "index", str(indexed), "--dry-run", "--full", "--json")
        full = json.loads(out)
        assert code == 0 and full["indexed"] == report["files"] and full["unchanged"] == 0
    finally:
        git(indexed, "checkout", "--", "pkg/web.py")


def test_file_names_cannot_drive_the_terminal(capsys, tmp_path):
    """A file named with a terminal escape sequence is listed with the escape shown."""
    root = tmp_path / "plain"
    write_files(root, {"red\x1b[31m.py": "x = 1\n", "bell\x07.txt": "ring\n"})
    code, out, err = run_main(capsys, "index", str(root), "--dry-run")
    assert code == 0, err
    assert "\x1b" not in out and "\x07" not in out
    assert "  index  red\\x1b[31m.py\n" in out and "  index  bell\\x07.txt\n" in out
