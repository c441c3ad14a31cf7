"""Which files are tests, for the languages chunked since stop 52: the rule before and after.

Search lists tests apart from code (stop 48, `Answers.search(tests_apart=N)`), and `related`
ranks them lower unless asked, by path (`sidecode.TEST_PATH`). The rule was written for
Python, JavaScript and Go; it misses how other languages lay out tests: C#'s
`Src/Newtonsoft.Json.Tests/`, SwiftPM's `Tests/AlamofireTests/`, Kotlin Multiplatform's
`src/jvmTest/`, JUnit's `FooTest.java`, Scala's `FooSpec.scala`, RSpec's `foo_spec.rb`,
gtest's `foo_test.cc`. There, tests crowd the code list and the tests list stays empty.

This measures the rule taken at stop 53 (`sidecode.TEST_PATH`) against the one before it on
eval_languages.py's and eval_graph_languages.py's repositories (their doc-stripped
workspaces and definitions indexes, built beforehand by those scripts): the same index and
the same docstring cases (a removed doc comment's first sentence; its definition's file the
answer), searched as a user reads the answer (the list that holds the answer judged: code
hits, or the tests or documentation apart), once under each rule. The rule is read at query
time, so no index changes. It prints, per repository, how many code files each rule calls
tests, and docstring -> file MRR@10 under each, with the paired difference and its 95%
interval.

The rule for taking it, written down before its figures: pooled over the repositories
where some file changes class (each counts once, stratified interval), the mean change of
docstring -> file MRR@10 is >= 0, and no repository loses more than .02. The seventeen
repositories of the quality bench have no file that changes class under the new rule
(checked by this script: `--bench-check`), so their figures stand by construction.

    python scripts/eval_test_paths.py [--repos newtonsoft alamofire] [--bench-check]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from benchstats import bootstrap_interval, stratified_interval
from codekith import sidecode, store
from codekith.evaluation import Case
from codekith.languages import language_of
from eval_graph_languages import MORE
from eval_languages import REPOS, measure, prepare, reciprocal

# The rule until stop 53 ("today" below), and the one taken then (sidecode.TEST_PATH).
BEFORE = re.compile(
    r"(^|/)(tests?|testing|__tests__|spec|testdata|[\w.-]+-tests?)/"
    r"|(^|/)(test_[^/]*|[^/]+_test\.py|conftest\.py)$|_test\.go$|\.(test|spec)\.[cm]?[jt]sx?$"
)
CANDIDATE = sidecode.TEST_PATH
NOT_CODE = (None, "markdown", "rst", "yaml", "toml", "json")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@contextmanager
def test_rule(pattern: re.Pattern[str]) -> Iterator[None]:
    """Search and the store's SQL filter read `TEST_PATH` from these two modules."""
    saved = sidecode.TEST_PATH, store.TEST_PATH
    sidecode.TEST_PATH = store.TEST_PATH = pattern
    try:
        yield
    finally:
        sidecode.TEST_PATH, store.TEST_PATH = saved


def files_of(root: Path) -> list[str]:
    return [
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.relative_to(root).parts
    ]


def changed_class(paths: list[str]) -> list[str]:
    return [p for p in paths if bool(BEFORE.search(p)) != bool(CANDIDATE.search(p))]


def bench_check(bench: Path) -> int:
    """The quality bench's workspaces: a file that changes class would move their figures."""
    moved = 0
    for workspace in sorted((bench / "quality").glob("*/workspace")):
        changed = changed_class(files_of(workspace))
        moved += len(changed)
        print(f"{workspace.parent.name}: {len(changed)} files change class {changed[:3]}")
    return moved


def repository(root: Path, source: str, commit: str, language: str) -> dict[str, Any]:
    cases: list[Case] = prepare(root, source, commit, language)["docstring"]
    code = [p for p in files_of(root / "workspace") if language_of(p) not in NOT_CODE]
    ranks = {}
    for side, pattern in (("today", BEFORE), ("candidate", CANDIDATE)):
        with test_rule(pattern):
            ranks[side] = measure(root / "workspace", root / "definitions.db", {"d": cases})
    today, candidate = (reciprocal(ranks[s]["d"]["file"]) for s in ("today", "candidate"))
    gain = candidate - today
    low, high = bootstrap_interval(lambda at: float(gain[at].mean()), len(gain))
    return {
        "repo": root.name,
        "language": language,
        "code_files": len(code),
        "tests": {
            "today": sum(bool(BEFORE.search(p)) for p in code),
            "candidate": sum(bool(CANDIDATE.search(p)) for p in code),
        },
        "cases": len(cases),
        "mrr": {
            "today": round(float(today.mean()), 3),
            "candidate": round(float(candidate.mean()), 3),
        },
        "gain": [round(float(gain.mean()), 4), round(low, 4), round(high, 4)],
        "gains": gain.tolist(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, default=Path(os.environ.get("BENCH", "/work/bench")))
    parser.add_argument("--repos", nargs="*", help="names (all with a definitions index)")
    parser.add_argument("--bench-check", action="store_true", help="the quality bench only")
    args = parser.parse_args(argv)
    if args.bench_check:
        return 1 if bench_check(args.bench) else 0
    results = []
    for name, source, commit, language in (*REPOS, *MORE):
        root = args.bench / "languages" / name
        if (args.repos and name not in args.repos) or not (root / "definitions.db").exists():
            continue
        result = repository(root, source, commit, language)
        results.append(result)
        shown = {k: v for k, v in result.items() if k != "gains"}
        log(str(shown))
    moved = [r for r in results if r["tests"]["today"] != r["tests"]["candidate"]]
    for r in results:
        print(
            f"{r['repo']} ({r['language']}): tests {r['tests']['today']} -> "
            f"{r['tests']['candidate']} of {r['code_files']} code files; docstring -> file "
            f"MRR@10 {r['mrr']['today']:.3f} -> {r['mrr']['candidate']:.3f} "
            f"({r['gain'][0]:+.3f} [{r['gain'][1]:+.3f}, {r['gain'][2]:+.3f}], {r['cases']} cases)"
        )
    if moved:
        groups = [np.array(r["gains"]) for r in moved]
        low, high = stratified_interval(groups)
        mean = float(np.mean([g.mean() for g in groups]))
        worst = min(moved, key=lambda r: r["gain"][0])
        taken = mean >= 0 and worst["gain"][0] >= -0.02
        print(
            f"pooled over {len(moved)} repositories where files change class: {mean:+.4f} "
            f"[{low:+.4f}, {high:+.4f}]; worst {worst['repo']} {worst['gain'][0]:+.4f} -> "
            f"{'taken' if taken else 'not taken'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
