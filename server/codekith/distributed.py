"""Chunking and embedding on many processes: local worker processes or a Ray cluster.

The only module that imports ray (lazily: it comes with the `[scale]` extra). Each worker
loads the embedding model once, then examines (checks, decodes, chunks) and embeds groups of
changed files and sends back their rows and new vectors. Workers never touch the index: the
driver commits what they return through the Store in atomic batches, so a distributed run
writes exactly what a local run writes (same tables, tombstones, catalog order, write lock),
and an interrupted one resumes like any other.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import socket
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from codekith.config import Settings
from codekith.embedding import FastEmbedder
from codekith.examine import Examined, SourceFile, examine

GROUP_BYTES = 256 * 1024  # ~6k lines, ~250 chunks: ~20 s of one CPU, small enough to balance
GROUP_FILES = 64
IN_FLIGHT_PER_WORKER = 2
BACKENDS = ("local", "ray")
# No group takes this long (~20 s of one CPU): a cluster that never schedules our actors,
# or an actor stuck loading the model, stops the run instead of hanging it.
RAY_RESULT_TIMEOUT_S = 900.0
# A Ray started here is a private, local one: no dashboard, no usage report (no network at
# run time), bound to the loopback interface instead of looking up a routable address.
LOCAL_RAY_OPTIONS: dict[str, Any] = {
    "include_dashboard": False,
    "log_to_driver": False,
    "_node_ip_address": "127.0.0.1",
}


class WorkerError(RuntimeError):
    """A worker failed or died; the run stops, what was committed stays consistent."""


@dataclass
class GroupResult:
    examined: list[Examined]
    vectors: dict[str, np.ndarray]
    worker: str


@dataclass
class FileWorker:
    """One per process or Ray actor: the model is loaded once, in the constructor."""

    settings: Settings
    known: frozenset[str]
    embedder: FastEmbedder = field(init=False)

    def __post_init__(self) -> None:
        self.embedder = FastEmbedder(self.settings.model, threads=1)

    def process(self, group: Sequence[SourceFile]) -> GroupResult:
        examined = [examine(source, self.settings) for source in group]
        documents = {
            row["content_hash"]: row["document"]
            for item in examined
            for row in item.rows
            if row["content_hash"] not in self.known
        }
        hashes = list(documents)
        matrix = self.embedder.embed_documents([documents[h] for h in hashes])
        worker = f"{socket.gethostname()}:{os.getpid()}"
        return GroupResult(examined, dict(zip(hashes, matrix, strict=True)), worker)


@dataclass(frozen=True)
class Distribution:
    """Where a run examines and embeds: `local` worker processes on this machine, or
    `ray` actors at `address` (`auto`, `ray://head:10001`, `host:6379`, `local` to start
    Ray here; None uses the Ray this process already initialised). `workers` 0 means one
    per CPU (of the cluster, for Ray)."""

    backend: str = "local"
    address: str | None = None
    workers: int = 0
    group_bytes: int = GROUP_BYTES

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}")
        if self.workers < 0:
            raise ValueError("workers must not be negative")

    def examine_and_embed(
        self,
        sources: Sequence[SourceFile],
        settings: Settings,
        known: frozenset[str],
        report: Any,
    ) -> Iterator[tuple[Examined, dict[str, np.ndarray]]]:
        """Each examined file with the vectors its group embedded (the first file of a
        group carries them), in the order groups finish."""
        groups = _groups(sources, self.group_bytes)
        report.distributed = {"backend": self.backend, "groups": len(groups), "by_worker": {}}
        if not groups:
            return
        run = _run_on_ray if self.backend == "ray" else _run_locally
        for result in run(groups, settings, known, self, report.distributed):
            files = report.distributed["by_worker"]
            files[result.worker] = files.get(result.worker, 0) + len(result.examined)
            vectors = result.vectors
            for item in result.examined:
                yield item, vectors
                vectors = {}


def _groups(sources: Sequence[SourceFile], group_bytes: int) -> list[list[SourceFile]]:
    groups: list[list[SourceFile]] = []
    current: list[SourceFile] = []
    size = 0
    for source in sources:
        if current and (size + source.size > group_bytes or len(current) >= GROUP_FILES):
            groups.append(current)
            current, size = [], 0
        current.append(source)
        size += source.size
    if current:
        groups.append(current)
    return groups


def _run_locally(
    groups: list[list[SourceFile]],
    settings: Settings,
    known: frozenset[str],
    distribution: Distribution,
    info: dict[str, Any],
) -> Iterator[GroupResult]:
    """Spawned processes (fork breaks LanceDB's and ONNX Runtime's threads)."""
    count = min(distribution.workers or os.cpu_count() or 1, len(groups))
    info["workers"] = count
    spawn = multiprocessing.get_context("spawn")
    inbox: Any = spawn.Queue()
    outbox: Any = spawn.Queue()
    workers = [
        spawn.Process(target=_serve, args=(settings, known, inbox, outbox), daemon=True)
        for _ in range(count)
    ]
    for worker in workers:
        worker.start()
    for _ in workers:  # all loaded before any group: one first to load took every group
        _next_message(outbox, workers, "ready")
    for group in groups:
        inbox.put(group)
    for _ in workers:
        inbox.put(None)
    try:
        for _ in groups:
            yield _next_message(outbox, workers, "ok")
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
            worker.join()


def _serve(settings: Settings, known: frozenset[str], inbox: Any, outbox: Any) -> None:
    try:
        worker = FileWorker(settings, known)
    except Exception as exc:
        outbox.put(("error", f"worker could not load the model: {exc}"))
        return
    outbox.put(("ready", None))
    while (group := inbox.get()) is not None:
        try:
            outbox.put(("ok", worker.process(group)))
        except Exception as exc:
            outbox.put(("error", f"{type(exc).__name__}: {exc}"))


def _next_message(outbox: Any, workers: list[Any], expected: str) -> Any:
    while True:
        try:
            status, value = outbox.get(timeout=2)
        except queue.Empty:
            dead = [w for w in workers if w.exitcode not in (None, 0)]
            if dead:
                raise WorkerError(f"a worker process died (exit code {dead[0].exitcode})") from None
            continue
        if status == "error":
            raise WorkerError(value)
        assert status == expected, (status, expected)
        return value


def _run_on_ray(
    groups: list[list[SourceFile]],
    settings: Settings,
    known: frozenset[str],
    distribution: Distribution,
    info: dict[str, Any],
) -> Iterator[GroupResult]:
    """One actor per worker (one CPU each), at most two groups queued per actor."""
    try:
        import ray
    except ImportError:
        raise WorkerError(
            "--ray needs Ray: pip install 'codekith[scale]' (or give no address for "
            "local worker processes)"
        ) from None
    started = not ray.is_initialized()
    if started:
        start_ray(ray, distribution.address)
    try:
        yield from _run_actors(ray, groups, settings, known, distribution, info)
    finally:
        if started:
            ray.shutdown()


def start_ray(ray: Any, address: str | None, **options: Any) -> None:
    """Join the cluster at `address`, or start a private local Ray (no dashboard, no usage
    report, loopback only); a Ray that cannot start raises its own reason as a WorkerError."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    local = address in (None, "local")
    settings = {**(LOCAL_RAY_OPTIONS if local else {"log_to_driver": False}), **options}
    try:
        ray.init(address=address, **settings)
    except Exception as exc:
        with contextlib.suppress(Exception):
            ray.shutdown()
        raise WorkerError(f"Ray did not start: {type(exc).__name__}: {exc}") from exc


