"""How often a question's opening says that its answer is a test, on data no quality
repository is part of: the docstrings of the installed packages.

Every function, method and class docstring under site-packages whose first sentence has
at least MIN_WORDS words is labelled by where it lives (`search.is_test_path` of its path
inside site-packages: `pkg/tests/test_x.py` is a test's). For each opening rule it prints
how many first sentences match and the share of them that are tests', pooled over distinct
(package, sentence) pairs, and the median over packages with at least 5 matches. Packages
that are quality repositories (scripts/quality_repos.json) are left out.

    python scripts/eval_test_intent.py [--site-packages DIR]
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import site
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from codekith.search import is_test_path
from eval_docstrings import MIN_WORDS, first_sentence

RULES = {
    "Ensure/Verify/Check that/Make sure/Assert": re.compile(
        r"^(ensure|verify|check that|make sure|assert)\b", re.IGNORECASE
    ),
    "Test/Tests/Testing (for reference)": re.compile(r"^test(s|ing)?\b", re.IGNORECASE),
}
REPOS = Path(__file__).with_name("quality_repos.json")


def first_sentences(site_packages: Path, skipped: set[str]) -> Iterator[tuple[str, str, bool]]:
    """(package, first sentence, whether a test's) of every docstring worth a question."""
    for path in sorted(site_packages.rglob("*.py")):
        relative = path.relative_to(site_packages).as_posix()
        package = relative.split("/", 1)[0].removesuffix(".py")
        if package.lower() in skipped:
            continue
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError, OSError):
            continue
        test = is_test_path(relative)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                docstring = ast.get_docstring(node)
                sentence = first_sentence(docstring) if docstring else ""
                if len(sentence.split()) >= MIN_WORDS:
                    yield package, sentence, test


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site-packages", type=Path, default=Path(site.getsitepackages()[0]))
    args = parser.parse_args(argv)
    repos = json.loads(REPOS.read_text())["repos"]
    skipped = {r["name"] for r in repos} | {r["source"].split("/")[1] for r in repos}
    labelled = set(first_sentences(args.site_packages, {s.lower() for s in skipped}))
    tests = sum(test for _, _, test in labelled)
    print(f"{len(labelled)} distinct first sentences, {tests} of them tests'")
    for name, rule in RULES.items():
        matched = [(package, test) for package, sentence, test in labelled if rule.match(sentence)]
        by_package: dict[str, list[bool]] = defaultdict(list)
        for package, test in matched:
            by_package[package].append(test)
        shares = [sum(v) / len(v) for v in by_package.values() if len(v) >= 5]
        share = sum(test for _, test in matched) / (len(matched) or 1)
        median = f"{statistics.median(shares):.2f}" if shares else "-"
        print(
            f"{name}: {len(matched)} match in {len(by_package)} packages, {share:.1%} tests';"
            f" median over the {len(shares)} packages with >= 5: {median}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
