"""Initialization options: settings overrides plus server-only switches, with fallbacks.

Like jedi-language-server, bad values never stop the server: each one becomes a warning
shown to the user and the default is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SERVER_KEYS: dict[str, type] = {"codeLens": bool, "debounceMs": int}
# Saves are discrete events: a run starts at the next turn of the event loop, so the events
# of one notification are one run, and what comes during a run is merged into the next (runs
# queue up behind each other). A 30 ms quiet period cost every save its 30 ms: on flask,
# searchable p50 260 -> 216 ms, p95 328 -> 275 ms (medians of 4 interleaved runs).
DEBOUNCE_MS = 0


@dataclass(frozen=True)
class ServerOptions:
    code_lens: bool = True
    debounce_ms: int = DEBOUNCE_MS
    settings: dict[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


def parse_options(raw: Any) -> ServerOptions:
    if raw is None:
        return ServerOptions()
    if not isinstance(raw, dict):
        return ServerOptions(warnings=("initializationOptions must be an object; ignored",))
    warnings: list[str] = []
    server: dict[str, Any] = {}
    for key, kind in SERVER_KEYS.items():
        if key not in raw:
            continue
        value = raw[key]
        valid_bool = kind is bool and isinstance(value, bool)
        valid_int = (
            kind is int
            and isinstance(value, int)
            and not isinstance(value, bool)
            and 0 <= value <= 60_000
        )
        if valid_bool or valid_int:
            server[key] = value
        else:
            warnings.append(
                f"initializationOptions.{key}: invalid value {value!r}; using the default"
            )
    settings = {k: v for k, v in raw.items() if k not in SERVER_KEYS}
    return ServerOptions(
        code_lens=server.get("codeLens", True),
        debounce_ms=server.get("debounceMs", DEBOUNCE_MS),
        settings=settings,
        warnings=tuple(warnings),
    )
