"""What a user waits for at the command line: `codekith index` after a one-function edit,
after a branch switch back, and with nothing changed, and `codekith search` (a new query
each time; as it answers by default, tests and documentation apart, with `--tests-apart 0`,
the documentation apart only, and with `--docs 0` too, one list),
each as a fresh process.

    .venv/bin/python scripts/bench_cli.py --repo /work/bench/flask [--repeat 5] [--steps 50]
        [--reuse-index] [--no-daemon]

As a user runs it, the first run (the full index) starts the warm daemon (codekith.daemon)
and the later ones go to it; its CPU seconds are counted with the client's. --no-daemon
times every run on its own (CODEKITH_DAEMON=0). The daemon's socket lives in a temp folder
of the benchmark's, and the daemon is stopped at the end.

The repository (a git checkout) is copied to a temp dir with its .git, indexed once in full
(--reuse-index: its own .codekith, built at its HEAD, is copied instead), then every figure
is the wall time of one `codekith index --json` process, process start and imports included
(the package is byte-compiled first, as an installation is),
and its CPU seconds (user + sys: steadier on a busy machine); medians over --repeat runs.
"switch back" checks out the commit --steps first-parent steps back, indexes (not timed),
checks the original commit out again and times the index that follows: every chunk it needs
was embedded before, so it should embed nothing, and from the second repeat on (with
--reuse-index: the copied index has no cache of examined files yet) every file it reads
was examined before (`examined_cached`).
"""

from __future__ import annotations

import argparse
import ast
import compileall
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def codekith() -> list[str]:
    script = Path(sys.executable).parent / "codekith"
    return [str(script)] if script.exists() else [sys.executable, "-m", "codekith.cli"]


def byte_compile_codekith() -> None:
    """Write the .pyc of the codekith that the timed processes import (PYTHONPATH
    included): with PYTHONDONTWRITEBYTECODE set, as in some sandboxes, a module whose .pyc
    is missing or stale is compiled again by every process, which a user's installation
    does once (compiling all of codekith takes 0.27 s here; a process compiles what it
    imports), so a fresh worktree compared with a used one would start slower."""
    spec = importlib.util.find_spec("codekith")
    if spec is not None and spec.submodule_search_locations:
        for folder in spec.submodule_search_locations:
            compileall.compile_dir(folder, quiet=1)


def children_cpu_s() -> float:
    """CPU seconds of the finished client processes and of the daemon, if one is up."""
    from codekith import daemon

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    state = daemon.status() if daemon.enabled() else None
    return usage.ru_utime + usage.ru_stime + (process_cpu_s(state["pid"]) if state else 0.0)


def process_cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def no_jedi_pass_running(root: Path, deadline_s: float = 900) -> None:
    """Wait until the detached Jedi pass (`codekith refine`) that the last run may have
    started is done: it would compete with the next timed run for the CPU, which a user
    who edits between runs does not see."""
    from codekith.project import Project

    store = Project(root).store
    deadline = time.monotonic() + deadline_s
    while store.refining():
        if time.monotonic() > deadline:
            raise SystemExit(f"the Jedi pass of {root} still runs after {deadline_s:.0f} s")
        time.sleep(0.5)


def timed(root: Path, *args: str) -> tuple[float, dict[str, Any]]:
    """Wall seconds of one `codekith ARGS --json` process, and its JSON output with the
    CPU seconds, user + sys, under "cpu_s" (steadier than wall on a busy machine; the
    detached Jedi pass an index may start is not counted, and is waited for before the
    next)."""
    no_jedi_pass_running(root)
    started, cpu = time.perf_counter(), children_cpu_s()
    done = subprocess.run(
        [*codekith(), *args, "--json"], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"codekith {args[0]} failed ({done.returncode}): {done.stderr[-2000:]}")
    return wall, {**json.loads(done.stdout), "cpu_s": children_cpu_s() - cpu}


def index(root: Path) -> tuple[float, dict[str, Any]]:
    return timed(root, "index", str(root))


def search(root: Path, query: str, *options: str) -> tuple[float, dict[str, Any]]:
    """As `index`, the hits counted as "indexed" for the summary."""
    wall, found = timed(root, "search", query, "--root", str(root), *options)
    return wall, {"embedded": 0, "indexed": len(found["hits"]), "cpu_s": found["cpu_s"]}


