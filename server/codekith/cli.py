"""The `codekith` command line: a thin layer over Project (see DESIGN.md, "CLI").

Exit codes: 0 success, 1 failure, 2 bad usage. `--json` output is the only thing written to
stdout; progress and messages go to stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codekith import __version__
from codekith.config import enclosing_root
from codekith.progress import PHASES, Progress, Step, format_duration
from codekith.vocabulary import DOCS_APART, KIND_FILTERS, MODES, TESTS_APART

# The engine (LanceDB, numpy, the model) loads only in the commands that use it, so that
# --help, --version and usage errors answer at once.
if TYPE_CHECKING:
    from codekith.answers import Answers, RelatedAnswer, SearchAnswer
    from codekith.daemon import ProjectSource
    from codekith.distributed import Distribution
    from codekith.indexer import IndexReport
    from codekith.project import Project
    from codekith.repos import MultiRelatedAnswer, MultiSearchAnswer, RepoHit, Repositories
    from codekith.search import Hit

    Ranked = list[tuple[str, Hit, bool]]  # (origin: "repo: " or "", hit, stale)

REFINE_LOCK_WAIT_S = 600.0  # how long a background Jedi pass waits to store its edges
REFINER_STORE_WAIT_S = 120.0  # how long an index run waits for that pass's store to end
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # all but \t and \n
SIGPIPE_EXIT = 141  # what a shell reports for a command whose reader went away (128 + 13)


class CliError(Exception):
    """A failure with a message for the user (exit 1)."""


def main(
    argv: list[str] | None = None,
    projects: ProjectSource | None = None,
    stopped: Callable[[], bool] | None = None,
) -> int:
    """`projects` and `stopped` are the warm daemon's (codekith.daemon): where projects
    come from and what asks an index run to stop; a call from a shell passes neither and
    goes to the daemon when one is up."""
    parser = build_parser()
    given = sys.argv[1:] if argv is None else argv
    args, unknown = parser.parse_known_args(given)
    if unknown:  # said by the subcommand's parser, with its usage, not the top-level one
        getattr(args, "parser", parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return 2
    args.projects, args.stopped = projects, stopped
    warm = projects is None and _daemon_may_run(args)
    if warm:
        from codekith import daemon

        code = daemon.call(given)
        if code is not None:
            return code
    code = _run(args)
    if warm and code == 0:
        _start_daemon(args)
    return code


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.handler(args) or 0)
    except CliError as exc:
        print(visible(f"codekith: error: {exc}"), file=sys.stderr)
        return 1
    except BrokenPipeError:  # `codekith related x | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return SIGPIPE_EXIT
    except KeyboardInterrupt:
        print(
            "codekith: interrupted; the index stays consistent, run again to resume",
            file=sys.stderr,
        )
        return 130
    except Exception as exc:
        return _report_failure(args, exc)


def _daemon_may_run(args: argparse.Namespace) -> bool:
    """Commands the warm daemon serves: not a run on worker processes or Ray."""
    from codekith import daemon

    spread = getattr(args, "ray", None) is not None or getattr(args, "workers", None)
    return daemon.enabled() and args.parser.prog.split()[-1] in daemon.COMMANDS and not spread


def _start_daemon(args: argparse.Namespace) -> None:
    """After a command ran on its own: a daemon for the next one (best effort)."""
    from codekith import daemon

    with contextlib.suppress(OSError, CliError, ValueError):
        daemon.start(_root(args), args.db)


def _report_failure(args: argparse.Namespace, exc: Exception) -> int:
    """One line for what the user can act on: no or a damaged index, another model, a held
    lock, a full or read-only disk, bad input (exit 2). Anything else is a bug: re-raised,
    with its traceback."""
    from codekith.answers import NoIndexError, UnknownChunkError
    from codekith.distributed import WorkerError
    from codekith.embedding import ModelUnavailableError
    from codekith.layered import RemoteIndexError
    from codekith.related import TargetNotFoundError
    from codekith.store import (
        IndexLockedError,
        IndexMismatchError,
        IndexUnwritableError,
        damage_message,
        storage_problem,
    )

    failures = (
        NoIndexError,
        RemoteIndexError,
        UnknownChunkError,
        TargetNotFoundError,
        IndexMismatchError,
        IndexLockedError,
        IndexUnwritableError,
        ModelUnavailableError,
        WorkerError,
    )
    problem = storage_problem(exc) if isinstance(exc, OSError | RuntimeError) else None
    damage = damage_message(_db_of(args), exc)
    if isinstance(exc, failures):
        message = str(exc)
    elif problem is not None:
        message = (
            f"cannot write the index: {problem}; searching still works, "
            "and the next `codekith index` resumes where this one stopped"
        )
    elif damage is not None:
        message = damage
    elif isinstance(exc, ValueError):
        print(visible(f"codekith: error: {exc}"), file=sys.stderr)
        return 2
    else:
        raise exc
    print(visible(f"codekith: error: {message}"), file=sys.stderr)
    return 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="codekith", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"codekith {__version__}")
    sub = parser.add_subparsers(metavar="COMMAND")

    def command(
        name: str, handler: Callable[[argparse.Namespace], int], help_text: str
    ) -> argparse.ArgumentParser:
        cmd = sub.add_parser(name, help=help_text, description=help_text)
        cmd.add_argument("--root", type=Path, default=None, help="workspace root (default: .)")
        cmd.add_argument("--db", default=None, help="index location (default: ROOT/.codekith)")
        cmd.add_argument(
            "--remote-index",
            default=None,
            metavar="URI",
            help="the team's published index (s3://…); --db then holds only the local overlay",
        )
        cmd.set_defaults(handler=handler, parser=cmd)
        return cmd

    index = command("index", cmd_index, "Build or update the index incrementally.")
    index.add_argument("root_arg", nargs="?", type=Path, metavar="ROOT")
    index.add_argument("--full", action="store_true", help="rebuild from scratch")
    index.add_argument(
        "--since", metavar="REV", help="the commit the index reflects; git decides what to look at"
    )
    index.add_argument(
        "--dry-run",
        action="store_true",
        help="list what would be indexed and skipped, write nothing",
    )
    index.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="chunk and embed on a Ray cluster (auto, ray://HEAD:10001, local); "
        "without ADDRESS on local worker processes",
    )
    index.add_argument(
        "--workers", type=_positive, default=None, help="worker processes or Ray actors"
    )
    index.add_argument(
        "--wait",
        action="store_true",
        help="finish the call graph's Jedi pass before returning (by default it goes on in "
        "the background once the index is searchable)",
    )
    index.add_argument("--json", action="store_true")

    refine = command(
        "refine",
        cmd_refine,
        "Finish the call graph's Jedi pass (`index` starts it in the background).",
    )
    refine.add_argument("root_arg", nargs="?", type=Path, metavar="ROOT")

    search = command("search", cmd_search, "Search the index.")
    search.add_argument("query", nargs="?")
    search.add_argument("-k", type=_positive, default=None, help="number of hits")
    search.add_argument("--path-prefix", default="")
    search.add_argument("--language", default="")
    _add_kind_argument(search)
    _add_apart_arguments(search)
    search.add_argument("--mode", default="hybrid", choices=MODES)
    _add_tests_argument(search)
    search.add_argument("--queries", type=Path, help="JSON lines of queries, one result each")
    _add_workspace_arguments(search)
    search.add_argument("--json", action="store_true")

    related = command(
        "related", cmd_related, "Code related to free text, PATH:LINE or a qualified name."
    )
    related.add_argument("target")
    related.add_argument(
        "--depth",
        type=_non_negative,
        default=None,
        help="graph steps (default: by the question's intent)",
    )
    related.add_argument("--budget", type=_positive, default=None, help="tokens")
    _add_tests_argument(related)
    _add_workspace_arguments(related)
    output = related.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true")
    output.add_argument("--format", choices=("text", "markdown"), default="text")

    graph = command("graph", cmd_graph, "Print the call graph (PyCG simple JSON).")
    graph.add_argument("root_arg", nargs="?", type=Path, metavar="ROOT")
    graph.add_argument("--json", action="store_true", help="(the only format; accepted)")
    graph.add_argument("--no-jedi", action="store_true", help="fast resolver only")

    feedback = command(
        "feedback", cmd_feedback, "Vote on a result so similar queries rank it higher or lower."
    )
    feedback.add_argument("query")
    feedback.add_argument("id")
    feedback.add_argument("--vote", choices=("up", "down"), required=True)

    serve = command("serve", cmd_serve, "Run the language server (stdio by default).")
    serve.add_argument("--tcp", type=_positive, metavar="PORT", help="listen on 127.0.0.1:PORT")

    command(
        "mcp", cmd_mcp, "Run the MCP server for AI assistants on stdio (see docs/ai-assistants.md)."
    )

    status = command("status", cmd_status, "Show what the index holds and how fresh it is.")
    status.add_argument("--json", action="store_true")

    warm = command(
        "daemon",
        cmd_daemon,
        "The warm process that index, search, related and graph calls run in (status, stop).",
    )
    warm.add_argument("action", choices=("status", "stop"))
    warm.add_argument("--json", action="store_true")

    ev = command("eval", cmd_eval, "Score retrieval on cases: recall@1/5/10 and MRR@10.")
    ev.add_argument("cases", type=Path)
    ev.add_argument("-k", type=_positive, default=10)
    ev.add_argument("--mode", default="hybrid", choices=MODES)
    _add_kind_argument(ev)
    _add_apart_arguments(ev, "; a case is judged on the list that holds its answer")
    ev.add_argument("--json", action="store_true")
    return parser


def _add_apart_arguments(parser: argparse.ArgumentParser, judged: str = "") -> None:
    """--docs and --tests-apart: what a search lists apart from its hits."""
    for flag, default, what in (
        (
            "--docs",
            DOCS_APART,
            "documentation sections listed apart, after code-only hits (default {n}; with no "
            "--kind); 0: sections rank among the hits",
        ),
        (
            "--tests-apart",
            TESTS_APART,
            "tests listed apart, after hits that hold none (default {n}; unless tests are "
            "wanted: --tests, a question that says 'test', a --path-prefix in tests); 0: "
            "tests rank among the hits, each giving up part of its score (less for a question "
            "that reads like a test's)",
        ),
    ):
        help_text = what.format(n=default) + judged
        parser.add_argument(flag, type=_non_negative, default=default, metavar="N", help=help_text)


def _add_kind_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kind",
        default="",
        choices=("", *KIND_FILTERS),
        help="only chunks of this kind; code: every kind but documentation sections",
    )


def _positive(text: str) -> int:
    value = _whole_number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text}")
    return value


def _non_negative(text: str) -> int:
    value = _whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, not {text}")
    return value


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def _root(args: argparse.Namespace) -> Path:
    """ROOT or --root as given; else the workspace the current folder is in (a subfolder
    finds the index of its repository, see config.enclosing_root)."""
    given: Path | None = getattr(args, "root_arg", None) or getattr(args, "root", None)
    if given is None:
        return enclosing_root(Path.cwd())
    if not given.is_dir():
        raise CliError(f"{given} is not a directory")
    return given.resolve()


def _project(args: argparse.Namespace, snapshots: bool = False) -> Project:
    """The daemon's warm project when the call runs there."""
    from codekith.project import Project

    root = _root(args)
    if args.projects is not None and not snapshots:
        return args.projects(root, args.db, args.remote_index)  # type: ignore[no-any-return]
    return Project(root, db=args.db, remote_index=args.remote_index, snapshots=snapshots)


