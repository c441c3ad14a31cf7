"""The CLI in a process that signals itself at a known point of its run.

Tests of kill -9 and Ctrl-C used to poll the index and signal the process once it looked
half done; on a fast machine the run finished first. Here the signal is sent right after the
N-th call of a named method returns, so the interruption lands at the same point on every
machine, and it is still a real signal delivered to a real `codekith` process.
"""

from __future__ import annotations

import subprocess
import sys

_SCRIPT = """
import importlib, os, sys
from codekith import cli
module = importlib.import_module({module!r})
owner = getattr(module, {owner!r})
original, calls = getattr(owner, {method!r}), []
{setup}
def interrupting(*args, **kwargs):
    result = original(*args, **kwargs)
    calls.append(1)
    if len(calls) == {calls}:
        os.kill(os.getpid(), {signum})
    return result
setattr(owner, {method!r}, interrupting)
sys.exit(cli.main(sys.argv[1:]))
"""


def signalled_cli(
    target: str, calls: int, signum: int, *args: str, setup: str = ""
) -> subprocess.Popen[str]:
    """`codekith ARGS` that sends itself `signum` after the `calls`-th return of `target`
    ("module:Class.method"); `setup` is Python run first (e.g. shortening a store interval)."""
    module, qualified = target.split(":")
    owner, method = qualified.split(".")
    script = _SCRIPT.format(
        module=module, owner=owner, method=method, calls=calls, signum=int(signum), setup=setup
    )
    return subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
