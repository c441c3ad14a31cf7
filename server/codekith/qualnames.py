"""Dotted module names for workspace paths, shared by the chunker and the call graph.

Both must agree exactly, or edges would point at qualnames that no chunk carries.
"""

from __future__ import annotations

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
