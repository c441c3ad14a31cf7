"""Jedi in a child process, so that a call that never returns is killed, never waited for.

The child (`python -m codekith.graph.jedi_worker ROOT TIME_LIMIT`) keeps one warm
JediResolver and answers one job at a time over its stdin/stdout (length-prefixed pickles).
Each file gets a CPU-time limit inside the child (its partial answer counts as timed out);
the parent adds a wall-clock deadline on top and kills the child when it passes, so neither
a hung inference nor a stopped child can hold a lock, a save or a shutdown. The child exits
when its stdin closes, so it never outlives the process that started it.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import select
import struct
import subprocess
import sys
import threading
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from codekith.graph.model import Edge

HEADER = struct.Struct("!I")


@dataclass(frozen=True)
class JediJob:
    path: str
    source: str
    variant: str  # the graph derivation the answer is for
    skip: frozenset[tuple[str, int]] = frozenset()


@dataclass
class JediResult:
    path: str
    variant: str
    edges: list[Edge] = field(default_factory=list)
    timed_out: bool = False


def _send(stream: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(HEADER.pack(len(data)) + data)
    stream.flush()


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            raise EOFError("the Jedi worker closed its pipe")
        data += chunk
    return data


def _receive(stream: IO[bytes]) -> Any:
    (size,) = HEADER.unpack(_read_exactly(stream, HEADER.size))
    return pickle.loads(_read_exactly(stream, size))


class JediWorker:
    """The parent's handle: `resolve` blocks at most `deadline_s` per file."""

    def __init__(
        self, root: Path, time_limit_s: float, deadline_s: float, import_roots: Iterable[str] = ()
    ) -> None:
        self.root = root
        self.import_roots = sorted(import_roots)
        self.time_limit_s = time_limit_s
        self.deadline_s = deadline_s
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._finalizer: weakref.finalize | None = None
        self._retired = False

    @property
    def pid(self) -> int | None:
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    def resolve(self, job: JediJob) -> JediResult:
        """The job's edges; timed out (and the child killed) past the deadline, or at
        once after `retire`."""
        with self._lock:
            if self._retired:
                return JediResult(job.path, job.variant, [], timed_out=True)
            process = self._start()
        assert process.stdin is not None and process.stdout is not None
        try:
            _send(process.stdin, job)
            ready, _, _ = select.select([process.stdout], [], [], self.deadline_s)
            if ready:
                result: JediResult = _receive(process.stdout)
                return result
        except (OSError, EOFError, pickle.PickleError, ValueError):
            pass
        self.close()
        return JediResult(job.path, job.variant, [], timed_out=True)

    def close(self) -> None:
        """Kill the child (a later `resolve` starts a new one)."""
        with self._lock:
            process, self._process = self._process, None
        if process is not None:
            _kill(process)

    def retire(self) -> None:
        """Kill the child for good: a `resolve` racing with a shutdown must not start a
        new one that the shutdown would then wait for."""
        with self._lock:
            self._retired = True
        self.close()

    def _start(self) -> subprocess.Popen[bytes]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        command = [
            sys.executable,
            "-m",
            __name__,
            str(self.root),
            str(self.time_limit_s),
            json.dumps(self.import_roots),
        ]
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a terminal's Ctrl-C goes to the parent only
        )
        self._finalizer = weakref.finalize(self, _kill, self._process)
        return self._process


def _kill(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def _serve(root: Path, time_limit_s: float, import_roots: list[str]) -> None:
    """The child's loop: one job in, one result out, until stdin closes."""
    from codekith.graph.jedi_resolver import JediResolver

    resolver = JediResolver(root, time_limit_s, import_roots)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # anything Jedi prints must not corrupt the protocol
    while True:
        try:
            job: JediJob = _receive(stdin)
        except EOFError:
            return
        edges = resolver.resolve_file(job.path, job.source, job.skip)
        _send(stdout, JediResult(job.path, job.variant, edges, job.path in resolver.timed_out))


if __name__ == "__main__":
    from codekith.graph import jedi_worker  # pickles name the module, not __main__

    os.nice(5)  # refinement yields the CPU to indexing and queries
    jedi_worker._serve(Path(sys.argv[1]), float(sys.argv[2]), json.loads(sys.argv[3]))
