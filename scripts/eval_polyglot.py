"""Evaluate the tree-sitter call graph (every language of syntax_engine.FRONTENDS).

    python scripts/eval_polyglot.py bench                 # the labeled benchmark in tests/
    python scripts/eval_polyglot.py repos --dir /work/bench [--repeat 3] [--sample 20]

`bench` prints precision and recall per language with every missed and spurious edge.
`repos` builds the graph of one real repository per language (pinned commits, fetched
beforehand: it prints how when one is missing) and prints files, lines, call sites and how
many resolved, edges by kind, the build time per 1k lines (median of --repeat cold builds),
and a seeded random sample of call edges with the source line, each with the verdict of a
hand check from eval_polyglot_verdicts.json (right / wrong: why / unchecked).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from codekith.config import Settings
from codekith.graph import graph_for_root, in_graph
from codekith.graph.index import GraphIndex
from codekith.graph.model import Edge
from codekith.graph.pycg import Score, edge_pairs
from codekith.workspace import scan

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "tests" / "callgraph_bench"
VERDICTS = Path(__file__).with_name("eval_polyglot_verdicts.json")


@dataclass(frozen=True)
class Repo:
    name: str
    source: str  # owner/name
    commit: str
    languages: tuple[str, ...]


REPOS = (
    Repo("hono", "honojs/hono", "28a9c128912de19f3fb28b00ae289c9b93f6f392", ("typescript",)),
    Repo(
        "express", "expressjs/express", "a3714473feb3d2908add734d340e7755fd85e0a3", ("javascript",)
    ),
    Repo("cobra", "spf13/cobra", "adbc8813901bba65827259daa8e22ff94ec1f30e", ("go",)),
    Repo("fd", "sharkdp/fd", "ee20f426ddf338ac7ead5c5f00ea49258005caaf", ("rust",)),
    Repo("javapoet", "square/javapoet", "b9017a9503b76e11b4ad4c1a9f050e2d29112cb0", ("java",)),
    Repo(
        "kotlinpoet", "square/kotlinpoet", "be2de914ce6eb3694092ed4e0f28626cbce1ffe0", ("kotlin",)
    ),
    Repo("hiredis", "redis/hiredis", "29ea2791c102fdffff350f1ea6e04d1f71903d0d", ("c",)),
    Repo("serilog", "serilog/serilog", "60935b4d7abad71cf6157b45a10f5c3c65ead527", ("csharp",)),
    Repo(
        "kingfisher", "onevcat/Kingfisher", "410984bf301f4fa224fe56277b3f8672cc465c79", ("swift",)
    ),
    Repo("sinatra", "sinatra/sinatra", "cb22afd7902b566b6eaba6c4ea89739494a65d12", ("ruby",)),
    Repo("guzzle", "guzzle/guzzle", "2779e868a00289e1b1fd854af030c43a06f4bcb4", ("php",)),
    Repo("busted", "Olivine-Labs/busted", "2e4799e06b865c352baa7f7721e32aedaafd19d6", ("lua",)),
    Repo("scopt", "scopt/scopt", "75cd14c9e1f517e9d1beb8de9e3427e40630f1cb", ("scala",)),
    Repo("yaml-cpp", "jbeder/yaml-cpp", "c3f81127320662deb3e28f4da0a511f1faecd860", ("cpp", "c")),
)


def bench() -> None:
    total = Score()
    print(f"{'language':<11} {'cases':>5} {'prec':>6} {'recall':>6} {'tp':>4} {'fp':>4} {'fn':>4}")
    details = []
    for language_dir in sorted(p for p in BENCH.iterdir() if p.is_dir()):
        score = Score()
        cases = sorted(p.parent for p in language_dir.glob("*/callgraph.json"))
        for case in cases:
            listed = (p.relative_to(case).as_posix() for p in case.rglob("*") if p.is_file())
            paths = sorted(p for p in listed if in_graph(case, p))
            expected = edge_pairs(json.loads((case / "callgraph.json").read_text()))
            produced = edge_pairs(graph_for_root(case, paths, use_jedi=False))
            score.add(f"{language_dir.name}/{case.name}", expected, produced)
        print(
            f"{language_dir.name:<11} {len(cases):>5} {score.precision:6.3f} {score.recall:6.3f} "
            f"{score.tp:4d} {score.fp:4d} {score.fn:4d}"
        )
        total.merge(score)
        details.append(score)
    print(
        f"{'TOTAL':<11} {'':>5} {total.precision:6.3f} {total.recall:6.3f} "
        f"{total.tp:4d} {total.fp:4d} {total.fn:4d}"
    )
    print("\nmissed:", *total.missed, sep="\n  ")
    print("\nspurious:", *total.spurious, sep="\n  ")


def checkout(repo: Repo, base: Path) -> Path | None:
    path = base / repo.name
    if not (path / ".git").exists():
        print(
            f"\n{repo.name}: missing. Fetch github:{repo.source}, then\n"
            f"  git clone <mirror> {path} && git -C {path} checkout {repo.commit}"
        )
        return None
    head = subprocess.run(
        ["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    if head != repo.commit:
        subprocess.run(["git", "-C", str(path), "checkout", "-q", repo.commit], check=True)
    return path


def graph_files(root: Path, languages: tuple[str, ...]) -> list[str]:
    """What `codekith index` would read with default settings (vendored, generated and
    ignored files left out; a local .codekith.toml is not consulted, so runs compare)."""
    settings = Settings()
    return sorted(
        c.path
        for c in scan(root, settings)
        if c.reason is None and in_graph(root, c.path) and c.language in languages
    )


def build(root: Path, paths: list[str]) -> tuple[list[Edge], float, float, GraphIndex]:
    """Edges of a cold build, its wall time and its CPU time (steadier on a shared machine)."""
    started, cpu = time.perf_counter(), time.process_time()
    index = GraphIndex(root, paths)
    edges = [e for path in index.paths() for e in index.resolve(path)]
    return edges, time.perf_counter() - started, time.process_time() - cpu, index


def source_line(root: Path, edge: Edge) -> str:
    lines = (root / edge.path).read_text("utf-8", errors="replace").splitlines()
    return lines[edge.line - 1].strip()[:110] if edge.line <= len(lines) else ""


def edge_key(edge: Edge) -> str:
    return f"{edge.path}:{edge.line} {edge.src} -> {edge.dst}"


def repos(base: Path, repeat: int, sample: int) -> None:
    verdicts = json.loads(VERDICTS.read_text()) if VERDICTS.exists() else {}
    for repo in REPOS:
        root = checkout(repo, base)
        if root is None:
            continue
        paths = graph_files(root, repo.languages)
        lines = sum(
            len((root / p).read_text("utf-8", errors="replace").splitlines()) for p in paths
        )
        times, cpus = [], []
        for _ in range(repeat):
            edges, seconds, cpu, index = build(root, paths)
            times.append(seconds)
            cpus.append(cpu)
        sites = sum(len(index.syntax.files[p].sites) for p in index.syntax.paths())
        resolved = len({(e.path, e.line, e.src) for e in edges if e.kind == "call"})
        kinds = Counter(e.kind for e in edges)
        median = statistics.median(times)
        print(f"\n== {repo.name} ({repo.source}@{repo.commit[:10]}, {'/'.join(repo.languages)})")
        print(f"files {len(paths)}, lines {lines}, unparsed {len(index.broken)}")
        by_kind = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        print(f"edges: {sum(kinds.values())} ({by_kind})")
        print(f"call sites {sites}, lines with a resolved call {resolved}")
        runs = ", ".join(f"{t:.2f}" for t in times)
        cpu = statistics.median(cpus)
        per_1k, cpu_1k = 1000 * median / max(lines, 1), 1000 * cpu / max(lines, 1)
        print(f"build wall: median {median:.2f} s of {repeat} runs ({runs}) = {per_1k:.3f} s/1k")
        print(f"build CPU:  median {cpu:.2f} s = {cpu_1k:.3f} s per 1k lines")
        calls = sorted((e for e in edges if e.kind == "call"), key=edge_key)
        picked = random.Random(repo.name).sample(calls, min(sample, len(calls)))
        checked = verdicts.get(repo.name, {})
        tally: Counter[str] = Counter()
        print(f"sample of {len(picked)} call edges (seed {repo.name!r}):")
        for edge in sorted(picked, key=edge_key):
            verdict = checked.get(edge_key(edge), "unchecked")
            tally[verdict.split(":")[0]] += 1
            print(f"  [{verdict}] {edge_key(edge)}\n      {source_line(root, edge)}")
        print(f"hand check: {dict(tally)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("bench", help="score the labeled benchmark")
    on_repos = commands.add_parser("repos", help="real repositories")
    on_repos.add_argument("--dir", type=Path, default=Path("/work/bench"))
    on_repos.add_argument("--repeat", type=int, default=3)
    on_repos.add_argument("--sample", type=int, default=20)
    args = parser.parse_args()
    if args.command == "bench":
        bench()
    else:
        repos(args.dir, args.repeat, args.sample)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
