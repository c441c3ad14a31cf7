"""Giving freed memory back to the system, and keeping the cycle collector from walking
long-lived objects again and again. A long-lived server frees batch buffers, Arrow
tables and parse trees after every run, but glibc keeps the pages in its arenas, so the
resident size only grew (measured on flask: about 3 MB per save)."""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

M_ARENA_MAX = -8  # glibc's mallopt parameter
SERVER_ARENAS = 2
BATCH_GC_THRESHOLDS = (20_000, 10, 10)  # Python's default: (700, 10, 10)


@cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


def release_free_memory() -> bool:
    """Return the allocator's free pages to the system (glibc's malloc_trim); False where
    the C library has no such call (macOS, musl)."""
    libc = _libc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True


def limit_malloc_arenas(arenas: int = SERVER_ARENAS) -> bool:
    """Cap glibc's malloc arenas (by default up to 8 per core, one per busy thread) for a
    long-lived server: its threads (LanceDB's, ONNX Runtime's, the event loop's executor)
    each kept an arena of freed pages that malloc_trim could not give back. flask's
    language server held 492-511 MB after indexing and 555-586 MB after 100 saves, with 2
    arenas 426-441 and 484-504 MB, indexing as fast. Call it before threads start; False
    where the C library has no mallopt."""
    libc = _libc()
    if libc is None or not hasattr(libc, "mallopt"):
        return False
    return bool(libc.mallopt(M_ARENA_MAX, arenas))


def settle_heap(everything: bool = True) -> int:
    """Collect cyclic garbage once, then exempt every object alive now from the cyclic
    collector (gc.freeze). A language server's heap is mostly long-lived parse trees and
    graph derivations, and each full collection walked all of them: on flask 180-230 ms,
    holding the GIL, every 4-6 s while the user saves, whatever a save's run or search was
    doing. Frozen objects are still freed by reference counting. With `everything` the
    frozen objects are walked again (unfrozen first: a cycle among them that became garbage
    is freed only so; ~380 ms in flask's language server); without, only what was made
    since the last settle (the garbage of the runs since: 33 vs 168 ms for a whole walk
    in-process after 12 flask saves), which is all an idle moment between saves can afford.
    Call it when idle. Returns how many objects are frozen."""
    if everything:
        gc.unfreeze()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


@contextmanager
def collect_less_often() -> Iterator[None]:
    """Within it, let a batch (`codekith index`) allocate 20,000 objects, not 700, between
    young collections; the thresholds before it come back after, so an in-process caller
    (tests, a library user) keeps its own. Decoding the stored graph and resolving the
    changed files build millions of small objects that stay alive, and each collection
    walked them again: on flask a one-function edit re-indexed by the CLI took 4.75-6.81
    CPU-s (median 5.06), with this 4.09-4.35 (median 4.22), peak RSS the same (496-571 vs
    506-571 MB). Garbage cycles wait at most 20,000 allocations longer."""
    before = gc.get_threshold()
    gc.set_threshold(*BATCH_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """A graph build keeps what it allocates (facts, memoised answers: millions of objects
    on a large workspace) and makes almost no cyclic garbage, so the cycle collector would
    only scan the growing heap again and again: with it on, a cold build of Newtonsoft.Json
    takes 1.7x the CPU time (a resolution 2.8x, for 424 objects found). Parsing makes
    none: the front ends let go of their extractors (`frontend.extracted`), and the
    chunker's recursion is no closure (`test_graph_reads` checks). Reference counting
    frees the rest as always."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
