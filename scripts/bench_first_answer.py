"""Time to the first answer in a new clone: a published index in object storage vs a cold
local index.

Starts an S3-compatible server (moto) on 127.0.0.1, publishes the index of REPO there the way
CI would (`codekith index --db s3://…`), then in fresh clones times, as a user runs them:

* published: `codekith search QUERY --db s3://…` (process start, model load, first query
  against the published index; nothing is embedded locally),
* cold: `codekith index` then `codekith search QUERY` (embedding the whole repository).

moto on loopback answers in well under a millisecond; real S3 adds ~10-50 ms per request
(a first query makes a few dozen), so add ~1-2 s to the published figure for a real bucket.

    PYTHONPATH=. python scripts/bench_first_answer.py /work/bench/team-flask --repeat 3
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

from tests.objectstore import start_s3_server

QUERY = "how is the request context pushed"


def codekith(*args: str, cwd: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "codekith.cli", *args],
        cwd=cwd,
        env=env,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


def clone(repo: Path, into: Path) -> Path:
    subprocess.run(["git", "clone", "-q", str(repo), str(into)], check=True)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="runs of the published case")
    parser.add_argument("--cold-repeat", type=int, default=1, help="runs of the cold case")
    args = parser.parse_args()
    server = start_s3_server()
    try:
        env = {**os.environ, **server.env}
        uri = f"s3://{server.new_bucket()}/{args.repo.name}"
        with tempfile.TemporaryDirectory() as scratch:
            work = Path(scratch)
            publish_s = codekith("index", "--db", uri, cwd=clone(args.repo, work / "ci"), env=env)
            published = []
            for i in range(args.repeat):
                fresh = clone(args.repo, work / f"p{i}")
                published.append(
                    codekith("search", QUERY, "--db", uri, "--json", cwd=fresh, env=env)
                )
            cold = []
            for i in range(args.cold_repeat):
                fresh = clone(args.repo, work / f"c{i}")
                cold.append(
                    codekith("index", cwd=fresh, env=env)
                    + codekith("search", QUERY, "--json", cwd=fresh, env=env)
                )
    finally:
        server.stop()
    result = {
        "repo": str(args.repo),
        "publish_s": round(publish_s, 1),
        "published_first_answer_s": round(statistics.median(published), 2),
        "published_runs_s": [round(t, 2) for t in published],
        "cold_first_answer_s": round(statistics.median(cold), 1),
        "cold_runs_s": [round(t, 1) for t in cold],
    }
    result["ratio"] = round(result["cold_first_answer_s"] / result["published_first_answer_s"], 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
