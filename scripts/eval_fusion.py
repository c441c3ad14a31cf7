"""Offline ranking experiments: each case's search replayed through the real search code.

`dump` runs codekith's hybrid search on every docstring, identifier and fix case of the
quality repositories (scripts/eval_quality.py builds them and their indexes) and saves what
the search read from the index and the model: the vector and full-text lists, the name
lookups, stored vectors and name phrases as their cosines to the question
(BENCH/quality/NAME/replay.pkl, named in it by the model). `Searcher.search` itself then runs
on those records (`ReplayStore`, `ReplaySearcher`: only the reads are stood in for), so a
changed constant of codekith.search (VECTOR_WEIGHT, NAME_WEIGHT, SIDE_SHARE, ...) ranks
exactly as a live search with it would, in seconds instead of a table's minutes. A constant
that reads deeper lists than the dump (CANDIDATE_DEPTH above 50) cannot be replayed.

    python scripts/eval_fusion.py dump [--repos flask ...]
    python scripts/eval_fusion.py check          # the replay ranks as the live search did
    python scripts/eval_fusion.py grid           # fusion weights: tuning repositories choose
    python scripts/eval_fusion.py grid --vary SIDE_SHARE=0.1,0.2,0.3 --vary MODULE_SHARE=0.1,0.2

`grid` scores points (by default vector weight x name weight) by the tuning repositories'
docstring MRR@10 plus fix -> files MRR@10 and prints every repository's figures for the best
ones: a point is only worth a live table when it holds on the held-out repositories too.
"""

from __future__ import annotations

import argparse
import itertools
import pickle
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from codekith import search
from codekith.evaluation import Case, first_rank, load_cases
from codekith.search import Hit, Searcher
from codekith.store import NO_FILTERS
from codekith.template import name_phrase
from eval_quality import Paths, add_bench_arguments, load_repos
from quality_table import FILE_DEPTH, file_summary, files_of

KINDS = {"docstring": 10, "identifier": 10, "fix": FILE_DEPTH}  # each kind's k, as the table
UNIT = np.ones(1, dtype=np.float32)  # the question, once cosines stand for vectors
Record = dict[str, Any]


class RecordingStore:
    """The real store, noting what one search reads (`record`, reset per search). A replay
    answers whatever filters it is asked with: records are replayed with the search's own."""

    def __init__(self, store: Any):
        self.store = store
        self.record: Record = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def vector_search(self, vector: np.ndarray, k: int, filters: Any = None) -> list[Record]:
        rows = self.store.vector_search(vector, k, filters or NO_FILTERS)
        self.record["vector"] = [_slim(row) for row in rows]
        return rows

    def text_search(
        self, text: str, k: int, filters: Any = None, vectors: bool = False
    ) -> list[Record]:
        """The rows without their vectors, whatever `vectors` asks: the search then reads
        the ones it needs through `vectors_of`, which records them."""
        rows = self.store.text_search(text, k, filters or NO_FILTERS)
        self.record["text"] = [_slim(row) for row in rows]
        return rows

    def chunks_named(self, names: Iterable[str], filters: Any = None, limit: int = 20) -> Any:
        names = tuple(names)
        rows = self.store.chunks_named(names, filters or NO_FILTERS, limit=limit)
        self.record.setdefault("named", {})[names] = [_slim(row) for row in rows]
        return rows

    def symbols_containing(self, words: Sequence[str], filters: Any = None) -> Any:
        rows = self.store.symbols_containing(words, filters or NO_FILTERS)
        self.record.setdefault("containing", {})[tuple(words)] = [_slim(row) for row in rows]
        return rows

    def vectors_of(self, ids: Iterable[str]) -> dict[str, np.ndarray]:
        found = self.store.vectors_of(ids)
        self.record.setdefault("stored", {}).update(found)
        return found

    def feedback(self) -> list[Record]:
        return []  # votes are not replayed: a quality index has none


class ReplayStore:
    """Answers one search's reads from its record (cosines in place of vectors)."""

    def __init__(self) -> None:
        self.record: Record = {}

    def vector_search(self, vector: np.ndarray, k: int, filters: Any = None) -> list[Record]:
        return self.record["vector"][:k]

    def text_search(
        self, text: str, k: int, filters: Any = None, vectors: bool = False
    ) -> list[Record]:
        return self.record["text"][:k]

    def chunks_named(self, names: Iterable[str], filters: Any = None, limit: int = 20) -> Any:
        return self.record["named"][tuple(names)][:limit]

    def symbols_containing(self, words: Sequence[str], filters: Any = None) -> Any:
        return self.record["containing"][tuple(words)]

    def vectors_of(self, ids: Iterable[str]) -> dict[str, np.ndarray]:
        stored = self.record["stored"]
        return {i: np.array([stored[i]], dtype=np.float32) for i in ids if i in stored}

    def feedback(self) -> list[Record]:
        return []


