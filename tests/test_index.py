"""The index end to end with the real model and real LanceDB on tmp dirs."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from codekith.project import Project
from codekith.search import Filters
from codekith.store import UNINDEXED_FLOOR, IndexMismatchError
from codekith.template import TEXT_VERSION, code_of, search_text
from tests.conftest import HTTP_MODULE, MATH_MODULE, git, write_files


def live_ids(project) -> dict[str, str]:
    return {r["id"]: r["qualname"] for r in project.store.rows("true", columns=["id", "qualname"])}


def test_index_then_search_finds_the_right_function(workspace, project_for):
    root = workspace(
        {
            "web/http.py": HTTP_MODULE,
            "mathx.py": MATH_MODULE,
            "README.md": "# Usage\nCall parse_header on each line.\n",
        }
    )
    project = project_for(root)
    report = project.indexer.run()
    assert report.embedded == report.chunks_written == report.chunks_total > 0
    hits = project.searcher.search("split a header line into name and value", k=3)
    assert hits[0].qualname == "web.http.parse_header"
    assert (
        project.searcher.search("nth fibonacci number", k=1, mode="vector")[0].qualname
        == "mathx.fibonacci"
    )
    assert project.searcher.search("prime", k=1, mode="text")[0].qualname == "mathx.is_prime"
    assert project.searcher.search("Session.send", k=1)[0].qualname == "web.http.Session.send"


def test_second_run_does_nothing_and_line_shift_reembeds_nothing(workspace, project_for):
    root = workspace({"web/http.py": HTTP_MODULE, "mathx.py": MATH_MODULE})
    project = project_for(root)
    project.indexer.run()
    before = live_ids(project)
    again = project.indexer.run()
    assert again.indexed == [] and again.embedded == 0
    path = root / "mathx.py"
    path.write_text("\n\n# moved down\n" + path.read_text())
    shifted = project.indexer.run()
    assert shifted.indexed == ["mathx.py"]
    assert shifted.embedded == 1  # only the module chunk, whose text gained a comment
    after = live_ids(project)
    fib = next(i for i, q in before.items() if q == "mathx.fibonacci")
    assert fib in after
    row = project.store.rows(f"id = '{fib}'")[0]
    assert row["start_line"] == 5


def stored_vectors_are_their_documents(project, embedder) -> None:
    rows = project.store.rows("deleted = false", columns=["id", "document"])
    stored = project.store.vectors_of(r["id"] for r in rows)
    fresh = embedder.embed_documents([r["document"] for r in rows])
    for row, vector in zip(rows, fresh, strict=True):
        assert float(np.dot(stored[row["id"]], vector)) > 0.9999, row["id"]


def test_rename_leaves_no_ghosts_and_no_vector_of_the_old_name(workspace, project_for, embedder):
    """The embedded document names the file and the qualified name, so a renamed file's
    chunks get vectors of their new documents; moving back reuses the old ones."""
    root = workspace({"mathx.py": MATH_MODULE})
    project = project_for(root)
    project.indexer.run()
    (root / "mathx.py").rename(root / "numbers_util.py")
    report = project.indexer.run()
    assert report.deleted == ["mathx.py"] and report.indexed == ["numbers_util.py"]
    assert report.embedded == 2 and report.reused == 0
    paths = {r["path"] for r in project.store.rows("true", columns=["path"])}
    assert paths == {"numbers_util.py"}
    assert "mathx.py" not in project.store.catalog()
    stored_vectors_are_their_documents(project, embedder)
    (root / "numbers_util.py").rename(root / "mathx.py")
    back = project.indexer.run()
    assert back.embedded == 0 and back.reused == 2


LONG_FUNCTION = (
    "def tally(rows):\n    total = 0\n{body}    return total\n\n\ndef short():\n    return 1\n"
)


def test_a_change_past_what_the_model_reads_keeps_the_vector_and_one_within_it_embeds(
    workspace, project_for, embedder
):
    """The model reads a document's first MAX_TOKENS tokens: an edit near the end of a long
    function gives it the same input, so the vector the previous version has is the one
    the model would make (bit for bit), and nothing is embedded."""
    body = "".join(f"    total += rows[{i}] * {i} + len(str(rows[{i}]))\n" for i in range(40))
    root = workspace({"long.py": LONG_FUNCTION.format(body=body)})
    project = project_for(root)
    assert project.indexer.run().embedded == 2  # tally and short
    path = root / "long.py"
    path.write_text(path.read_text().replace("rows[39] * 39", "rows[39] * 41"))
    tail = project.indexer.run()
    assert tail.indexed == ["long.py"] and tail.embedded == 0 and tail.reused == 2
    row = project.store.rows("qualname = 'long.tally'", columns=["id", "document"])[0]
    assert "rows[39] * 41" in row["document"]
    stored = project.store.vectors_of([row["id"]])[row["id"]]
    assert np.array_equal(stored, embedder.embed_documents([row["document"]])[0])
    path.write_text(path.read_text().replace("total = 0", "total = 10"))
    head = project.indexer.run()
    assert head.embedded == 1 and head.reused == 1
    stored_vectors_are_their_documents(project, embedder)


def test_the_same_code_in_two_files_gets_each_file_its_own_vector(workspace, project_for, embedder):
    body = "def clamp(value, low, high):\n    return max(low, min(value, high))\n"
    root = workspace({"graphics/color.py": body, "audio/volume.py": body})
    project = project_for(root)
    assert project.indexer.run().embedded == 2
    stored_vectors_are_their_documents(project, embedder)


def test_deleting_and_editing_files(workspace, project_for):
    root = workspace({"web/http.py": HTTP_MODULE, "mathx.py": MATH_MODULE})
    project = project_for(root)
    project.indexer.run()
    (root / "web/http.py").unlink()
    (root / "mathx.py").write_text(MATH_MODULE.replace("is_prime", "is_probably_prime"))
    report = project.indexer.run()
    assert report.deleted == ["web/http.py"]
    qualnames = set(live_ids(project).values())
    assert qualnames == {"mathx.fibonacci", "mathx.is_probably_prime"}
    assert not project.searcher.search("cookies", k=5, filters=Filters(path_prefix="web"))


def test_a_secret_added_later_is_redacted_and_the_rest_stays(workspace, project_for):
    root = workspace({"settings.py": "DEBUG = True\n", "mathx.py": MATH_MODULE})
    project = project_for(root)
    project.indexer.run()
    (root / "settings.py").write_text('DEBUG = True\nAWS = "AKIAIOSFODNN7EXAMPLE"\n')
    report = project.indexer.run()
    assert report.redacted == {"settings.py": "redacted 1 secret: line 2 (AWS Access Key)"}
    assert {r["path"] for r in project.store.rows("true", columns=["path"])} == {
        "mathx.py",
        "settings.py",
    }
    assert all("AKIA" not in r["document"] for r in project.store.rows("true"))
    assert project.store.summary(runs=1)["redacted"] == report.redacted


def test_skips_are_recorded_and_dry_run_writes_nothing(workspace, project_for):
    root = workspace(
        {
            "a.py": "x = 1\n",
            ".env": "K=V\n",
            "blob.py": b"\x00\x01\x02",
            "latin.md": "caf\xe9".encode("latin-1"),
            "broken.py": "def ok():\n    return 1\n\ndef bad(:\n",
        }
    )
    project = project_for(root)
    dry = project.indexer.run(dry_run=True)
    assert not project.store.has_index()
    assert sorted(dry.indexed) == ["a.py", "broken.py"]
    assert dry.skipped == {
        ".env": "secret file (.env)",
        "blob.py": "binary file",
        "latin.md": "not valid UTF-8 (or its declared encoding)",
    }
    report = project.indexer.run()
    assert "syntax error" in report.errors["broken.py"]
    catalog = project.store.catalog()
    assert catalog["blob.py"].status == "skipped" and catalog["broken.py"].error
    assert "broken.ok" in set(live_ids(project).values())


def test_path_prefix_is_a_component_prefix_and_filters_combine(workspace, project_for):
    root = workspace(
        {
            "src/a/x.py": MATH_MODULE,
            "src/ab/y.py": MATH_MODULE,
            "src/a.py": MATH_MODULE,
            "docs/a.md": "# Fibonacci\nnumbers\n",
        }
    )
    project = project_for(root)
    project.indexer.run()

    def paths(**filters):
        hits = project.searcher.search("fibonacci", k=50, filters=Filters(**filters))
        return {h.path for h in hits}

    assert paths(path_prefix="src/a") == {"src/a/x.py"}
    assert paths(path_prefix="src/a/") == {"src/a/x.py"}
    assert paths(path_prefix="src/a.py") == {"src/a.py"}
    assert paths(path_prefix="src") == {"src/a/x.py", "src/ab/y.py", "src/a.py"}
    assert paths(language="markdown") == {"docs/a.md"}
    kinds = {
        h.kind for h in project.searcher.search("fibonacci", k=50, filters=Filters(kind="function"))
    }
    assert kinds == {"function"}
    assert "docs/a.md" not in paths(kind="code") and paths(kind="code") >= {"src/a.py"}
    assert paths(path_prefix="it's/quoted") == set()


def test_model_or_template_change_is_detected_never_mixed(workspace, project_for, monkeypatch):
    root = workspace({"mathx.py": MATH_MODULE})
    project_for(root).indexer.run()
    other = project_for(root, model="BAAI/bge-small-en-v1.5")
    with pytest.raises(IndexMismatchError, match="codekith index --full"):
        other.indexer.run()
    monkeypatch.setattr("codekith.indexer.TEMPLATE_VERSION", "999")
    with pytest.raises(IndexMismatchError, match="template"):
        project_for(root).indexer.run()
    rebuilt = project_for(root).indexer.run(full=True)
    assert rebuilt.embedded == rebuilt.chunks_total
    assert project_for(root).store.meta()["template"] == "999"


def old_full_text_rule(row: dict) -> str:
    """The full-text rule before TEXT_VERSION 2 (path in, the name once)."""
    code = code_of(row["document"])
    return search_text(f"{row['path']} {row['qualname']} {row['docstring']} {code}")


def test_a_new_full_text_rule_rewrites_stored_texts_without_embedding(
    workspace, project_for, embedder, tmp_path
):
    root = workspace({"mathx.py": MATH_MODULE, "headers.py": HTTP_MODULE})
    project = project_for(root)
    project.indexer.run()
    # As an index written before the rule changed: old texts, no text version in meta.
    with project.store.write_lock():
        assert project.store.rewrite_search_text(old_full_text_rule) > 0
    project.store._table("meta").delete("key = 'text'")
    columns = ["id", "search_text"]
    texts = {r["id"]: r["search_text"] for r in project.store.rows("true", columns=columns)}

    report = project.indexer.run()
    assert report.embedded == 0 and report.chunks_written == 0
    assert project.store.meta()["text"] == TEXT_VERSION
    fresh = Project(root, db=str(tmp_path / "fresh-db"), embedder=embedder)
    fresh.indexer.run()
    rewritten = {r["id"]: r["search_text"] for r in project.store.rows("true", columns=columns)}
    assert rewritten == {
        r["id"]: r["search_text"] for r in fresh.store.rows("true", columns=columns)
    }
    assert rewritten != texts
    query = "fibonacci number"
    ids = [h.id for h in project.searcher.search(query, 5, mode="text")]
    assert ids == [h.id for h in fresh.searcher.search(query, 5, mode="text")]
    assert project.searcher.search(query, 1, mode="text")[0].qualname == "mathx.fibonacci"


COMPOUND_NAMES = """\
def partitionby(func, seq):
    return map(tuple, pluck(1, itertools.groupby(seq, key=func)))


