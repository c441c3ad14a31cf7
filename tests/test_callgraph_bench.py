"""The labeled call-graph benchmark of tests/callgraph_bench: precision and recall per language.

The expected graphs were written by reading the programs (see the benchmark's README); the
targets are the issue's: precision >= 0.95 everywhere, recall >= 0.80 for TypeScript,
JavaScript and Go, >= 0.70 for Rust and Java.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codekith.graph import graph_for_root, in_graph
from codekith.graph.pycg import Score, edge_pairs

BENCH = Path(__file__).parent / "callgraph_bench"
TARGETS = {
    "typescript": 0.80,
    "javascript": 0.80,
    "go": 0.80,
    "rust": 0.70,
    "java": 0.70,
    "kotlin": 0.70,
    "c": 0.70,
    "csharp": 0.70,
    "swift": 0.70,
    "ruby": 0.70,
    "php": 0.70,
    "lua": 0.70,
    "scala": 0.70,
    "cpp": 0.70,
    "shell": 0.70,
}


def case_files(case: Path) -> list[str]:
    listed = (p.relative_to(case).as_posix() for p in case.rglob("*") if p.is_file())
    return sorted(p for p in listed if in_graph(case, p))


def score_language(language: str) -> tuple[Score, int]:
    score = Score()
    cases = sorted(p.parent for p in (BENCH / language).glob("*/callgraph.json"))
    for case in cases:
        expected = edge_pairs(json.loads((case / "callgraph.json").read_text()))
        produced = edge_pairs(graph_for_root(case, case_files(case), use_jedi=False))
        score.add(case.name, expected, produced)
    return score, len(cases)


@pytest.mark.parametrize("language", sorted(TARGETS))
def test_precision_and_recall(language: str) -> None:
    score, cases = score_language(language)
    report = (
        f"{language}: {cases} cases, precision {score.precision:.3f}, recall {score.recall:.3f}"
        f" (tp {score.tp}, fp {score.fp}, fn {score.fn})\n  missed: "
        + "\n    ".join(score.missed)
        + "\n  spurious: "
        + "\n    ".join(score.spurious)
    )
    print(report)
    assert cases >= 6 and score.tp + score.fn >= 40, "the benchmark is too small to mean much"
    assert score.precision >= 0.95, report
    assert score.recall >= TARGETS[language], report
