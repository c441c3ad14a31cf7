"""Git-aware incremental indexing and freshness on real repositories made in tmp dirs."""

from __future__ import annotations

import os

from codekith import freshness, gitrepo
from codekith.progress import Step
from codekith.store import CHUNK_COLUMNS
from tests.conftest import HTTP_MODULE, MATH_MODULE, git, init_repo, write_files


def commit(root, message="change"):
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


def live(project) -> set[tuple[str, str]]:
    return {
        (r["path"], r["qualname"]) for r in project.store.rows("true", columns=["path", "qualname"])
    }


def state(project):
    return freshness.check(project.root, project.settings, project.store)


def test_git_mode_looks_only_at_changed_files(workspace, project_for):
    root = workspace({"web/http.py": HTTP_MODULE, "mathx.py": MATH_MODULE, "b.py": "B = 1\n"})
    commit(root)
    project = project_for(root)
    first = project.indexer.run()
    assert first.mode == "scan"
    assert state(project).fresh
    write_files(root, {"b.py": "B = 2\n"})
    commit(root)
    assert not state(project).fresh and state(project).stale == ["b.py"]
    second = project.indexer.run()
    assert second.mode == "git" and second.files == 1 and second.indexed == ["b.py"]
    assert state(project).fresh
    runs = project.store.runs()
    assert [r["mode"] for r in runs] == ["git", "scan"]
    assert runs[0]["head"] == git(root, "rev-parse", "HEAD").strip()


def test_rename_delete_and_permission_change(workspace, project_for):
    root = workspace({"mathx.py": MATH_MODULE, "web/http.py": HTTP_MODULE, "x.py": "X = 1\n"})
    commit(root)
    project = project_for(root)
    project.indexer.run()
    git(root, "mv", "mathx.py", "numbers_util.py")
    git(root, "rm", "-q", "web/http.py")
    os.chmod(root / "x.py", 0o755)
    commit(root)
    report = project.indexer.run()
    assert report.mode == "git"
    assert report.deleted == ["mathx.py", "web/http.py"]
    # the renamed file's documents name its new path and module: embedded again
    assert report.indexed == ["numbers_util.py"] and report.embedded == 2
    assert {p for p, _ in live(project)} == {"numbers_util.py", "x.py"}
    assert "x.py" not in report.indexed


def with_feature_branch(workspace, files):
    """A repository with `files` on main and, checked out, a branch `feature` that changes
    mathx.py and adds web/http.py."""
    root = workspace(files)
    commit(root, "base")
    git(root, "checkout", "-qb", "feature")
    write_files(
        root, {"mathx.py": MATH_MODULE.replace("a + b", "b + a"), "web/http.py": HTTP_MODULE}
    )
    commit(root, "feature work")
    return root


def test_branch_switch_back_and_forth_embeds_nothing_on_the_way_back(workspace, project_for):
    root = with_feature_branch(workspace, {"mathx.py": MATH_MODULE})
    project = project_for(root)
    project.indexer.run()
    on_feature = live(project)
    git(root, "checkout", "-q", "main")
    to_main = project.indexer.run()
    assert to_main.mode == "git" and to_main.embedded == 1  # fibonacci as it is on main
    git(root, "checkout", "-q", "feature")
    back = project.indexer.run()
    assert back.embedded == 0 and live(project) == on_feature
    git(root, "checkout", "-q", "main")
    again = project.indexer.run()
    assert again.embedded == 0


def test_a_branch_switch_that_moves_redacted_lines_forgets_no_other_vector(workspace, project_for):
    """A redacted file whose secret moves to another line (its redaction reason changes)
    removes no secret text: the rules are the same, so no earlier version held the value in
    clear. The vectors of the other branch stay cached and switching back embeds nothing."""
    value = "Zq81kXp0vB7mLw92nYt4"
    doc = "# Config\n\nSet the key:\n\n```\nSECRET_KEY = '" + value + "'\n```\n"
    root = workspace({"mathx.py": MATH_MODULE, "docs/config.md": doc})
    commit(root, "base")
    git(root, "checkout", "-qb", "feature")
    write_files(
        root,
        {
            "mathx.py": MATH_MODULE.replace("a + b", "b + a"),
            "web/http.py": HTTP_MODULE,
            "docs/config.md": doc.replace("Set the key:", "Set the key\n\nbefore starting:"),
        },
    )
    commit(root, "feature work")
    project = project_for(root)
    first = project.indexer.run()
    assert "docs/config.md" in first.redacted
    git(root, "checkout", "-q", "main")
    to_main = project.indexer.run()
    assert to_main.redacted["docs/config.md"] != first.redacted["docs/config.md"]
    assert not to_main.maintenance.get("old_versions_removed")
    git(root, "checkout", "-q", "feature")
    back = project.indexer.run()
    assert back.mode == "git" and back.embedded == 0
    assert value.encode() not in b"".join(
        p.read_bytes() for p in (root / ".codekith").rglob("*") if p.is_file()
    )


