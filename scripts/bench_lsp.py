"""Language-server figures on a real repository: save-to-searchable latency, request
latency while a full index runs, and server memory.

    .venv/bin/python scripts/bench_lsp.py --repo /work/bench/flask [--edits 100] [--runs 3]

A save is timed until a search finds the saved function: the search is sent when the server
announces a finished run naming the file (`codekith/indexed`), then every 50 ms if it did not
find it; --poll searches every 50 ms from the save on instead (the figures before the
notification existed: each carries up to a poll interval and a search of waiting).
"announced" is the time until the notification itself, "search after save" how long each
of those searches took (the rest of "searchable"). Saves follow each other as soon as
the last one is searchable; --pause-ms waits that long first, as a user who reads the answer
before the next edit (the background edge update and Jedi pass then run between saves, and a
save may come while they do). Each save appends a new function; with --replace it takes the
place of the last save's one instead, so the file and the index keep their size and memory
growth over the saves is the server's own. A new function changes the file's interface, so
the graph re-resolves every file that reads it after each save; with --body each save edits
the docstring of one function only (the common edit). The first save is also reported alone: it used
to pay for loading what the server had not needed yet (the model, when the index was current).

The server runs with its default settings (pass --debounce-ms to override). The repository is
copied to a temp dir (its .git included) so the edits never touch it. RSS is sampled after the
first index and every 25 saves; with --runs N the whole measurement repeats in a fresh copy
and the medians of the runs' figures are printed last.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from benchstats import percentile

NOUNS = [
    "amber",
    "birch",
    "cobalt",
    "dune",
    "ember",
    "fjord",
    "garnet",
    "harbor",
    "iris",
    "juniper",
    "kelp",
    "lagoon",
    "marble",
    "nectar",
    "onyx",
    "pebble",
    "quartz",
    "russet",
    "saffron",
    "tundra",
    "umber",
    "violet",
    "willow",
    "yarrow",
    "zephyr",
    "anchor",
    "beacon",
    "canyon",
    "delta",
    "estuary",
]
TRIPLES = list(itertools.combinations(NOUNS, 3))
BODY_TARGET = "blend_target"  # the one function --body saves edit


def words_for(number: int) -> tuple[str, str, str]:
    """Three nouns no other save of this run uses together (4060 combinations)."""
    a, b, c = TRIPLES[number * 37 % len(TRIPLES)]
    return a, b, c


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Bench:
    def __init__(
        self, root: Path, debounce_ms: int | None, poll: bool = False, edit: str = "append"
    ):
        self.root = root
        self.edit = edit
        self.original: dict[Path, str] = {}  # file -> its text before the first save
        self.options = {} if debounce_ms is None else {"debounceMs": debounce_ms}
        self.client = LanguageClient("codekith-bench", "1")
        self.poll = poll
        self.announced: dict[str, float] = {}  # uri -> when a run naming it was announced
        self.search_s: list[float] = []  # how long each search after a save took
        self.announcement = asyncio.Event()

        @self.client.feature("codekith/indexed")
        def indexed(params: Any) -> None:
            for uri in params.indexed:
                self.announced[uri] = time.perf_counter()
            self.announcement.set()

        @self.client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def create(params: Any) -> None:
            return None

        @self.client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: Any) -> None:
            return None

        @self.client.feature(types.PROGRESS)
        def progress(params: Any) -> None:
            return None

        @self.client.feature(types.WINDOW_SHOW_MESSAGE)
        def message(params: Any) -> None:
            print("server says:", params.message, file=sys.stderr)

    async def start(self) -> None:
        await self.client.start_io(sys.executable, "-m", "codekith.cli", "serve")
        caps = types.ClientCapabilities(
            window=types.WindowClientCapabilities(work_done_progress=True)
        )
        await self.client.initialize_async(
            types.InitializeParams(
                capabilities=caps,
                root_uri=self.root.as_uri(),
                workspace_folders=[types.WorkspaceFolder(self.root.as_uri(), "bench")],
                initialization_options=self.options,
            )
        )
        self.client.initialized(types.InitializedParams())

    async def command(self, name: str, argument: dict[str, Any]) -> Any:
        return await self.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=name, arguments=[argument])
        )

    async def wait_ready(self) -> float:
        started = time.perf_counter()
        while True:
            folder = (await self.command("codekith.status", {}))["folders"][0]
            if folder["ready"] and not folder["indexing"] and folder.get("runs"):
                return time.perf_counter() - started
            await asyncio.sleep(0.5)

    async def save_to_searchable(self, path: Path, number: int) -> tuple[float, float | None]:
        """(seconds until a search finds the saved function, until the server announced
        it: None with --poll or when no announcement came first)."""
        a, b, c = words_for(number)
        name = BODY_TARGET if self.edit == "body" else f"blend_{a}_{b}_{c}_{number}"
        words = f"{a} {b} and {c}"
        self.original.setdefault(path, path.read_text())
        with path.open("a" if self.edit == "append" else "w") as handle:
            if self.edit != "append":
                handle.write(self.original[path])
            handle.write(
                f'\n\ndef {name}(value):\n    """Blend {words} into a '
                f'gradient number {number}."""\n'
                "    return value\n"
            )
        self.announced.pop(path.as_uri(), None)
        started = time.perf_counter()
        self.client.text_document_did_save(
            types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(path.as_uri()))
        )
        announced = None if self.poll else await self._announced(path.as_uri(), started)
        query = f"blend {words} gradient"
        while time.perf_counter() - started < 120:
            asked = time.perf_counter()
            hits = (await self.command("codekith.search", {"query": query, "k": 5}))["hits"]
            self.search_s.append(time.perf_counter() - asked)
            if any(h["symbol"] == name and f"number {number}." in h["snippet"] for h in hits):
                return time.perf_counter() - started, announced
            await asyncio.sleep(0.05)
        raise RuntimeError(f"{name} never became searchable")

    async def _announced(self, uri: str, started: float, timeout: float = 120) -> float | None:
        while uri not in self.announced and time.perf_counter() - started < timeout:
            self.announcement.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.announcement.wait(), 1.0)
        return self.announced[uri] - started if uri in self.announced else None

    async def latency_during_full_index(self, queries: list[str]) -> dict[str, Any]:
        reindex = asyncio.ensure_future(self.command("codekith.reindex", {"full": True}))
        await asyncio.sleep(0.5)
        search_ms: list[float] = []
        symbol_ms: list[float] = []
        count = 0
        while not reindex.done():
            query = queries[count % len(queries)]
            started = time.perf_counter()
            try:
                await self.command("codekith.search", {"query": query, "k": 10})
                search_ms.append((time.perf_counter() - started) * 1000)
            except Exception:  # the table is being rebuilt: answered, with an error
                search_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            await self.client.workspace_symbol_async(types.WorkspaceSymbolParams(query=query))
            symbol_ms.append((time.perf_counter() - started) * 1000)
            count += 1
            await asyncio.sleep(0.05)
        report = await reindex
        return {
            "requests": len(search_ms) + len(symbol_ms),
            "search_ms_p50": round(percentile(search_ms, 50), 1),
            "search_ms_p99": round(percentile(search_ms, 99), 1),
            "symbol_ms_p50": round(percentile(symbol_ms, 50), 1),
            "symbol_ms_p99": round(percentile(symbol_ms, 99), 1),
            "reindex": report,
        }

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


