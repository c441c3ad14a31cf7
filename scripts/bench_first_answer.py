"""Time to the first answer in a new clone: a published index in object storage vs a cold
local index.

Starts an S3-compatible server (moto) on 127.0.0.1, publishes the index of REPO there the way
CI would (`codekith index --db s3://…`), then in fresh clones times, as a user runs them:

* published: `codekith search QUERY --remote-index s3://…` (process start, model load, first
  query against the published index under an empty local overlay; nothing is embedded),
* edited: one file changed in the clone, then `codekith index --remote-index s3://…` (only
  that file goes into the local overlay) and the search,
* cold: `codekith index` then `codekith search QUERY` (embedding the whole repository).

moto on loopback answers in well under a millisecond; real S3 adds ~10-50 ms per request
(a first query makes a few dozen), so add ~1-2 s to the published figure for a real bucket.

    PYTHONPATH=. python scripts/bench_first_answer.py /work/bench/flask --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.objectstore import start_s3_server

QUERY = "how is the request context pushed"
EDITED = "src/flask/ctx.py"  # flask's layout; another repository: pass --edit PATH
EDIT = '''

def describe_context_stack(ctx) -> str:
    """A one-line description of the pushed request contexts, for debugging."""
    return f"request context for {ctx.request.path!r}"
'''


def codekith(*args: str, cwd: Path, env: dict[str, str]) -> float:
    return timed(*args, cwd=cwd, env=env)[0]


def timed(*args: str, cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "codekith.cli", *args],
        cwd=cwd,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return time.perf_counter() - started, done.stdout


def note(text: str) -> None:
    """Progress on stderr: a long run that is stopped still leaves its figures."""
    print(text, file=sys.stderr, flush=True)


def clone(repo: Path, into: Path) -> Path:
    subprocess.run(["git", "clone", "-q", str(repo), str(into)], check=True)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="runs of the published case")
    parser.add_argument("--cold-repeat", type=int, default=1, help="runs of the cold case")
    parser.add_argument("--edit", default=EDITED, help="the file the edited case changes")
    args = parser.parse_args()
    server = start_s3_server()
    try:
        env = {**os.environ, **server.env}
        uri = f"s3://{server.new_bucket()}/{args.repo.name}"
        with tempfile.TemporaryDirectory() as scratch:
            work = Path(scratch)
            ci = clone(args.repo, work / "ci")  # CI publishes the whole index, Jedi edges included
            publish_s = codekith("index", "--db", uri, "--wait", cwd=ci, env=env)
            note(f"published in {publish_s:.1f} s")
            published, edited, embedded = [], [], []
            remote = ("--remote-index", uri)
            for i in range(args.repeat):
                fresh = clone(args.repo, work / f"p{i}")
                published.append(codekith("search", QUERY, *remote, "--json", cwd=fresh, env=env))
                with (fresh / args.edit).open("a", encoding="utf-8") as handle:
                    handle.write(EDIT)
                index_s, report = timed("index", *remote, "--json", cwd=fresh, env=env)
                embedded.append(json.loads(report)["embedded"])
                edited.append(
                    index_s + codekith("search", QUERY, *remote, "--json", cwd=fresh, env=env)
                )
                note(f"run {i}: published {published[-1]:.2f} s, edited {edited[-1]:.2f} s")
            cold = []
            for i in range(args.cold_repeat):
                fresh = clone(args.repo, work / f"c{i}")
                cold.append(
                    codekith("index", cwd=fresh, env=env)
                    + codekith("search", QUERY, "--json", cwd=fresh, env=env)
                )
                note(f"cold run {i}: {cold[-1]:.1f} s")
    finally:
        server.stop()
    result: dict[str, Any] = {
        "repo": str(args.repo),
        "publish_s": round(publish_s, 1),
        "published_first_answer_s": round(statistics.median(published), 2),
        "published_runs_s": [round(t, 2) for t in published],
        "edited_first_answer_s": round(statistics.median(edited), 2),
        "edited_runs_s": [round(t, 2) for t in edited],
        "edited_embedded_locally": embedded,
        "cold_first_answer_s": round(statistics.median(cold), 1),
        "cold_runs_s": [round(t, 1) for t in cold],
    }
    result["ratio"] = round(result["cold_first_answer_s"] / result["published_first_answer_s"], 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