def test_rebase_and_detached_head(workspace, project_for):
    root = workspace({"mathx.py": MATH_MODULE})
    commit(root, "base")
    git(root, "checkout", "-qb", "topic")
    write_files(root, {"topic.py": "def topic_feature():\n    return 1\n"})
    commit(root, "topic")
    git(root, "checkout", "-q", "main")
    write_files(root, {"main_only.py": "def main_feature():\n    return 2\n"})
    commit(root, "main moves")
    git(root, "checkout", "-q", "topic")
    project = project_for(root)
    project.indexer.run()
    git(root, "rebase", "-q", "main")
    report = project.indexer.run()
    assert report.mode == "git" and report.indexed == ["main_only.py"]
    assert {q for _, q in live(project)} >= {"topic.topic_feature", "main_only.main_feature"}
    git(root, "checkout", "-q", "--detach", "HEAD~1")
    detached = project.indexer.run()
    assert detached.deleted == ["topic.py"]
    assert state(project).fresh


def test_dirty_tree_then_revert_is_caught(workspace, project_for):
    root = workspace({"mathx.py": MATH_MODULE})
    commit(root)
    project = project_for(root)
    project.indexer.run()
    write_files(
        root,
        {
            "mathx.py": MATH_MODULE + "\ndef dirty_helper():\n    return 0\n",
            "scratch.py": "def untracked_helper():\n    return 1\n",
        },
    )
    assert set(state(project).stale) == {"mathx.py", "scratch.py"}
    dirty = project.indexer.run()
    assert sorted(dirty.indexed) == ["mathx.py", "scratch.py"]
    assert ("mathx.py", "mathx.dirty_helper") in live(project)
    git(root, "checkout", "-q", "--", "mathx.py")
    (root / "scratch.py").unlink()
    assert set(state(project).stale) == {"mathx.py", "scratch.py"}
    reverted = project.indexer.run()
    assert reverted.mode == "git" and reverted.deleted == ["scratch.py"]
    assert ("mathx.py", "mathx.dirty_helper") not in live(project)
    assert state(project).fresh


def test_repository_without_commits_and_plain_directory(tmp_path, project_for):
    empty = init_repo(tmp_path / "empty")
    write_files(empty, {"a.py": "def alpha():\n    return 1\n"})
    project = project_for(empty)
    assert project.indexer.run().mode == "scan"
    current = state(project)
    assert current.index_head == "" and current.head == "" and current.fresh
    plain = write_files(tmp_path / "plain", {"b.py": "def beta():\n    return 2\n"})
    other = project_for(plain)
    assert other.indexer.run().indexed == ["b.py"]
    write_files(plain, {"b.py": "def beta():\n    return 3\n"})
    os.utime(plain / "b.py", ns=(1, 1))
    assert state(other).stale == ["b.py"]
    assert other.indexer.run().mode == "scan"


def test_since_and_settings_change_fall_back_correctly(workspace, project_for):
    root = workspace({"a.py": "A = 1\n", "b.py": "B = 1\n"})
    commit(root)
    project = project_for(root)
    project.indexer.run()
    write_files(root, {".codekith.toml": 'exclude = ["b.py"]\n'})
    changed = project_for(root)
    report = changed.indexer.run()
    assert report.mode == "scan" and report.scan_reason == "the file selection settings changed"

    assert {p for p, _ in live(changed)} == {"a.py", ".codekith.toml"}
    write_files(root, {"c.py": "C = 1\n"})
    commit(root)
    since = changed.indexer.run(since="HEAD~1")
    assert since.mode == "git" and "c.py" in since.indexed


def test_submodules_and_lfs_pointers_are_skipped_with_reasons(tmp_path, project_for):
    library = init_repo(tmp_path / "library")
    write_files(library, {"lib.py": "def shared():\n    return 1\n"})
    commit(library, "library")
    root = init_repo(tmp_path / "app")
    pointer = (
        "version https://git-lfs.github.com/spec/v1\n"
        "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
        "size 12345\n"
    )
    write_files(root, {"main.py": "def main():\n    return 0\n", "model_weights.py": pointer})
    git(
        root,
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        str(library),
        "vendor_lib",
    )
    commit(root, "with a submodule")
    report = project_for(root).indexer.run()
    assert report.indexed == [".gitmodules", "main.py"]  # any text file is indexed
    assert report.skipped["model_weights.py"] == "git LFS pointer"
    assert report.skipped["vendor_lib"] == "git submodule or directory"


def test_a_save_indexed_after_a_checkout_leaves_the_checkout_to_the_next_run(
    workspace, project_for
):
    """A save can reach the server before the HEAD change that preceded it: its run must not
    claim the new commit, or the scan that follows finds nothing to do (issue 12.9)."""
    root = workspace({"mathx.py": MATH_MODULE, "a.py": "A = 1\n"})
    commit(root, "base")
    git(root, "checkout", "-qb", "other")
    write_files(root, {"web/http.py": HTTP_MODULE})
    commit(root, "other adds http")
    git(root, "checkout", "-q", "main")
    project = project_for(root)
    project.indexer.run()
    git(root, "checkout", "-q", "other")  # the HEAD event is still on its way
    write_files(root, {"a.py": "A = 2\n"})
    assert project.indexer.run(paths=["a.py"]).indexed == ["a.py"]
    report = project.indexer.run()  # the HEAD event's run
    assert "web/http.py" in report.indexed
    assert ("web/http.py", "web.http.parse_header") in live(project)
    assert state(project).fresh


