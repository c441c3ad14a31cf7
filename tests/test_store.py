"""Store guarantees: atomic per-file updates, bounded versions, ANN index when it pays."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from codekith import store as store_module
from codekith.sidecode import is_test_path
from codekith.store import FileRecord, FileUpdate, Filters, Store
from tests.conftest import write_files

FUNCTIONS = "\n\n".join(f"def step_{i}(x):\n    return x + {i}\n" for i in range(5))


def test_readers_never_see_a_file_half_updated(workspace, project_for):
    root = workspace({"steps.py": FUNCTIONS})
    project = project_for(root)
    project.indexer.run()
    reader = Store(project.settings.db_location(root))
    counts: list[int] = []
    done = threading.Event()

    def read() -> None:
        while not done.is_set():
            counts.append(reader.count("deleted = false AND path = 'steps.py'"))

    thread = threading.Thread(target=read)
    thread.start()
    try:
        for edit in range(15):
            write_files(root, {"steps.py": FUNCTIONS.replace("x + 3", f"x * {edit + 10}")})
            project.indexer.run(paths=["steps.py"])
    finally:
        done.set()
        thread.join()
    assert len(counts) > 15
    assert set(counts) == {5}


def _fake_rows(count: int, dim: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(count, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return [
        {
            "id": f"id{seed}-{i}",
            "path": f"f{seed}.py",
            "language": "python",
            "kind": "function",
            "symbol": f"s{i}",
            "qualname": f"m.s{i}",
            "parent": "",
            "signature": "",
            "docstring": "",
            "imports": [],
            "bases": [],
            "decorators": [],
            "start_line": i,
            "end_line": i,
            "content_hash": f"h{seed}-{i}",
            "file_hash": "x",
            "document": f"doc {i}",
            "search_text": f"word{i} common",
            "vector": vectors[i],
            "deleted": False,
        }
        for i in range(count)
    ]


def test_maintenance_purges_tombstones_and_builds_ann(tmp_path, monkeypatch):
    store = Store(str(tmp_path / "db"))
    store.create("fake", 16, "1")
    for seed in range(12):
        rows = _fake_rows(300, 16, seed)
        record = FileRecord(f"f{seed}.py", "x", 0, 0, "python", "indexed", chunks=300)
        store.write_files([FileUpdate(record, rows)], {})
    store.remove_files(["f0.py"], forget=True)
    assert store.count("deleted = true") == 300
    monkeypatch.setattr(store_module, "ANN_MIN_ROWS", 3000)
    report = store.maintain(force=True)
    assert report["optimized"] and report["ann_built"]
    assert store.count("deleted = true") == 0 and store.count() == 3300
    probe = _fake_rows(300, 16, 5)[17]["vector"]
    hits = store.vector_search(probe, 5)
    assert hits[0]["id"] == "id5-17"
    filtered = store.vector_search(probe, 5, Filters(path_prefix="f7.py"))
    assert {h["path"] for h in filtered} == {"f7.py"}
    assert store.text_search("word17", 20)
    carrying = store.text_search("word17", 20, vectors=True)
    stored = store.vectors_of(row["id"] for row in carrying)
    assert carrying and all(np.array_equal(row["vector"], stored[row["id"]]) for row in carrying)
    quiet = store.maintain()
    assert not quiet["optimized"] and not quiet["ann_built"]


def test_remembered_vectors_never_outlive_the_model_they_came_from(tmp_path):
    store = Store(str(tmp_path / "db"))
    store.create("model-a", 16, "1")
    vector = np.ones(16, dtype=np.float32) / 4
    rows = [{**_fake_rows(1, 16, 0)[0], "vector": vector}]
    record = FileRecord("f0.py", "x", 0, 0, "python", "indexed", chunks=1)
    store.write_files([FileUpdate(record, rows)], {"h0-0": vector})
    assert np.array_equal(store.cached_vectors(["h0-0"])["h0-0"], vector)
    assert np.array_equal(Store(store.location).cached_vectors(["h0-0"])["h0-0"], vector)
    store.create("model-b", 8, "1")  # another model: every vector of the old one is gone
    assert store.cached_vectors(["h0-0"]) == {}


def test_the_lock_holder_appends_new_vectors_and_no_hash_twice(tmp_path):
    store = Store(str(tmp_path / "db"))
    store.create("fake", 16, "1")
    vector = np.ones(16, dtype=np.float32) / 4

    def cached_rows() -> list[str]:
        table = store._table("vectors")
        return sorted(table.to_arrow().column("content_hash").to_pylist())

    with store.write_lock():
        store._add_vectors({"a": vector, "b": vector})
        store._add_vectors({"a": vector, "c": vector})  # "a" is known: not appended again
    assert cached_rows() == ["a", "b", "c"]
    outside = Store(store.location)  # no lock: a merge, which never adds a known hash
    outside._add_vectors({"b": vector, "d": vector})
    assert cached_rows() == ["a", "b", "c", "d"]
    assert set(Store(store.location).cached_vectors(["a", "b", "c", "d"])) == set("abcd")


def test_run_records_are_trimmed_in_steps_to_the_newest(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "RUNS_KEPT", 5)
    monkeypatch.setattr(store_module, "RUNS_TRIM", 3)
    store = Store(str(tmp_path / "db"))
    store.create("fake", 16, "1")
    for number in range(7):
        store.add_run(_run_record(number))
    assert len(store.runs(100)) == 7  # a step not yet full: no trimming commit
    store.add_run(_run_record(7))
    runs = store.runs(100)
    assert [r["started_at"] for r in runs] == [7.0, 6.0, 5.0, 4.0, 3.0]  # the newest 5


def _run_record(number: int) -> dict:
    return {**dict.fromkeys(store_module.RUN_SCHEMA.names), "started_at": float(number)}


def test_lancedb_caches_stay_bounded_over_many_versions(tmp_path, monkeypatch):
    """Every read of a new table version caches its metadata: a long-lived server would
    grow by each save's versions without the process-wide bound."""
    monkeypatch.setattr(store_module, "METADATA_CACHE_BYTES", 256 << 10)
    monkeypatch.setattr(store_module, "INDEX_CACHE_BYTES", 1 << 20)
    store_module._lance_session.cache_clear()
    try:
        store = Store(str(tmp_path / "db"))
        store.create("fake", 16, "1")
        sizes = []
        for seed in range(60):
            rows = _fake_rows(3, 16, seed % 3)
            record = FileRecord(f"f{seed % 3}.py", str(seed), 0, 0, "python", "indexed")
            store.write_files([FileUpdate(record, rows)], {})
            store.set_meta({"step": str(seed)})
            assert store.meta()["step"] == str(seed)
            assert store.text_search("common", 5)
            sizes.append(store_module._lance_session().size_bytes)
        assert max(sizes) <= (256 << 10) + (1 << 20) + (256 << 10), sizes
    finally:
        store_module._lance_session.cache_clear()