def _read_input(path: Path) -> str:
    """A file the user named (cases, queries): one line when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise CliError(f"cannot read {path}: {reason}") from None


def _answers(
    args: argparse.Namespace,
    freshness_ttl_s: float = 0.0,
    compatible: bool = True,
    snapshots: bool = False,
) -> Answers:
    """The answers of an indexed workspace (NoIndexError when it has no index or a damaged
    one; IndexMismatchError when `compatible` and it was built with another model)."""
    from codekith.answers import Answers

    answers = Answers(_project(args, snapshots), freshness_ttl_s=freshness_ttl_s)
    answers.require_index(compatible)
    return answers


def _db_of(args: argparse.Namespace) -> str:
    given = getattr(args, "root_arg", None) or getattr(args, "root", None)
    root = Path(given) if given else enclosing_root(Path.cwd())
    return str(getattr(args, "db", None) or root / ".codekith")


def visible(text: str) -> str:
    """Control characters (a file named with terminal escape sequences) as \\xNN: text
    output never drives the terminal. JSON output escapes them itself."""
    return CONTROL_CHARACTERS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _say(text: str) -> None:
    sys.stdout.write(visible(text))


class _Visible:
    """stdout for the text reports, through `visible`."""

    def write(self, text: str) -> None:
        _say(text)


def _emit(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


@contextmanager
def _progress(enabled: bool) -> Iterator[Progress | None]:
    """Rich progress bars on an interactive stderr, one per phase (each with its own count
    and time left); nothing otherwise."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
    from rich.progress import Progress as Bars

    columns = (
        TextColumn("{task.description:<18}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[unit]:<6} {task.fields[left]:>9}  {task.fields[detail]}"),
    )
    with Bars(*columns, transient=True) as bars:
        tasks: dict[str, Any] = {}

        def update(step: Step) -> None:
            if step.phase not in tasks:
                for earlier in tasks.values():  # a new phase: the earlier ones are done
                    bars.update(earlier, completed=bars.tasks[earlier].total)
                tasks[step.phase] = bars.add_task(
                    step.title, total=step.total, unit="", left="", detail=""
                )
            left = f"{format_duration(step.eta_s)} left" if step.eta_s is not None else ""
            bars.update(
                tasks[step.phase],
                completed=step.done,
                total=step.total,
                unit=PHASES[step.phase][1],
                left=left,
                detail=step.detail[-40:],
            )

        yield update


