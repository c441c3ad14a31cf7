"""Small statistics shared by the benchmark scripts (run them from the repository root)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank q-th percentile: a value that was actually measured."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def bootstrap_interval(
    statistic: Callable[[np.ndarray], float],
    samples: int,
    resamples: int = 2000,
    level: float = 0.95,
    seed: int = 13,
) -> tuple[float, float]:
    """A percentile bootstrap interval of `statistic`, which takes the indexes of one
    resample of the `samples` cases (paired: both sides of a difference use the same
    cases). Seeded, so a table prints the same interval every time."""
    rng = np.random.default_rng(seed)
    return _central([statistic(rng.integers(0, samples, samples)) for _ in range(resamples)], level)


def stratified_interval(
    groups: list[np.ndarray],
    resamples: int = 2000,
    level: float = 0.95,
    seed: int = 13,
) -> tuple[float, float]:
    """A percentile bootstrap interval of the mean of group means (each group a repository's
    per-case values, resampled within itself): every repository counts once, however many
    cases it has, and the interval still reflects which cases were drawn."""
    rng = np.random.default_rng(seed)
    return _central(
        [
            float(np.mean([g[rng.integers(0, len(g), len(g))].mean() for g in groups]))
            for _ in range(resamples)
        ],
        level,
    )


def _central(values: list[float], level: float) -> tuple[float, float]:
    """The bounds of the central `level` share of the resampled values."""
    ordered, count = sorted(values), len(values)
    low = ordered[int((1 - level) / 2 * count)]
    return low, ordered[min(count - 1, int((1 + level) / 2 * count))]
