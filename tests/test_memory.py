"""The server's allocator settings, measured on the C library itself (glibc here)."""

from __future__ import annotations

import subprocess
import sys

import pytest

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
