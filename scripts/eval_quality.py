"""The retrieval-quality harness: pinned real repositories, eight case sets, free baselines.

Repositories are listed in scripts/quality_repos.json with a role fixed before any tuning
(tuning or held-out). Each one lives under BENCH (default /work/bench, never committed):

    BENCH/quality/NAME/checkout     the checkout at the pinned commit (cloned from the mirror
                                    that the search tool's fetch brought in)
    BENCH/quality/NAME/workspace    the tracked code and documentation, docstrings/doc comments
                                    and each doc section's first paragraph removed
    BENCH/quality/NAME/stripped.db  codekith's index of the workspace (every case set: the
                                    machine has no CPU to spare for a second index of the
                                    checkout; co-change targets are mapped to the workspace)
    BENCH/quality/NAME/cases/       docstring.jsonl, section.jsonl, identifier.jsonl,
                                    literal.jsonl, message.jsonl, snippet.jsonl,
                                    cochange.jsonl, fix.jsonl
    BENCH/quality/NAME/bare-stock.npz  stock MiniLM over bare definitions (a baseline)
    BENCH/quality/NAME/replay.pkl   what each case's search read, replayed offline with other
                                    constants (scripts/eval_fusion.py)

Indexes are incremental, so a second run reuses them; a template or model change rebuilds.

    python scripts/eval_quality.py prepare            # clone, strip, build cases
    python scripts/eval_quality.py index              # both indexes per repository
    python scripts/eval_quality.py table              # the tables (tuning / held-out)
    python scripts/eval_quality.py table --repos flask --json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import quality_cases as qc
from codekith.config import DEFAULT_MODEL

HERE = Path(__file__).resolve().parent
REPOS_FILE = HERE / "quality_repos.json"
DOCSTRING_CAP = 200
SECTION_CAP = 100
IDENTIFIER_PER_KIND = 30
LITERAL_CAP = 50
MESSAGE_CAP = 50
SNIPPET_CAP = 50
COCHANGE_CAP = 100
FIX_CAP = 100
SEED = 13


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    """--bench (the quality repositories' folder; $BENCH or /work/bench) and --repos (some
    of them by name), as every quality script takes them."""
    parser.add_argument("--bench", type=Path, default=Path(os.environ.get("BENCH", "/work/bench")))
    parser.add_argument("--repos", nargs="*", help="names from quality_repos.json (all)")


def load_repos(names: list[str] | None) -> list[dict[str, Any]]:
    repos = json.loads(REPOS_FILE.read_text())["repos"]
    if names:
        unknown = set(names) - {r["name"] for r in repos}
        if unknown:
            raise SystemExit(f"unknown repositories: {', '.join(sorted(unknown))}")
        repos = [r for r in repos if r["name"] in names]
    return repos


def fixes_trained(repos: list[dict[str, Any]]) -> frozenset[str]:
    """Repositories whose fix commits trained the shipped query adapter: held out for
    docstring questions, not for bug reports (`fixes_trained_adapter`)."""
    return frozenset(r["name"] for r in repos if r.get("fixes_trained_adapter"))


class Paths:
    def __init__(self, bench: Path, name: str):
        self.checkout = bench / "quality" / name / "checkout"
        self.root = bench / "quality" / name
        self.workspace = self.root / "workspace"
        self.stripped_db = self.root / "stripped.db"
        self.cases = self.root / "cases"
        self.bare = self.root / "bare-stock.npz"
        self.replay = self.root / "replay.pkl"
        self.stats = self.root / "stats.json"

    def case_file(self, kind: str) -> Path:
        return self.cases / f"{kind}.jsonl"

    def project(self, model: str = DEFAULT_MODEL) -> Any:
        """The workspace over its stripped index, as the cases search it."""
        from codekith.embedding import FastEmbedder
        from codekith.project import Project

        return Project(self.workspace, db=str(self.stripped_db), embedder=FastEmbedder(model))


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


# -- prepare -----------------------------------------------------------------------------


def checkout(repo: dict[str, Any], paths: Paths, mirrors: Path) -> None:
    clone_at(repo["source"], repo["commit"], paths.checkout, mirrors)


def clone_at(source: str, commit: str, target: Path, mirrors: Path) -> None:
    """`target` holding `source` (OWNER/NAME, from the mirror fetch brought) at `commit`."""
    if not target.exists():
        mirror = mirrors / source.replace("/", "+") / "repo"
        if not mirror.exists():
            raise SystemExit(f"{mirror} is missing: fetch github:{source} first")
        git = ["git", "clone", "-q", "--no-checkout", str(mirror), str(target)]
        subprocess.run(git, check=True)
    check_out(target, commit)


def check_out(checkout: Path, commit: str) -> None:
    """The commit's files; those whose content the mirror lacks (Newtonsoft.Json's
    `large.json`, kept out of the snapshot) are left out rather than failing it all."""
    git = ["git", "-C", str(checkout)]
    if subprocess.run([*git, "checkout", "-q", commit], capture_output=True).returncode == 0:
        return
    listing = subprocess.run(
        [*git, "ls-tree", "-r", commit], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    blobs = [line.split(None, 3) for line in listing if line.split()[1] == "blob"]
    known = subprocess.run(
        [*git, "cat-file", "--batch-check"],
        input="".join(f"{blob[2]}\n" for blob in blobs),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    present = [blob[3] for blob, line in zip(blobs, known, strict=True) if "missing" not in line]
    for start in range(0, len(present), 500):
        paths = present[start : start + 500]
        subprocess.run([*git, "checkout", "-q", commit, "--", *paths], check=True)


def prepare(repo: dict[str, Any], paths: Paths, mirrors: Path, force: bool) -> None:
    """The workspace is rebuilt each time (cheap); case files are kept unless `force`."""
    checkout(repo, paths, mirrors)
    if paths.workspace.exists():
        shutil.rmtree(paths.workspace)
    paths.workspace.mkdir(parents=True)
    questions = qc.build_workspace(paths.checkout, paths.workspace)
    code = qc.code_chunks(paths.checkout)
    chunks = qc.source_chunks(code)
    names = {c.symbol for c in code if c.symbol}
    builders = {
        "docstring": lambda: qc.docstring_cases(questions.definitions, DOCSTRING_CAP, SEED),
        "section": lambda: qc.docstring_cases(questions.sections, SECTION_CAP, SEED),
        "identifier": lambda: qc.identifier_cases(chunks, IDENTIFIER_PER_KIND, SEED, names),
        "literal": lambda: qc.literal_cases(
            qc.code_chunks(paths.checkout, paths.workspace), LITERAL_CAP, SEED
        ),
        "message": lambda: qc.message_cases(
            qc.code_chunks(paths.checkout, paths.workspace), MESSAGE_CAP, SEED
        ),
        "snippet": lambda: qc.snippet_cases(
            qc.code_chunks(paths.checkout, paths.workspace), SNIPPET_CAP, SEED
        ),
        "cochange": lambda: qc.cochange_cases(paths.checkout, chunks, COCHANGE_CAP, SEED),
        "fix": lambda: qc.fix_cases(paths.checkout, FIX_CAP, SEED),
    }
    counts = {}
    for kind, build in builders.items():
        path = paths.case_file(kind)
        if force or not path.exists():
            qc.write_cases(build(), path)
        counts[kind] = len(path.read_text().splitlines())
    log(
        f"{repo['name']}: {len(questions.definitions)} documented definitions, "
        f"{len(questions.sections)} documentation sections; cases {counts}"
    )


# -- index -------------------------------------------------------------------------------


def build_index(root: Path, db: Path, model: str) -> dict[str, Any]:
    from codekith.embedding import FastEmbedder
    from codekith.project import Project
    from codekith.store import IndexMismatchError

    project = Project(root, db=str(db), embedder=FastEmbedder(model))
    cpu, wall = cpu_seconds(), time.perf_counter()
    try:
        report = project.indexer.run()
    except IndexMismatchError as exc:  # a new template or model: rebuild
        log(f"rebuilding {db}: {exc}")
        report = project.indexer.run(full=True)
    cpu, wall = cpu_seconds() - cpu, time.perf_counter() - wall
    return {
        "chunks": report.chunks_total,
        "embedded": report.embedded,
        "cpu_s": round(cpu, 1),
        "wall_s": round(wall, 1),
        "chunks_per_cpu_s": round(report.embedded / cpu, 2) if report.embedded > 50 else None,
    }


def index(repo: dict[str, Any], paths: Paths, model: str) -> None:
    from quality_table import package_versions

    stats = json.loads(paths.stats.read_text()) if paths.stats.exists() else {}
    versions = package_versions()
    for label, root, db in (("stripped", paths.workspace, paths.stripped_db),):
        figures = build_index(root, db, model)
        log(f"{repo['name']} {label}: {figures}")
        if figures["chunks_per_cpu_s"] is not None and figures["embedded"] == figures["chunks"]:
            # a cold (re)build: keep its speed (an incremental one embeds what changed only)
            stats[label] = {**figures, "versions": versions}
    stats["last_run_versions"] = versions
    paths.stats.write_text(json.dumps(stats, indent=2))


# -- main --------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("prepare", "index", "table"))
    add_bench_arguments(parser)
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--json", action="store_true", help="table: one JSON object")
    parser.add_argument("--force", action="store_true", help="prepare: rebuild case files")
    parser.add_argument(
        "--model", default=DEFAULT_MODEL, help="index, table: the model (scripts/eval_model.py)"
    )
    args = parser.parse_args(argv)
    repos = load_repos(args.repos)
    if args.step == "table":
        from quality_table import run_tables

        return run_tables(repos, lambda name: Paths(args.bench, name), args.json, args.model)
    for repo in repos:
        paths = Paths(args.bench, repo["name"])
        if args.step == "prepare":
            prepare(repo, paths, args.mirrors, args.force)
        else:
            index(repo, paths, args.model)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