def cmd_index(args: argparse.Namespace) -> int:
    from codekith.memory import collect_less_often

    with collect_less_often():
        return _index(args)


def _index(args: argparse.Namespace) -> int:
    project = _project(args)
    for warning in project.settings.warnings:
        print(f"codekith: warning: {warning}", file=sys.stderr)
    with (
        _index_lock(project),
        _progress(not args.json) as progress,
        _stop_on_interrupt(args.stopped) as stopped,
    ):
        report = project.indexer.run(
            full=args.full,
            dry_run=args.dry_run,
            since=args.since,
            progress=progress,
            distribution=_distribution(args),
            refine=args.wait,
            cancelled=stopped,
        )
    if report.cancelled:
        print("codekith: stopped; the next 'codekith index' goes on from here", file=sys.stderr)
    if not args.dry_run:
        _save_status(project)
    if not args.dry_run and report.graph.get("jedi_pending"):
        _refine_in_background(project)
    if args.json:
        _emit(report.to_json())
    else:
        _print_index_report(report)
    return 0


def _save_status(project: Project) -> None:
    """Read what `status` shows once more and save it (Store.snapshot), so that the next
    `status` starts without LanceDB. Best effort: a problem here is the next reader's to
    report, not this finished run's."""
    with contextlib.suppress(OSError, RuntimeError, ValueError):
        project.store.snapshot()


