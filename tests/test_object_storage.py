"""The index in object storage (a real S3-compatible server on 127.0.0.1): every command
works against `s3://…`, and writers in different processes never interleave."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from codekith.store import IndexLockedError, Store
from tests.conftest import HTTP_MODULE, MATH_MODULE, git, init_repo, write_files

CLI = [sys.executable, "-m", "codekith.cli"]
AWS_VARIABLES = ("AWS_ENDPOINT_URL", "AWS_ALLOW_HTTP", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")


def cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*CLI, *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env
    )


def committed_repo(root: Path, files: dict[str, str]) -> Path:
    init_repo(root)
    write_files(root, files)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")
    return root


def test_index_to_s3_then_search_and_status_from_other_processes(
    tmp_path, s3_uri, s3_server, project_for
):
    """Indexing uses the AWS_* variables; the readers get the endpoint from
    `[tool.codekith] storage-options` alone, with no AWS variable set."""
    options = "\n".join(f'{k} = "{v}"' for k, v in s3_server.options.items())
    root = committed_repo(
        tmp_path / "ws",
        {
            "headers.py": HTTP_MODULE,
            "mathx.py": MATH_MODULE,
            ".codekith.toml": f'db = "{s3_uri}"\n\n[storage-options]\n{options}\n',
        },
    )
    project = project_for(root, storage_options={})  # the environment's credentials only
    assert project.settings.db_location(root) == s3_uri
    with project.store.write_lock():
        report = project.indexer.run()
    assert report.embedded > 0 and not report.errors
    assert not (root / ".codekith").exists()  # nothing was written next to the code

    bare_env = {k: v for k, v in os.environ.items() if k not in AWS_VARIABLES}
    search = cli(
        "search", "split a header line into name and value", "--json", cwd=root, env=bare_env
    )
    assert search.returncode == 0, search.stderr
    answer = json.loads(search.stdout)
    assert answer["hits"][0]["qualname"] == "headers.parse_header"
    assert answer["fresh"] and answer["index_head"] == git(root, "rev-parse", "HEAD").strip()

    status = cli("status", "--json", cwd=root, env=bare_env)
    assert status.returncode == 0, status.stderr
    summary = json.loads(status.stdout)
    assert summary["db"] == s3_uri and summary["files"] == 3 and summary["chunks"] > 4


def test_db_option_takes_an_s3_uri_for_every_command(tmp_path, s3_uri):
    root = committed_repo(tmp_path / "ws", {"headers.py": HTTP_MODULE})
    index = cli("index", "--db", s3_uri, "--json", cwd=root)
    assert index.returncode == 0, index.stderr
    assert json.loads(index.stdout)["files"] == 1
    related = cli("related", "parse_header", "--db", s3_uri, "--json", cwd=root)
    assert related.returncode == 0, related.stderr
    items = json.loads(related.stdout)["items"]
    assert items[0]["qualname"] == "headers.parse_header"
    missing = cli("search", "x", "--db", s3_uri.replace("/index", "/nothing-here"), cwd=root)
    assert missing.returncode == 1 and "no index at s3://" in missing.stderr


def _hold_lease(uri: str, env: dict[str, str], seconds: float, ready: Any, release: Any) -> None:
    os.environ.update(env)
    store = Store(uri)
    with store.write_lock(lease_seconds=seconds):
        ready.set()
        release.wait(120)


def _race_for_lease(
    uri: str, env: dict[str, str], start_at: float, results: Any, done: Any
) -> None:
    os.environ.update(env)
    store = Store(uri)
    store._lease_table()  # connect and open before the start line: race only for the lease
    time.sleep(max(0.0, start_at - time.time()))
    try:
        with store.write_lock():
            results.put("won")
            done.wait(120)
    except IndexLockedError as exc:
        results.put(str(exc))


def test_concurrent_writers_exactly_one_wins_the_lease(s3_uri, s3_server):
    """Three processes ask for the write lease at the same instant: one gets it, the others
    fail fast naming the holder (Lance's conditional-put commit decides the race)."""
    Store(s3_uri)._lease_table()
    spawn = multiprocessing.get_context("spawn")  # fork breaks LanceDB's runtime
    results, done = spawn.Queue(), spawn.Event()
    start_at = time.time() + 8
    racers = [
        spawn.Process(target=_race_for_lease, args=(s3_uri, s3_server.env, start_at, results, done))
        for _ in range(3)
    ]
    for racer in racers:
        racer.start()
    outcomes = [results.get(timeout=120) for _ in racers]
    done.set()
    for racer in racers:
        racer.join(60)
    assert outcomes.count("won") == 1, outcomes
    assert all("is writing the index at s3://" in o for o in outcomes if o != "won"), outcomes


def test_a_second_writer_process_fails_fast_then_runs_once_the_lease_is_free(tmp_path, s3_uri):
    root = committed_repo(tmp_path / "ws", {"headers.py": HTTP_MODULE})
    spawn = multiprocessing.get_context("spawn")
    ready, release = spawn.Event(), spawn.Event()
    env = {k: os.environ[k] for k in AWS_VARIABLES}
    holder = spawn.Process(target=_hold_lease, args=(s3_uri, env, 60.0, ready, release))
    holder.start()
    try:
        assert ready.wait(120)
        blocked = cli("index", "--db", s3_uri, cwd=root)
        assert blocked.returncode == 1
        assert "another codekith process" in blocked.stderr and "lease ends in" in blocked.stderr
    finally:
        release.set()
        holder.join(60)
    assert holder.exitcode == 0
    index = cli("index", "--db", s3_uri, "--json", cwd=root)
    assert index.returncode == 0, index.stderr
    assert json.loads(index.stdout)["indexed"] == 1


def test_a_dead_writers_lease_expires_and_is_taken_over(s3_uri):
    spawn = multiprocessing.get_context("spawn")
    ready, release = spawn.Event(), spawn.Event()
    env = {k: os.environ[k] for k in AWS_VARIABLES}
    holder = spawn.Process(target=_hold_lease, args=(s3_uri, env, 4.0, ready, release))
    holder.start()
    assert ready.wait(120)
    os.kill(holder.pid, signal.SIGKILL)  # no release: only expiry frees the lease
    holder.join(60)
    store = Store(s3_uri)
    with pytest.raises(IndexLockedError), store.write_lock():
        pass
    deadline = time.time() + 60
    while True:
        try:
            with store.write_lock():
                break
        except IndexLockedError:
            assert time.time() < deadline, "the dead writer's lease never expired"
            time.sleep(0.2)


def test_a_writer_whose_lease_was_taken_over_stops_before_its_next_commit(s3_uri):
    store = Store(s3_uri)
    with store.write_lock(lease_seconds=3.0):
        store.create("model", 4, "template")
        store.set_meta({"before": "1"})
        # Another host that saw the lease as expired (a stall, a clock jump) took it over:
        store._lease_table().update(values={"holder": "elsewhere", "expires": time.time() + 60})
        deadline = time.time() + 30
        with pytest.raises(IndexLockedError, match="lapsed"):
            while time.time() < deadline:
                store.set_meta({"after": "1"})
                time.sleep(0.1)
    assert store.meta().get("before") == "1"
