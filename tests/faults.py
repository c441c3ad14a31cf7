"""Fault injection shared by tests/test_faults.py (small N, CI) and scripts/fault_injection.py
(large N, figures): kill -9 at random moments of real `codekith index` processes, resume, and
compare the index with one built without interruption; two writers at once.

Everything is real: a git repository made here, the CLI in subprocesses, LanceDB on disk,
the offline model.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codekith.embedding import Embedder
from codekith.search import Searcher
from codekith.store import Store
from tests.conftest import git, init_repo, write_files

QUERIES = (
    "compute the order total with discounts",
    "parse a configuration value",
    "send a notification to the customer",
    "Inventory",
    "normalise_name",
)
DOMAINS = ("orders", "billing", "inventory", "shipping", "customers", "reports", "config")


def module(domain: str, index: int, version: int) -> str:
    """A module with functions that call each other and the previous module (graph edges)."""
    other = f"pkg.{DOMAINS[(DOMAINS.index(domain) + 1) % len(DOMAINS)]}_{index}"
    lines = [
        f'"""{domain.title()} helpers, part {index} (version {version})."""',
        f"from {other.rsplit('.', 1)[0]} import {other.rsplit('.', 1)[1]} as neighbour",
        "",
        "",
        f"def normalise_name_{index}(name):",
        f'    """Normalise a {domain} name: strip, lower, collapse spaces."""',
        "    return ' '.join(name.strip().lower().split())",
        "",
        "",
        f"def compute_{domain}_total_{index}(items, discount=0):",
        f'    """Compute the {domain} total of items with a discount (v{version})."""',
        f"    total = sum(item.price * item.count for item in items) * {version}",
        f"    return total - discount if normalise_name_{index}('x') else total",
        "",
        "",
        f"class {domain.title()}Inventory{index}:",
        f'    """Keeps the {domain} stock for part {index}."""',
        "",
        "    def __init__(self):",
        "        self.items = {}",
        "",
        "    def add(self, name, count):",
        f"        key = normalise_name_{index}(name)",
        "        self.items[key] = self.items.get(key, 0) + count",
        f"        return neighbour.compute_{DOMAINS[(DOMAINS.index(domain) + 1) % len(DOMAINS)]}"
        f"_total_{index}([])",
        "",
        "    def notify(self, customer):",
        f'        """Send a {domain} notification to the customer."""',
        "        return customer.send(self.items)",
        "",
        "",
        f"def parse_{domain}_config_{index}(text):",
        f'    """Parse a {domain} configuration value of the form key=value."""',
        "    key, _, value = text.partition('=')",
        "    return key.strip(), value.strip()",
        "",
    ]
    return "\n".join(lines)


def corpus(version: int, parts: int) -> dict[str, str]:
    files = {"pkg/__init__.py": ""}
    for domain in DOMAINS:
        for index in range(parts):
            files[f"pkg/{domain}_{index}.py"] = module(domain, index, version)
    files["README.md"] = "# Shop\n\n## Orders\nOrders have totals.\n\n## Billing\nInvoices.\n"
    return files


def make_repository(base: Path, parts: int = 3, jedi: bool = False) -> Path:
    """A repository with commit `v1` and branch `v2` (changed, added, deleted, renamed)."""
    root = init_repo(base)
    settings = f"batch-chunks = 16\njedi = {'true' if jedi else 'false'}\n"
    write_files(root, {**corpus(1, parts), ".codekith.toml": settings})
    git(root, "add", "-A")
    git(root, "commit", "-qm", "v1")
    git(root, "tag", "v1")
    git(root, "checkout", "-qb", "v2")
    changed = corpus(2, parts + 1)
    for path in list(changed)[1 : 1 + 2 * parts]:
        changed.pop(path)  # deleted
    write_files(root, changed)
    for path in sorted(set(corpus(1, parts)) - set(changed)):
        git(root, "rm", "-q", path)
    git(root, "mv", "README.md", "GUIDE.md")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "v2")
    git(root, "checkout", "-q", "v1")
    return root


def codekith(*args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codekith.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def index(root: Path, db: Path) -> dict[str, Any]:
    result = codekith("index", str(root), "--db", str(db), "--json", "--wait")
    if result.returncode != 0:
        raise AssertionError(f"index failed: {result.stderr}")
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def snapshot(db: Path, embedder: Embedder) -> dict[str, Any]:
    """What an answer can depend on: chunks, catalog, edges and search results."""
    store = Store(str(db))
    columns = ["id", "path", "qualname", "content_hash", "file_hash", "start_line", "end_line"]
    chunks = sorted(
        (*(r[c] for c in columns), r["document"])
        for r in store.rows("true", columns=[*columns, "document"])
    )
    catalog = sorted(
        (p, r.file_hash, r.size, r.status, r.reason, r.chunks, r.error)
        for p, r in store.catalog().items()
    )
    edges = sorted(
        (e["src"], e["dst"], e["kind"], e["path"], e["line"]) for e in store.live_edges()
    )
    searcher = Searcher(store, lambda: embedder)

    def searches(label: str) -> dict[str, list[str]]:
        return {
            f"{label}{mode}:{query}": [hit.id for hit in searcher.search(query, 5, mode=mode)]
            for query in QUERIES
            for mode in ("hybrid", "vector", "text")
        }

    # as the runs left it (tombstones, rows outside the full-text index), then compacted
    found = searches("")
    store.maintain(force=True)
    found |= searches("compacted ")
    return {"chunks": chunks, "catalog": catalog, "edges": edges, "searches": found}


FRESH_PART = "compacted searches vs fresh"


def differences(
    expected: dict[str, Any], actual: dict[str, Any], fresh: dict[str, Any] | None = None
) -> dict[str, int]:
    """Per part, how many entries differ (0 everywhere: equal). With `fresh` (an index built
    from scratch), compacted answers are compared with it too: compaction re-indexes the
    full-text index, whose statistics otherwise still count rows deleted since it was built
    (so before compaction an updated index is compared with an index updated the same way)."""
    out = {}
    for part in ("chunks", "catalog", "edges"):
        want, got = set(expected[part]), set(actual[part])
        out[part] = len(want ^ got)
    searches = expected["searches"]
    out["searches"] = sum(searches[q] != actual["searches"][q] for q in searches)
    if fresh is not None:
        compacted = [q for q in fresh["searches"] if q.startswith("compacted ")]
        out[FRESH_PART] = sum(fresh["searches"][q] != actual["searches"][q] for q in compacted)
    return out


def run_state(db: Path) -> str:
    """Where the killed run was: no index yet, mid-run, or finished."""
    store = Store(str(db))
    if not store.has_index():
        return "before the first commit"
    return "mid-run" if store.meta().get("run_state") == "running" else "finished"


@dataclass
class Trial:
    kind: str
    delay: float
    state: str
    diff: dict[str, int] = field(default_factory=dict)

    @property
    def equal(self) -> bool:
        """Equal to the uninterrupted run in every part (chunks, catalog, edges, searches)."""
        return not any(v for k, v in self.diff.items() if k != FRESH_PART)

    @property
    def equal_to_fresh(self) -> bool:
        """Also, once compacted, answering every search like an index built from scratch
        (known gap: an updated index can rank one query of many differently)."""
        return not any(self.diff.values())


def kill_at(root: Path, db: Path, delay: float) -> str:
    """Start `codekith index`, SIGKILL it after `delay` seconds; where it was then."""
    process = subprocess.Popen(
        [sys.executable, "-m", "codekith.cli", "index", str(root), "--db", str(db), "--json"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        process.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    state = run_state(db)
    if process.returncode == -signal.SIGKILL and state == "finished":
        return "before the run started writing"  # an update killed while it loaded
    return state


@dataclass
class Scenario:
    """A repository, its uninterrupted reference indexes and their timings."""

    root: Path
    work: Path
    embedder: Embedder
    seconds: dict[str, float] = field(default_factory=dict)
    expected: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def build(cls, work: Path, embedder: Embedder, parts: int = 3, jedi: bool = False):
        scenario = cls(make_repository(work / "repo", parts, jedi), work, embedder)
        scenario._reference("v1", work / "ref-v1")
        git(scenario.root, "checkout", "-q", "v2")
        scenario._reference("v2", work / "ref-v2")
        started = time.perf_counter()
        shutil.copytree(work / "ref-v1", work / "ref-incremental")
        index(scenario.root, work / "ref-incremental")
        scenario.seconds["incremental"] = time.perf_counter() - started
        scenario.expected["incremental"] = snapshot(work / "ref-incremental", embedder)
        git(scenario.root, "checkout", "-q", "v1")
        return scenario

    def _reference(self, tag: str, db: Path) -> None:
        started = time.perf_counter()
        index(self.root, db)
        self.seconds[tag] = time.perf_counter() - started
        self.expected[tag] = snapshot(db, self.embedder)

    def full_trial(self, rng: random.Random, number: int) -> Trial:
        """kill -9 during a first index of v1, then resume."""
        db = self.work / f"full-{number}"
        delay = rng.uniform(0, self.seconds["v1"])
        state = kill_at(self.root, db, delay)
        index(self.root, db)
        return Trial(
            "full", delay, state, differences(self.expected["v1"], snapshot(db, self.embedder))
        )

    def incremental_trial(self, rng: random.Random, number: int) -> Trial:
        """kill -9 while updating a v1 index to v2, then resume."""
        db = self.work / f"incremental-{number}"
        shutil.copytree(self.work / "ref-v1", db)
        git(self.root, "checkout", "-q", "v2")
        try:
            delay = rng.uniform(0, self.seconds["incremental"])
            state = kill_at(self.root, db, delay)
            index(self.root, db)
            found = snapshot(db, self.embedder)
            diff = differences(self.expected["incremental"], found, self.expected["v2"])
        finally:
            git(self.root, "checkout", "-q", "v1")
        return Trial("incremental", delay, state, diff)

    def two_cli_writers(self, number: int) -> dict[str, Any]:
        """Two `codekith index` at once on one index: each finishes or refuses clearly."""
        db = self.work / f"writers-{number}"
        command = [sys.executable, "-m", "codekith.cli", "index", str(self.root), "--db", str(db)]
        processes = [
            subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        outcomes = [p.communicate(timeout=900) for p in processes]
        codes = [p.returncode for p in processes]
        refused = [err for (_, err), code in zip(outcomes, codes, strict=True) if code != 0]
        index(self.root, db)
        return {
            "codes": codes,
            "refusals": refused,
            "diff": differences(self.expected["v1"], snapshot(db, self.embedder)),
        }


class StdioServer:
    """`codekith serve` driven over stdio with hand-written JSON-RPC: requests from the
    server (progress, registrations) are answered with null; notifications are dropped."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "codekith.cli", "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.next_id = 0

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _receive(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        length = 0
        while (line := self.process.stdout.readline().strip()) != b"":
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        message: dict[str, Any] = json.loads(self.process.stdout.read(length))
        return message

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> dict[str, Any]:
        self.next_id += 1
        self._send({"id": self.next_id, "method": method, "params": params})
        while True:
            message = self._receive()
            if "method" in message and "id" in message:
                self._send({"id": message["id"], "result": None})
            elif message.get("id") == self.next_id:
                return message

    def close(self) -> None:
        """Ask the server to stop without waiting for its answers (reading could block for
        ever); killed when it has not exited within two minutes."""
        try:
            self._send({"id": "shutdown", "method": "shutdown", "params": None})
            self.notify("exit", None)
            self.process.wait(timeout=120)
        except (OSError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


def cli_and_server(scenario: Scenario, number: int) -> dict[str, Any]:
    """A server indexing a folder and a `codekith index` of the same index at once."""
    db = scenario.work / f"server-{number}"
    server = StdioServer()
    try:
        server.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": scenario.root.as_uri(),
                "capabilities": {},
                "workspaceFolders": [{"uri": scenario.root.as_uri(), "name": "repo"}],
                "initializationOptions": {"db": str(db)},
            },
        )
        server.notify("initialized", {})
        cli = codekith("index", str(scenario.root), "--db", str(db))
        reindex = server.request(
            "workspace/executeCommand", {"command": "codekith.reindex", "arguments": [{}]}
        )
    finally:
        server.close()
    return {
        "cli_code": cli.returncode,
        "cli_refusal": cli.stderr.strip() if cli.returncode else "",
        "server_error": reindex.get("error"),
        "diff": differences(scenario.expected["v1"], snapshot(db, scenario.embedder)),
    }