def partition_all(n, seq):
    args = [iter(seq)] * n
    return zip_longest(*args, fillvalue=no_pad)
"""


def test_the_full_text_finds_a_name_that_runs_words_together(workspace, project_for):
    """`partitionby` holds the question's "partition" only as a compound (TEXT_VERSION 3)."""
    project = project_for(workspace({"recipes.py": COMPOUND_NAMES}))
    project.indexer.run()
    found = project.searcher.search("Partition a sequence according to a function", 5, mode="text")
    assert {hit.qualname for hit in found} == {"recipes.partitionby", "recipes.partition_all"}


def test_ghost_chunks_without_a_catalog_entry_are_removed(workspace, project_for):
    root = workspace({"mathx.py": MATH_MODULE, "keep.py": "A = 1\n"})
    project = project_for(root)
    project.indexer.run()
    project.store._table("files").delete("path = 'mathx.py'")  # as if killed mid-run
    project.store.set_meta({"run_state": "running"})

    (root / "mathx.py").unlink()
    report = project.indexer.run()
    assert report.deleted == ["mathx.py"] and report.scan_reason == "the last run was interrupted"
    assert {r["path"] for r in project.store.rows("true", columns=["path"])} == {"keep.py"}
    assert project.store.meta()["run_state"] == "done"


