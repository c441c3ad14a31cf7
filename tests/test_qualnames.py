"""The one module-name rule: package roots from `__init__.py` and pyproject.toml, never a
folder's name; chunks and edges carry the same names, and a layout change renames both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codekith.graph import GraphIndex
from codekith.qualnames import NAMES_RULE, Layout, ModuleNames
from tests.conftest import git, init_repo, write_files


@pytest.mark.parametrize(
    "files, path, expected",
    [
        # a src layout: the directory above the outermost package
        (
            {"src/click/__init__.py": "", "src/click/utils.py": ""},
            "src/click/utils.py",
            "click.utils",
        ),
        # the same without src/: the top folder is not part of the name
        (
            {"server/codekith/__init__.py": "", "server/codekith/template.py": ""},
            "server/codekith/template.py",
            "codekith.template",
        ),
        ({"server/codekith/__init__.py": ""}, "server/codekith/__init__.py", "codekith"),
        # a folder without __init__.py below a package is a namespace portion of it
        (
            {"pyproject.toml": "", "src/flask/__init__.py": "", "src/flask/sansio/app.py": ""},
            "src/flask/sansio/app.py",
            "flask.sansio.app",
        ),
        # a folder named src that is a package is a package like any other
        ({"src/__init__.py": "", "src/app.py": ""}, "src/app.py", "src.app"),
        # a module in no package: from the project directory (here the root)
        ({"pyproject.toml": "", "scripts/bench.py": ""}, "scripts/bench.py", "scripts.bench"),
        ({"setup.py": ""}, "setup.py", "setup"),
        # a nested project (an example with its own pyproject.toml)
        (
            {"examples/tut/pyproject.toml": "", "examples/tut/tests/test_db.py": ""},
            "examples/tut/tests/test_db.py",
            "tests.test_db",
        ),
        # pyproject declares the source root: a namespace package (no __init__.py above pkg)
        (
            {
                "pyproject.toml": '[tool.setuptools.packages.find]\nwhere = ["src"]\n',
                "src/ns/pkg/__init__.py": "",
                "src/ns/pkg/mod.py": "",
            },
            "src/ns/pkg/mod.py",
            "ns.pkg.mod",
        ),
        (
            {"pyproject.toml": '[tool.setuptools]\npackage-dir = {"" = "lib"}\n', "lib/six.py": ""},
            "lib/six.py",
            "six",
        ),
        (
            {
                "pyproject.toml": '[tool.hatch.build.targets.wheel]\npackages = ["python/tool"]\n',
                "python/tool/run.py": "",
            },
            "python/tool/run.py",
            "tool.run",
        ),
        (
            {
                "pyproject.toml": '[tool.poetry]\npackages = [{include = "app", from = "code"}]\n',
                "code/app/main.py": "",
            },
            "code/app/main.py",
            "app.main",
        ),
        ({"pyproject.toml": "not toml ["}, "tools/x.py", "tools.x"),
        # other languages keep the path rule
        ({"src/web/cart.js": ""}, "src/web/cart.js", "web.cart"),
    ],
)
def test_module_names(tmp_path: Path, files: dict[str, str], path: str, expected: str) -> None:
    write_files(tmp_path, files)
    assert ModuleNames.on_disk(tmp_path)(path) == expected


def test_a_snapshot_names_like_the_disk_and_round_trips(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": '[tool.setuptools.packages.find]\nwhere = ["server"]\n',
        "server/codekith/__init__.py": "",
        "server/codekith/graph/__init__.py": "",
        "server/codekith/graph/fast.py": "",
        "tests/__init__.py": "",
        "tests/test_x.py": "",
        "scripts/run.py": "",
    }
    write_files(tmp_path, files)
    disk = ModuleNames.on_disk(tmp_path)
    assert disk.layout is not None
    frozen = ModuleNames(Layout.from_json(disk.layout.snapshot(files).to_json()))
    assert {p: frozen(p) for p in files} == {p: disk(p) for p in files}
    assert disk("server/codekith/graph/fast.py") == "codekith.graph.fast"
    assert disk("tests/test_x.py") == "tests.test_x"
    assert disk.layout.import_roots() >= {"", "server"}


TEMPLATE = '''
    def render(text):
        """Fill the page template with the text."""
        return escape(text)


    def escape(text):
        """Replace characters that HTML treats specially."""
        return text.replace("<", "&lt;")
'''
PAGES = """
    from codekith.template import render


    def home():
        return render("welcome")
