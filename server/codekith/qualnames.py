"""Dotted module names for workspace paths: ONE rule, shared by the chunker and the call graph.

Both must agree exactly, or edges would point at qualnames that no chunk carries.

A Python file's module name is its path from its *import root*, with `/` as `.` and without
`.py` or a trailing `/__init__`. The import root is found the way Python's imports and
packaging find it, never from a folder's name:

1. the deepest source root declared by a `pyproject.toml` that encloses the file
   (setuptools `packages.find.where` / `package-dir`, hatch wheel `packages`, poetry
   `packages.from`, pdm `package-dir`, maturin `python-source`, uv `module-root`);
2. else, inside a package (a directory holding `__init__.py`), the directory above the
   outermost package of the unbroken chain: `src/click/utils.py` -> `click.utils`,
   `server/codekith/cli.py` -> `codekith.cli`; folders without `__init__.py` below a package
   are namespace portions of it, as Python imports them: `src/flask/sansio/app.py` ->
   `flask.sansio.app`;
3. else (a module in no package), the directory of the nearest enclosing project file
   (`pyproject.toml`, `setup.py`, `setup.cfg`), or the workspace root:
   `scripts/bench.py` -> `scripts.bench`.

Other languages have no packages on disk: their module is the path from the workspace root,
a leading `src/` dropped (`src/web/cart.js` -> `web.cart`).
"""

from __future__ import annotations

import ast
import json
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

SOURCE_ROOTS = ("src",)
PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
PYTHON_SUFFIXES = (".py", ".pyi")
NAMES_RULE = 2  # 2: namespace portions below a package; a layout stored under another rule
# names its files anew (indexer: every Python file is re-chunked, re-embedding what changed)


def module_name(path: str) -> str:
    """The path rule (other languages): `src/web/cart.js` -> `web.cart`."""
    parts = list(PurePosixPath(path).with_suffix("").parts)
    if len(parts) > 1 and parts[0] in SOURCE_ROOTS:
        parts = parts[1:]
    if len(parts) > 1 and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


class Layout:
    """What decides Python module names: package directories (holding `__init__.py`) and
    project directories (holding a project file) with the source roots their pyproject.toml
    declares. Directories are POSIX paths relative to the workspace root ("" is the root).

    `Layout.on_disk(root)` looks directories up when asked (and remembers them);
    `snapshot(paths)` freezes what the directories of `paths` hold, to store and compare.
    """

    def __init__(
        self,
        packages: set[str] | None = None,
        projects: dict[str, set[str]] | None = None,
        root: Path | None = None,
    ) -> None:
        self._packages: dict[str, bool] = dict.fromkeys(packages or (), True)
        self._projects: dict[str, set[str] | None] = dict(projects or {})
        self._root = root  # None: frozen, a directory not listed is neither

    @classmethod
    def on_disk(cls, root: Path) -> Layout:
        return cls(root=root)

    def is_package(self, directory: str) -> bool:
        if directory not in self._packages:
            self._packages[directory] = bool(
                directory and self._root and (self._root / directory / "__init__.py").is_file()
            )
        return self._packages[directory]

    def declared_by(self, directory: str) -> set[str] | None:
        """The source roots a project directory declares (None: not a project)."""
        if directory not in self._projects:
            root = self._root
            is_project = root is not None and any(
                (root / directory / f).is_file() for f in PROJECT_FILES
            )
            self._projects[directory] = declared_roots(root, directory) if is_project else None  # type: ignore[arg-type]
        return self._projects[directory]

    def import_root(self, path: str) -> str:
        """The directory a Python file's module name starts from (see the module docstring)."""
        parents = _parents(path)
        enclosing = [*parents, ""]
        declared = [r for d in enclosing for r in self.declared_by(d) or () if r in enclosing]
        if declared:
            return max(declared, key=_depth)
        top = None
        for directory in parents:
            if self.is_package(directory):
                top = directory
            elif top is not None:
                break  # the chain of packages ended; folders below the first are portions
        if top is not None:
            return _parent(top)
        return next((d for d in enclosing if self.declared_by(d) is not None), "")

    def snapshot(self, paths: Iterable[str]) -> Layout:
        """A frozen layout of the directories around the Python files among `paths`."""
        dirs = {""}
        for path in paths:
            if path.endswith(PYTHON_SUFFIXES):
                dirs.update(_parents(path))
        packages = {d for d in dirs if self.is_package(d)}
        projects = {d: roots for d in dirs if (roots := self.declared_by(d)) is not None}
        return Layout(packages, projects)

    def packages_only(self, paths: Iterable[str]) -> Layout:
        """The layout of a copy of the Python files among `paths` (every `__init__.py`
        comes along, no project file does), frozen: evaluation scripts index such copies."""
        snapshot = self.snapshot(paths)
        return Layout({d for d, yes in snapshot._packages.items() if yes})

    def import_roots(self) -> set[str]:
        """Every directory a module name starts from that this layout has seen (for Jedi's
        sys.path): above outermost packages, declared source roots, project directories."""
        packages = {d for d, yes in self._packages.items() if yes}
        tops = {_parent(p) for p in packages if _parent(p) not in packages}
        projects = {d for d, roots in self._projects.items() if roots is not None}
        return tops | projects | {r for roots in self._projects.values() for r in roots or ()}

    def to_json(self) -> str:
        packages = sorted(d for d, yes in self._packages.items() if yes)
        projects = {d: sorted(r) for d, r in sorted(self._projects.items()) if r is not None}
        return json.dumps({"packages": packages, "projects": projects, "rule": NAMES_RULE})

    @staticmethod
    def current_rule(text: str) -> bool:
        """Whether a stored layout was named under this NAMES_RULE."""
        return bool(json.loads(text).get("rule") == NAMES_RULE)

    @classmethod
    def from_json(cls, text: str) -> Layout:
        data = json.loads(text)
        return cls(set(data["packages"]), {d: set(r) for d, r in data["projects"].items()})


