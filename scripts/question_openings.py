"""What a question's opening word says about its answer, learned on data no quality
repository is part of: the docstrings of the installed packages.

Every function, method and class docstring under site-packages whose first sentence has
at least MIN_WORDS words counts once per (package, sentence). Packages that are quality
repositories (scripts/quality_repos.json) are left out.

`tests`: for each opening rule, how many first sentences match and the share of them that
are tests' (`sidecode.is_test_path` of the file inside site-packages), pooled, and the
median over packages with at least 5 matches.

`kinds`: the share of classes among the definitions whose first sentence opens with a
word, for every word opening at least MIN_COUNT of the packages' own (non-test)
sentences, smoothed toward the overall share; written to codekith/data/class_openings.json,
which `search.class_lean` reads ("A ..." and "Represents ..." describe classes, "Return
..." functions). With `--go GIT_DIR ...` (mirrors of Go repositories, none a quality
repository), Go's own table too, from their doc comments with the definition's name taken
off as the quality cases take it ("Context is ..." -> "is ..."), types counting as classes;
with `--js GIT_DIR ...`, one for JavaScript and TypeScript from their doc comments.

    python scripts/question_openings.py tests [--site-packages DIR]
    python scripts/question_openings.py kinds [--site-packages DIR] [--go GIT_DIR ...]
        [--js GIT_DIR ...]
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

from codekith.chunking import chunk_file
from codekith.languages import language_of
from codekith.search import CLASS_OPENINGS, opening_word
from codekith.sidecode import is_test_path
from eval_docstrings import MIN_WORDS, first_sentence
from eval_quality import load_repos
from quality_cases import git, without_go_name

RULES = {
    "Ensure/Verify/Check that/Make sure/Assert": re.compile(
        r"^(ensure|verify|check that|make sure|assert)\b", re.IGNORECASE
    ),
    "Test/Tests/Testing (for reference)": re.compile(r"^test(s|ing)?\b", re.IGNORECASE),
}
MIN_COUNT = 30  # sentences a word must open to get a share of its own
SMOOTHING = 10  # pseudo-sentences at the overall share added to each word's
Sentence = tuple[str, str, bool, bool]  # package, first sentence, a test's, a class's


def first_sentences(site_packages: Path) -> set[Sentence]:
    repos = load_repos(None)
    names = {r["name"] for r in repos} | {r["source"].split("/")[1] for r in repos}
    return set(_sentences(site_packages, {name.lower() for name in names}))


def _sentences(site_packages: Path, skipped: set[str]) -> Iterator[Sentence]:
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
                    yield package, sentence, test, isinstance(node, ast.ClassDef)


def report_tests(labelled: set[Sentence]) -> None:
    tests = sum(test for _, _, test, _ in labelled)
    print(f"{len(labelled)} distinct first sentences, {tests} of them tests'")
    for name, rule in RULES.items():
        matched = [(package, test) for package, text, test, _ in labelled if rule.match(text)]
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


def mirror_sentences(
    git_dir: Path, languages: tuple[str, ...], tests: bool = False
) -> Iterator[Sentence]:
    """(repository, first sentence, a test's, whether a class's or type's) of every
    documented definition in the mirror's HEAD files of these languages, built copies (and
    tests, unless `tests`) left out. A Go doc comment's opening name is taken off, as the
    quality cases take it."""
    listed = git(git_dir, "ls-tree", "-r", "--name-only", "HEAD").splitlines()
    for rel in listed:
        language = language_of(rel)
        skipped = any(f"/{part}/" in f"/{rel}" for part in ("vendor", "dist", "node_modules"))
        test = is_test_path(rel)
        if language not in languages or (test and not tests) or skipped:
            continue
        source = git(git_dir, "show", f"HEAD:{rel}")
        for chunk in chunk_file(rel, language, source).chunks:
            if chunk.kind not in ("function", "method", "class") or not chunk.docstring:
                continue
            sentence = without_go_name(language, first_sentence(chunk.docstring), chunk.symbol)
            if len(sentence.split()) >= MIN_WORDS:
                yield git_dir.parent.name, sentence, test, chunk.kind == "class"


def class_shares(labelled: set[Sentence]) -> dict[str, object]:
    """{"overall": share of classes, "words": {opening word: smoothed share}}."""
    own = [(opening_word(text), is_class) for _, text, test, is_class in labelled if not test]
    overall = sum(is_class for _, is_class in own) / len(own)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for word, is_class in own:
        counts[word][is_class] += 1
    words = {
        word: round((classes + SMOOTHING * overall) / (others + classes + SMOOTHING), 3)
        for word, (others, classes) in sorted(counts.items())
        if word and others + classes >= MIN_COUNT
    }
    print(f"{len(own)} sentences of the corpus's own code, {overall:.3f} of them classes';")
    print(f"{len(words)} opening words with at least {MIN_COUNT}")
    return {"overall": round(overall, 3), "words": words}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", choices=("tests", "kinds"))
    parser.add_argument("--site-packages", type=Path, default=Path(site.getsitepackages()[0]))
    parser.add_argument("--go", type=Path, nargs="*", default=[], help="kinds: Go mirrors")
    parser.add_argument("--js", type=Path, nargs="*", default=[], help="kinds: JS/TS mirrors")
    args = parser.parse_args(argv)
    labelled = first_sentences(args.site_packages)
    if args.report == "tests":
        report_tests(labelled)
        return 0
    tables = {"python": class_shares(labelled)}
    for languages, mirrors in ((("go",), args.go), (("javascript", "typescript"), args.js)):
        if mirrors:
            table = class_shares({s for m in mirrors for s in mirror_sentences(m, languages)})
            tables.update(dict.fromkeys(languages, table))
    CLASS_OPENINGS.write_text(json.dumps(tables, indent=0) + "\n")
    print(f"wrote {CLASS_OPENINGS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
