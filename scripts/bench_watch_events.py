"""What a burst of watched-file events costs the language server's event loop.

The server watches every file (`**/*`) and judges each event by its path; making a
virtualenv inside the workspace sends thousands of events it has no use for. This feeds
`--events` such events (and as many of files it keeps) to the real
`workspace/didChangeWatchedFiles` handler of a server with one folder, the index runs they
would start left out, and prints the medians of `--repeat` rounds.

    .venv/bin/python scripts/bench_watch_events.py .
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

from lsprotocol import types

from codekith.embedding import FastEmbedder
from codekith.lsp.server import create_server
from codekith.lsp.session import WorkspaceSession


def handler_ms(handler: Any, params: types.DidChangeWatchedFilesParams, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        handler(params)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def events(root: Path, names: list[str]) -> types.DidChangeWatchedFilesParams:
    changed = types.FileChangeType.Changed
    return types.DidChangeWatchedFilesParams(
        [types.FileEvent((root / n).as_uri(), changed) for n in names]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    root = args.root.resolve()
    server = create_server()
    session = WorkspaceSession(root, {}, FastEmbedder, lambda title: None, lambda m: None)
    kept: list[str] = []
    session.schedule = lambda paths=None, **_: kept.extend(paths or ())  # type: ignore[method-assign]
    server.sessions[root] = session
    handler = server.protocol.fm.features[types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    dropped = [f".venv/lib/python3.11/site-packages/p{i}/m{i}.py" for i in range(args.events)]
    used = [f"src/p{i}/m{i}.py" for i in range(args.events)]
    for label, names in (
        ("a virtualenv's files (dropped)", dropped),
        ("source files (kept)", used),
    ):
        kept.clear()
        ms = handler_ms(handler, events(root, names), args.repeat)
        print(f"{args.events:,} events of {label}: median {ms:.0f} ms, {len(kept):,} kept")


if __name__ == "__main__":
    main()