def test_index_follows_git_checkout(workspace, project_for):
    root = workspace({"mathx.py": MATH_MODULE})
    git(root, "add", "-A")
    git(root, "commit", "-qm", "one")
    git(root, "checkout", "-qb", "feature")
    write_files(root, {"extra.py": "def added_on_feature():\n    return 42\n"})
    git(root, "add", "-A")
    git(root, "commit", "-qm", "two")
    project = project_for(root)
    project.indexer.run()
    git(root, "checkout", "-q", "main")
    report = project.indexer.run()
    assert report.deleted == ["extra.py"]
    git(root, "checkout", "-q", "feature")
    back = project.indexer.run()
    assert back.indexed == ["extra.py"] and back.embedded == 0


def test_copy_of_workspace_gets_identical_ids(workspace, project_for, tmp_path):
    root = workspace({"web/http.py": HTTP_MODULE})
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    first, second = project_for(root), project_for(copy)
    first.indexer.run()
    second.indexer.run()
    assert live_ids(first) == live_ids(second)


def test_other_languages_are_chunked_by_syntax(workspace, project_for):
    root = workspace(
        {
            "web/cart.js": "// Sum the prices of all items in the cart.\n"
            "export function cartTotal(items) {\n"
            "  return items.reduce((s, i) => s + i.price, 0);\n}\n",
            "svc/users.go": "package svc\n\n// Look a user up by e-mail address.\n"
            "func FindByEmail(email string) int { return 0 }\n",
        }
    )
    project = project_for(root)
    project.indexer.run()
    hit = project.searcher.search("sum of item prices in a shopping cart", k=1)[0]
    assert (hit.qualname, hit.kind, hit.language) == (
        "web.cart.cartTotal",
        "function",
        "javascript",
    )
    assert project.searcher.search("find user by email", k=1)[0].qualname == "svc.users.FindByEmail"


