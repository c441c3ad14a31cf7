"""Fault injection with a larger N than CI's (issue 12): kill -9 at N random moments of a
full and of an incremental `codekith index`, resume, and compare with an uninterrupted index
(chunks, catalog, edges, search results); then two CLI writers and a CLI beside a server.

Prints one line per trial (where the kill landed, what differed) and the totals. Jedi is on
by default here (CI's test turns it off to stay deterministic under load), so edge
differences caused by Jedi time limits show up. Usage:
    scripts/fault_injection.py [N] [--no-jedi] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections import Counter
from pathlib import Path

from codekith.embedding import FastEmbedder
from tests.faults import Scenario, cli_and_server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("n", nargs="?", type=int, default=10)
    parser.add_argument("--no-jedi", action="store_true")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--parts", type=int, default=2)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        scenario = Scenario.build(Path(folder), FastEmbedder(), args.parts, not args.no_jedi)
        print(f"reference runs (s): { ({k: round(v, 1) for k, v in scenario.seconds.items()}) }")
        for kind in ("full", "incremental"):
            equal = fresh = 0
            states: Counter[str] = Counter()
            for number in range(args.n):
                trial = getattr(scenario, f"{kind}_trial")(rng, number)
                equal += trial.equal
                fresh += trial.equal_to_fresh
                states[trial.state] += 1
                print(f"  {kind:11} kill at {trial.delay:5.1f}s ({trial.state}): {trial.diff}")
            print(
                f"{kind}: {equal}/{args.n} resumed equal to the uninterrupted run in every part, "
                f"{fresh}/{args.n} also equal to a fresh build once compacted; "
                f"kills landed {dict(states)}"
            )
        for number in range(max(1, args.n // 5)):
            print(f"two CLI writers: {scenario.two_cli_writers(number)}")
            print(f"CLI beside a server: {cli_and_server(scenario, number)}")
        print(f"total {time.perf_counter() - started:.0f}s")


if __name__ == "__main__":
    main()