async def run(
    repo: Path,
    edits: int,
    target: str,
    debounce_ms: int | None,
    full_index: bool,
    reuse: bool,
    poll: bool = False,
    pause_s: float = 0.0,
    edit: str = "append",
) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="codekith-bench-lsp-"))
    root = work / repo.name
    skipped = ("*.lock",) if reuse else (".codekith",)
    shutil.copytree(repo, root, ignore=shutil.ignore_patterns(*skipped))
    bench = Bench(root, debounce_ms, poll, edit)
    await bench.start()
    assert bench.client._server is not None
    pid = bench.client._server.pid
    cold_s = await bench.wait_ready()
    rss_after_index = rss_mb(pid)
    rss_samples = [round(rss_after_index)]
    target_path = root / target
    samples: list[float] = []
    announced: list[float] = []
    for n in range(edits):
        searchable, told = await bench.save_to_searchable(target_path, n)
        samples.append(searchable)
        announced += [] if told is None else [told]
        await asyncio.sleep(pause_s)
        if (n + 1) % 25 == 0:
            rss_samples.append(round(rss_mb(pid)))
    rss_after_saves = rss_mb(pid)
    queries = [
        "register a url rule",
        "render a template with context",
        "json response",
        "session cookie signing",
        "command line interface",
        "error handler",
    ]
    during = await bench.latency_during_full_index(queries) if full_index else None
    result = {
        "repo": str(repo),
        "options": bench.options,
        "index_reused": reuse,
        "ready_s": round(cold_s, 1),
        "rss_mb_after_index": round(rss_after_index, 1),
        "rss_mb_after_saves": round(rss_after_saves, 1),
        "rss_mb_every_25_saves": rss_samples,
        "rss_mb_end": round(rss_mb(pid), 1),
        "method": "poll" if poll else "notification",
        "pause_ms": round(pause_s * 1000),
        "edit": edit,
        "save_to_searchable_ms": distribution(samples),
        "first_save_to_searchable_ms": round(samples[0] * 1000),
        "save_to_announced_ms": distribution(announced) if announced else None,
        "search_after_save_ms": distribution(bench.search_s),
        "during_full_index": during,
        "load_average": os.getloadavg(),
    }
    await bench.stop()
    shutil.rmtree(work, ignore_errors=True)
    return result


