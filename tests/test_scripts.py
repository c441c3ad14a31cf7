"""Scripts whose name has no suffix (`bin/deploy`, `libexec/…`, `configure`) are read as the
language their `#!` line names: chunks by definition, a place in the call graph."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codekith.config import Settings
from codekith.languages import interpreter_language, language_at, language_of
from codekith.workspace import WorkspaceFilter
from tests.conftest import write_files


@pytest.mark.parametrize(
    ("line", "language"),
    [
        ("#!/bin/sh", "shell"),
        ("#!/bin/bash -e", "shell"),
        ("#! /usr/bin/env bash", "shell"),
        ("#!/usr/bin/env -S bash -eu", "shell"),
        ("#!/usr/bin/env LC_ALL=C sh", "shell"),
        ("#!/usr/bin/env python3", "python"),
        ("#!/usr/local/bin/python3.12 -u", "python"),
        ("#!/usr/bin/env lua5.4", "lua"),
        ("#!/usr/bin/env node", "javascript"),
        ("#!/usr/bin/env ruby", "ruby"),
        ("#!/usr/bin/php", "php"),
        ("#!/usr/bin/env zsh", "shell"),  # read by the zsh grammar (syntax.grammar_of)
        ("#!/bin/zsh -f", "shell"),
        ("#!/usr/bin/perl -w", None),
        ("#!/usr/bin/env", None),
        ("#!", None),
        ("# a comment", None),
        ("", None),
    ],
)
def test_the_interpreter_line_names_the_language(line: str, language: str | None) -> None:
    assert interpreter_language(f"{line}\necho hi\n".encode()) == language


def test_a_suffix_decides_before_the_interpreter_line(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "bin/deploy": "#!/usr/bin/env bash\nmain() { :; }\n",
            "notes.txt": "#!/usr/bin/env bash\n",
            "tool.py": "#!/bin/sh\n",
            "Makefile": "all:\n\techo hi\n",
            "bin/blob": b"#!\xff\xfe\x00\x00",
        },
    )
    assert language_at(tmp_path, "bin/deploy") == "shell"
    assert language_at(tmp_path, "notes.txt") is None
    assert language_at(tmp_path, "tool.py") == "python"
    assert language_at(tmp_path, "Makefile") is None
    assert language_at(tmp_path, "bin/blob") is None
    assert language_at(tmp_path, "bin") is None  # a folder
    assert language_at(tmp_path, "gone") is None
    assert language_of("bin/deploy") is None  # the name alone says nothing


def test_configured_languages_take_scripts_by_their_line(tmp_path: Path) -> None:
    """`languages = ["shell"]` indexes `bin/deploy`; a secret file is not opened to find
    out what it is."""
    write_files(
        tmp_path,
        {
            "bin/deploy": "#!/bin/sh\necho\n",
            "bin/report": "#!/usr/bin/env python3\nprint()\n",
            ".env": "#!/bin/sh\nTOKEN=1\n",
        },
    )
    only_shell = WorkspaceFilter(tmp_path, Settings(languages=("shell",)))
    deploy, report, env = (only_shell.candidate(p) for p in ("bin/deploy", "bin/report", ".env"))
    assert deploy is not None and (deploy.language, deploy.reason) == ("shell", None)
    assert report is not None and report.reason == "language python not configured"
    assert env is not None and env.reason is not None and env.language == "text"


SCRIPTS = {
    "bin/deploy": """\
        #!/usr/bin/env bash
        # Deploy the site: build it, then copy it to the server.
        set -euo pipefail
        . "$(dirname "$0")/../lib/common.sh"

        # Copy the built site to the host given as the first argument.
        upload() {
          log "uploading to $1"
          rsync -a build/ "$1:/srv/site"
        }

        main() {
          build_site
          upload "$@"
        }

        main "$@"
        """,
    "lib/common.sh": """\
        # Shared helpers of the deploy scripts.

        # Print a timestamped message on stderr.
        log() {
          printf '%s %s\\n' "$(date +%T)" "$*" >&2
        }

        # Render the pages into build/.
        build_site() {
          log "building"
          make html
        }
        """,
    "tools/report": """\
        #!/usr/bin/env python3
        \"\"\"Print how many pages the site has.\"\"\"
        from site_tools.pages import count_pages


        def main() -> None:
            \"\"\"Count the pages and print the figure.\"\"\"
            print(count_pages("build"))


        main()
        """,
    "site_tools/__init__.py": "",
    "site_tools/pages.py": """\
        import os


        def count_pages(folder):
            \"\"\"How many HTML pages a built site has.\"\"\"
            return sum(name.endswith(".html") for name in os.listdir(folder))
        """,
}


def edges_of(project) -> set[tuple[str, str, str, str]]:
    return {(e["src"], e["dst"], e["kind"], e["path"]) for e in project.store.live_edges()}


def test_scripts_are_chunked_and_joined_to_the_call_graph(workspace, project_for) -> None:
    root = workspace(SCRIPTS)
    project = project_for(root)
    project.indexer.run()
    rows = {r["qualname"]: r for r in project.store.chunks_in_file("bin/deploy")}
    assert rows["bin.deploy.upload"]["kind"] == "function"
    assert rows["bin.deploy.upload"]["language"] == "shell"
    assert rows["bin.deploy.upload"]["docstring"].startswith("Copy the built site")
    report = {r["qualname"]: r for r in project.store.chunks_in_file("tools/report")}
    assert report["tools.report.main"]["language"] == "python"
    edges = edges_of(project)
    assert ("bin.deploy.upload", "lib.common.log", "call", "bin/deploy") in edges
    assert ("bin.deploy.main", "lib.common.build_site", "call", "bin/deploy") in edges
    assert ("bin.deploy.main", "bin.deploy.upload", "call", "bin/deploy") in edges
    assert ("tools.report.main", "site_tools.pages.count_pages", "call", "tools/report") in edges
    bundle = project.related.bundle("lib/common.sh:5")
    reasons = {item.hit.qualname: item.reason for item in bundle.items}
    assert reasons["bin.deploy.upload"] == "caller of lib.common.log"


def test_a_script_that_loses_its_line_leaves_the_graph(workspace, project_for, tmp_path) -> None:
    """Edits can move a file in or out of a language: the warm graph ends where a cold
    index of the same files starts."""
    root = workspace(SCRIPTS)
    project = project_for(root)
    project.indexer.run()
    deploy = root / "bin/deploy"
    deploy.write_text(deploy.read_text().replace("#!/usr/bin/env bash\n", ""))
    project.indexer.run(paths=["bin/deploy"])
    assert {r["kind"] for r in project.store.chunks_in_file("bin/deploy")} == {"section"}
    assert not any(path == "bin/deploy" for *_, path in edges_of(project))
    copy = tmp_path / "copy"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".codekith"))
    cold = project_for(copy)
    cold.indexer.run()
    assert edges_of(project) == edges_of(cold)
    deploy.write_text("#!/bin/sh\n" + deploy.read_text())
    project.indexer.run(paths=["bin/deploy"])
    assert ("bin.deploy.upload", "lib.common.log", "call", "bin/deploy") in edges_of(project)


def test_an_index_that_read_scripts_as_text_reads_them_again(
    workspace, project_for, monkeypatch
) -> None:
    """An index written before scripts were read by their `#!` line holds them as text
    windows; the next run reads those files again though their content is the same."""
    root = workspace(SCRIPTS)
    monkeypatch.setattr("codekith.workspace.language_at", lambda _, path: language_of(path))
    project = project_for(root)
    project.indexer.run()
    assert {r["kind"] for r in project.store.chunks_in_file("bin/deploy")} == {"section"}
    monkeypatch.undo()
    report = project.indexer.run()
    assert set(report.indexed) == {"bin/deploy", "tools/report"}
    assert {r["kind"] for r in project.store.chunks_in_file("bin/deploy")} == {
        "function",
        "module",
    }