class ReplaySearcher(Searcher):
    """The real search over a ReplayStore: the question is the unit vector and every vector
    it is compared with is its recorded cosine, so each product gives the recorded cosine."""

    def __init__(self, store: ReplayStore):
        super().__init__(store, lambda: None)  # type: ignore[arg-type, return-value]
        self._query_vectors = lambda text: UNIT  # type: ignore[assignment]
        self.replay = store

    def name_vectors(self, phrases: list[str]) -> np.ndarray:
        names = self.replay.record["names"]
        return np.array([[names[p]] for p in phrases], dtype=np.float32)


def _rows(record: Record) -> list[Record]:
    """Every row one search read."""
    lookups = [*record.get("named", {}).values(), *record.get("containing", {}).values()]
    return [
        *record.get("vector", []),
        *record.get("text", []),
        *(r for rows in lookups for r in rows),
    ]


def _slim(row: Record) -> Record:
    """What the search and a hit read of a row (its document only as far as a hit shows it)."""
    kept = {k: v for k, v in row.items() if k not in ("vector", "search_text", "document")}
    return {**kept, "document": ""}


def dump(paths: Paths, model: str) -> dict[str, Any]:
    project = paths.project(model)
    recording = RecordingStore(project.read_store)
    searcher = Searcher(recording, project.searcher.embedder)  # type: ignore[arg-type]
    cases: dict[str, list[Record]] = {}
    for kind, k in KINDS.items():
        cases[kind] = []
        for case in load_cases(paths.case_file(kind)):
            recording.record = {}
            hits = searcher.search(case.query, k)  # as the table runs hybrid
            asked = searcher.query_vector(case.query)
            record = recording.record
            record["stored"] = {i: float(v @ asked) for i, v in record.get("stored", {}).items()}
            # every candidate's name, not only those this search re-ranked: other constants
            # re-rank other ones (the searcher keeps the vectors it embedded for the search)
            phrases = sorted({name_phrase(r["symbol"] or "", r["qualname"]) for r in _rows(record)})
            similarity = searcher.name_vectors(phrases) @ asked if phrases else []
            record["names"] = dict(zip(phrases, map(float, similarity), strict=True))
            cases[kind].append({"case": case, "record": record, "live": [h.id for h in hits]})
    return {"model": model, "cases": cases}


def replay(searcher: ReplaySearcher, item: Record, k: int) -> list[Hit]:
    searcher.replay.record = item["record"]
    case: Case = item["case"]
    return searcher.search(case.query, k)


def measure(searcher: ReplaySearcher, data: dict[str, Any]) -> dict[str, float]:
    """Docstring MRR@10, identifier Recall@1 and fix -> files MRR@10 (as quality_table
    computes them) under the current constants of codekith.search."""
    ranks = {
        kind: [
            first_rank(replay(searcher, item, KINDS[kind]), item["case"].expected)
            for item in data["cases"][kind]
        ]
        for kind in ("docstring", "identifier")
    }
    fixes = {id(item["case"]): item for item in data["cases"]["fix"]}
    files = file_summary(
        [item["case"] for item in fixes.values()],
        lambda case: files_of(replay(searcher, fixes[id(case)], FILE_DEPTH)),
    )
    return {
        "docstring": _mean(1 / r if r and r <= 10 else 0.0 for r in ranks["docstring"]),
        "identifier": _mean(float(r == 1) for r in ranks["identifier"]),
        "fix": files["mrr@10"],
    }


def _mean(values: Iterable[float]) -> float:
    listed = list(values)
    return sum(listed) / (len(listed) or 1)


def check(searcher: ReplaySearcher, data: dict[str, Any]) -> tuple[int, int]:
    """(cases whose replayed ranking differs from the live one, cases)."""
    items = [(item, KINDS[kind]) for kind in KINDS for item in data["cases"][kind]]
    differ = sum(
        1 for item, k in items if [h.id for h in replay(searcher, item, k)] != item["live"]
    )
    return differ, len(items)


DEFAULT_GRID: dict[str, tuple[float, ...]] = {
    "VECTOR_WEIGHT": (0.6, 0.65, 0.7, 0.75, 0.8),
    "NAME_WEIGHT": (0.0, 0.05, 0.1, 0.15, 0.25),
}
Point = tuple[tuple[str, float], ...]