def test_meta_is_remembered_only_while_it_is_current(tmp_path, monkeypatch):
    writer = Store(str(tmp_path / "db"))
    writer.create("model-a", 16, "1")
    reader = Store(writer.location)
    assert reader.meta()["model"] == "model-a"
    reads: list[str] = []
    real_table = Store._table

    def counting(self: Store, name: str):  # type: ignore[no-untyped-def]
        table = real_table(self, name)
        if name == "meta":
            return _Counted(table, reads, "to_arrow", "read")
        return table

    monkeypatch.setattr(Store, "_table", counting)
    assert reader.meta()["model"] == "model-a"
    assert reads == []  # same version: the remembered rows
    with writer.write_lock():
        writer.meta()
        writer.set_meta({"head": "abc"})
        writer.set_meta({"head": "def"})
        assert writer.meta()["head"] == "def"
    assert reads == ["read"]  # the lock holder read once and kept what it wrote
    assert reader.meta()["head"] == "def"  # another connection's commit: read again
    writer.set_meta({"head": "ghi"})  # without the lock, nothing is assumed
    assert writer.meta()["head"] == reader.meta()["head"] == "ghi"
    monkeypatch.undo()
    young = Store(str(tmp_path / "young"))
    young.create("model-a", 16, "1")
    watcher = Store(young.location)
    assert watcher.meta()["model"] == "model-a"
    young.create("model-b", 16, "1")  # made again: its versions start over, as the same numbers
    assert young.meta()["model"] == watcher.meta()["model"] == "model-b"


