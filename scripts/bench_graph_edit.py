"""What one edit costs the call graph of a tree-sitter-language repository.

A user saves one file; the long-lived graph builder (the language server's, the warm
daemon's) brings its edges up to date. This copies a workspace, builds the graph once (cold),
then, for a seeded sample of files, makes an edit, updates, takes the edit back and updates
again. Two kinds of edit:

* comment: a comment line at the blank line nearest the middle of the file (every edge
  below it moves a line);
* call: the indented call statement nearest the middle of the file written twice (a body
  changes: one more call, one more binding where the call is assigned).

It prints the cold build time and, per kind, the median and 90th-percentile update time
and how many files each update resolved again. `--check` also compares every update's
edges with a cold build of the same state (slow: one cold build per update).

    python scripts/bench_graph_edit.py /work/bench/languages/newtonsoft/workspace [--edits 20]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from codekith.graph.builder import GraphBuilder
from codekith.graph.index import config_fingerprint, split_python
from codekith.graph.model import Edge
from codekith.graph.syntax_engine import SyntaxIndex
from codekith.languages import language_of

COMMENTS = {"ruby": "#", "lua": "--"}  # every other tree-sitter language writes //


def graph_files(root: Path) -> dict[str, str]:
    """The tree-sitter-language files of the workspace and their content hashes."""
    listed = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    _, others = split_python(root, listed)
    return {p: hashlib.sha1((root / p).read_bytes()).hexdigest() for p in others}


def with_comment(text: str, language: str) -> str | None:
    """The text with a comment line at the blank line nearest its middle (None: no blank
    line, so no edit that surely keeps the file's syntax)."""
    lines = text.split("\n")
    blanks = [i for i, line in enumerate(lines) if not line.strip()]
    if not blanks:
        return None
    middle = min(blanks, key=lambda i: abs(i - len(lines) // 2))
    lines.insert(middle, f"{COMMENTS.get(language, '//')} edited by bench_graph_edit")
    return "\n".join(lines)


def with_call_twice(text: str, language: str) -> str | None:
    """The text with the indented call statement nearest its middle written twice (None:
    no such line)."""
    lines = text.split("\n")
    calls = [i for i, line in enumerate(lines) if CALL.match(line)]
    if not calls:
        return None
    middle = min(calls, key=lambda i: abs(i - len(lines) // 2))
    lines.insert(middle, lines[middle])
    return "\n".join(lines)


EDITS = {"comment": with_comment, "call": with_call_twice}
CALL = re.compile(  # `    x = foo.bar(a);`, `  foo(a)`: not a declaration or a control line
    r"^\s++(?!(?:if|for|while|return|switch|catch|else|case|def|fun|func|function|fn|"
    r"public|private|protected|static|override|local|elseif)\b)[\w.$@:>=<\s-]*\w\(.*\);?\s*$"
)


def edges_of(builder: GraphBuilder) -> set[Edge]:
    return {edge for edges in builder.edges.values() for edge, _ in edges}


def cold_edges(root: Path, files: dict[str, str]) -> set[Edge]:
    index = SyntaxIndex(root, sorted(files))
    return {edge for path in index.paths() for edge in index.resolve(path)}


def update(builder: GraphBuilder, root: Path) -> tuple[float, int]:
    files = graph_files(root)
    started = time.perf_counter()
    result = builder.update(files, config_fingerprint(root, files))
    return time.perf_counter() - started, result.syntax_resolved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--check", action="store_true", help="compare with cold builds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "workspace"
        shutil.copytree(args.workspace, root)
        files = graph_files(root)
        builder = GraphBuilder(root)
        started = time.perf_counter()
        builder.update(files, config_fingerprint(root, files))
        cold = time.perf_counter() - started
        lines = sum((root / p).read_text(errors="replace").count("\n") for p in files)
        print(f"{args.workspace}: {len(files)} files, {lines:,} lines, ", end="")
        print(f"{len(edges_of(builder)):,} edges; cold build {cold:.2f} s")
        chosen = random.Random(args.seed).sample(sorted(files), min(args.edits, len(files)))
        for kind, edit in EDITS.items():
            measure(builder, root, chosen, kind, edit, args.check)


def measure(
    builder: GraphBuilder,
    root: Path,
    chosen: list[str],
    kind: str,
    edit: Callable[[str, str], str | None],
    check: bool,
) -> None:
    seconds: list[float] = []
    resolved: list[int] = []
    wrong = 0
    for path in chosen:
        original = (root / path).read_text(errors="replace")
        edited = edit(original, language_of(path) or "")
        if edited is None:
            continue
        for text in (edited, original):
            (root / path).write_text(text)
            took, count = update(builder, root)
            seconds.append(took)
            resolved.append(count)
            if check and edges_of(builder) != cold_edges(root, graph_files(root)):
                wrong += 1
                print(f"  differs from a cold build after editing {path}")
    if not seconds:
        print(f"{kind}: no file to edit")
        return
    p90 = sorted(seconds)[int(0.9 * (len(seconds) - 1))]
    print(f"{kind}: {len(seconds)} updates (an edit, then its undo, in {len(seconds) // 2} files)")
    print(f"  update median {statistics.median(seconds):.3f} s, p90 {p90:.3f} s, ", end="")
    print(f"max {max(seconds):.3f} s")
    print(f"  files resolved again: median {statistics.median(resolved):.0f}, ", end="")
    print(f"max {max(resolved)} of {len(graph_files(root))}")
    if check:
        print(f"  updates that differ from a cold build: {wrong}")


if __name__ == "__main__":
    main()
