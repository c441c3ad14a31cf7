"""Definitions against line windows, for the languages tree-sitter chunks since stop 52.

C, C++, C#, Ruby, PHP, Kotlin, Swift, Scala and Lua were indexed as 60-line windows until
stop 52, shell until stop 56 (its windows: `--before ad1e02e`); now they are chunked into
functions, types and methods like JavaScript or Go. This
measures what a user of such a repository gains, on one pinned public repository per
language (fetched beforehand with the search tool's fetch: github:OWNER/NAME; never
committed):

* docstring -> file: the doc comment right above a definition is removed from a copy of the
  repository (quality_cases.build_workspace) and its first sentence (4 words or more) asked;
  the answer is the file that defines it. MRR@10 of the files in the first 50 hits, for
  the windows index (the code at --before) and the definitions index (this checkout's):
  as a user reads the default answer (search lists windows apart from code, with
  documentation sections: the list holding the answer is judged) and in one list of
  every kind (`--docs 0`: the windows' best light).
* docstring -> definition: the same questions, the definition itself (definitions only:
  a window names no definition).
* identifier -> file: a definition's name, `Class.method` or a fragment of a name
  (quality_cases.identifier_cases); R@1 of the file, and of the definition.

Both indexes are built from the same stripped copy with the default model and settings;
the windows side runs `codekith index` from a worktree at --before.

    python scripts/eval_languages.py --before a52e00a [--repos rack fmt] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np

import quality_cases as qc
from benchstats import bootstrap_interval
from codekith.chunking import Chunk, chunk_file
from codekith.evaluation import Case, first_rank, judged_hits
from codekith.languages import language_at
from codekith.sidecode import is_test_path
from eval_quality import clone_at
from eval_tests_apart import searched
from quality_table import FILE_DEPTH, file_rank, files_of

HERE = Path(__file__).resolve().parent
REPOS = (  # name, source, commit, language: one per language, pinned on 2026-12-06
    ("jq", "jqlang/jq", "579e6f76cffd7643ba4002a2c3618a5ea710589a", "c"),
    ("fmt", "fmtlib/fmt", "60ccad511fd680cb91d8b60a315759f71c67bef9", "cpp"),
    ("newtonsoft", "JamesNK/Newtonsoft.Json", "09bb545d72969ad7fb4ea07db0d5c34f4fc07877", "csharp"),
    ("rack", "rack/rack", "8bf4eb078498edc9105fb04add80d89c5340e60b", "ruby"),
    ("monolog", "Seldaek/monolog", "57eb1028342134e701e77c617565d51b6e5a2a53", "php"),
    ("okio", "square/okio", "4164f2976ac7174f3d35d52150e8ffbdbe0acbec", "kotlin"),
    ("alamofire", "Alamofire/Alamofire", "7595cbcf59809f9977c5f6378500de2ad73b7ddb", "swift"),
    ("os-lib", "com-lihaoyi/os-lib", "e237000cbd4d97a4c4463df43d64556130d2bc50", "scala"),
    ("luarocks", "luarocks/luarocks", "2d2cc8eff2f03c23d142f8059146fb241dcf56b5", "lua"),
    # pinned on 2026-12-07, when shell got definitions (windows at ad1e02e)
    ("oh-my-bash", "ohmybash/oh-my-bash", "ae44713948daaf99b2e2c6fe7e436f6a83bf07da", "shell"),
    # pinned on 2026-12-07, when suffix-less scripts got their `#!` line's language (their
    # windows at 04b09ad; its `.bash` files are definitions on both sides): 17 bash scripts
    ("bats-core", "bats-core/bats-core", "d22e41faad59f5fd942a88c992b4913a27a460c4", "shell"),
    ("pi-hole", "pi-hole/pi-hole", "1837b754b945eeab6ad5976443b38b983eb96e6e", "shell"),  # `pihole`
    # pinned on 2026-12-07, when `.zsh` files got the zsh grammar (windows at 7567652)
    ("ohmyzsh", "ohmyzsh/ohmyzsh", "830a5bcfd29fd577fdcd5f3b8e98cbaf973421fa", "shell"),
)
DOCSTRING_CAP, IDENTIFIER_PER_KIND, SEED = 200, 30, 13
K = 10
SIDES = ("windows", "definitions")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def prepare(root: Path, source: str, commit: str, language: str) -> dict[str, list[Case]]:
    """The checkout, its copy without doc comments, and the cases (file answers beside the
    definitions' qualnames)."""
    checkout, workspace = root / "checkout", root / "workspace"
    clone_at(source, commit, checkout, Path("/work/.mirror"))
    shutil.rmtree(workspace, ignore_errors=True)  # the same copy each time
    workspace.mkdir(parents=True)
    languages = ("c", "cpp") if language in ("c", "cpp") else (language,)
    questions = qc.build_workspace(checkout, workspace, languages)
    chunks = workspace_chunks(workspace, languages)
    path_of = {c.qualname: c.path for c in chunks}
    source_chunks = [
        c
        for c in chunks
        if c.kind in qc.CODE_KINDS and not is_test_path(c.path) and not qc.is_vendored(c.path)
    ]
    raw = {
        "docstring": qc.docstring_cases(questions.definitions, DOCSTRING_CAP, SEED),
        "identifier": qc.identifier_cases(source_chunks, IDENTIFIER_PER_KIND, SEED),
    }
    return {
        kind: [
            Case(c["query"], c["expected"], fields={"files": {path_of[e] for e in c["expected"]}})
            for c in cases
            if all(e in path_of for e in c["expected"])
        ]
        for kind, cases in raw.items()
    }


def workspace_chunks(workspace: Path, languages: tuple[str, ...]) -> list[Chunk]:
    """The chunks of the copy's files in `languages`, each file's language read as the
    index reads it (scripts by their `#!` line)."""
    listed = sorted(p.relative_to(workspace).as_posix() for p in workspace.rglob("*"))
    return [
        chunk
        for rel in listed
        if (language := language_at(workspace, rel) or "") in languages
        for chunk in chunk_file(
            rel, language, (workspace / rel).read_text("utf-8", errors="replace")
        ).chunks
    ]


@contextmanager
def code_at(revision: str) -> Iterator[Path]:
    """The server code of `revision`, from a worktree that is removed afterwards."""
    with tempfile.TemporaryDirectory() as scratch:
        where = Path(scratch) / "code"
        git = ["git", "-C", str(HERE.parent), "worktree"]
        subprocess.run([*git, "add", "-q", "--detach", str(where), revision], check=True)
        try:
            yield where / "server"
        finally:
            subprocess.run([*git, "remove", "--force", str(where)], check=False)


def run_index(workspace: Path, db: Path, server: Path | None) -> None:
    """`codekith index` as a user runs it, by `server`'s code (None: this checkout's)."""
    env = {**os.environ, "CODEKITH_DAEMON": "0"}  # each side's own code, no warm process
    if server is not None:
        env["PYTHONPATH"] = str(server)
    codekith = HERE.parent / ".venv" / "bin" / "codekith"
    subprocess.run(
        [str(codekith), "index", str(workspace), "--db", str(db), "--json"],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )


def build(workspace: Path, db: Path, server: Path | None) -> dict[str, Any]:
    """`codekith index` cold; the windows side from the worktree's code. A finished build
    is kept (its figures beside it) for a later run of the script."""
    figures = db.with_suffix(".json")
    if figures.exists() and db.exists():
        return json.loads(figures.read_text())  # type: ignore[no-any-return]
    shutil.rmtree(db, ignore_errors=True)
    started = time.perf_counter()
    run_index(workspace, db, server)
    built = {"index_s": round(time.perf_counter() - started, 1)}
    figures.write_text(json.dumps(built))
    return built


def measure(workspace: Path, db: Path, cases: dict[str, list[Case]]) -> dict[str, Any]:
    """Ranks as a user reads the default answer (windows are not definitions, so search
    lists them apart, with documentation sections: the list that holds the answer is
    judged), and in one list of every kind (`--docs 0`), the windows' best light."""
    from codekith.answers import Answers
    from codekith.embedding import FastEmbedder
    from codekith.project import Project
    from codekith.vocabulary import TESTS_APART

    project = Project(workspace, db=str(db), embedder=FastEmbedder())
    answers = Answers(project)
    result: dict[str, Any] = {"chunks": project.read_store.count()}
    for kind, kind_cases in cases.items():
        ranks: dict[str, list[int | None]] = {"file": [], "file one list": [], "definition": []}
        for case in kind_cases:
            found = searched(answers, case.query, "hybrid", TESTS_APART, FILE_DEPTH)
            files = sorted(case.fields["files"])
            shown = judged_hits(found.hits, (found.tests, found.docs), files)
            ranks["file"].append(file_rank(files_of(shown), case.fields["files"]))
            listed = judged_hits(found.hits[:K], (found.tests, found.docs), case.expected)
            ranks["definition"].append(first_rank(listed, case.expected))
            one = answers.search(case.query, FILE_DEPTH, docs=0, tests_apart=TESTS_APART)
            ranks["file one list"].append(file_rank(files_of(one.hits), case.fields["files"]))
        result[kind] = ranks
    return result


def reciprocal(ranks: list[int | None], depth: int = K) -> np.ndarray:
    return np.array([1.0 / r if r is not None and r <= depth else 0.0 for r in ranks])


def summary(
    name: str, language: str, sides: dict[str, dict[str, Any]], cases: dict[str, list[Case]]
) -> dict[str, Any]:
    windows, definitions = (sides[s] for s in SIDES)
    gain = reciprocal(definitions["docstring"]["file"]) - reciprocal(windows["docstring"]["file"])
    low, high = bootstrap_interval(lambda at: float(gain[at].mean()), len(gain))
    at_1 = {s: reciprocal(sides[s]["identifier"]["file"], 1).mean() for s in SIDES}
    return {
        **_scripts_only(sides, cases),
        "repo": name,
        "language": language,
        "chunks": {s: sides[s]["chunks"] for s in SIDES},
        "index_s": {s: sides[s]["index_s"] for s in SIDES},
        "docstring_cases": len(gain),
        "docstring_file_mrr": {
            s: round(float(reciprocal(sides[s]["docstring"]["file"]).mean()), 3) for s in SIDES
        },
        "docstring_file_gain": [round(float(gain.mean()), 3), round(low, 3), round(high, 3)],
        "docstring_file_mrr_one_list": {
            s: round(float(reciprocal(sides[s]["docstring"]["file one list"]).mean()), 3)
            for s in SIDES
        },
        "docstring_definition_mrr": round(
            float(reciprocal(definitions["docstring"]["definition"]).mean()), 3
        ),
        "identifier_cases": len(definitions["identifier"]["file"]),
        "identifier_file_r1": {s: round(float(at_1[s]), 3) for s in SIDES},
        "identifier_file_r1_one_list": {
            s: round(float(reciprocal(sides[s]["identifier"]["file one list"], 1).mean()), 3)
            for s in SIDES
        },
        "identifier_definition_r1": round(
            float(reciprocal(definitions["identifier"]["definition"], 1).mean()), 3
        ),
    }


def _scripts_only(sides: dict[str, dict[str, Any]], cases: dict[str, list[Case]]) -> dict[str, Any]:
    """The figures of the questions whose answer is a file without a suffix (a script)."""
    found: dict[str, Any] = {}
    for kind, depth in (("docstring", K), ("identifier", 1)):
        mask = np.array(
            [all("." not in PurePosixPath(f).name for f in c.fields["files"]) for c in cases[kind]],
            dtype=bool,
        )
        if mask.any():
            found[f"{kind}_scripts"] = {
                "cases": int(mask.sum()),
                **{
                    s: round(float(reciprocal(sides[s][kind]["file"], depth)[mask].mean()), 3)
                    for s in SIDES
                },
            }
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="a commit that indexes them as windows")
    parser.add_argument("--bench", type=Path, default=Path(os.environ.get("BENCH", "/work/bench")))
    parser.add_argument("--repos", nargs="*", help="names (all)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--fresh", action="store_true", help="build the kept indexes again")
    args = parser.parse_args(argv)
    chosen = [r for r in REPOS if not args.repos or r[0] in args.repos]
    results = []
    with code_at(args.before) as before:
        for name, source, commit, language in chosen:
            root = args.bench / "languages" / name
            if args.fresh:
                for side in SIDES:
                    root.joinpath(f"{side}.json").unlink(missing_ok=True)
            cases = prepare(root, source, commit, language)
            sides = {}
            for side, server in zip(SIDES, (before, None), strict=True):
                db = root / f"{side}.db"
                figures = build(root / "workspace", db, server)
                sides[side] = {**figures, **measure(root / "workspace", db, cases)}
            results.append(summary(name, language, sides, cases))
            log(json.dumps(results[-1]))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_table(results)
    return 0