def parse_grid(specs: list[str]) -> dict[str, tuple[float, ...]]:
    """`NAME=V1,V2,...` per constant of codekith.search varied (DEFAULT_GRID without any)."""
    grid: dict[str, tuple[float, ...]] = {}
    for spec in specs:
        name, _, values = spec.partition("=")
        if not isinstance(getattr(search, name, None), (int, float)) or not name.isupper():
            raise ValueError(f"{name!r} is not a numeric constant of codekith.search")
        try:
            grid[name] = tuple(float(v) for v in values.split(","))
        except ValueError:
            raise ValueError(f"{spec!r}: values are numbers separated by commas") from None
    return grid or DEFAULT_GRID


def with_constants(point: Point) -> None:
    """Set the point's constants; the text list's weight follows the vector list's (the
    fusion's two weights sum to 1) unless the point sets it."""
    values = dict(point)
    if "VECTOR_WEIGHT" in values and "TEXT_WEIGHT" not in values:
        values["TEXT_WEIGHT"] = round(1 - values["VECTOR_WEIGHT"], 4)
    for name, value in values.items():
        setattr(search, name, type(getattr(search, name))(value))


def run_grid(
    searcher: ReplaySearcher,
    data: dict[str, dict[str, Any]],
    grid: dict[str, tuple[float, ...]],
    tuning: list[str],
    top: int,
) -> None:
    """The shipped point, then the `top` best by the tuning repositories' docstring plus fix
    MRR@10; a point that costs a tuning repository identifier Recall@1 is marked."""
    shipped: Point = tuple((name, float(getattr(search, name))) for name in grid)
    restore = {name: getattr(search, name) for name in (*grid, "TEXT_WEIGHT")}
    base = {name: measure(searcher, d) for name, d in data.items()}
    rows = []
    for values in itertools.product(*grid.values()):
        point: Point = tuple(zip(grid, values, strict=True))
        with_constants(point)
        figures = {name: measure(searcher, d) for name, d in data.items()}
        tuned = sum(figures[n]["docstring"] + figures[n]["fix"] for n in tuning)
        kept = all(figures[n]["identifier"] >= base[n]["identifier"] for n in tuning)
        rows.append((point == shipped, kept, tuned, point, figures))
    for name, value in restore.items():
        setattr(search, name, value)
    rows.sort(key=lambda row: -row[2])
    shown = [r for r in rows if r[0]] + [r for r in rows if not r[0]][:top]
    names = list(data)
    header = "".join(f"{n + ('*' if n in tuning else ''):>18}" for n in names)
    print(f"docstring MRR@10 / fix -> files MRR@10 (* = tuning)\n{'':44}{header}")
    for is_shipped, kept, tuned, point, figures in shown:
        label = "shipped " if is_shipped else "" if kept else "(identifier R@1 down) "
        label += " ".join(f"{name}={value:g}" for name, value in point) + f" ({tuned:.3f})"
        cells = "".join(
            f"{figures[n]['docstring']:>11.3f} /{figures[n]['fix']:5.3f}" for n in names
        )
        print(f"{label:44}{cells}")


def main(argv: list[str] | None = None) -> int:
    from codekith.config import DEFAULT_MODEL

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("dump", "check", "grid"))
    add_bench_arguments(parser)
    parser.add_argument("--model", default=DEFAULT_MODEL)
    parser.add_argument("--top", type=int, default=5, help="grid: the best points shown")
    parser.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="grid: a constant of codekith.search and its values (default: the fusion weights)",
    )
    args = parser.parse_args(argv)
    repos = load_repos(args.repos)
    if args.step == "dump":
        for repo in repos:
            paths = Paths(args.bench, repo["name"])
            paths.replay.write_bytes(pickle.dumps(dump(paths, args.model)))
            print(f"{repo['name']}: {paths.replay}", flush=True)
        return 0
    data = {
        r["name"]: pickle.loads(Paths(args.bench, r["name"]).replay.read_bytes()) for r in repos
    }
    searcher = ReplaySearcher(ReplayStore())
    if args.step == "check":
        failed = 0
        for name, d in data.items():
            differ, total = check(searcher, d)
            failed += differ
            print(
                f"{name} ({d['model']}): {total - differ} of {total} replayed as live", flush=True
            )
        return 1 if failed else 0
    try:
        grid = parse_grid(args.vary)
    except ValueError as exc:
        parser.error(str(exc))
    run_grid(searcher, data, grid, [r["name"] for r in repos if r["role"] == "tuning"], args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
