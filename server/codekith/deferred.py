"""Packages registered without running their `__init__`, for imports that cost seconds and
that a local index never uses (see `store._lancedb`).

A deferred package's submodules still import as usual. The first read of a name only its
`__init__` defines runs the `__init__` after all, so nothing of the package is lost; a
name given a stand-in is handed out as a `StandIn` instead, resolved on its first use from
the module that defines it (or, named by "", by running the `__init__`). Stand-ins are for
names another package imports at its own import time only to annotate or to call later.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any


class StandIn:
    """A deferred package's name, resolved on first use: a call, an attribute, an
    isinstance or issubclass check, or a class statement. Introspection of its dunder
    names (typing, signature checks) is not a use."""

    def __init__(self, resolve: Callable[[], Any]):
        self._resolve = resolve

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._resolve()(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._resolve(), name)

    def __instancecheck__(self, instance: Any) -> bool:
        return isinstance(instance, self._resolve())

    def __subclasscheck__(self, subclass: type) -> bool:
        return issubclass(subclass, self._resolve())

    def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[type, ...]:
        return (self._resolve(),)


def defer_package_init(name: str, stand_ins: Mapping[str, str] | None = None) -> Callable[[], None]:
    """Register package `name` without running its `__init__` (nothing when it is
    imported already or missing). `stand_ins` maps names to the module defining each ("":
    the `__init__`). Returns what ends the stand-ins: from then on, reads of those names
    get the objects themselves (the importer that needed them has its names by then)."""
    if name in sys.modules:
        return _nothing
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return _nothing
    loader = spec.loader
    package = importlib.util.module_from_spec(spec)
    running = threading.RLock()  # an __init__ may read its own names while it runs
    handed_out: dict[str, StandIn] = {}  # one per name: annotations of it compare equal
    sources = dict(stand_ins or {})

    def run_init(attribute: str) -> Any:
        with running:
            if vars(package).pop("__getattr__", None) is not None:
                loader.exec_module(package)
        return getattr(package, attribute)

    def resolve(attribute: str, source: str) -> Any:
        if not source:
            return run_init(attribute)
        return getattr(importlib.import_module(source), attribute)

    def missing_name(attribute: str) -> Any:  # PEP 562: asked for names the module lacks
        source = sources.get(attribute)
        if source is None:
            return run_init(attribute)
        if attribute not in handed_out:
            handed_out[attribute] = StandIn(functools.partial(resolve, attribute, source))
        return handed_out[attribute]

    package.__getattr__ = missing_name  # type: ignore[method-assign]
    sys.modules[name] = package
    return sources.clear


def _nothing() -> None:
    pass
