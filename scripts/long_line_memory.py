"""Peak memory of `codekith index` on one-line files (issue 12, item 21).

Before lines were cut at 4000 characters, a 990 KB one-line file peaked at 1.0-1.4 GB and a
10 MB one at 6-9 GB. Prints the peak RSS of a whole `codekith index` process (model included)
for an ordinary file (the baseline) and for one-line files of 990 KB and 10 MB, in JavaScript
and in Python (the Python one also goes through the call-graph parser). Usage:
    scripts/long_line_memory.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

MEASURE = (
    "import resource, subprocess, sys\n"
    "subprocess.run(sys.argv[1:], check=True, capture_output=True)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)
CASES = {
    "baseline (small file)": ("small.py", b"def small():\n    return 1\n"),
    "990 KB one line, .js": ("one.js", b"var a=" + b"1+" * 495_000 + b"1;\n"),
    "990 KB one line, .py": ("one.py", b"DATA = '" + b"ab" * 495_000 + b"'\n"),
    "10 MB one line, .js": ("ten.js", b"var a=" + b"1+" * 5_000_000 + b"1;\n"),
    "10 MB one line, .py": ("ten.py", b"DATA = '" + b"ab" * 5_000_000 + b"'\n"),
}


def peak_mb(name: str, content: bytes) -> float:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / name).write_bytes(content)
        (root / ".codekith.toml").write_text("max-file-bytes = 20000000\n")
        command = [sys.executable, "-m", "codekith.cli", "index", str(root), "--json"]
        out = subprocess.run(
            [sys.executable, "-c", MEASURE, *command], check=True, capture_output=True, text=True
        )
        return int(out.stdout.strip()) / 1024


if __name__ == "__main__":
    for label, (name, content) in CASES.items():
        print(f"{label:24} peak RSS {peak_mb(name, content):7.0f} MB", flush=True)
