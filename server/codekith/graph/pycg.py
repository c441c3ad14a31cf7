"""Export call edges in PyCG's "simple JSON" so the graph can be scored against its benchmark."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from codekith.graph.model import Edge


def to_pycg(edges: Iterable[Edge], known_qualnames: Iterable[str] = ()) -> dict[str, list[str]]:
    """{"caller": ["callee", ...]} over call edges, sorted.

    PyCG lists every function and module it saw as a key, callees or not; `known_qualnames`
    supplies those that take part in no edge. Callees become keys too, as in PyCG.
    """
    graph: dict[str, set[str]] = {name: set() for name in known_qualnames}
    for edge in edges:
        if edge.kind != "call":
            continue
        graph.setdefault(edge.src, set()).add(edge.dst)
        graph.setdefault(edge.dst, set())
    return {caller: sorted(callees) for caller, callees in sorted(graph.items())}


EdgePairs = set[tuple[str, str]]


def edge_pairs(graph: dict[str, list[str]]) -> EdgePairs:
    return {(caller, callee) for caller, callees in graph.items() for callee in callees}


@dataclass
class Score:
    """Precision and recall of produced caller -> callee pairs against expected ones."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    missed: list[str] = field(default_factory=list)
    spurious: list[str] = field(default_factory=list)

    def add(self, case: str, expected: EdgePairs, produced: EdgePairs) -> None:
        self.tp += len(expected & produced)
        self.fp += len(produced - expected)
        self.fn += len(expected - produced)
        self.missed += [f"{case}: {a} -> {b}" for a, b in sorted(expected - produced)]
        self.spurious += [f"{case}: {a} -> {b}" for a, b in sorted(produced - expected)]

    def merge(self, other: Score) -> None:
        self.tp, self.fp, self.fn = self.tp + other.tp, self.fp + other.fp, self.fn + other.fn
        self.missed += other.missed
        self.spurious += other.spurious

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
