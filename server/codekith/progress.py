"""Progress of an index run phase by phase, so that no bar reads 100% while work is left.

Each phase counts its own units (files, chunks) against its own total and estimates its own
remaining time from its own rate; `overall` folds the phases into one rising percentage for
protocols that want a single number ($/progress percentage, MCP progress). The phases of a
run come in this order; a run skips those it has no work for.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

# phase -> (what the user reads, its unit, its share of a typical first index)
PHASES: dict[str, tuple[str, str, float]] = {
    "scan": ("scanning", "files", 0.04),
    "chunk": ("chunking", "files", 0.08),
    "embed": ("embedding", "chunks", 0.70),
    "write": ("writing", "chunks", 0.08),
    "graph": ("call graph", "passes", 0.10),  # a file per resolution round, parse, resolve
    "jedi": ("call graph (Jedi)", "files", 0.0),  # its own pass, after the index is usable
}
EMIT_EVERY_S = 0.2  # a phase reports at most this often (and always its first and last step)
ETA_AFTER_S = 1.0  # no estimate before a phase has run this long


@dataclass(frozen=True)
class Step:
    phase: str
    done: int
    total: int
    detail: str = ""
    eta_s: float | None = None

    @property
    def title(self) -> str:
        return PHASES[self.phase][0]

    def message(self) -> str:
        """`embedding 512/2400 chunks · 1:20 left · src/app.py`"""
        parts = [f"{self.title} {self.done}/{self.total} {PHASES[self.phase][1]}"]
        if self.eta_s is not None:
            parts.append(f"{format_duration(self.eta_s)} left")
        if self.detail:
            parts.append(self.detail)
        return " · ".join(parts)

    def overall(self) -> float:
        """0..1 over the run's phases (Jedi, a pass of its own, counts alone)."""
        if self.phase == "jedi":
            return self.done / self.total if self.total else 0.0
        before = 0.0
        for phase, (_, _, share) in PHASES.items():
            if phase == self.phase:
                fraction = self.done / self.total if self.total else 0.0
                return min(1.0, before + share * fraction)
            before += share
        return 1.0


Progress = Callable[[Step], None]
Counts = Callable[[int, int, str], None]  # (done, total, detail): a phase's raw counts


class Tally:
    """A phase's units done against the units known so far, for work that grows as it goes
    (the call graph runs resolution rounds until they agree): `expect` adds to the total,
    and the total stays above what is done until `finish`, so no step reads 100% early."""

    def __init__(self, report: Counts | None = None) -> None:
        self._report = report
        self.done = 0
        self.total = 0

    def expect(self, units: int) -> None:
        """More (or, negative, fewer) units ahead."""
        self.total += units

    def step(self, detail: str = "") -> None:
        self.done += 1
        if self._report is not None:
            self._report(self.done, max(self.total, self.done + 1), detail)

    def start(self) -> None:
        if self._report is not None:
            self._report(0, max(self.total, 1), "")

    def finish(self) -> None:
        self.total = self.done
        if self._report is not None:
            self._report(self.done, self.done, "")


def format_duration(seconds: float) -> str:
    hours, rest = divmod(round(seconds), 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class PhaseClock:
    """Turns (phase, done, total) counts into Steps with each phase's own ETA, and thins
    them out: a phase reports at most every EMIT_EVERY_S, plus its first and last step."""

    def __init__(self, sink: Progress | None, clock: Callable[[], float] = time.monotonic):
        self._sink = sink
        self._clock = clock
        self._started: dict[str, tuple[float, int]] = {}
        self._last_emit: dict[str, float] = {}

    def __call__(self, phase: str, done: int, total: int, detail: str = "") -> None:
        if self._sink is None:
            return
        now = self._clock()
        started_at, done_at_start = self._started.setdefault(phase, (now, done))
        last = self._last_emit.get(phase)
        if last is not None and done < total and now - last < EMIT_EVERY_S:
            return
        self._last_emit[phase] = now
        elapsed, progressed = now - started_at, done - done_at_start
        eta = None
        if elapsed >= ETA_AFTER_S and progressed > 0 and total > done:
            eta = (total - done) * elapsed / progressed
        self._sink(Step(phase, done, total, detail, eta))
