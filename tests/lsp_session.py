"""Ending a pytest-lsp session whatever state the test left it in.

pygls' client `stop()` waits for the server process to exit without telling it to, so a test
that fails before `shutdown_session()` would hang its teardown for ever (seen in CI). Every
LSP fixture ends through `end_session`: a bounded shutdown, then the server is killed.
"""

from __future__ import annotations

import asyncio
import contextlib

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
