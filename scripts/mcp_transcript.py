"""An assistant-style MCP exchange on a real repository: search_code -> related_code ->
get_code, through `codekith mcp` over stdio (the SDK's client, as an assistant would connect).

Prints each answer's readable text (shortened) and its size: the server's `tokens` figure and
the characters of the text and of the structured content. The first call builds the index
when the repository has none (its time is printed separately).

    .venv/bin/python scripts/mcp_transcript.py /work/bench/flask-answers \
        --query "how does the app dispatch a request to a view function"
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.types import TextContent

SHOWN_LINES = 40


def shorten(text: str, lines: int = SHOWN_LINES) -> str:
    rows = text.splitlines()
    more = f"\n    … ({len(rows) - lines} more lines)" if len(rows) > lines else ""
    return "\n".join("    " + row for row in rows[:lines]) + more


async def call(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One tool call; while the first index build runs, ask again as an assistant would."""
    started = time.perf_counter()
    while True:
        result = await client.call_tool(name, arguments)
        first = result.content[0] if result.content else None
        text = first.text if isinstance(first, TextContent) else ""
        if not (result.is_error and "still being built" in text):
            break
        print(f"... {text.split(': ', 1)[-1]}")
        await asyncio.sleep(15)
    seconds = time.perf_counter() - started
    if result.is_error:
        raise SystemExit(f"{name} failed: {text}")
    data = result.structured_content or {}
    size = len(json.dumps(data, ensure_ascii=False))
    print(f"\n>>> {name} {json.dumps(arguments)}")
    print(
        f"<<< {seconds:.2f} s · tokens {data.get('tokens')} (budget {data.get('budget_tokens')}) · "
        f"text {len(text)} chars (~{len(text) // 4} tokens) · structured {size} chars · "
        f"truncated {data.get('truncated')} · fresh {data.get('fresh')}"
    )
    print(shorten(text))
    return data


async def exchange(root: Path, query: str) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "codekith.cli", "mcp", "--root", str(root)]
    )
    async with Client(params, mode="legacy", read_timeout_seconds=3600) as client:
        started = time.perf_counter()
        status = (await client.call_tool("index_status", {})).structured_content or {}
        if not status.get("ready"):
            print(f"no index yet at {root}: the first search builds it")
        hits = await call(client, "search_code", {"query": query, "k": 5})
        print(f"(first answer after {time.perf_counter() - started:.1f} s)")
        top = hits["hits"][0]
        bundle = await call(client, "related_code", {"target": top["qualname"]})
        callee = next((i for i in bundle["items"] if i["reason"] != "seed"), bundle["items"][0])
        await call(client, "get_code", {"id": callee["id"]})
        await call(
            client,
            "get_code",
            {"path": top["path"], "start_line": top["start_line"], "end_line": top["end_line"]},
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--query", default="how does the app dispatch a request to a view function")
    args = parser.parse_args()
    asyncio.run(exchange(args.root.resolve(), args.query))
    return 0


if __name__ == "__main__":
    sys.exit(main())