@contextmanager
def _index_lock(project: Project) -> Iterator[None]:
    """The index's write lock for a run. Another writer makes the run fail at once, except
    the background Jedi pass of an earlier run, which holds the lock only while it stores
    a batch of answers: the run waits for that (`codekith index` twice in a row worked only
    when the pass happened not to be storing)."""
    from codekith.store import IndexLockedError

    with ExitStack() as held:
        try:
            held.enter_context(project.store.write_lock())
        except IndexLockedError:
            if not project.store.refining():
                raise
            print("codekith: waiting for the background Jedi pass to store", file=sys.stderr)
            held.enter_context(project.store.write_lock(wait_s=REFINER_STORE_WAIT_S))
        yield


@contextmanager
def _stop_on_interrupt(
    given: Callable[[], bool] | None = None,
) -> Iterator[Callable[[], bool]]:
    """The first Ctrl-C asks the run to stop at its next batch boundary (the index stays
    whole); a second one interrupts at once. In the daemon the client's Ctrl-C is `given`."""
    import signal

    if given is not None:
        yield given
        return

    asked: list[bool] = []

    def interrupt(signum: int, frame: Any) -> None:
        if asked:
            raise KeyboardInterrupt
        asked.append(True)
        print("\ncodekith: stopping after this batch (Ctrl-C again to abort)", file=sys.stderr)

    try:
        previous = signal.signal(signal.SIGINT, interrupt)
    except ValueError:  # not the main thread: no handler, no stopping
        yield lambda: False
        return
    try:
        yield lambda: bool(asked)
    finally:
        signal.signal(signal.SIGINT, previous)


