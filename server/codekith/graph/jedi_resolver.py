"""Call edges from Jedi: slower than the fast resolver but follows values much further.

The only module that imports jedi. Recipe measured in FIELD-NOTES: every reference followed
by `(` goes through `goto(follow_imports=True)`, then `infer()` when goto stops at an
assignment or a parameter; Jedi's inference limits are reset per name (they are per Script
and would silently starve later call sites); dynamic_* inference is off; each file gets a
CPU-time limit and returns what it resolved until then.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterable, Iterator, Set
from pathlib import Path
from typing import Any

import jedi
from parso.tree import BaseNode, NodeOrLeaf

from codekith.graph.model import Edge
from codekith.qualnames import ModuleNames, join
from codekith.workspace import read_source

SCOPE_TYPES = ("funcdef", "classdef", "lambdef")
DEFINITION_TYPES = ("function", "class")


class JediTimeout(BaseException):
    """Raised from a timer signal; a BaseException so Jedi's own `except Exception` lets it by."""


def _configure() -> None:
    for setting in (
        "dynamic_params",
        "dynamic_params_for_other_modules",
        "dynamic_array_additions",
        "dynamic_flow_information",
    ):
        setattr(jedi.settings, setting, False)


class JediResolver:
    """Resolves call sites one file at a time; keep one per workspace, it caches modules."""

    def __init__(
        self, root: Path, time_limit: float = 20.0, import_roots: Iterable[str] = ()
    ) -> None:
        """`import_roots`: the directories the workspace's module names start from
        (qualnames.Layout.import_roots), put on Jedi's sys.path; names come from disk, like
        the chunker's."""
        _configure()
        self.root = root.resolve()
        self.time_limit = time_limit
        self.timed_out: set[str] = set()
        self.names = ModuleNames.on_disk(self.root)
        roots = [str(self.root / r) for r in sorted(import_roots) if r]
        self.environment = jedi.InterpreterEnvironment()
        # The workspace's roots first: Jedi appends `added_sys_path` after the running
        # interpreter's paths, so a package installed beside codekith (requests, flask and
        # click are) was read from there, and every call into it left the workspace.
        paths = [p for p in self.environment.get_sys_path() if p and p not in roots]
        self.project = jedi.Project(self.root, sys_path=[*roots, *paths])
        self._lambda_numbers: dict[int, dict[int, int]] = {}

    def resolve_file(
        self, path: str, source: str | None = None, skip: Set[tuple[str, int]] = frozenset()
    ) -> list[Edge]:
        """Call edges whose caller is in `path`; partial if the time limit struck. Call sites
        (caller, line) in `skip` are not inferred: the fast resolver already answered them."""
        self.timed_out.discard(path)
        if source is None:
            try:
                source = read_source(self.root, path)
            except (OSError, ValueError):
                return []
        edges: list[Edge] = []
        try:
            with _time_limit(self.time_limit) as expired:
                for edge in self._edges(path, source, expired, skip):
                    edges.append(edge)
        except JediTimeout:
            self.timed_out.add(path)
        except Exception:  # Jedi or parso broke on this file (seen: a parso cache file
            pass  # truncated by a concurrent writer): keep what was resolved until then
        return sorted(set(edges), key=lambda e: (e.line, e.src, e.dst))

    def _edges(
        self, path: str, source: str, expired: Any, skip: Set[tuple[str, int]]
    ) -> Iterator[Edge]:
        script = jedi.Script(
            source, path=self.root / path, project=self.project, environment=self.environment
        )
        state = script._inference_state
        for name in script.get_names(all_scopes=True, definitions=False, references=True):
            if expired():
                raise JediTimeout
            leaf = name._name.tree_name
            if leaf is None or not _is_called(leaf):
                continue
            caller = self._qualname(_scope_of(leaf), path)
            if (caller, name.line) in skip:
                continue
            state.reset_recursion_limitations()
            for target in self._targets(name):
                yield Edge(caller, target, "call", path, name.line)

    def _targets(self, name: Any) -> set[str]:
        try:
            found = [d for d in name.goto(follow_imports=True) if d.type in DEFINITION_TYPES]
            if not found:
                found = [d for d in name.infer() if d.type in DEFINITION_TYPES]
            return {target for d in found for target in self._definition_targets(d)}
        except JediTimeout:
            raise
        except Exception:  # Jedi raises on code it cannot follow: an unresolved site
            return set()

    def _definition_targets(self, definition: Any) -> Iterator[str]:
        """A function's own qualname; for a class, the workspace `__init__` it runs."""
        if definition.type == "function":
            node = _definition_node(definition)
            if node is not None:
                yield from self._workspace_qualname(node, definition.module_path)
            return
        for value in definition._name.infer():
            for init in value.py__getattribute__("__init__"):
                node = getattr(init, "tree_node", None)
                context = init.get_root_context() if node is not None else None
                file = context.py__file__() if context is not None else None
                if node is not None and node.type == "funcdef" and file is not None:
                    yield from self._workspace_qualname(node, file)

    def _workspace_qualname(self, node: NodeOrLeaf, file: Path | None) -> Iterator[str]:
        if file is None:
            return
        try:
            rel = Path(file).resolve().relative_to(self.root).as_posix()
        except ValueError:
            return
        if rel.endswith(".py"):
            yield self._qualname(node, rel)

    def _qualname(self, scope: NodeOrLeaf | None, path: str) -> str:
        """`pkg.mod.Class.method` for a funcdef/classdef/lambdef node, the module for None."""
        names: list[str] = []
        while scope is not None:
            names.append(self._scope_name(scope))
            scope = _scope_of(scope)
        return join(self.names(path), *reversed(names))

    def _scope_name(self, node: NodeOrLeaf) -> str:
        if node.type != "lambdef":
            return node.name.value  # type: ignore[attr-defined]
        numbers = self._lambda_numbers.setdefault(id(node.get_root_node()), {})
        if id(node) not in numbers:
            numbers.update(_number_lambdas(node.get_root_node()))
        return f"<lambda{numbers.get(id(node), 0)}>"


