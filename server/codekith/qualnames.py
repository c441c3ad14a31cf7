"""Dotted module names for workspace paths, shared by the chunker and the call graph.

Both must agree exactly, or edges would point at qualnames that no chunk carries.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePosixPath

SOURCE_ROOTS = ("src",)


def module_name(path: str) -> str:
    """`pkg/mod.py` -> `pkg.mod`; `src/pkg/__init__.py` -> `pkg`; a `src/` layout drops `src`."""
    parts = list(PurePosixPath(path).with_suffix("").parts)
    if len(parts) > 1 and parts[0] in SOURCE_ROOTS:
        parts = parts[1:]
    if len(parts) > 1 and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def join(*names: str) -> str:
    return ".".join(n for n in names if n)


CONSTRUCTORS = ("__init__", "constructor")  # Python, JavaScript/TypeScript


def constructor_names(cls: str) -> list[str]:
    """The qualnames a call that constructs `cls` points at: `__init__` (Python),
    `constructor` (JS/TS), or a method named like the class (a Java constructor)."""
    return [join(cls, name) for name in (*CONSTRUCTORS, cls.rsplit(".", 1)[-1])]


def with_constructors(qualnames: Iterable[str]) -> dict[str, str]:
    """Each qualname and each of its constructors -> the qualname: edges into a constructor
    are edges into its class."""
    names = list(qualnames)
    found = {name: name for name in names}
    for name in names:
        found.update(dict.fromkeys(constructor_names(name), name))
    return found


def constructed(qualname: str) -> str:
    """The class a Python or JS/TS constructor belongs to (its chunk shows the constructor);
    any other qualname itself."""
    head, _, last = qualname.rpartition(".")
    return head if head and last in CONSTRUCTORS else qualname
