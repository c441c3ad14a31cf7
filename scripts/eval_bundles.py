"""Variants of a question's bundle (`related QUESTION`), each against the shipped one.

`quality_table.question_bundles` measures, around the real `Related.bundle`, the share of
docstring questions whose definition the bundle holds and the share of a fix commit's
files its subject's bundle touches (what an assistant asking for context gets). The
variants, each with its rule written down before any figure of its run:

`probe` (stop 46). A bundle's seeds come from search, which ranks tests by the test probe
(`Searcher.test_share`), but a test among the seeds' neighbours gives up
`related.SIDE_SHARE` (0.4) whatever the question says: on structlog, whose questions are
mostly its tests' docstrings, a question's bundle held the answer for .620 of them where
plain search of as many items held it for .680. Here a test (and a vendored copy: the two
share the constant) in the expansion gives up SIDE_SHARE x (1 - p), p the shipped test
probe's likelihood: no constant is chosen. Rule (commit 39f6e88; a one-off check had shown
structlog .620 -> .645 and flask equal): taken only if the tuning repositories' mean of
docstring + fix bundle figures gains at least .005, the held-out mean gains at least 0,
and no repository of the fourteen loses more than .02 on either figure. Not taken: tuning
+.005, held out -.001 (tenacity's fix bundles .865 -> .846).

`code-seeds` (stop 47). A question's seeds and its other matches come from a search of
code only (kind `code`): documentation sections neither seed a bundle nor take its
places, as search lists them apart for assistants since stop 47 ("Documentation apart",
docs/DESIGN.md). Code targets (a position, a qualified name) are unchanged. No constant.
Rule, written down before any bundle figure of it was seen: the same as `probe`'s (tuning
mean of docstring + fix gains at least .005, held-out mean at least 0, no repository of
the fourteen loses more than .02 on either figure). Taken: tuning +.128, held out +.082,
nothing broken (flask's fix bundles .532 -> .657, click's .685 -> .820, ky's docstring
.826 -> .957; falcon's docstring -.005 the largest loss). `related.CODE_ONLY` ships it
and the variant is gone from here (it would compare the shipped bundle with itself); run
this script at commit 4a80f3d to measure it again (docs/DESIGN.md has the table).

`code-seeds-first` (stop 64). A question's bundle seeds with its four best hits of code,
tests included: where the test probe thinks the question reads like a test's docstring,
tests keep most of their score and take seed places (jinja's "how does the template cache
invalidate when the source changes": three tests and `TemplateNotFound`, so the bundle is
the tests' callees; 17 of flask's first 60 bug-report bundles have a test seed, whose fix
changed none). Here the seeds are the first four hits that are not tests, and every other
hit, the displaced tests first where they were, stays a match (the next four kept whatever
their score, as now), unless the question wants tests. No constant. Rule, written down
before any figure of it: the same as `probe`'s (tuning mean of docstring + fix gains at
least .005, held-out mean at least 0, no repository of the twenty loses more than .02 on
either figure). Not taken: on the tuning repositories flask's fix bundles .667 -> .657,
structlog's docstring .675 -> .665, axios equal (a test seed's callees are what a bug
report's fix changes); requests equal; the run was stopped there.

    python scripts/eval_bundles.py --variant probe [--repos ...]
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from codekith import related
from codekith.evaluation import load_cases
from codekith.question_probe import test_probe
from codekith.search import is_test_path, wants_tests
from eval_quality import Paths, add_bench_arguments, load_repos
from quality_table import question_bundles, side_answers

KINDS = ("docstring", "fix")
MIN_TUNING_GAIN = 0.005
MAX_LOSS = 0.02


@contextmanager
def bundle_share(searcher: Any) -> Iterator[None]:
    """Question bundles with tests giving up SIDE_SHARE x (1 - p) in their expansion."""
    original, flat, probe = related.Related.bundle, related.SIDE_SHARE, test_probe()
    if probe.query_side != searcher.query_id():
        raise SystemExit("the test probe was trained on another query side")

    def bundle(self: Any, target: str, *args: Any, **kwargs: Any) -> Any:
        p = probe.likelihood(searcher.query_vector(target), target)
        related.SIDE_SHARE = flat * (1 - p)
        try:
            return original(self, target, *args, **kwargs)
        finally:
            related.SIDE_SHARE = flat

    related.Related.bundle = bundle  # type: ignore[method-assign]
    try:
        yield
    finally:
        related.Related.bundle = original  # type: ignore[method-assign]


@contextmanager
def code_seeds_first(searcher: Any) -> Iterator[None]:
    """A question's seeds: its first SEEDS hits that are not tests; the rest are matches."""
    original = related.Related._seeds

    def seeds(self: Any, target: str, tests: bool) -> Any:
        found = original(self, target, tests)
        hits = [*found.rows, *found.matches]
        if found.code_target or wants_tests(target, tests):
            return found
        code = [row for row in hits if not is_test_path(row["path"])][: related.SEEDS]
        if not code:
            return found
        chosen = {row["id"] for row in code}
        found.rows, found.matches = code, [row for row in hits if row["id"] not in chosen]
        return found

    related.Related._seeds = seeds  # type: ignore[method-assign]
    try:
        yield
    finally:
        related.Related._seeds = original  # type: ignore[method-assign]


VARIANTS = {"probe": bundle_share, "code-seeds-first": code_seeds_first}


def figures(paths: Paths, variant: str) -> dict[str, dict[str, float]]:
    project = paths.project()
    is_side = side_answers(project.read_store, load_cases(paths.case_file("docstring")))
    before = question_bundles(project, paths, is_side)
    with VARIANTS[variant](project.searcher):
        after = question_bundles(project, paths, is_side)
    return {
        "before": {kind: before[kind]["related"] for kind in before},
        "after": {kind: after[kind]["related"] for kind in after},
        "search": {kind: before[kind]["search"] for kind in before},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_bench_arguments(parser)
    parser.add_argument("--variant", choices=tuple(VARIANTS), required=True)
    args = parser.parse_args(argv)
    repos = load_repos(args.repos)
    tables: dict[str, dict[str, dict[str, float]]] = {}
    print("question bundle holds the docstring answer / touches the fix's files: before -> after")
    for repo in repos:
        row = tables[repo["name"]] = figures(Paths(args.bench, repo["name"]), args.variant)
        cells = "   ".join(
            f"{kind} {row['before'][kind]:.3f} -> {row['after'][kind]:.3f}"
            f" (search {row['search'][kind]:.3f})"
            for kind in KINDS
            if kind in row["before"]
        )
        print(f"{repo['name']} ({repo['role']})  {cells}", flush=True)

    def gain(role_is_tuning: bool) -> float:
        names = [r["name"] for r in repos if (r["role"] == "tuning") == role_is_tuning]
        return statistics.fmean(
            sum(tables[n]["after"][k] - tables[n]["before"][k] for k in tables[n]["before"])
            for n in names
        )

    broken = [
        (name, kind, round(row["after"][kind] - row["before"][kind], 3))
        for name, row in tables.items()
        for kind in row["before"]
        if row["after"][kind] - row["before"][kind] < -MAX_LOSS
    ]
    tuning, held = gain(True), gain(False)
    taken = tuning >= MIN_TUNING_GAIN and held >= 0 and not broken
    print(
        {
            "tuning_gain": round(tuning, 4),
            "held_gain": round(held, 4),
            "broken": broken,
            "taken": taken,
        }
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
