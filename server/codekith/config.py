"""Settings from `[tool.codekith]` (pyproject.toml) or `.codekith.toml`, with typed overrides.

Unknown keys and wrong types are reported, never fatal: the default is kept, so a typo in a
workspace config cannot stop indexing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# all-MiniLM-L6-v2 with codekith's code-search adapter, int8 matrix products (embedding.py)
DEFAULT_MODEL = "codekith/all-MiniLM-L6-v2-code-int8-dq"
BASE_MODEL = "codekith/all-MiniLM-L6-v2-int8-dq"  # the same without the adapter
WEIGHT_ONLY_MODEL = "codekith/all-MiniLM-L6-v2-int8"  # float matrix products: the old default
CONTENT_RULES_VERSION = "22"  # bump when the file selection, redaction or chunking rules change


@dataclass(frozen=True)
class Settings:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_file_bytes: int = 1_000_000
    languages: tuple[str, ...] = ()
    model: str = DEFAULT_MODEL
    db: str = ""
    # The index CI published for the default branch (`s3://…`); the local `db` then holds
    # only an overlay of the files that differ from it (see codekith.layered).
    remote_index: str = ""
    # Other repositories searched together with this one (roots, relative to this one).
    repos: tuple[str, ...] = ()
    k: int = 10
    depth: int = 0
    budget: int = 6000
    secret_patterns: tuple[str, ...] = ()
    batch_chunks: int = 1024
    jedi: bool = True
    # Options for object storage (endpoint, region, allow_http, …), merged over the standard
    # AWS_* environment variables by LanceDB; keep secrets in the environment, not here.
    storage_options: dict[str, str] = field(default_factory=dict, hash=False)
    warnings: tuple[str, ...] = field(default=(), compare=False)

    def scan_fingerprint(self) -> str:
        """Changes to these settings (or to the rules) change which files are indexed and what
        is redacted in them: every file is read again."""
        keys = (
            CONTENT_RULES_VERSION,
            self.include,
            self.exclude,
            self.max_file_bytes,
            self.languages,
            self.secret_patterns,
        )
        return hashlib.sha1(repr(keys).encode()).hexdigest()

    def db_location(self, root: Path) -> str:
        """Where the index lives: a URI or path from settings, else `<root>/.codekith`."""
        if not self.db:
            return str(root / ".codekith")
        if "://" in self.db:
            return self.db
        path = Path(self.db).expanduser()
        return str(path if path.is_absolute() else root / path)


_FIELDS = {f.name: f for f in dataclasses.fields(Settings) if f.name != "warnings"}


def _snake_case(key: str) -> str:
    """`max-file-bytes` and `maxFileBytes` (LSP style) both name `max_file_bytes`."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key).replace("-", "_").lower()


def _coerce(name: str, value: Any) -> Any:
    spec = _FIELDS[name]
    if spec.default_factory is dict:
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise TypeError(f"{name} must be a table of strings")
        return {k: _option_text(v) for k, v in value.items()}
    default = spec.default
    if isinstance(default, tuple):
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise TypeError(f"{name} must be a list of strings")
        return tuple(value)
    if isinstance(default, bool) != isinstance(value, bool) or not isinstance(value, type(default)):
        raise TypeError(f"{name} must be a {type(default).__name__}")
    if isinstance(value, int) and value < 0:
        raise ValueError(f"{name} must not be negative")
    return value


def _option_text(value: Any) -> str:
    """Storage options are strings to LanceDB: `allow_http = true` means "true"."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str | int | float):
        return str(value)
    raise TypeError(f"storage option values must be strings, not {type(value).__name__}")


def apply_overrides(settings: Settings, raw: dict[str, Any], source: str) -> Settings:
    """Return settings with `raw` applied; bad entries become warnings and keep the old value."""
    changes: dict[str, Any] = {}
    warnings = list(settings.warnings)
    for key, value in raw.items():
        name = _snake_case(key)
        if name not in _FIELDS:
            warnings.append(f"{source}: unknown setting {key!r} ignored")
            continue
        try:
            changes[name] = _coerce(name, value)
        except (TypeError, ValueError) as exc:
            warnings.append(f"{source}: {exc}; using {getattr(settings, name)!r}")
    return dataclasses.replace(settings, **changes, warnings=tuple(warnings))


# where the settings are, in order, and the table in each: the first file that has one wins
SETTINGS_FILES: dict[str, tuple[str, ...]] = {
    ".codekith.toml": (),
    "pyproject.toml": ("tool", "codekith"),
}


def load_settings(root: Path) -> Settings:
    """Read `.codekith.toml` (whole file) or else `[tool.codekith]` from pyproject.toml."""
    settings = Settings()
    for name, table in SETTINGS_FILES.items():
        path = root / name
        if not path.is_file():
            continue
        try:
            data: Any = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
            return dataclasses.replace(settings, warnings=(f"{name}: unreadable ({exc})",))
        for key in table:
            data = data.get(key, {}) if isinstance(data, dict) else {}
        if data:
            return apply_overrides(settings, data, name)
    return settings


def enclosing_root(start: Path) -> Path:
    """The workspace a folder belongs to: the nearest folder at or above `start` holding an
    index (`.codekith`) or a `.codekith.toml`, else the nearest git work tree, else `start`.
    So commands run in a subfolder use the workspace's index instead of making another."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / ".codekith").is_dir() or (folder / ".codekith.toml").is_file():
            return folder
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return start