def _distribution(args: argparse.Namespace) -> Distribution | None:
    """`--ray ADDRESS`: Ray actors there; `--ray` or `--workers N` alone: local processes."""
    from codekith.distributed import Distribution

    if args.ray:
        return Distribution("ray", args.ray, args.workers or 0)
    if args.ray is not None or args.workers:
        return Distribution("local", None, args.workers or 0)
    return None


def _refine_in_background(project: Project) -> None:
    """`codekith refine` in a detached process: the index is searchable already; the Jedi
    edges follow (it takes the index only to store them, so later runs are not blocked)."""
    subprocess.Popen(
        [
            sys.executable,
            "-m",
            "codekith.cli",
            "refine",
            str(project.root),
            "--db",
            project.settings.db_location(project.root),
            *(
                ["--remote-index", project.settings.remote_index]
                if project.settings.remote_index
                else []
            ),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def cmd_refine(args: argparse.Namespace) -> int:
    """Passes until no Jedi work is left; a second refiner for the same index just exits
    (the first one picks up whatever was added meanwhile)."""
    project = _answers(args).project

    def lock() -> AbstractContextManager[None]:
        return project.store.write_lock(wait_s=REFINE_LOCK_WAIT_S)

    while True:
        with project.store.refine_lock() as mine:
            if not mine:
                return 0
            figures = project.indexer.refine_graph(lock=lock)
        if not figures.get("jedi_files") or not figures.get("jedi_pending"):
            _save_status(project)
            return 0


def _print_index_report(report: IndexReport) -> None:
    out = _Visible()
    if report.dry_run:
        out.write(f"would index {len(report.indexed)} files, {report.unchanged} unchanged\n")
        for path in report.indexed:
            out.write(f"  index  {path}\n")
    else:
        out.write(
            f"indexed {len(report.indexed)} files ({report.chunks_written} chunks, "
            f"{report.embedded} embedded, {report.reused} reused), "
            f"{report.unchanged} unchanged, {len(report.deleted)} deleted, "
            f"{report.chunks_total} chunks in the index, {report.seconds:.1f}s\n"
        )
    for path in report.deleted:
        out.write(f"  delete {path}\n")
    for path, reason in sorted(report.skipped.items()):
        out.write(f"  skip   {path}: {reason}\n")
    for path, error in sorted(report.errors.items()):
        out.write(f"  partial {path}: {error}\n")


def cmd_search(args: argparse.Namespace) -> int:
    if not args.query and not args.queries:  # a usage error, before the engine loads
        args.parser.error("give a QUERY or --queries FILE")
    from codekith.store import Filters

    if args.queries:
        lines = _read_input(args.queries).splitlines()
        return _search_batch(_answers(args, freshness_ttl_s=math.inf), args, lines)
    filters = Filters(args.path_prefix, args.language, args.kind)
    repositories = _repositories(args)
    if repositories is not None:
        found = repositories.search(
            args.query,
            args.k,
            filters,
            args.mode,
            args.repo,
            tests=args.tests,
            docs=args.docs,
            tests_apart=args.tests_apart,
        )
        if args.json:
            _emit(found.to_json())
        else:
            _print_repo_hits(found)
        return 0
    answers = _answers(args)
    answer = answers.search(
        args.query,
        args.k,
        filters,
        args.mode,
        tests=args.tests,
        docs=args.docs,
        tests_apart=args.tests_apart,
    )
    if args.json:
        _emit(answer.to_json())
    else:
        _print_hits(answer)
    return 0


def _repositories(args: argparse.Namespace) -> Repositories | None:
    """Several indexes when `--index` or the `repos` setting names them (or `--repo`
    filters); None for the usual single index."""
    from codekith.config import load_settings
    from codekith.project import Project
    from codekith.repos import open_repositories, workspace_roots

    root = _root(args)
    roots = [Path(r) for r in args.index] if args.index else None
    if roots is None:
        roots = workspace_roots(root, load_settings(root).repos)
        if len(roots) == 1 and not args.repo:
            return None

    def project_of(path: Path, model: Callable[[str], Any]) -> Project:
        db = args.db if path.resolve() == root else None
        return Project(path, db=db, embedder_factory=model)

    return open_repositories([r.resolve() for r in roots], project_of)


TESTS_HEADING = "tests, apart from the code:\n"
DOCS_HEADING = "documentation, apart from the code:\n"


def _print_repo_hits(found: MultiSearchAnswer) -> None:
    def rows(items: list[RepoHit]) -> Ranked:
        return [(f"{item.repo}: ", item.hit, item.stale) for item in items]

    _print_ranked(rows(found.hits), rows(found.tests or []), rows(found.docs or []))
    behind = [repo for repo, state in found.freshness.items() if not state.fresh]
    if behind:
        sys.stderr.write(
            visible(f"codekith: the index of {', '.join(behind)} is behind; run `codekith index`\n")
        )


def _print_ranked(hits: Ranked, tests: Ranked, docs: Ranked) -> None:
    """The hits, then the tests and the documentation apart, each under its heading."""
    _print_rows(hits)
    for heading, apart in ((TESTS_HEADING, tests), (DOCS_HEADING, docs)):
        if apart:
            _say(heading)
            _print_rows(apart)


def _print_rows(rows: Ranked) -> None:
    """`rank. [repo: ]path:lines  kind qualname  (score)`, one hit a line."""
    for rank, (origin, hit, stale) in enumerate(rows, 1):
        mark = "  [stale]" if stale else ""
        _say(
            f"{rank:2}. {origin}{hit.path}:{hit.start_line}-{hit.end_line}  "
            f"{hit.kind} {hit.qualname}  ({hit.score:.4f}){mark}\n"
        )


def _search_batch(answers: Answers, args: argparse.Namespace, lines: list[str]) -> int:
    """One JSON object per input line; the model loads and freshness is checked once."""
    from codekith.search import search_request

    path: Path = args.queries
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        query, asked, _ = search_request(line, f"{path}:{number}")
        k = asked.k or args.k
        mode = asked.mode or args.mode
        tests = args.tests if asked.tests is None else asked.tests
        found = answers.search(
            query, k, asked.filters, mode, tests=tests, docs=args.docs, tests_apart=args.tests_apart
        )
        _emit(found.to_json())
    return 0


def _print_hits(answer: SearchAnswer) -> None:
    state = answer.freshness
    stale = set(state.stale)

    def rows(listed: list[Hit] | None) -> Ranked:
        return [("", hit, hit.path in stale) for hit in listed or []]

    _print_ranked(rows(answer.hits), rows(answer.tests), rows(answer.docs))
    if not state.fresh:
        moved = ", HEAD moved" if state.head != state.index_head else ""
        sys.stderr.write(
            f"codekith: the index is behind ({len(state.stale)} stale files{moved}); "
            "run `codekith index`\n"
        )


def _add_tests_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tests",
        action="store_true",
        help="looking for tests: rank them with the project's own code (by default a search "
        "lists them apart and a bundle ranks them below it, unless the question says 'test')",
    )


def _add_workspace_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--index",
        action="append",
        type=Path,
        metavar="ROOT",
        help="use this repository's index (repeat for several; default: ROOT and the "
        "repositories of its `repos` setting)",
    )
    parser.add_argument(
        "--repo",
        action="append",
        metavar="NAME",
        help="only this repository (its directory name; repeat for several)",
    )


