"""Start-up time of the commands that must answer at once: `--help`, `--version`, usage
errors and `status` (on an indexed ROOT). Prints the median wall time of each over
--repeat runs, its median CPU time (user + system: less sensitive to a loaded machine),
and the load average, since the figures move with it.

    python scripts/bench_cli_start.py /path/to/indexed/repo --repeat 5
    python scripts/bench_cli_start.py ROOT --codekith /other/venv/bin/codekith   # compare

`status` runs twice before timing: the first one after an index run reads the tables once
and saves what status needs (see Store.snapshot); the timed runs are the usual case.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = {
    "--help": ["--help"],
    "--version": ["--version"],
    "usage error (search, no query)": ["search"],
    "usage error (search -k abc)": ["search", "x", "-k", "abc"],
    "status": ["status"],
    "status --json": ["status", "--json"],
}


def timed(command: list[str], cwd: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="an indexed repository")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--codekith", default=str(Path(sys.executable).with_name("codekith")), help="executable"
    )
    args = parser.parse_args()
    for _ in range(2):
        timed([args.codekith, "status"], args.root)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name, arguments in COMMANDS.items():
        runs = [timed([args.codekith, *arguments], args.root) for _ in range(args.repeat)]
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(
            f"{name:32} wall median {statistics.median(walls):6.3f} s "
            f"(min {min(walls):.3f}, max {max(walls):.3f})  "
            f"CPU median {statistics.median(cpus):6.3f} s  n={len(runs)}"
        )
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
