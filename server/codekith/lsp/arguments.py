"""Typed, validated arguments of the `codekith.*` commands (one JSON object each).

Every failure names the command, the field and what was expected, so a client author sees
at once what to fix; the server answers with InvalidParams and carries on.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from codekith.vocabulary import KIND_FILTERS, MODES


class ArgumentError(ValueError):
    pass


@dataclass(frozen=True)
class Position:
    line: int
    character: int = 0


@dataclass(frozen=True)
class SearchArgs:
    query: str
    k: int | None = None
    pathPrefix: str = ""
    language: str = ""
    kind: str = ""
    mode: str = "hybrid"
    tests: bool = False  # looking for tests: they rank with the project's own code
    repos: tuple[str, ...] | None = None  # workspace folder names; none: every folder
    docs: int = 0  # documentation sections listed apart, after code-only hits (answers.py)
    testsApart: int = 0  # tests listed apart, after hits that hold none (answers.py)

    def check(self) -> None:
        _require(bool(self.query.strip()), "query must not be empty")
        _require(self.k is None or 1 <= self.k <= 500, "k must be between 1 and 500")
        _require(0 <= self.docs <= 50, "docs must be between 0 and 50")
        _require(0 <= self.testsApart <= 50, "testsApart must be between 0 and 50")
        _require(self.kind in ("", *KIND_FILTERS), f"kind must be one of {', '.join(KIND_FILTERS)}")
        _require(self.mode in MODES, f"mode must be one of {', '.join(MODES)}")


@dataclass(frozen=True)
class RelatedArgs:
    query: str | None = None
    uri: str | None = None
    position: Position | None = None
    symbol: str | None = None
    depth: int | None = None
    budget: int | None = None
    format: str = "json"
    tests: bool = False

    def check(self) -> None:
        _require(self.format in ("json", "markdown"), "format must be json or markdown")
        given = [self.query, self.symbol, self.uri]

        _require(
            sum(v is not None for v in given) == 1,
            "give exactly one of query, symbol, or uri with position",
        )
        _require((self.uri is None) == (self.position is None), "uri and position go together")
        _require(self.query is None or bool(self.query.strip()), "query must not be empty")
        _require(self.depth is None or 0 <= self.depth <= 5, "depth must be between 0 and 5")
        _require(
            self.budget is None or 1 <= self.budget <= 200_000,
            "budget must be between 1 and 200000 tokens",
        )
        if self.position is not None:
            _require(
                self.position.line >= 0 and self.position.character >= 0,
                "position line and character must not be negative",
            )


@dataclass(frozen=True)
class ReindexArgs:
    full: bool = False

    def check(self) -> None:
        pass


@dataclass(frozen=True)
class FeedbackArgs:
    query: str
    id: str
    vote: int

    def check(self) -> None:
        _require(self.vote in (1, -1), "vote must be 1 or -1")
        _require(bool(self.query.strip()) and bool(self.id), "query and id must not be empty")


@dataclass(frozen=True)
class StatusArgs:
    def check(self) -> None:
        pass


T = TypeVar("T", SearchArgs, RelatedArgs, ReindexArgs, FeedbackArgs, StatusArgs)


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ArgumentError(message)


def parse(cls: type[T], command: str, arguments: tuple[Any, ...]) -> T:
    """The one JSON object of `arguments` as `cls`, or ArgumentError saying what is wrong."""
    try:
        if len(arguments) > 1:
            raise ArgumentError(f"expected one JSON object, got {len(arguments)} arguments")
        raw = arguments[0] if arguments else {}
        if raw is None or raw == []:  # Lua encodes an empty table as []
            raw = {}

        value = _structure(cls, raw, "arguments")
        value.check()
        return value
    except ArgumentError as exc:
        raise ArgumentError(f"{command}: {exc}") from None


def _structure(cls: type, raw: Any, where: str) -> Any:
    if not isinstance(raw, dict):
        raise ArgumentError(f"{where} must be a JSON object, not {type(raw).__name__}")
    hints = typing.get_type_hints(cls)
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ArgumentError(
            f"unknown field(s) {', '.join(unknown)}; expected {', '.join(sorted(known)) or 'none'}"
        )
    values = {}
    for field in fields(cls):
        if field.name not in raw:
            if field.default is dataclasses.MISSING:
                raise ArgumentError(f"missing required field {field.name!r}")
            continue
        values[field.name] = _value(hints[field.name], raw[field.name], field.name)
    return cls(**values)


def _value(hint: Any, raw: Any, name: str) -> Any:
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    if raw is None and type(None) in options:
        return None
    for option in options:
        if typing.get_origin(option) is tuple and isinstance(raw, list):
            _require(all(isinstance(v, str) for v in raw), f"{name} must be a list of strings")
            return tuple(raw)
        if option is bool and isinstance(raw, bool):
            return raw
        if option is int and isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        if option is str and isinstance(raw, str):
            return raw
        if isinstance(option, type) and dataclasses.is_dataclass(option) and isinstance(raw, dict):
            return _structure(option, raw, name)
    expected = " or ".join(getattr(o, "__name__", str(o)) for o in options if o is not type(None))
    raise ArgumentError(f"{name} must be {expected}, not {type(raw).__name__}")
