"""`related` with and without a language's call graph, on repositories nobody tuned on.

C, C#, Kotlin, PHP, Swift, Ruby, Scala, Lua and C++ got call-graph front ends at stop 53,
shell at stop 56 (`--before 04db07e` for it); before, `related` in those languages had
similarity, class members and files to go on, no calls. This measures what the graph adds
where it counts for a user: functions changed together in one commit of the repository's
history are related; for one of them, `related PATH:LINE` should bring the others
(quality_cases.cochange_cases, the co-change cases of the seventeen-repository bench, here
for the language at hand).

The repositories: eval_languages.py's for these languages, and one more each, all pinned and
none looked at while the front ends were written (each front end had its own development
repository, eval_polyglot.py's). Each has a checkout, a doc-stripped workspace and a
definitions index under BENCH/languages/NAME (eval_languages.prepare and build: this script
makes what is missing). The index is copied twice: one copy is brought up to date by
`codekith index` from a worktree at --before (no front end for the language: its call graph
is empty), the other by this checkout's (the graph is derived again; chunks and vectors are
the same, so only the graph differs). Each side's bundles are compared with the similarity
baseline of as many items (quality_table.cochange_recalls) and with each other (paired
bootstrap 95% interval). Across a chunking change (`--before` a commit that chunked the
language otherwise) the chunks differ too: both sides then answer the cases whose target
both index (`seeded`).

    python scripts/eval_graph_languages.py --before 1f70cb5 [--repos jq tmux okio]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

import quality_cases as qc
from benchstats import bootstrap_interval, stratified_interval
from codekith.evaluation import Case, load_cases
from eval_languages import REPOS, build, code_at, prepare, run_index, workspace_chunks
from quality_table import chunk_named, cochange_recalls

HERE = Path(__file__).resolve().parent
CAP, SEED = 100, 13
SIDES = ("before", "after")
MORE = (  # name, source, commit, language: pinned on 2026-12-06
    ("tmux", "tmux/tmux", "c1f947a3c5bc72a40c32dead736f84c4628791ec", "c"),
    ("polly", "App-vNext/Polly", "173d6d1d2e28a4697f1ac1d22da68f77ff19a0c9", "csharp"),
    ("koin", "InsertKoinIO/koin", "fff5291f333c04fe5d6d9447f72740647d40d186", "kotlin"),
    ("slim", "slimphp/Slim", "038fd5713d5a41636fdff0e8dcceedecdd17fc17", "php"),
    ("moya", "Moya/Moya", "10a9dd1577c4de5135a29f99410863d2e9ee034a", "swift"),
    ("faraday", "lostisland/faraday", "59334e0e9b1918bd26b143f4a7bbc8c765de3ac4", "ruby"),
    ("mainargs", "com-lihaoyi/mainargs", "12b72ef6ed166c97a84a876411453bcab797880c", "scala"),
    (
        "telescope",
        "nvim-telescope/telescope.nvim",
        "7d324792b7943e4aa16ad007212e6acc6f9fe335",
        "lua",
    ),
    ("leveldb", "google/leveldb", "78a352f47ed6c1e9d750545e9b242289185b87e1", "cpp"),
    # pinned on 2026-12-07, when shell got a call graph (none at 04db07e)
    ("acme.sh", "acmesh-official/acme.sh", "d60c75b4e30a26addd8b9d0bfdeeed39c84ed51e", "shell"),
)
LANGUAGES = ("c", "csharp", "kotlin", "php", "swift", "ruby", "scala", "lua", "cpp", "shell")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def cases_file(root: Path, language: str, fresh: bool) -> Path:
    """The co-change cases of the checkout's history, named as the workspace's chunks are."""
    path = root / "cochange.jsonl"
    if path.exists() and not fresh:
        return path
    chunks = workspace_chunks(root / "workspace", (language,))
    source = qc.source_chunks(chunks, (language,))
    qc.write_cases(qc.cochange_cases(root / "checkout", source, CAP, SEED, (language,)), path)
    return path


def index_copy(root: Path, side: str, server: Path | None) -> Path:
    """The definitions index, copied and brought up to date by one side's code, as a user's
    `codekith index` would after an upgrade."""
    db = root / f"graph-{side}.db"
    shutil.rmtree(db, ignore_errors=True)
    shutil.copytree(root / "definitions.db", db)
    run_index(root / "workspace", db, server)
    return db


def project_of(root: Path, db: Path) -> Any:
    from codekith.embedding import FastEmbedder
    from codekith.project import Project

    return Project(root / "workspace", db=str(db), embedder=FastEmbedder())


def seeded(projects: list[Any], cases: list[Case]) -> list[Case]:
    """The cases whose target every side's index chunks: when the sides' chunkers differ
    (`--before` a chunking change), a case one side cannot start from is left out on both,
    so the sides answer the same cases (targets one side does not chunk count as misses)."""
    return [
        case
        for case in cases
        if all(chunk_named(p.read_store, case.fields["target"]) for p in projects)
    ]


def measure(project: Any, cases: list[Case]) -> dict[str, Any]:
    edges = Counter(e["kind"] for e in project.read_store.live_edges())
    recalls, baseline, sizes, missing = cochange_recalls(project, cases)
    return {
        "edges": dict(edges),
        "related": recalls,
        "similarity": baseline,
        "items": float(np.mean(sizes)) if sizes else 0.0,
        "missing": missing,
    }


def summary(name: str, language: str, sides: dict[str, dict[str, Any]]) -> dict[str, Any]:
    before, after = (np.array(sides[s]["related"]) for s in SIDES)
    gain = after - before
    low, high = bootstrap_interval(lambda at: float(gain[at].mean()), len(gain))
    similarity = np.array(sides["after"]["similarity"])
    return {
        "repo": name,
        "language": language,
        "cases": len(gain),
        "missing": sides["after"]["missing"],
        "edges": {s: sides[s]["edges"] for s in SIDES},
        "items": {s: round(sides[s]["items"], 1) for s in SIDES},
        "recall": {s: round(float(np.mean(sides[s]["related"])), 3) for s in SIDES},
        "similarity": round(float(similarity.mean()), 3),
        "ratio": {
            s: round(float(np.sum(sides[s]["related"]) / max(similarity.sum(), 1e-9)), 2)
            for s in SIDES
        },
        "gain": [round(float(gain.mean()), 3), round(low, 3), round(high, 3)],
        "gains": [round(float(g), 4) for g in gain],
        "cases_up": int(np.count_nonzero(gain > 0)),
        "cases_down": int(np.count_nonzero(gain < 0)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="a commit without the front ends")
    parser.add_argument("--bench", type=Path, default=Path(os.environ.get("BENCH", "/work/bench")))
    parser.add_argument("--repos", nargs="*", help="names (all)")
    parser.add_argument("--fresh", action="store_true", help="build the case files again")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    chosen = [
        r for r in (*REPOS, *MORE) if r[3] in LANGUAGES and (not args.repos or r[0] in args.repos)
    ]
    results = []
    with code_at(args.before) as before:
        for name, source, commit, language in chosen:
            root = args.bench / "languages" / name
            if not (root / "definitions.db").exists():
                prepare(root, source, commit, language)
                build(root / "workspace", root / "definitions.db", None)
            cases = load_cases(cases_file(root, language, args.fresh))
            projects = {
                side: project_of(root, index_copy(root, side, server))
                for side, server in zip(SIDES, (before, None), strict=True)
            }
            common = seeded(list(projects.values()), cases)
            sides = {side: measure(project, common) for side, project in projects.items()}
            results.append(summary(name, language, sides))
            log(json.dumps(results[-1]))
    if args.json:
        print(json.dumps({"repos": results, "pooled": pooled(results)}, indent=2))
    else:
        print_table(results)
    return 0


def pooled(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The mean of the repositories' mean gains (each counts once), stratified interval."""
    groups = [np.array(r["gains"]) for r in results if r["gains"]]
    if not groups:
        return {}
    low, high = stratified_interval(groups)
    mean = float(np.mean([g.mean() for g in groups]))
    return {"repos": len(groups), "gain": [round(mean, 3), round(low, 3), round(high, 3)]}


def print_table(results: list[dict[str, Any]]) -> None:
    print(
        "co-change recall of `related PATH:LINE`, without / with the call graph "
        "(gain [95% CI]); similarity baseline at as many items; call edges"
    )
    for r in results:
        calls = [r["edges"][s].get("call", 0) for s in SIDES]
        print(
            f"{r['repo']} ({r['language']}), {r['cases']} cases: "
            f"{r['recall']['before']:.3f} / {r['recall']['after']:.3f} "
            f"({r['gain'][0]:+.3f} [{r['gain'][1]:+.3f}, {r['gain'][2]:+.3f}]), "
            f"{r['cases_up']} cases up, {r['cases_down']} down; similarity {r['similarity']:.3f} "
            f"({r['ratio']['before']:.2f}x / {r['ratio']['after']:.2f}x); "
            f"items {r['items']['before']} / {r['items']['after']}; calls {calls[0]} -> {calls[1]}"
        )
    if len(results) > 1:
        gain = pooled(results)["gain"]
        print(
            f"pooled ({len(results)} repositories): {gain[0]:+.3f} [{gain[1]:+.3f}, {gain[2]:+.3f}]"
        )


if __name__ == "__main__":
    raise SystemExit(main())