def test_rows_a_run_adds_reach_the_full_text_index_so_they_score_like_the_rest(
    workspace, project_for
):
    """Rows outside the full-text index are scored on statistics of their own (flask with
    518 new documentation rows unindexed ranked its docstring questions .578 instead of
    .572): a run that adds more than UNINDEXED_FLOOR of them, in a small index too, brings
    them in."""
    root = workspace({"a.py": "def one():\n    return 1\n"})
    project_for(root).indexer.run()
    helpers = "".join(f"def helper_{i}(value):\n    return value + {i}\n\n\n" for i in range(60))
    (root / "many.py").write_text(helpers)
    report = project_for(root).indexer.run()
    assert report.chunks_written == 60 > UNINDEXED_FLOOR
    assert report.maintenance["optimized"]


def test_c_family_ruby_php_and_kotlin_are_indexed_by_definition(workspace, project_for):
    """A repository in the languages chunked by syntax (and outside the call graph) is
    searchable by its definitions: a C++ method defined outside its class in a `.h` header,
    a Ruby module's method, a PHP method, a Kotlin function."""
    root = workspace(
        {
            "include/ring.h": "namespace ring {\n// A fixed-size ring buffer of bytes.\n"
            "class RingBuffer {\n public:\n  void clear();\n private:\n  int head_, tail_;\n};\n\n"
            "// Drop every byte that was written.\ninline void RingBuffer::clear() {\n"
            "  head_ = tail_ = 0;\n}\n}  // namespace ring\n",
            "lib/rack/utils.rb": "module Rack\n  module Utils\n"
            "    # Escape a string for use in a URL query.\n    def self.escape(s)\n"
            "      URI.encode_www_form_component(s)\n    end\n  end\nend\n",
            "src/Mailer.php": "<?php\nnamespace App;\n\nclass Mailer\n{\n"
            "    /** Send an e-mail message to one recipient. */\n"
            "    public function send(string $to, string $body): void\n    {\n"
            "        mail($to, 'hi', $body);\n    }\n}\n",
            "src/okio/Hex.kt": "package okio\n\n/** Decode a hexadecimal string into bytes. */\n"
            "fun decodeHex(hex: String): ByteArray {\n"
            "  return hex.chunked(2).map { it.toInt(16).toByte() }.toByteArray()\n}\n",
        }
    )
    project = project_for(root)
    project.indexer.run()
    expected = {
        "drop every byte written to the ring buffer": (
            "include.ring.RingBuffer.clear",
            "method",
            "c",
        ),
        "escape a string for a URL query": ("lib.rack.utils.Utils.escape", "method", "ruby"),
        "send an email to a recipient": ("Mailer.Mailer.send", "method", "php"),
        "decode hex string to bytes": ("okio.Hex.decodeHex", "function", "kotlin"),
    }
    for question, (qualname, kind, language) in expected.items():
        hit = project.searcher.search(question, k=1)[0]
        assert (hit.qualname, hit.kind, hit.language) == (qualname, kind, language), question