def test_the_lock_holder_checks_its_meta_memo_once_per_lock(tmp_path, monkeypatch):
    """While a connection holds the write lock nobody else commits meta: one check that the
    memo is current serves the whole run. Another writer's commit before the lock is taken
    is seen, and so is meta made again by the holder itself."""
    writer = Store(str(tmp_path / "db"))
    writer.create("model-a", 16, "1")
    other = Store(writer.location)
    assert writer.meta()["model"] == "model-a"  # remembered, without the lock
    other.set_meta({"head": "from-other"})
    checks: list[int] = []
    real_key = Store._meta_key

    def counting(self: Store):  # type: ignore[no-untyped-def]
        if self is writer:
            checks.append(1)
        return real_key(self)

    monkeypatch.setattr(Store, "_meta_key", counting)
    with writer.write_lock():
        assert writer.meta()["head"] == "from-other"  # checked: another commit came before
        for _ in range(5):
            assert writer.meta()["head"] == "from-other"
        writer.set_meta({"head": "mine"})
        assert writer.meta()["head"] == "mine"
        during = len(checks)
        writer.create("model-b", 16, "1")  # meta made again by the holder
        assert writer.meta()["model"] == "model-b"
        assert "head" not in writer.meta()  # nothing of the dropped table's memo
    assert during == 2  # the first read and set_meta's new key, not one per read
    other.set_meta({"head": "later"})
    assert writer.meta()["head"] == "later"  # without the lock every read checks


class _Counted:
    """A table whose calls of one method are noted (as `note`) in `calls`."""

    def __init__(self, table: object, calls: list[str], method: str, note: str):
        self._table, self._calls, self._method, self._note = table, calls, method, note

    def __getattr__(self, name: str) -> object:
        found = getattr(self._table, name)
        if name != self._method:
            return found

        def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
            self._calls.append(self._note)
            return found(*args, **kwargs)

        return counted


def test_a_writer_recalls_what_it_wrote_only_while_nobody_else_wrote(tmp_path, monkeypatch):
    """A save looks up its file's live chunk ids and catalog record before writing: the
    connection that wrote them last answers from memory, unless another commit came since
    (another connection's write, or the table made again with its versions counted anew)."""
    writer = Store(str(tmp_path / "db"))
    writer.create("fake", 16, "1")
    other = Store(writer.location)

    def save(store: Store, seed: int) -> tuple[set[str], FileRecord]:
        rows = [{**row, "path": "f.py"} for row in _fake_rows(3, 16, seed)]
        record = FileRecord("f.py", f"hash{seed}", 0, 0, "python", "indexed", chunks=3)
        store.write_files([FileUpdate(record, rows)], {})
        return {row["id"] for row in rows}, record

    reads: list[str] = []
    real_table = Store._table

    def counting(self: Store, name: str):  # type: ignore[no-untyped-def]
        table = real_table(self, name)
        return _Counted(table, reads, "search", name) if name in ("chunks", "files") else table

    monkeypatch.setattr(Store, "_table", counting)
    ids, record = save(writer, 1)
    reads.clear()
    assert writer.live_ids(["f.py"]) == {"f.py": ids}
    assert writer.catalog(["f.py"]) == {"f.py": record}
    assert reads == []  # its own last commits: nothing read back
    ids, record = save(writer, 2)  # one save after another: still remembered
    reads.clear()
    assert writer.live_ids(["f.py"]) == {"f.py": ids} and writer.catalog(["f.py"])["f.py"] == record
    assert reads == []
    assert writer.live_ids(["g.py"]) == {"g.py": set()} and reads == ["chunks"]  # not written
    theirs, their_record = save(other, 3)
    reads.clear()
    assert writer.live_ids(["f.py"]) == {"f.py": theirs}
    assert writer.catalog(["f.py"]) == {"f.py": their_record}
    assert reads == ["chunks", "files"]  # another connection wrote since: read again
    ids, _ = save(writer, 4)  # its next commit does not follow its last: nothing assumed
    assert writer.live_ids(["f.py"]) == {"f.py": ids}
    remade = Store(writer.location)
    remade.create("fake", 16, "1")  # the same folders made again: versions start over
    seed = 5
    while int(remade._table("chunks").version) < writer._written["chunks"].version:
        theirs, seed = save(remade, seed)[0], seed + 1
    assert int(remade._table("chunks").version) == writer._written["chunks"].version
    assert writer.live_ids(["f.py"]) == {"f.py": theirs}  # same version, another table
    writer.remove_files(["f.py"], forget=False)
    assert writer.live_ids(["f.py"]) == {"f.py": set()} == other.live_ids(["f.py"])