def _is_called(leaf: NodeOrLeaf) -> bool:
    nxt = leaf.get_next_leaf()
    return nxt is not None and nxt.value == "(" and nxt.parent.type == "trailer"


def _definition_node(definition: Any) -> NodeOrLeaf | None:
    tree_name = definition._name.tree_name
    if tree_name is not None:
        node = tree_name.parent
        return node if node.type in SCOPE_TYPES else None
    value = next(iter(definition._name.infer()), None)
    node = getattr(value, "tree_node", None)
    return node if node is not None and node.type in SCOPE_TYPES else None


def _scope_of(node: NodeOrLeaf) -> BaseNode | None:
    """The def/class/lambda whose body holds `node` (decorators, defaults, bases and
    annotations belong to the enclosing scope, as at run time); None at module level."""
    child, parent = node, node.parent
    while parent is not None:
        if parent.type in SCOPE_TYPES and child is parent.children[-1]:
            return parent
        child, parent = parent, parent.parent
    return None


def _number_lambdas(module: BaseNode) -> dict[int, int]:
    """PyCG's `<lambdaN>`: lambdas numbered from 1 per enclosing scope, in source order."""
    counters: dict[int, int] = {}
    numbers: dict[int, int] = {}
    for node in _walk(module):
        if node.type == "lambdef":
            owner = id(_scope_of(node))
            counters[owner] = counters.get(owner, 0) + 1
            numbers[id(node)] = counters[owner]
    return numbers


def _walk(node: NodeOrLeaf) -> Iterator[NodeOrLeaf]:
    yield node
    for child in getattr(node, "children", ()):
        yield from _walk(child)


class _time_limit:
    """A CPU-time limit, so that a loaded machine does not cut files short: a profiling
    timer signal on the main thread (it interrupts a slow inference), and the thread's
    CPU time polled between names (off the main thread the only check; on it, the one that
    still holds when the signal's exception fell into code that swallows exceptions, such as
    a garbage-collector callback)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.thread_time() + seconds
        self.use_signal = threading.current_thread() is threading.main_thread()
        self.previous: Any = None

    def __enter__(self) -> Any:
        if self.use_signal:
            self.previous = signal.signal(signal.SIGPROF, _raise_timeout)
            signal.setitimer(signal.ITIMER_PROF, self.seconds)
        return lambda: time.thread_time() > self.deadline

    def __exit__(self, *exc: object) -> None:
        if self.use_signal:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, self.previous)


def _raise_timeout(signum: int, frame: object) -> None:
    raise JediTimeout