def cmd_related(args: argparse.Namespace) -> int:
    repositories = _repositories(args)
    answer: RelatedAnswer | MultiRelatedAnswer = (
        repositories.related(args.target, args.depth, args.budget, args.repo, tests=args.tests)
        if repositories is not None
        else _answers(args).related(args.target, args.depth, args.budget, tests=args.tests)
    )
    if args.json:
        _emit(answer.to_json())
    elif args.format == "markdown":
        _say(answer.markdown())
    else:
        _print_bundle(answer.to_json())
    return 0


def _print_bundle(data: dict[str, Any]) -> None:
    """One line per item (`repo: ` in front in a workspace of several), then the totals."""
    for item in data["items"]:
        where = f"{item['repo']}: " if item.get("repo") else ""
        _say(
            f"{item['score']:.3f}  {where}{item['path']}:{item['start_line']}  "
            f"{item['qualname']}  [{item['reason']}]\n"
        )
    _say(
        f"{data['tokens']}/{data['budget']} tokens, intent {data['intent']}, "
        f"depth {data['depth']}" + (", truncated" if data["truncated"] else "") + "\n"
    )


def cmd_graph(args: argparse.Namespace) -> int:
    """Reads the workspace directly: no index, no embedding model."""
    from codekith.config import load_settings
    from codekith.graph import graph_for_root, in_graph
    from codekith.workspace import scan

    root = _root(args)
    settings = load_settings(root)
    paths = [c.path for c in scan(root, settings) if c.reason is None and in_graph(root, c.path)]
    _emit(graph_for_root(root, paths, use_jedi=settings.jedi and not args.no_jedi))
    return 0


