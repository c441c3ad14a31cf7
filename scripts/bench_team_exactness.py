"""How close a team index (published index + local overlay) answers to a local index of
the same tree, next to how close two local indexes of that tree are to each other.

In a clone of REPO: the index of REV (the published one) is built; then at HEAD three
indexes of the same tree answer the same queries:

* incremental: a copy of the published index updated to HEAD (a developer's local index),
* team: the published index read-only under a local overlay holding what HEAD changed,
* fresh: a full index built at HEAD from nothing.

For each pair it prints how often the hybrid top-10 lists are identical, how often their
first hit agrees, their mean overlap (Jaccard@10), and each index's MRR@10 on the queries'
expected answers. Vector search is the control: it must agree exactly everywhere.
BM25 statistics are per index (and, in LanceDB, depend on the index's history), which is
what the hybrid figures measure.

    PYTHONPATH=server python scripts/bench_team_exactness.py /work/bench/flask \\
        --rev HEAD~30 --cases /work/bench/quality/flask/cases/docstring.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from codekith.embedding import FastEmbedder
from codekith.project import Project

K = 10
NO_JEDI = {"jedi": False}  # the call graph does not enter search rankings


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def build(project: Project, label: str) -> None:
    started = time.perf_counter()
    with project.store.write_lock():
        report = project.indexer.run()
    print(
        f"{label:<12} {report.embedded:>5} embedded, {report.chunks_total} chunks, "
        f"{time.perf_counter() - started:.1f} s",
        flush=True,
    )


def rankings(project: Project, queries: list[str], mode: str) -> list[list[str]]:
    searcher = project.searcher
    return [[hit.qualname for hit in searcher.search(q, K, mode=mode)] for q in queries]


def mrr(ranked: list[list[str]], expected: list[list[str]]) -> float:
    total = 0.0
    for names, answers in zip(ranked, expected, strict=True):
        rank = next((i for i, name in enumerate(names, 1) if name in answers), None)
        total += 1.0 / rank if rank else 0.0
    return total / len(ranked)


def agreement(a: list[list[str]], b: list[list[str]]) -> dict[str, float]:
    pairs = list(zip(a, b, strict=True))
    return {
        "identical": sum(x == y for x, y in pairs) / len(pairs),
        "top1": sum(x[:1] == y[:1] for x, y in pairs) / len(pairs),
        "jaccard": sum(len(set(x) & set(y)) / max(1, len(set(x) | set(y))) for x, y in pairs)
        / len(pairs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--rev", default="HEAD~30", help="the published commit")
    parser.add_argument("--cases", type=Path, required=True, help="JSON lines {query, expected}")
    parser.add_argument("--work", type=Path, help="kept between runs (default: a temp dir)")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="team-exactness-"))
    work.mkdir(parents=True, exist_ok=True)
    cases = [json.loads(line) for line in args.cases.read_text().splitlines() if line.strip()]
    queries, expected = [c["query"] for c in cases], [c["expected"] for c in cases]

    clone = work / "clone"
    if not clone.exists():
        git(work, "clone", "-q", str(args.repo.resolve()), str(clone))
    head = git(clone, "rev-parse", "HEAD").strip()
    published = git(clone, "rev-parse", args.rev).strip()
    changed = git(clone, "diff", "--name-only", published, head).split()
    print(f"published {published[:10]}, HEAD {head[:10]}, {len(changed)} files differ")
    model = FastEmbedder(Project(clone).settings.model)

    def project(db: Path, remote: Path | None = None) -> Project:
        return Project(
            clone,
            db=str(db),
            overrides=NO_JEDI,
            embedder=model,
            remote_index=str(remote) if remote else None,
        )

    git(clone, "checkout", "-q", published)
    build(project(work / "published"), "published")
    shutil.rmtree(work / "incremental", ignore_errors=True)
    shutil.copytree(work / "published", work / "incremental")
    git(clone, "checkout", "-q", head)
    indexes = {
        "incremental": project(work / "incremental"),
        "team": project(work / "overlay", remote=work / "published"),
        "fresh": project(work / "fresh"),
    }
    for label, index in indexes.items():
        build(index, label)

    for mode in ("vector", "hybrid"):
        ranked = {label: rankings(index, queries, mode) for label, index in indexes.items()}
        print(f"\n{mode}: {len(queries)} queries, top {K}")
        for label, names in ranked.items():
            print(f"  MRR@{K} {label:<12} {mrr(names, expected):.4f}")
        for a, b in itertools.combinations(ranked, 2):
            figures = agreement(ranked[a], ranked[b])
            print(
                f"  {a} vs {b}: identical {figures['identical']:.1%}, "
                f"first hit {figures['top1']:.1%}, Jaccard@{K} {figures['jaccard']:.3f}"
            )


if __name__ == "__main__":
    main()