def print_table(results: list[dict[str, Any]]) -> None:
    print(
        "windows / definitions: chunks; docstring -> file MRR@10 as shown (gain [95% CI]) and"
        " in one list; docstring -> definition MRR@10; identifier -> file R@1 as shown and in"
        " one list; identifier -> definition R@1"
    )
    for r in results:
        gain, low, high = r["docstring_file_gain"]
        both = partial(_both, r)
        print(
            f"{r['repo']} ({r['language']}): {r['chunks']['windows']} / "
            f"{r['chunks']['definitions']}; {r['docstring_cases']} questions "
            f"{both('docstring_file_mrr')} ({gain:+.3f} [{low:+.3f}, {high:+.3f}]), "
            f"{both('docstring_file_mrr_one_list')}; {r['docstring_definition_mrr']:.3f}; "
            f"{r['identifier_cases']} names {both('identifier_file_r1')}, "
            f"{both('identifier_file_r1_one_list')}; {r['identifier_definition_r1']:.3f}"
        )
        for kind in ("docstring", "identifier"):
            if f"{kind}_scripts" in r:
                print(
                    f"  {kind} answered by a script: {r[f'{kind}_scripts']['cases']} cases,"
                    f" {both(f'{kind}_scripts')}"
                )


def _both(result: dict[str, Any], key: str) -> str:
    return f"{result[key]['windows']:.3f} / {result[key]['definitions']:.3f}"


if __name__ == "__main__":
    raise SystemExit(main())
