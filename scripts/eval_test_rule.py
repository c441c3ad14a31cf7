"""What the test rule trades, per repository: the figures an owner's choice rests on.

Hybrid search ranks tests below the project's own code unless the question says "test" or
the asker sets the tests flag (`search.wants_tests`): the issue asks for it on questions
about behaviour, and bug reports gain from it. Docstring cases whose answer is a test pay
for it. This prints, with the default model and settings:

- docstring -> definition MRR@10: hybrid by default, hybrid with the tests flag on every
  question (tests never give up their share), hybrid with the flag on just the cases whose
  answer is a test (an asker who says when they look for one), and vector mode (a single
  list keeps its order, tests included);
- fix -> files MRR@10 (a fixing commit's subject, the source files it changed), hybrid by
  default and with the flag on every question.

    python scripts/eval_test_rule.py                 # every repository
    python scripts/eval_test_rule.py --repos requests structlog
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from codekith.evaluation import Case, evaluate, load_cases
from codekith.search import Hit
from eval_quality import Paths, add_bench_arguments, load_repos
from quality_table import FILE_DEPTH, file_summary, files_of, side_answers

COLUMNS = ("hybrid", "flag on all", "flag on tests' cases", "vector", "fix", "fix, flag on all")


def fix_files(search: Callable[..., list[Hit]], tests: bool) -> Callable[[Case], list[str]]:
    """A fix case's files in the order the search's best chunks name them."""
    return lambda case: files_of(search(case.query, FILE_DEPTH, tests=tests))


def figures(paths: Paths) -> dict[str, float]:
    project = paths.project()
    search = project.searcher.search
    questions = load_cases(paths.case_file("docstring"))
    is_test = side_answers(project.read_store, questions)
    runners: dict[str, Callable[[Case], list[Hit]]] = {
        "hybrid": lambda c: search(c.query, 10),
        "flag on all": lambda c: search(c.query, 10, tests=True),
        "flag on tests' cases": lambda c: search(c.query, 10, tests=is_test(c)),
        "vector": lambda c: search(c.query, 10, mode="vector"),
    }
    result = {name: evaluate(questions, run)["summary"]["mrr@10"] for name, run in runners.items()}
    if paths.case_file("fix").exists():
        fixes = load_cases(paths.case_file("fix"))
        for name, tests in (("fix", False), ("fix, flag on all", True)):
            result[name] = file_summary(fixes, fix_files(search, tests))["mrr@10"]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_bench_arguments(parser)
    args = parser.parse_args(argv)
    print(f"{'repository':<22}" + "".join(f"{c:>22}" for c in COLUMNS))
    for repo in load_repos(args.repos):
        row = figures(Paths(args.bench, repo["name"]))
        cells = "".join(f"{row[c]:>22.3f}" if c in row else f"{'-':>22}" for c in COLUMNS)
        print(f"{repo['name'] + ' (' + repo['role'] + ')':<22}{cells}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
