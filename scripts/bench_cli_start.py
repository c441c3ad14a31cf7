"""Start-up time of the commands that must answer at once: `--help`, `--version`, usage
errors and `status` (on an indexed ROOT). Prints the median wall time of each over
--repeat runs, and the load average, since the figures move with it.

    python scripts/bench_cli_start.py /path/to/indexed/repo --repeat 5
    python scripts/bench_cli_start.py ROOT --codekith /other/venv/bin/codekith   # compare

`status` runs twice before timing: the first one after an index run reads the tables once
and saves what status needs (see Store.snapshot); the timed runs are the usual case.
"""

from __future__ import annotations

import argparse
import os
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


def wall_time(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="an indexed repository")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--codekith", default=str(Path(sys.executable).with_name("codekith")), help="executable"
    )
    args = parser.parse_args()
    for _ in range(2):
        wall_time([args.codekith, "status"], args.root)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name, arguments in COMMANDS.items():
        times = [wall_time([args.codekith, *arguments], args.root) for _ in range(args.repeat)]
        print(
            f"{name:32} median {statistics.median(times):6.3f} s  "
            f"(min {min(times):.3f}, max {max(times):.3f}, n={len(times)})"
        )
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
