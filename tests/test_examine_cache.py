"""The cache of examined files: keyed by everything `examine` depends on, bounded, and never
a reason for a run to fail or to index something other than a fresh examination would."""

from __future__ import annotations

import dataclasses
import json
import sqlite3

from codekith import gitrepo
from codekith.config import Settings
from codekith.examine import SourceFile, examine
from codekith.examine_cache import CACHE_FILE, ExaminedCache
from codekith.qualnames import ModuleNames
from tests.conftest import HTTP_MODULE, MATH_MODULE, write_files


def source(text: str, path: str = "web/http.py", module: str = "web.http") -> SourceFile:
    data = text.encode()
    return SourceFile(path, "python", data, gitrepo.blob_id(data), 1, len(data), module)


def test_a_result_is_found_only_under_everything_that_made_it(tmp_path):
    settings = Settings()
    cache = ExaminedCache(tmp_path, settings)
    http = source(HTTP_MODULE)
    made = examine(http, settings)
    cache.keep([(http, made)])
    found = cache.lookup([http])["web/http.py"]
    assert found.rows == made.rows and found.record == made.record
    touched = dataclasses.replace(http, mtime_ns=7)  # the record is the file's as it is now
    assert cache.lookup([touched])["web/http.py"].record.mtime_ns == 7
    others = [
        source(HTTP_MODULE, path="api/http.py"),  # another path
        source(HTTP_MODULE, module="http"),  # another module name (a layout change)
        source(HTTP_MODULE + "\n# more\n"),  # other content
    ]
    assert cache.lookup(others) == {}
    stricter = Settings(secret_patterns=("HEADER",))  # other content rules
    assert ExaminedCache(tmp_path, stricter).lookup([http]) == {}


def test_the_least_recently_used_go_past_the_limit(tmp_path):
    settings = Settings()
    files = [source(f"def f{n}():\n    return {n}\n", f"m{n}.py", f"m{n}") for n in range(40)]
    size = len(json.dumps([[0], examine(files[0], settings).rows]))
    cache = ExaminedCache(tmp_path, settings, limit_bytes=size * 20)
    for file in files[:20]:
        cache.keep([(file, examine(file, settings))])
    assert len(cache.lookup(files[:1])) == 1  # used now: the newest of all
    for file in files[20:30]:
        cache.keep([(file, examine(file, settings))])
    kept = cache.lookup(files)
    assert "m0.py" in kept and "m29.py" in kept
    assert "m1.py" not in kept and len(kept) <= 20


def test_a_damaged_or_unwritable_cache_costs_a_run_nothing(tmp_path, project_for, workspace):
    root = workspace({"mathx.py": MATH_MODULE, "web/http.py": HTTP_MODULE})
    project = project_for(root)
    project.indexer.run()
    cache_file = root / ".codekith" / CACHE_FILE
    cache_file.write_bytes(b"this is no database" * 100)
    write_files(root, {"mathx.py": MATH_MODULE.replace("a + b", "b + a")})
    report = project.indexer.run()
    assert report.indexed == ["mathx.py"] and report.examined_cached == 0
    with sqlite3.connect(cache_file) as db:  # removed and made again by the next write
        assert db.execute("SELECT count(*) FROM examined").fetchone()[0] == 1


def test_a_full_rebuild_examines_every_file_anew(workspace, project_for):
    """What `--full` indexes never comes from the cache (whatever may be wrong with it)."""
    root = workspace({"web/http.py": HTTP_MODULE})
    project = project_for(root)
    project.indexer.run()
    cache = project.indexer.examined
    text = (root / "web/http.py").read_text()
    http = source(text, module=ModuleNames.on_disk(root)("web/http.py"))
    poisoned = examine(http, project.settings)
    for row in poisoned.rows:
        row["symbol"] = "poisoned"
    assert cache.lookup([http]), "the cache keys this source as the index run did"
    cache.keep([(http, poisoned)])
    assert cache.lookup([http])["web/http.py"].rows[0]["symbol"] == "poisoned"
    project.indexer.run(full=True)
    assert "poisoned" not in {r["symbol"] for r in project.store.rows("true")}
