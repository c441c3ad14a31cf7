"""Item 1 of issue 12: a working-tree edit indexed by a server, then reverted with git.

The real condition: the run that indexed the edit recorded the dirty files at its end (after
the graph phase, which takes minutes on a real repository), so a `git checkout --` made
meanwhile erased the edited file from the recorded dirty set; or a later run for another file
recorded a clean tree. Either way the catalog kept the edited content while git said
"nothing changed", and the next run indexed 0 files. Real git repositories, the real indexer.
"""

from __future__ import annotations

from codekith import freshness
from codekith.progress import Step
from tests.conftest import MATH_MODULE, git, write_files

EDITED = MATH_MODULE + "\ndef frobnicate_quasar_splines():\n    return 42\n"


def commit(root):
    git(root, "add", "-A")
    git(root, "commit", "-qm", "change")


def qualnames(project) -> set[str]:
    return {r["qualname"] for r in project.store.rows("true", columns=["qualname"])}


def test_revert_while_the_editing_run_finishes_is_caught(workspace, project_for):
    root = workspace({"mathx.py": MATH_MODULE, "other.py": "OTHER = 1\n"})
    commit(root)
    project = project_for(root)
    project.indexer.run()
    write_files(root, {"mathx.py": EDITED})

    def revert_meanwhile(step: Step) -> None:
        if step.phase != "scan":  # the edit was read: the user reverts while we finish
            git(root, "checkout", "-q", "--", "mathx.py")

    project.indexer.run(paths=["mathx.py"], progress=revert_meanwhile)
    assert "mathx.frobnicate_quasar_splines" in qualnames(project)
    state = freshness.check(root, project.settings, project.store)
    assert state.stale == ["mathx.py"]
    report = project.indexer.run()
    assert report.mode == "git" and report.indexed == ["mathx.py"]
    assert "mathx.frobnicate_quasar_splines" not in qualnames(project)
    assert freshness.check(root, project.settings, project.store).fresh


def test_revert_no_run_saw_is_caught_by_comparing_the_catalog_with_head(workspace, project_for):
    root = workspace({"mathx.py": MATH_MODULE, "other.py": "OTHER = 1\n"})
    commit(root)
    project = project_for(root)
    project.indexer.run()
    write_files(root, {"mathx.py": EDITED})
    project.indexer.run(paths=["mathx.py"])  # the server indexes the save
    git(root, "checkout", "-q", "--", "mathx.py")  # a client without file watching: no event
    write_files(root, {"other.py": "OTHER = 2\n"})
    project.indexer.run(paths=["other.py"])  # the next save records a tree without mathx.py
    report = project.indexer.run()
    assert report.mode == "git" and "mathx.py" in report.indexed
    assert "mathx.frobnicate_quasar_splines" not in qualnames(project)
    assert freshness.check(root, project.settings, project.store).fresh
