"""The Jedi resolver and the merge, on small real packages written to disk."""

from __future__ import annotations

import gc
import textwrap
import threading
import time
from pathlib import Path

import pytest

from codekith.graph import merge_edges
from codekith.graph.builder import JEDI_RETRIES, GraphBuilder
from codekith.graph.incremental import decode_variant, encode_variant
from codekith.graph.jedi_resolver import JediResolver
from codekith.graph.model import Edge

PKG = {
    "pkg/__init__.py": "from .core import Engine\n",
    "pkg/core.py": """
        def tool():
            return 1

        class Base:
            def __init__(self):
                pass

        class Engine(Base):
            def start(self):
                lam = lambda: tool()
                return lam()
        """,
    "main.py": """
        from pkg import Engine

        def run():
            e = Engine()
            e.start()
            print(e)
        """,
}


def write(root: Path) -> None:
    for path, text in PKG.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(textwrap.dedent(text))


def pairs(edges: list[Edge]) -> set[tuple[str, str]]:
    return {(e.src, e.dst) for e in edges}


def test_call_edges_with_workspace_qualnames(tmp_path: Path) -> None:
    write(tmp_path)
    resolver = JediResolver(tmp_path)
    assert pairs(resolver.resolve_file("main.py")) == {
        ("main.run", "pkg.core.Base.__init__"),  # instantiation runs the inherited __init__
        ("main.run", "pkg.core.Engine.start"),
    }  # print() is outside the workspace
    core = pairs(resolver.resolve_file("pkg/core.py"))
    assert ("pkg.core.Engine.start.<lambda1>", "pkg.core.tool") in core
    assert ("pkg.core.Engine.start", "pkg.core.Engine.start.<lambda1>") in core


def test_a_package_installed_beside_codekith_is_read_from_the_workspace(tmp_path: Path) -> None:
    """A src-layout workspace whose package codekith's own environment also has (requests
    is installed beside it): Jedi read the installed copy, and calls into it left the
    workspace (requests' own repository lost them)."""
    files = {
        "src/requests/__init__.py": "",
        "src/requests/sessions.py": (
            "class Session:\n    def send(self, request):\n        return request\n"
        ),
        "src/requests/api.py": (
            "from requests import sessions\n\n\n"
            "def request(prepared):\n    session = sessions.Session()\n"
            "    return session.send(prepared)\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    edges = pairs(JediResolver(tmp_path, import_roots=["src"]).resolve_file("src/requests/api.py"))
    assert ("requests.api.request", "requests.sessions.Session.send") in edges


def test_unsaved_source_is_used(tmp_path: Path) -> None:
    write(tmp_path)
    edges = JediResolver(tmp_path).resolve_file("main.py", "from pkg.core import tool\ntool()\n")
    assert [(e.src, e.dst, e.line) for e in edges] == [("main", "pkg.core.tool", 2)]


# the limit's signal may land in a gc callback that another test installed (hypothesis's):
# swallowed there, by design (the next test covers it), so it is no warning about this test
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_time_limit_interrupts_cleanly(tmp_path: Path) -> None:
    write(tmp_path)
    body = "".join(f"def f{i}():\n    return f{i - 1}() if {i} else 0\n" for i in range(400))
    (tmp_path / "big.py").write_text(body)
    resolver = JediResolver(tmp_path, time_limit=0.05)
    resolver.resolve_file("big.py")
    assert "big.py" in resolver.timed_out
    resolver.time_limit = 20.0
    assert ("main.run", "pkg.core.Engine.start") in pairs(resolver.resolve_file("main.py"))


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_time_limit_holds_when_its_signal_lands_in_a_gc_callback(tmp_path: Path) -> None:
    """The limit's signal raises in whatever code runs; in a garbage-collector callback
    (hypothesis installs one) the exception is swallowed, and the CPU-time poll between
    names must still end the file (a CI run lost its timeout this way)."""
    write(tmp_path)
    body = "".join(f"def f{i}():\n    return f{i - 1}() if {i} else 0\n" for i in range(400))
    (tmp_path / "big.py").write_text(body)
    calls = []

    def slow_hook(phase: str, info: dict[str, int]) -> None:  # a library's gc callback
        if phase == "start" and len(calls) < 3:
            calls.append(phase)
            end = time.thread_time() + 0.2
            while time.thread_time() < end:
                pass

    resolver = JediResolver(tmp_path, time_limit=0.05)
    thresholds = gc.get_threshold()
    gc.set_threshold(100, 10, 10)  # collections are sure to start while Jedi works
    gc.callbacks.append(slow_hook)
    try:
        resolver.resolve_file("big.py")
    finally:
        gc.callbacks.remove(slow_hook)
        gc.set_threshold(*thresholds)
    assert calls and "big.py" in resolver.timed_out


def test_time_limit_off_the_main_thread(tmp_path: Path) -> None:
    write(tmp_path)
    (tmp_path / "big.py").write_text("".join(f"def f{i}():\n    f{i}()\n" for i in range(400)))
    resolver = JediResolver(tmp_path, time_limit=0.05)
    worker = threading.Thread(target=resolver.resolve_file, args=("big.py",))
    worker.start()
    worker.join(30)
    assert "big.py" in resolver.timed_out


def test_merge_keeps_fast_sites_and_fills_gaps() -> None:
    fast = [Edge("m", "m.a", "call", "m.py", 1), Edge("m", "m.K", "inherit", "m.py", 2)]
    jedi = [Edge("m", "m.b", "call", "m.py", 1), Edge("m", "m.c", "call", "m.py", 3)]
    assert pairs(merge_edges(fast, jedi)) == {("m", "m.a"), ("m", "m.K"), ("m", "m.c")}


def test_a_timed_out_jedi_answer_is_retried_by_later_runs(tmp_path: Path) -> None:
    """Issue 12 items 12 and 21: Jedi timing out under load lost edges no later run retried.
    A timed-out file stays pending (its attempts stored with its derivation, so a cold
    builder in a later run retries it too) until JEDI_RETRIES attempts; then its partial
    answer counts."""
    write(tmp_path)
    builder = GraphBuilder(tmp_path)
    builder.update(dict.fromkeys(PKG, "v1"))
    variant = next(v for v in builder.pending() if v.path == "main.py")
    for _ in range(JEDI_RETRIES - 1):
        assert builder.refine("main.py", variant.id, [], timed_out=True) is not None
        assert "main.py" in {v.path for v in builder.pending()}
    stored = decode_variant(encode_variant(variant))  # what a later run's builder reads
    assert stored.jedi is None and stored.jedi_attempts == JEDI_RETRIES - 1
    builder.refine("main.py", variant.id, [], timed_out=True)
    assert "main.py" not in {v.path for v in builder.pending()}
