"""Keep every tool answer under a token budget, and say so when something was cut.

Both forms of an answer count: the structured content (as JSON) and the readable text. The
budget is in tokens (estimated at four characters per token, as for bundles); whatever the
caller asks, an answer never exceeds MAX_BUDGET_TOKENS or MAX_CHARS. Items are dropped from
the end (the least relevant), of a secondary list first (search's documentation apart); a
single item left over the budget has its code cut at a line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from codekith.related import CHARS_PER_TOKEN

DEFAULT_BUDGET_TOKENS = 6_000
MAX_BUDGET_TOKENS = 20_000
MAX_CHARS = 80_000
SLACK_CHARS = 64  # room for the `tokens` figure written after measuring
CUT_MARK = "\n… (cut to fit the token budget)"

Render = Callable[[dict[str, Any]], str]


def limit_chars(budget_tokens: int) -> int:
    return min(budget_tokens * CHARS_PER_TOKEN, MAX_CHARS) - SLACK_CHARS


def size_of(data: dict[str, Any], text: str) -> int:
    """Characters of the larger form: what a client that reads either one receives."""
    return max(len(text), len(json.dumps(data, ensure_ascii=False)))


def fit(
    data: dict[str, Any],
    render: Render,
    budget_tokens: int,
    items_key: str | Sequence[str] | None = None,
    cut_field: str = "code",
) -> str:
    """Trim `data` in place until it and its text fit the budget; return the text.

    `items_key` names the list of items to drop from, or several: the last is the main one
    (one item of it is always kept), the others are emptied first, in order. Sets
    `truncated` (kept true when the answer was already cut upstream), `tokens` (the answer's
    estimated size) and `budget_tokens`."""
    limit = limit_chars(budget_tokens)
    data.setdefault("truncated", False)
    data.update(tokens=0, budget_tokens=budget_tokens)
    text = render(data)
    keys = [items_key] if isinstance(items_key, str) else list(items_key or [])
    lists = [data.get(key, []) for key in keys]
    items = lists[-1] if lists else []
    while size_of(data, text) > limit and (droppable := _droppable(lists)) is not None:
        droppable.pop()
        data["truncated"] = True
        text = render(data)
    if size_of(data, text) > limit:
        holder = items[0] if items else data
        if isinstance(holder.get(cut_field), str):
            text = _cut_lines(data, holder, cut_field, render, limit)
    data["tokens"] = -(-size_of(data, text) // CHARS_PER_TOKEN)
    return render(data)


def _droppable(lists: list[list[Any]]) -> list[Any] | None:
    """The list to drop an item from: the first secondary one that has any, else the main
    one while it has more than one."""
    *secondary, main = lists or [[]]
    return next((items for items in secondary if items), main if len(main) > 1 else None)


def _cut_lines(
    data: dict[str, Any], holder: dict[str, Any], field: str, render: Render, limit: int
) -> str:
    """Keep the most leading lines of `holder[field]` that fit (found by bisection)."""
    lines = holder[field].split("\n")
    low, high = 0, len(lines)
    while low < high:
        middle = (low + high + 1) // 2
        holder[field] = "\n".join(lines[:middle]) + CUT_MARK
        if size_of(data, render(data)) <= limit:
            low = middle
        else:
            high = middle - 1
    holder[field] = "\n".join(lines[:low]) + CUT_MARK
    data["truncated"] = True
    return render(data)