def distribution(seconds: list[float]) -> dict[str, Any]:
    return {
        "n": len(seconds),
        "p50": round(statistics.median(seconds) * 1000),
        "p95": round(percentile(seconds, 95) * 1000),
        "min": round(min(seconds) * 1000),
        "max": round(max(seconds) * 1000),
        "each": [round(s * 1000) for s in seconds],
    }


def medians(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each headline figure over repeated runs."""

    def median_of(get: Any) -> float:
        return round(statistics.median(get(r) for r in results), 1)

    return {
        "runs": len(results),
        "ready_s": median_of(lambda r: r["ready_s"]),
        "save_to_searchable_p50_ms": median_of(lambda r: r["save_to_searchable_ms"]["p50"]),
        "save_to_searchable_p95_ms": median_of(lambda r: r["save_to_searchable_ms"]["p95"]),
        "first_save_to_searchable_ms": median_of(lambda r: r["first_save_to_searchable_ms"]),
        "rss_mb_after_index": median_of(lambda r: r["rss_mb_after_index"]),
        "rss_mb_after_saves": median_of(lambda r: r["rss_mb_after_saves"]),
        "load_average": os.getloadavg(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--edits", type=int, default=100, help="saves measured per run")
    parser.add_argument("--runs", type=int, default=1, help="repeat in fresh copies")
    parser.add_argument(
        "--debounce-ms", type=int, default=None, help="override the server's default debounce"
    )
    parser.add_argument(
        "--skip-full-index",
        action="store_true",
        help="skip the request latency measured during a full re-index",
    )
    parser.add_argument(
        "--reuse-index",
        action="store_true",
        help="copy the repository's .codekith too: the server starts on an existing index, as a "
        "user reopening the editor does (ready_s is then its catch-up, not a cold index)",
    )
    parser.add_argument(
        "--poll",
        action="store_true",
        help="search every 50 ms from the save on, not from the server's codekith/indexed",
    )
    parser.add_argument(
        "--file",
        default="src/flask/helpers.py",
        help="the file (relative to the repo) that gets edited and saved",
    )
    parser.add_argument(
        "--pause-ms",
        type=int,
        default=0,
        help="wait this long after a save is searchable before the next save",
    )
    edits = parser.add_mutually_exclusive_group()
    edits.add_argument(
        "--replace",
        action="store_const",
        const="replace",
        dest="edit",
        help="each save's function replaces the last save's one (constant file and index size)",
    )
    edits.add_argument(
        "--body",
        action="store_const",
        const="body",
        dest="edit",
        help="each save changes only the docstring of one function (after the first save, "
        "which adds it, the file's interface stays: other files' graph results hold)",
    )
    args = parser.parse_args()
    results = []
    for _ in range(args.runs):
        result = asyncio.run(
            run(
                args.repo.resolve(),
                args.edits,
                args.file,
                args.debounce_ms,
                not args.skip_full_index,
                args.reuse_index,
                args.poll,
                args.pause_ms / 1000,
                args.edit or "append",
            )
        )
        print(json.dumps(result, indent=2), flush=True)
        results.append(result)
    if len(results) > 1:
        print(json.dumps({"median_of_runs": medians(results)}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