class FunctionEditor:
    """Adds one statement to the last multi-line function of a file; each edit is new."""

    def __init__(self, path: Path):
        self.path = path
        self.original = path.read_text(encoding="utf-8")
        functions = [
            node
            for node in ast.walk(ast.parse(self.original))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body[-1].lineno > node.lineno
        ]
        last = max(functions, key=lambda f: f.lineno).body[-1]
        self.after = last.end_lineno or last.lineno
        self.indent = " " * last.col_offset
        self.count = 0

    def edit(self) -> None:
        self.count += 1
        lines = self.original.split("\n")
        lines.insert(self.after, f"{self.indent}_bench_edit = {self.count}")
        self.path.write_text("\n".join(lines), encoding="utf-8")

    def restore(self) -> None:
        self.path.write_text(self.original, encoding="utf-8")


def summary(runs: list[tuple[float, dict[str, Any]]]) -> dict[str, Any]:
    walls = [wall for wall, _ in runs]
    graph = [report.get("graph") or {} for _, report in runs]
    return {
        "median_s": round(statistics.median(walls), 3),
        "min_s": round(min(walls), 3),
        "max_s": round(max(walls), 3),
        "cpu_median_s": round(statistics.median(report["cpu_s"] for _, report in runs), 3),
        "embedded": [report["embedded"] for _, report in runs],
        "indexed": [report["indexed"] for _, report in runs],
        "examined_cached": [report.get("examined_cached") for _, report in runs],
        "walls_s": [round(wall, 3) for wall in walls],
        "graph_fast_s": [g.get("fast_s") for g in graph],
        "graph_jedi_s": [g.get("jedi_s") for g in graph],
        "graph_files_resolved": [g.get("files_resolved") for g in graph],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, required=True, help="a git checkout")
    parser.add_argument("--file", default="src/flask/helpers.py", help="the file edited")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--steps", type=int, default=50, help="first-parent commits back")
    parser.add_argument(
        "--reuse-index",
        action="store_true",
        help="copy the repository's own .codekith (built at its HEAD) instead of timing a "
        "full index; the first run then only catches up",
    )
    parser.add_argument("--no-daemon", action="store_true", help="every run on its own")
    args = parser.parse_args()
    byte_compile_codekith()
    work = Path(tempfile.mkdtemp(prefix="codekith-bench-cli-"))
    root = work / args.repo.name
    os.environ["XDG_RUNTIME_DIR"] = str(work)
    os.environ["CODEKITH_DAEMON"] = "0" if args.no_daemon else "1"
    try:
        skipped = () if args.reuse_index else (".codekith",)
        shutil.copytree(args.repo, root, ignore=shutil.ignore_patterns(*skipped))
        full = index(root)
        noop = [index(root) for _ in range(args.repeat)]
        editor = FunctionEditor(root / args.file)
        edits = []
        for _ in range(args.repeat):
            editor.edit()
            edits.append(index(root))
        editor.restore()
        index(root)
        head = git(root, "rev-parse", "HEAD")
        back = []
        for _ in range(args.repeat):
            git(root, "checkout", "-q", "--detach", f"{head}~{args.steps}")
            index(root)
            git(root, "checkout", "-q", "--detach", head)
            back.append(index(root))
        searches: list[tuple[float, dict[str, Any]]] = []
        docs_apart: list[tuple[float, dict[str, Any]]] = []
        one_list: list[tuple[float, dict[str, Any]]] = []
        turns = [
            (searches, ()),
            (docs_apart, ("--tests-apart", "0")),
            (one_list, ("--tests-apart", "0", "--docs", "0")),
        ]
        for n in range(args.repeat):  # rotating: none gets the warmer turn throughout
            for runs, options in turns[n % 3 :] + turns[: n % 3]:
                runs.append(search(root, f"register a function to run after request {n}", *options))
        result = {
            "repo": str(args.repo),
            "file": args.file,
            "reused_index": args.reuse_index,
            "full_index_s": round(full[0], 2),
            "full_index_cpu_s": round(full[1]["cpu_s"], 2),
            "full_index_chunks": full[1]["chunks_total"],
            "noop": summary(noop),
            "one_function_edit": summary(edits),
            "switch_back": summary(back),
            "search": summary(searches),
            "search_docs_apart_only": summary(docs_apart),
            "search_one_list": summary(one_list),
            "daemon": not args.no_daemon,
            "load_average": os.getloadavg(),
        }
        print(json.dumps(result, indent=2))
    finally:
        from codekith import daemon

        daemon.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