def _run_actors(
    ray: Any,
    groups: list[list[SourceFile]],
    settings: Settings,
    known: frozenset[str],
    distribution: Distribution,
    info: dict[str, Any],
) -> Iterator[GroupResult]:
    cpus = int(ray.cluster_resources().get("CPU", 1))
    count = max(1, min(distribution.workers or cpus, cpus, len(groups)))
    info.update(workers=count, address=distribution.address or "")
    actor_class = ray.remote(num_cpus=1)(FileWorker)
    known_ref = ray.put(known)
    actors: list[Any] = [actor_class.remote(settings, known_ref) for _ in range(count)]
    pending: dict[Any, Any] = {}
    todo = iter(groups)
    try:
        for actor in actors * IN_FLIGHT_PER_WORKER:
            _submit(actor, todo, pending)
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1, timeout=RAY_RESULT_TIMEOUT_S)
            if not done:
                raise WorkerError(
                    f"no Ray worker finished a group in {RAY_RESULT_TIMEOUT_S:.0f} s "
                    "(is the cluster short of free CPUs?)"
                )
            ready = done[0]
            actor = pending.pop(ready)
            try:
                result: GroupResult = ray.get(ready)
            except ray.exceptions.RayError as exc:
                raise WorkerError(f"a Ray worker failed: {exc}") from exc
            _submit(actor, todo, pending)
            yield result
    finally:
        for actor in actors:
            with contextlib.suppress(Exception):
                ray.kill(actor)


def _submit(actor: Any, todo: Iterator[list[SourceFile]], pending: dict[Any, Any]) -> None:
    group = next(todo, None)
    if group is not None:
        pending[actor.process.remote(group)] = actor