"""


def test_chunks_and_edges_share_the_names_and_follow_a_layout_change(
    tmp_path: Path, project_for
) -> None:
    root = init_repo(tmp_path / "ws")
    write_files(
        root,
        {
            "pyproject.toml": "[project]\nname = 'x'\n",
            "server/codekith/__init__.py": "",
            "server/codekith/template.py": TEMPLATE,
            "server/codekith/pages.py": PAGES,
        },
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    project = project_for(root)
    project.indexer.run()
    expected = {"codekith.template.render", "codekith.template.escape", "codekith.pages.home"}
    assert expected <= qualnames(project)
    edges = {(e["src"], e["dst"]) for e in project.store.live_edges() if e["kind"] == "call"}
    assert ("codekith.pages.home", "codekith.template.render") in edges
    assert ("codekith.template.render", "codekith.template.escape") in edges
    graph_keys = set(GraphIndex(root, ["server/codekith/template.py"]).qualnames())
    assert "codekith.template.render" in graph_keys  # `codekith graph` names them alike

    # server/ becomes a package: every module under it is renamed, although unchanged
    write_files(root, {"server/__init__.py": ""})
    report = project.indexer.run()
    assert report.mode == "git"
    assert {"server/codekith/template.py", "server/codekith/pages.py"} <= set(report.indexed)
    names = qualnames(project)
    assert {"server.codekith.template.render", "server.codekith.pages.home"} <= names
    assert not {n for n in names if n.startswith("codekith.")}
    edges = {(e["src"], e["dst"]) for e in project.store.live_edges() if e["kind"] == "call"}
    assert ("server.codekith.template.render", "server.codekith.template.escape") in edges
    assert not {e for e in edges if e[0].startswith("codekith.") or e[1].startswith("codekith.")}
    assert project.indexer.run().indexed == []  # and the next run has nothing to redo


def qualnames(project) -> set[str]:
    return {r["qualname"] for r in project.store.rows("true")}


def test_an_index_named_under_an_older_rule_is_named_anew(tmp_path: Path, project_for) -> None:
    """A package's folder without `__init__.py` was named from the project directory
    (`src.flask.sansio.app`) before naming rule 2; its next run, even one git says has
    nothing to do, names every Python file anew and embeds only what the names changed."""
    root = init_repo(tmp_path / "ws")
    write_files(
        root,
        {
            "pyproject.toml": "[project]\nname = 'x'\n",
            "src/flask/__init__.py": "from .sansio.app import App\n",
            "src/flask/sansio/app.py": "class App:\n    def route(self):\n        return 1\n",
            "src/flask/views.py": "from .sansio.app import App\n\n\ndef index():\n"
            "    return App().route()\n",
        },
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    project = project_for(root, jedi=False)
    project.indexer.run()
    assert "flask.sansio.app.App.route" in qualnames(project)
    edges = {(e["src"], e["dst"]) for e in project.store.live_edges() if e["kind"] == "call"}
    assert ("flask.views.index", "flask.sansio.app.App.route") in edges
    layout = json.loads(project.store.meta()["modules"])
    assert layout.pop("rule") == NAMES_RULE
    project.store.set_meta({"modules": json.dumps(layout)})  # as rule 1 stored it
    again = project_for(root, jedi=False).indexer.run()
    assert set(again.indexed) == {
        "src/flask/__init__.py",
        "src/flask/sansio/app.py",
        "src/flask/views.py",
    }
    assert again.embedded == 0  # the names did not change here: every vector is reused
    assert Layout.current_rule(project.store.meta()["modules"])
    assert project_for(root, jedi=False).indexer.run().indexed == []
