"""A corpus of bad input (issue 12, items 16 and 21): every file is indexed or skipped with
its reason, and nothing crashes or hangs, in a git repository and in a plain folder."""

from __future__ import annotations

import codecs
import json
import os
import subprocess
import sys
from pathlib import Path

from codekith.workspace import MAX_LINE_CHARS
from tests.conftest import git, init_repo, write_files

DEEP = {
    "deep/terms.py": "x = " + "+".join(["1"] * 3000) + "\n",
    "deep/elifs.py": "def pick(x):\n    if x == 0:\n        return 0\n"
    + "".join(f"    elif x == {i}:\n        return {i}\n" for i in range(1, 3000)),
    "deep/brackets.py": "x = " + "[" * 1000 + "]" * 1000 + "\n",
}
LATIN1_DECLARED = (
    "# -*- coding: latin-1 -*-\n"
    "def cafe_menu():\n"
    '    """Le caf\xe9 du coin."""\n'
    "    return helper_for_menu()\n\n\n"
    "def helper_for_menu():\n    return 1\n"
).encode("latin-1")
BOM_PYTHON = codecs.BOM_UTF8 + (
    b"def bom_entry():\n    return bom_helper()\n\n\ndef bom_helper():\n    return 2\n"
)
UTF16_NOTES = "Quarterly frobnication notes: the flux capacitor needs calibration.\n"


def corpus(root: Path) -> set[str]:
    """Writes the corpus; returns the names that must appear in the report (indexed or
    skipped), as the report prints them."""
    write_files(
        root,
        {
            "good.py": "def ordinary_function():\n    return 1\n",
            "blob.py": b"\x00\x01\x02binary\x00",
            "image.png": b"\x89PNG\r\n\x1a\n\x00\x00",
            "late_nul.py": b"x = 1\n" * 2000 + b"y = '\x00'\n",
            "latin.md": "caf\xe9".encode("latin-1"),
            "latin_declared.py": LATIN1_DECLARED,
            "bom.py": BOM_PYTHON,
            "notes.txt": codecs.BOM_UTF16_LE + UTF16_NOTES.encode("utf-16-le"),
            "one_line.js": b"var a=" + b"1+" * 600_000 + b"1;\n",
            "\x1b[31mred\x1b[0m.py": "def escape_named():\n    return 3\n",
            "it's a file.py": "QUOTED = 1\n",
            "-rf.py": "DASHED = 1\n",
            "n" * 200 + ".py": "LONG = 1\n",
            **DEEP,
        },
    )
    (root / "huge.py").write_bytes(b"")
    os.truncate(root / "huge.py", 50 * 1024 * 1024)
    (root / os.fsdecode(b"bad\xffname.py")).write_text("NOT_UTF8_NAME = 1\n")
    os.mkfifo(root / "pipe.py")
    os.symlink("loop_a", root / "loop_b")
    os.symlink("loop_b", root / "loop_a")
    os.symlink("self_loop", root / "self_loop")
    os.symlink("/etc/passwd", root / "outside.py")
    os.symlink("/etc", root / "outside_dir")
    (root / "sub").mkdir()
    os.symlink("..", root / "sub" / "parent")
    return {
        "good.py",
        "blob.py",
        "image.png",
        "late_nul.py",
        "latin.md",
        "latin_declared.py",
        "bom.py",
        "notes.txt",
        "one_line.js",
        "huge.py",
        "bad\\xffname.py",
        *DEEP,
    }


def check_report(report: dict, expected: set[str]) -> None:
    seen = set(report["indexed_paths"]) | set(report["skipped"])
    assert expected <= seen, expected - seen
    assert all(reason for reason in report["skipped"].values())
    skipped = report["skipped"]
    assert skipped["blob.py"] == "binary file" and skipped["image.png"] == "binary file type"
    assert skipped["huge.py"].startswith("too large")
    assert skipped["latin.md"] == "not valid UTF-8 (or its declared encoding)"
    assert skipped["bad\\xffname.py"] == "file name is not UTF-8"
    for path in {"latin_declared.py", "bom.py", "notes.txt", "one_line.js", *DEEP} & expected:
        assert path in report["indexed_paths"], path
    for link in ("loop_a", "self_loop", "outside.py"):
        assert skipped.get(link, "symbolic link") == "symbolic link"
    assert "lines over" in report["errors"]["one_line.js"]


def test_bad_input_in_a_plain_folder_through_the_cli(tmp_path):
    root = tmp_path / "plain"
    root.mkdir()
    expected = corpus(root) | {"pipe.py"}
    (root / ".codekith.toml").write_text("max-file-bytes = 2000000\njedi = false\n")
    command = [sys.executable, "-m", "codekith.cli", "index", str(root), "--json"]
    dry = subprocess.run([*command, "--dry-run"], capture_output=True, text=True, timeout=600)
    assert dry.returncode == 0, dry.stderr
    assert json.loads(dry.stdout)["skipped"]["pipe.py"] == "not a regular file (FIFO)"
    # The 6,000-line elif chain costs a minute of embedding; the git corpus indexes it.
    (root / "deep/elifs.py").unlink()
    run = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    check_report(report, expected - {"deep/elifs.py"})
    assert report["skipped"]["pipe.py"] == "not a regular file (FIFO)"
    again = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and json.loads(again.stdout)["indexed"] == 0


def test_bad_input_in_git_with_the_graph(tmp_path, project_for):
    root = init_repo(tmp_path / "repo")
    expected = corpus(root)
    os.unlink(root / "pipe.py")  # git cannot hold a FIFO; the plain-folder test has one
    (root / ".codekith.toml").write_text("max-file-bytes = 2000000\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "corpus")
    project = project_for(root)
    report = project.indexer.run()
    check_report(report.to_json(), expected)
    assert set(DEEP) <= set(report.errors)  # partly parsed, each with its reason; run goes on
    assert "nested too deeply" in report.errors["deep/elifs.py"]
    assert not {"latin_declared.py", "bom.py"} & set(report.graph["unparsed"])
    edges = {(e["src"], e["dst"]) for e in project.store.live_edges()}
    assert ("latin_declared.cafe_menu", "latin_declared.helper_for_menu") in edges
    assert ("bom.bom_entry", "bom.bom_helper") in edges
    longest = max(len(r["document"]) for r in project.store.rows("true"))
    assert longest < 2 * MAX_LINE_CHARS
    notes = project.searcher.search("flux capacitor calibration", 1)
    assert notes[0].path == "notes.txt"


def test_deep_nesting_is_one_partial_file_not_a_failed_dry_run(tmp_path, project_for):
    """A dry run parses too (the real run over the same files is in the git corpus above)."""
    root = write_files(tmp_path / "deep", {**DEEP, "fine.py": "def fine():\n    return 1\n"})
    report = project_for(root).indexer.run(dry_run=True)
    assert sorted(report.indexed) == sorted([*DEEP, "fine.py"])
