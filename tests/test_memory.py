"""The server's allocator settings, measured on the C library itself (glibc here), and the
model's threads, which must not spin while idle."""

from __future__ import annotations

import subprocess
import sys

import pytest

from codekith.embedding import FastEmbedder
from codekith.memory import _libc

PROBE = """
import ctypes, sys, threading
from codekith.memory import _libc, limit_malloc_arenas
if sys.argv[1] == "limit":
    assert limit_malloc_arenas()
libc = _libc()
libc.malloc.restype = ctypes.c_void_p
start = threading.Barrier(8)

def work():
    start.wait()  # all at once: each busy thread wants an arena of its own
    blocks = [libc.malloc(4096) for _ in range(2000)]
    for block in blocks:
        libc.free(ctypes.c_void_p(block))

threads = [threading.Thread(target=work) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
libc.malloc_stats()  # one "Arena N:" block per arena, on stderr
"""


def arenas(mode: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return sum(line.startswith("Arena ") for line in done.stderr.splitlines())


@pytest.mark.skipif(_libc() is None or not hasattr(_libc(), "mallopt"), reason="not glibc")
def test_a_server_keeps_to_two_malloc_arenas_however_many_threads_allocate():
    assert arenas("default") > 2  # the probe does make threads take arenas of their own
    assert arenas("limit") <= 2


HEAP_PROBE = """
import gc, time, weakref
from codekith.memory import settle_heap

class Node:
    pass

def cycle():
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a

kept = [[cycle() for _ in range(200)] for _ in range(1000)]  # a long-lived heap
"""

SETTLE_PROBE = (
    HEAP_PROBE
    + """dropped = cycle()
gone = weakref.ref(dropped)
del dropped  # garbage in a cycle: only the collector frees it
frozen = settle_heap()
assert gone() is None, "the garbage was frozen, not collected"
assert frozen >= 400_000 and gc.get_freeze_count() == frozen
started = time.process_time()
gc.collect()
settled = time.process_time() - started
gc.unfreeze()
started = time.process_time()
gc.collect()
walked = time.process_time() - started
again = cycle()
gone = weakref.ref(again)
del again
assert settle_heap() >= frozen and gone() is None  # a second settle collects first too
print(settled, walked)
"""
)


def test_settling_the_heap_collects_garbage_then_spares_the_collector_the_rest():
    """The language server's long-lived heap (parse trees, graph derivations) made every
    full collection walk all of it, holding the GIL for 180-230 ms on flask. After
    settle_heap a full collection skips what was alive then, and garbage cycles made
    before it were collected, not frozen."""
    probe = subprocess.run(
        [sys.executable, "-c", SETTLE_PROBE], capture_output=True, text=True, timeout=120
    )
    assert probe.returncode == 0, probe.stderr
    settled, walked = map(float, probe.stdout.split())
    assert settled < walked / 5, (settled, walked)


YOUNG_SETTLE_PROBE = (
    HEAP_PROBE
    + """old = cycle()
settle_heap()  # kept and old are frozen now
old_gone = weakref.ref(old)
del old  # garbage among the frozen objects
young = cycle()
young_gone = weakref.ref(young)
del young  # garbage made since the settle
started = time.process_time()
settle_heap(False)
quick = time.process_time() - started
assert young_gone() is None, "the young garbage was frozen, not collected"
assert old_gone() is not None, "a young settle walked the frozen objects"
started = time.process_time()
settle_heap()
whole = time.process_time() - started
assert old_gone() is None, "a whole settle left the old cycle"
print(quick, whole)
"""
)


def test_a_young_settle_collects_new_garbage_without_walking_the_frozen_heap():
    """The server settles after each idle moment between saves; walking the whole heap
    then held the next save's run and search up (~380 ms on flask). A young settle frees
    the cycles made since the last settle, leaves the frozen ones to a whole settle, and
    costs a fraction of one."""
    probe = subprocess.run(
        [sys.executable, "-c", YOUNG_SETTLE_PROBE], capture_output=True, text=True, timeout=120
    )
    assert probe.returncode == 0, probe.stderr
    quick, whole = map(float, probe.stdout.split())
    assert quick < whole / 5, (quick, whole)


INDEX_PROBE = """
import gc, sys
from codekith.cli import main
from codekith.indexer import Indexer
during = []
run = Indexer.run
def recording_run(self, *args, **kwargs):
    during.append(gc.get_threshold()[0])
    return run(self, *args, **kwargs)
Indexer.run = recording_run
before = gc.get_threshold()[0]
code = main(["index", sys.argv[1], "--json"])
print(code, before, during, gc.get_threshold()[0], file=sys.stderr)
"""


def test_the_index_command_collects_young_garbage_less_often_and_then_as_before(tmp_path):
    """A cold `codekith index` builds millions of long-lived objects (the stored graph,
    each changed file's derivation); with Python's default threshold every 700 allocations
    started a collection that walked them again. An in-process caller keeps its own
    thresholds afterwards (a test relying on collections failed when they leaked)."""
    (tmp_path / "app.py").write_text("def main():\n    return 1\n")
    probe = subprocess.run(
        [sys.executable, "-c", INDEX_PROBE, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stderr.split("\n")[-2] == "0 700 [20000] 700", probe.stderr


def test_every_model_session_lets_its_threads_sleep_between_runs(embedder):
    """ONNX Runtime's threads spin-wait for work by default: 18-24% more CPU per chunk
    embedded, stolen from the indexer's own threads. Every session we make sleeps."""
    another = FastEmbedder(threads=1, arena=False)
    for model in (embedder, another):
        for side in (model._model, model._queries()):  # documents, questions
            session = side.model.model  # fastembed's model, its ONNX Runtime session
            entry = session.get_session_options().get_session_config_entry
            assert entry("session.intra_op.allow_spinning") == "0"
    assert another.embed_documents(["def add(a, b):\n    return a + b"]).shape == (1, 384)