class ModuleNames:
    """`names(path)` -> the module name of a workspace file under `layout` (None: the path
    rule for every file, for callers without a workspace)."""

    def __init__(self, layout: Layout | None = None) -> None:
        self.layout = layout

    @classmethod
    def on_disk(cls, root: Path) -> ModuleNames:
        return cls(Layout.on_disk(root))

    def __call__(self, path: str) -> str:
        if self.layout is None or not path.endswith(PYTHON_SUFFIXES):
            return module_name(path)
        start = self.layout.import_root(path)
        relative = PurePosixPath(path).relative_to(start) if start else PurePosixPath(path)
        parts = list(relative.with_suffix("").parts)
        if len(parts) > 1 and parts[-1] == "__init__":
            parts = parts[:-1]
        return ".".join(parts)


def declared_roots(root: Path, project: str) -> set[str]:
    """Source roots a project's pyproject.toml declares, relative to the workspace root."""
    try:
        config = tomllib.loads((root / project / "pyproject.toml").read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return set()
    tool = config.get("tool", {})
    found: list[object] = []
    setuptools = tool.get("setuptools", {})
    find = setuptools.get("packages", {})
    if isinstance(find, dict):
        found += _list(find.get("find", {}).get("where"))
    package_dir = setuptools.get("package-dir", {})
    if isinstance(package_dir, dict):
        found.append(package_dir.get(""))
    wheel = tool.get("hatch", {}).get("build", {}).get("targets", {}).get("wheel", {})
    hatch = _list(wheel.get("packages"))
    found += [str(PurePosixPath(p).parent) for p in hatch if isinstance(p, str)]
    poetry = _list(tool.get("poetry", {}).get("packages"))
    found += [p.get("from") for p in poetry if isinstance(p, dict)]
    found.append(tool.get("pdm", {}).get("build", {}).get("package-dir"))
    found.append(tool.get("maturin", {}).get("python-source"))
    found.append(tool.get("uv", {}).get("build-backend", {}).get("module-root"))
    roots = set()
    for entry in found:
        if isinstance(entry, str) and entry.strip():
            joined = (PurePosixPath(project) / entry).as_posix()
            normal = str(PurePosixPath(*[p for p in joined.split("/") if p not in ("", ".")]))
            if ".." not in normal.split("/"):
                roots.add("" if normal == "." else normal)
    return roots


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _parents(path: str) -> list[str]:
    """The directories above a file, innermost first, without the workspace root."""
    parent = PurePosixPath(path).parent
    out = []
    while str(parent) not in (".", ""):
        out.append(parent.as_posix())
        parent = parent.parent
    return out


def _depth(directory: str) -> int:
    return directory.count("/") + 1 if directory else 0


def _parent(directory: str) -> str:
    parent = PurePosixPath(directory).parent.as_posix()
    return "" if parent == "." else parent


def join(*names: str) -> str:
    return ".".join(n for n in names if n)


def import_table(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    """Local alias -> absolute dotted name, for the file's top-level and nested imports."""
    table: dict[str, str] = {}
    package_parts = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                table[local] = alias.name if alias.asname else local
        elif isinstance(node, ast.ImportFrom):
            anchor = package_parts[: len(package_parts) - node.level + 1] if node.level else []
            base = join(*anchor, node.module or "")
            for alias in node.names:
                if alias.name != "*":
                    table[alias.asname or alias.name] = join(base, alias.name)
    return table


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


def accessor_of(row: Mapping[str, Any]) -> str:
    """Which accessor of a property a definition is: "setter" for its setter
    (`@total.setter def total`), which shares the getter's qualified name; else ""."""
    return "setter" if f"{row['symbol']}.setter" in (row.get("decorators") or []) else ""


def definition_of(row: Mapping[str, Any]) -> tuple[str, str, str]:
    """Which definition a chunk is part of: the parts of a split one, a file's module
    parts and a function's overloads share their path and qualified name (a property's
    setter is a definition of its own)."""
    return row["path"], row["qualname"], accessor_of(row)


def constructed(qualname: str) -> str:
    """The class a Python or JS/TS constructor belongs to (its chunk shows the constructor);
    any other qualname itself."""
    head, _, last = qualname.rpartition(".")
    return head if head and last in CONSTRUCTORS else qualname
