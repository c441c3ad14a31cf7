"""Small statistics shared by the benchmark scripts (run them from the repository root)."""

from __future__ import annotations


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank q-th percentile: a value that was actually measured."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]