def cmd_feedback(args: argparse.Namespace) -> int:
    _answers(args).feedback(args.query, args.id, 1 if args.vote == "up" else -1)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from codekith.memory import limit_malloc_arenas

    limit_malloc_arenas()  # before any thread starts
    from codekith.lsp.server import serve

    serve(args.tcp)
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    """The index is built on the first question when there is none yet."""
    from codekith.memory import limit_malloc_arenas

    limit_malloc_arenas()  # before any thread starts
    from codekith.mcp.server import serve

    serve(_root(args), args.db)
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    status = _answers(args, compatible=False, snapshots=True).status(runs=10)
    if status["problem"]:
        print(f"codekith: warning: {status['problem']}", file=sys.stderr)
    if args.json:
        _emit(status)
        return 0
    for key in ("root", "db", "model", "template", "chunks", "files", "index_head", "head"):
        _say(f"{key:9} {status[key]}\n")
    _say(f"skipped   {len(status['skipped'])}\n")
    stale = status["stale"]
    _say(f"stale     {len(stale)}" + (f": {', '.join(stale[:10])}" if stale else "") + "\n")
    return 0


def cmd_daemon(args: argparse.Namespace) -> int:
    """`stop` ends this installation's daemon; `status` says whether one is up and where."""
    from codekith import daemon

    if args.action == "stop":
        _say("stopped\n" if daemon.stop() else "no daemon was running\n")
        return 0
    state = daemon.status()
    if args.json:
        _emit(state or {"running": False})
    elif state is None:
        _say("not running\n")
    elif state["busy"]:
        _say(f"running, busy with a call  {state['socket']}\n")
    else:
        _say(f"running  pid {state['pid']}, {state['served']} calls served, {state['socket']}\n")
        for workspace in state["workspaces"]:
            _say(f"  warm   {workspace}\n")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from codekith.evaluation import evaluate, judged_hits, load_cases

    try:
        cases = load_cases(args.cases)
    except OSError as exc:
        raise CliError(f"cannot read {args.cases}: {exc.strerror}") from None
    answers = _answers(args, freshness_ttl_s=math.inf)

    def run(case: Any) -> list[Hit]:
        """What `codekith search` would answer (a case's own k, mode, kind and tests over
        the command's), judged on the list that holds the answer."""
        asked = case.options
        mode, tests = asked.mode or args.mode, bool(asked.tests)
        filters = dataclasses.replace(asked.filters, kind=asked.filters.kind or args.kind)
        k = asked.k or args.k
        found = answers.search(
            case.query, k, filters, mode, tests=tests, docs=args.docs, tests_apart=args.tests_apart
        )
        return judged_hits(found.hits, (found.tests, found.docs), case.expected)

    result = evaluate(cases, run)
    if args.json:
        _emit(result)
    else:
        for case in result["cases"]:
            _say(f"{case['rank'] or '-':>3}  {case['query'][:70]}\n")
        _say(json.dumps(result["summary"]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
