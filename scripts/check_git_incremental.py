"""Does an incremental, git-driven index end where a fresh full index does?

Clones a repository twice from a local mirror (see the search tool's fetch), indexes an
older commit in the first clone, checks out a commit N first-parent steps later and
indexes incrementally, then builds a fresh full index of the newer commit in the second
clone. Each index runs as the CLI runs it: searchable first, then the Jedi pass (timed
apart, both ratios printed). Prints both runs' time and embedding counts and compares the
live chunk ids and the edges exactly; exits 1 on any difference.

It also counts the tokens the model read in each run (what it reads of a document: at most
its first 256 tokens). Their share, incremental over full, is a floor under the searchable
ratio that no indexer can go below while it embeds what changed: most of a full index's
time is the model's, and the model's time follows its tokens.

    .venv/bin/python scripts/check_git_incremental.py --repo /work/.mirror/pallets+flask/repo
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Hashable, Sequence, Sized
from pathlib import Path
from typing import cast

import numpy as np

from codekith.embedding import Embedder, FastEmbedder
from codekith.project import Project


class CountingEmbedder:
    """The default embedder, noting the documents it embeds; `take` counts their tokens
    (token ids: see model_inputs) outside the timed runs."""

    def __init__(self, inner: Embedder):
        self.inner = inner
        self.model_id, self.dim, self.query_id = inner.model_id, inner.dim, inner.query_id
        self.embedded: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.embedded += texts
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self.inner.embed_query(text)

    def model_inputs(self, texts: Sequence[str]) -> list[Hashable]:
        return self.inner.model_inputs(texts)

    def take(self) -> int:
        """The tokens of the documents embedded since the last take."""
        texts, self.embedded = self.embedded, []
        return sum(len(cast(Sized, i)) for i in self.inner.model_inputs(texts))


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def clone(source: str, target: Path, rev: str) -> Path:
    subprocess.run(["git", "clone", "-q", "--no-checkout", source, str(target)], check=True)
    git(target, "checkout", "-q", "--detach", rev)
    return target


def timed_index(project: Project) -> tuple[dict, float, float]:
    """(report, seconds until searchable, seconds of the Jedi pass after it), as the CLI
    runs it: the index first, then `codekith refine` until no Jedi work is left."""
    started = time.perf_counter()
    report = project.indexer.run(refine=False)
    searchable = time.perf_counter() - started
    started = time.perf_counter()
    while True:
        figures = project.indexer.refine_graph()
        if not figures.get("jedi_files") or not figures.get("jedi_pending"):
            return report.to_json(), searchable, time.perf_counter() - started


def snapshot(project: Project) -> tuple[set[str], set[tuple[str, str, str, str, int]]]:
    store = project.store
    ids = {r["id"] for r in store.rows("true", columns=["id"])}
    edges = {(e["src"], e["dst"], e["kind"], e["path"], e["line"]) for e in store.live_edges()}
    return ids, edges


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", required=True, help="a git repository or bare mirror")
    parser.add_argument("--new", default="HEAD", help="the newer commit (default HEAD)")
    parser.add_argument("--steps", type=int, default=50, help="first-parent commits back")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="codekith-git-check-"))
    new = git(Path(args.repo), "rev-parse", args.new)
    old = git(Path(args.repo), "rev-parse", f"{new}~{args.steps}")
    changed = git(Path(args.repo), "diff", "--name-status", "-M", old, new).splitlines()

    counting = CountingEmbedder(FastEmbedder())
    moving = Project(clone(args.repo, work / "incremental", old), embedder=counting)
    cold, cold_s, cold_jedi_s = timed_index(moving)
    counting.take()
    git(moving.root, "checkout", "-q", "--detach", new)
    step, step_s, step_jedi_s = timed_index(moving)
    step_tokens = counting.take()
    fresh = Project(clone(args.repo, work / "fresh", new), embedder=counting)
    full, full_s, full_jedi_s = timed_index(fresh)
    full_tokens = counting.take()

    ids_a, edges_a = snapshot(moving)
    ids_b, edges_b = snapshot(fresh)
    result = {
        "old": old,
        "new": new,
        "files_changed_in_git": len(changed),
        "cold_index_old": {
            "seconds": round(cold_s, 1),
            "jedi_seconds": round(cold_jedi_s, 1),
            "embedded": cold["embedded"],
            "chunks": cold["chunks_total"],
        },
        "incremental": {
            "seconds": round(step_s, 1),
            "jedi_seconds": round(step_jedi_s, 1),
            "mode": step["mode"],
            "scan_reason": step["scan_reason"],
            "files_examined": step["files"],
            "indexed": step["indexed"],
            "deleted": len(step["deleted"]),
            "embedded": step["embedded"],
            "embedded_tokens": step_tokens,
            "reused": step["reused"],
            "graph": step["graph"],
        },
        "fresh_full_new": {
            "seconds": round(full_s, 1),
            "jedi_seconds": round(full_jedi_s, 1),
            "embedded": full["embedded"],
            "embedded_tokens": full_tokens,
            "chunks": full["chunks_total"],
            "graph": full["graph"],
        },
        "ratio_searchable": round(step_s / full_s, 3),
        "token_share": round(step_tokens / (full_tokens or 1), 3),
        "ratio_with_jedi": round((step_s + step_jedi_s) / (full_s + full_jedi_s), 3),
        "chunk_ids_equal": ids_a == ids_b,
        "chunks": [len(ids_a), len(ids_b)],
        "only_incremental_ids": len(ids_a - ids_b),
        "only_fresh_ids": len(ids_b - ids_a),
        "edges_equal": edges_a == edges_b,
        "edges": [len(edges_a), len(edges_b)],
        "only_incremental_edges": sorted(map(list, edges_a - edges_b))[:20],
        "only_fresh_edges": sorted(map(list, edges_b - edges_a))[:20],
    }
    print(json.dumps(result, indent=None if args.json else 2))
    return 0 if result["chunk_ids_equal"] and result["edges_equal"] else 1


if __name__ == "__main__":
    sys.exit(main())