def test_a_checkout_while_a_run_writes_is_caught_by_the_next_run(workspace, project_for):
    """HEAD moves while a run is writing: the run indexed the old commit's files, so the next
    run must compare with the commit the run started from, not the one it ended at."""
    root = workspace({"mathx.py": MATH_MODULE, "a.py": "A = 1\n"})
    commit(root, "base")
    git(root, "checkout", "-qb", "other")
    write_files(root, {"web/http.py": HTTP_MODULE})
    commit(root, "other adds http")
    git(root, "checkout", "-q", "main")
    project = project_for(root)
    project.indexer.run()
    write_files(root, {"a.py": "A = 2\n"})
    switched = []

    def checkout_midway(step: Step) -> None:
        if not switched and step.phase in ("embed", "write"):
            git(root, "checkout", "-q", "-f", "other")
            switched.append(step.detail)

    project.indexer.run(progress=checkout_midway)
    assert switched
    project.indexer.run()
    assert ("web/http.py", "web.http.parse_header") in live(project)
    assert state(project).fresh


def test_asking_git_what_changed_never_writes_its_index(workspace):
    """The server asks git often; a refresh of .git/index under index.lock would make the
    user's own `git checkout` at that moment fail with "index.lock: File exists"."""
    root = workspace({"mathx.py": MATH_MODULE})
    commit(root)
    head = gitrepo.head(root)
    os.utime(root / "mathx.py", ns=(10**18, 10**18))  # stat data stale, content unchanged
    before = (root / ".git/index").read_bytes()
    assert gitrepo.changes_since(root, head) == set()
    assert gitrepo.listed_files(root) == ["mathx.py"]
    assert (root / ".git/index").read_bytes() == before


def everything(project) -> list[tuple]:
    """Every live chunk row (vector aside), in id order."""
    rows = project.store.rows("true", columns=list(CHUNK_COLUMNS))
    return sorted(tuple(str(r[c]) for c in CHUNK_COLUMNS) for r in rows)


def test_a_switch_back_reads_what_it_examined_and_equals_a_fresh_index(
    workspace, project_for, tmp_path
):
    """Contents examined before (secret scan, chunks) come from the cache of examined
    files: a switch back re-examines nothing, and its index is the one a fresh index of the
    same tree makes."""
    root = with_feature_branch(workspace, {"mathx.py": MATH_MODULE, "web/__init__.py": ""})
    project = project_for(root)
    project.indexer.run()
    git(root, "checkout", "-q", "main")
    to_main = project.indexer.run()
    assert to_main.indexed == ["mathx.py"] and to_main.examined_cached == 0
    git(root, "checkout", "-q", "feature")
    back = project.indexer.run()
    assert sorted(back.indexed) == ["mathx.py", "web/http.py"] and back.examined_cached == 2
    fresh = project_for(root, db=str(tmp_path / "fresh"))
    assert fresh.indexer.run().examined_cached == 0
    assert everything(project) == everything(fresh)
    git(root, "checkout", "-q", "main")
    assert project.indexer.run().examined_cached == 1


def test_a_workspace_inside_a_repository_sees_paths_relative_to_itself(workspace, project_for):
    """A workspace that is a folder of a larger repository: git's answers (committed
    changes, the dirty tree, the listed files, HEAD's blobs) name its files relative to it,
    and nothing outside it counts."""
    top = workspace({"outside.py": "X = 1\n", "pkg/app/mod.py": MATH_MODULE})
    write_files(top, {"pkg/app/util.py": "def util():\n    return 1\n"})
    commit(top, "base")
    root = top / "pkg"
    project = project_for(root)
    first = project.indexer.run()
    assert sorted(first.indexed) == ["app/mod.py", "app/util.py"]
    assert set(gitrepo.head_blobs(root, gitrepo.head(root))) == {"app/mod.py", "app/util.py"}
    write_files(top, {"pkg/app/util.py": "def util():\n    return 2\n", "outside.py": "X = 2\n"})
    commit(top, "both")
    assert state(project).stale == ["app/util.py"]
    second = project.indexer.run()
    assert second.mode == "git" and second.indexed == ["app/util.py"]
    write_files(top, {"pkg/app/new.py": "NEW = 1\n", "outside.py": "X = 3\n"})
    (root / "app/mod.py").write_text(MATH_MODULE + "\nY = 1\n")
    assert state(project).stale == ["app/mod.py", "app/new.py"]
    assert gitrepo.changes_since(root, gitrepo.head(root)) == {"app/mod.py", "app/new.py"}
    assert gitrepo.listed_files(root) == ["app/mod.py", "app/new.py", "app/util.py"]
