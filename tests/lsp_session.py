"""Ending a pytest-lsp session whatever state the test left it in.

pygls' client `stop()` waits for the server process to exit without telling it to, so a test
that fails before `shutdown_session()` would hang its teardown for ever (seen in CI). Every
LSP fixture ends through `end_session`: a bounded shutdown, then the server is killed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from lsprotocol import types
from pytest_lsp import LanguageClient

SHUTDOWN_GRACE_S = 60.0


async def end_session(client: LanguageClient) -> None:
    """Shut the server down politely if it answers in time, else kill it."""
    server = client._server  # the asyncio subprocess pygls started
    if server is None or server.returncode is not None:
        return
    with contextlib.suppress(Exception):
        await asyncio.wait_for(client.shutdown_session(), SHUTDOWN_GRACE_S)
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(server.wait(), SHUTDOWN_GRACE_S)
    if server.returncode is None:
        server.kill()
        await server.wait()


async def command(client: LanguageClient, name: str, argument: Any = None) -> Any:
    """`workspace/executeCommand` with one argument (none when None)."""
    params = types.ExecuteCommandParams(
        command=name, arguments=None if argument is None else [argument]
    )
    return await client.workspace_execute_command_async(params)


async def until(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 300) -> None:
    """Poll `check` until it is true; a generous deadline, because a loaded machine may
    take a minute to index what a quiet one does in a second."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if await check():
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