def test_lancedb_opens_without_the_rest_client_set_up_yet_keeps_it(tmp_path):
    """The REST namespace client's __init__ (seconds of pydantic validators) and the ~200
    models the namespace interface re-exports load only when something reads them: a local
    index never does, but nothing of them is lost, and what lancedb imported of them is
    the real class once used."""
    script = f"""
import sys
from codekith.store import NAMESPACES, REST_CLIENT, Store
store = Store({str(tmp_path / "db")!r})
store.create("model-a", 16, "1")
reopened = Store(store.location)
assert reopened.meta()["model"] == "model-a" and "meta" in reopened._names()
assert not any(m.startswith(REST_CLIENT + ".api") for m in sys.modules), "REST API loaded"
models = [m for m in sys.modules if m.startswith(REST_CLIENT + ".models.")]
assert len(models) < 30, f"{{len(models)}} REST models loaded"
client = __import__(REST_CLIENT)
assert client.ApiClient.__name__ == "ApiClient" and client.TableApi.__name__ == "TableApi"
assert REST_CLIENT + ".api.table_api" in sys.modules
import lancedb.db
namespaces = __import__(NAMESPACES)
assert namespaces.LanceNamespace.__name__ == "LanceNamespace"
response = lancedb.db.ListTablesResponse(tables=["a"])
assert isinstance(response, namespaces.ListTablesResponse) and response.tables == ["a"]
assert namespaces.CreateTableRequest.__name__ == "CreateTableRequest"
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_arrow_buffers_come_from_malloc_once_a_store_is_open(tmp_path):
    """Freed Arrow buffers must go back to the C library, whose free pages the server
    returns to the system after runs (pyarrow's own mimalloc pool kept ~1.9 MB per save)."""
    import pyarrow as pa

    Store(str(tmp_path / "db")).create("model-a", 16, "1")
    assert pa.default_memory_pool().backend_name == "system"


def test_a_table_made_but_not_yet_committed_is_absent_not_damage(workspace, project_for):
    """Lance writes a new table's data files before its first manifest; meanwhile
    `list_tables` names the table and `open_table` cannot open it. A reader then (status
    during a first run) must see no such table, not a damaged index."""
    root = workspace({"steps.py": FUNCTIONS})
    project = project_for(root)
    project.indexer.run()
    store = Store(project.settings.db_location(root))
    assert "feedback" not in store.snapshot().tables
    tables = Path(store.path)
    being_made = tables / "feedback.lance" / "data"
    being_made.mkdir(parents=True)
    shutil.copy(next((tables / "chunks.lance" / "data").glob("*.lance")), being_made)
    state = Store(project.settings.db_location(root)).snapshot()
    assert "feedback" not in state.tables
    assert state.chunks == 5


def test_a_snapshot_read_spoiled_by_a_writer_is_tried_again_damage_is_not(
    workspace, project_for, monkeypatch
):
    """A read that fails while the table files change (or go while listed: a writer drops
    and makes a table again) is tried again after a short wait; one that fails on files
    that did not change is damage and raises at once."""
    root = workspace({"steps.py": FUNCTIONS})
    project = project_for(root)
    project.indexer.run()
    store = Store(project.settings.db_location(root))
    real_read, real_files = Store._read_snapshot, Store._table_files
    reads: list[int] = []
    listings = iter([["before"], None, ["during"], ["after"], ["after"], ["after"]])
    monkeypatch.setattr(store_module, "SNAPSHOT_RETRY_S", 0.0)

    def spoiled(self: Store):  # type: ignore[no-untyped-def]
        reads.append(1)
        if len(reads) < 3:
            raise RuntimeError("lance error: Not found: graph.lance/_versions")
        return real_read(self)

    monkeypatch.setattr(Store, "_read_snapshot", spoiled)
    monkeypatch.setattr(Store, "_table_files", lambda self: next(listings))
    assert store.snapshot().chunks == 5
    assert len(reads) == 3
    monkeypatch.setattr(Store, "_table_files", real_files)
    reads.clear()

    def damaged(self: Store):  # type: ignore[no-untyped-def]
        reads.append(1)
        raise RuntimeError("lance error: corrupt file")

    monkeypatch.setattr(Store, "_read_snapshot", damaged)
    with pytest.raises(RuntimeError, match="corrupt"):
        Store(project.settings.db_location(root)).snapshot()
    assert len(reads) == 1


def test_the_test_path_filter_selects_what_the_ranking_calls_tests(tmp_path):
    """LanceDB reads `sidecode.TEST_PATH` (Rust's regex) as Python does: the store's test
    filter and the ranking's `is_test_path` must never disagree, or a test listed apart
    would also rank among the hits, or vanish from both."""
    paths = [
        "tests/test_app.py",
        "src/pkg/test_utils.py",
        "pkg/conftest.py",
        "pkg/io_test.py",
        "server/handler_test.go",
        "web/src/button.test.tsx",
        "lib/client.spec.mjs",
        "e2e-tests/run.py",
        "pkg/testdata/sample.go",
        "src/__tests__/view.js",
        "src/testing.py",
        "src/contest/entry.py",
        "src/latest/attest.py",
        "docs/tests.md",
        "src/app.py",
        "Src/Newtonsoft.Json.Tests/JsonConvertTest.cs",
        "Src/Newtonsoft.Json.FuzzTests/FuzzTests.cs",
        "Tests/AlamofireTests/SessionTests.swift",
        "okio/src/jvmTest/kotlin/okio/BufferTest.kt",
        "src/main/java/p/LatestTest.java",
        "core/src/FooSpec.scala",
        "lib/rack/utils_spec.rb",
        "db/version_set_test.cc",
        "Src/Newtonsoft.Json/Latest.cs",
        "Sources/Contest/Attest.swift",
        "src/main/kotlin/Testing.kt",
        "src/Protest/Manifest.java",
    ]
    store = Store(str(tmp_path / "db"))
    store.create("fake", 16, "1")
    for seed, path in enumerate(paths):
        rows = [{**row, "path": path} for row in _fake_rows(2, 16, seed)]
        record = FileRecord(path, "x", 0, 0, "python", "indexed", chunks=2)
        store.write_files([FileUpdate(record, rows)], {})
    tests = {row["path"] for row in store.rows(Filters(test_paths=True).where())}
    others = {row["path"] for row in store.rows(Filters(test_paths=False).where())}
    assert tests == {path for path in paths if is_test_path(path)}
    assert others == set(paths) - tests
    assert len(tests) == 18 and others == {
        "src/testing.py",
        "src/contest/entry.py",
        "src/latest/attest.py",
        "Src/Newtonsoft.Json/Latest.cs",
        "Sources/Contest/Attest.swift",
        "src/main/kotlin/Testing.kt",
        "src/Protest/Manifest.java",
        "docs/tests.md",
        "src/app.py",
    }
