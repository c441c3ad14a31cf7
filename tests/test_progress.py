"""Progress that tells the truth and runs that can be stopped: each phase of an index run
reports its own count against its own total (no bar at 100% while embedding goes on), and a
run cancelled at a batch boundary leaves an index that a later run completes to exactly
what an uninterrupted run builds (real model, real LanceDB, real git repository)."""

from __future__ import annotations

import shutil
from pathlib import Path

from codekith import progress
from codekith.graph.builder import GraphBuilder
from codekith.progress import PHASES, PhaseClock, Step, Tally, format_duration
from tests.conftest import HTTP_MODULE, MATH_MODULE, git, write_files
from tests.test_graph_state import PKG, all_edges


def test_each_phase_counts_its_own_work_with_its_own_time_left():
    now = [0.0]
    steps: list[Step] = []
    clock = PhaseClock(steps.append, clock=lambda: now[0])
    for done in range(0, 11):  # 10 chunks, one per second
        clock("embed", done, 10, f"f{done}.py")
        now[0] += 1.0
    clock("write", 0, 10)
    assert steps[0] == Step("embed", 0, 10, "f0.py", None)  # no estimate before any rate
    assert steps[-2].done == 10 and steps[-2].eta_s is None  # a phase's last step always
    middle = next(s for s in steps if s.done == 4)
    assert middle.eta_s == 6.0 and middle.message() == "embedding 4/10 chunks · 0:06 left · f4.py"
    assert steps[-1] == Step("write", 0, 10)  # a new phase starts its own count and clock
    assert steps[-1].overall() >= steps[-2].overall()  # one rising share over the phases


def test_steps_are_thinned_but_never_the_first_or_the_last():
    steps: list[Step] = []
    clock = PhaseClock(steps.append, clock=lambda: 5.0)  # time stands still
    for done in range(1, 1001):
        clock("scan", done, 1000)
    assert [s.done for s in steps] == [1, 1000]
    assert format_duration(3725) == "1:02:05" and format_duration(59.6) == "1:00"


def hand_over_chain(hops: int) -> dict[str, str]:
    """`start()` passes a Worker through f1 .. f{hops}, one module each, to `x.run()`: the
    fast resolver needs a round per hop to learn what `x` is."""
    files = {
        "worker.py": "class Worker:\n    def run(self):\n        return 1\n",
        "hop0.py": "from worker import Worker\nfrom hop1 import f1\n\n\n"
        "def start():\n    return f1(Worker())\n",
        f"hop{hops}.py": f"def f{hops}(x):\n    return x.run()\n",
    }
    for n in range(1, hops):
        files[f"hop{n}.py"] = (
            f"from hop{n + 1} import f{n + 1}\n\n\ndef f{n}(x):\n    return f{n + 1}(x)\n"
        )
    return files


def test_the_call_graph_counts_its_passes_over_the_files_with_time_left(tmp_path):
    """Issue 12 item 2: the graph phase moves file by file through its rounds, parsing and
    resolving, with an estimate; its total grows when a round finds more to do, and it reads
    100% only at its end (time is faked: one second per step; the graph is real)."""
    scripts = {
        f"web/w{n}.js": f"import {{ w{n + 1} }} from './w{n + 1}.js';\n"
        f"export function w{n}() {{ return w{n + 1}(); }}\n"
        for n in range(4)
    }
    python = hand_over_chain(4)
    files = {**python, **scripts, "web/w4.js": "export function w4() { return 4; }\n"}
    root = write_files(tmp_path / "ws", files)
    now = [0.0]
    steps: list[Step] = []
    clock = PhaseClock(steps.append, clock=lambda: now[0])

    def counts(done: int, total: int, path: str) -> None:
        now[0] += 1.0
        clock("graph", done, total, path)

    tally = Tally(counts)
    tally.start()
    builder = GraphBuilder(root)
    update = builder.update(dict.fromkeys(files, "v1"), "", tally)
    tally.finish()
    assert ("hop4.f4", "worker.Worker.run") in {(e.src, e.dst) for e, _ in update.edges["hop4.py"]}
    rounds, scripts_count = builder.fast.rounds, len(scripts) + 1
    passes = rounds * len(python) + len(python) + 2 * scripts_count
    assert rounds >= 3  # the total grew beyond its first guess (two rounds)
    assert steps[1].total == 2 * len(python) + len(python) + 2 * scripts_count < passes
    assert steps[-1].done == steps[-1].total == passes
    assert all(s.done < s.total for s in steps[:-1])
    assert [s.done for s in steps] == [*range(passes + 1), passes]  # then: finished
    assert {s.detail for s in steps} >= set(files)  # each file named as it is handled
    middle = steps[passes // 2]
    assert middle.eta_s is not None and middle.eta_s > 0
    assert middle.message().startswith(f"call graph {middle.done}/{middle.total} passes · ")


def workspace_of_many_files(root: Path) -> Path:
    files = {**PKG, "web/http.py": HTTP_MODULE, "mathx.py": MATH_MODULE}
    for number in range(8):
        files[f"extra/mod{number}.py"] = (
            f"def step_{number}(value):\n    '''Stage {number} of the pipeline.'''\n"
            f"    return value + {number}\n\n\ndef undo_{number}(value):\n"
            f"    return value - {number}\n"
        )
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


def test_a_run_reports_every_phase_in_order_each_reaching_its_own_total(
    workspace, project_for, monkeypatch
):
    # every step, not one per EMIT_EVERY_S: how many pass that depends on the machine's speed
    # (34 chunks embedded in under 0.2 s gave only the first and last step)
    monkeypatch.setattr(progress, "EMIT_EVERY_S", 0.0)
    root = workspace_of_many_files(workspace({}))
    steps: list[Step] = []
    report = project_for(root, batch_chunks=8).indexer.run(progress=steps.append, refine=True)
    phases = list(dict.fromkeys(s.phase for s in steps))
    assert phases == ["scan", "chunk", "embed", "write", "graph", "jedi"]
    last = {s.phase: s for s in steps}
    assert last["chunk"].done == last["chunk"].total == len(report.indexed)
    assert last["embed"].done == last["embed"].total == report.embedded
    assert last["write"].done == last["write"].total == report.chunks_written
    assert last["jedi"].done == last["jedi"].total == report.graph["jedi_files"]
    graph = [s for s in steps if s.phase == "graph"]  # counted in file passes, not 0 then 1
    assert last["graph"].done == last["graph"].total >= len(report.indexed)
    assert all(s.done < s.total for s in graph[:-1]) and graph[0].done == 0
    for phase in ("embed", "write"):  # several batches: each phase moved more than once
        assert len([s for s in steps if s.phase == phase]) > 2, phase
    assert set(phases) <= set(PHASES)


def index_state(project) -> tuple:  # type: ignore[no-untyped-def]
    chunks = {
        (r["id"], r["path"], r["qualname"], r["start_line"])
        for r in project.store.rows("true", columns=["id", "path", "qualname", "start_line"])
    }
    catalog = {p: (r.file_hash, r.status, r.chunks) for p, r in project.store.catalog().items()}
    return chunks, catalog, all_edges(project.store)


def test_cancel_mid_run_then_resume_equals_an_uninterrupted_index(workspace, project_for, tmp_path):
    root = workspace_of_many_files(workspace({}))
    reference = tmp_path / "reference"
    shutil.copytree(root, reference)
    project = project_for(root, batch_chunks=6)
    writes: list[Step] = []

    def progress(step: Step) -> None:
        if step.phase == "write":
            writes.append(step)

    cancelled = project.indexer.run(progress=progress, cancelled=lambda: bool(writes))
    assert cancelled.cancelled and len(writes) == 1  # stopped after its first batch
    assert 0 < cancelled.chunks_written < writes[0].total
    assert project.store.meta()["run_state"] == "cancelled"
    partial = index_state(project)
    assert {p for _, p, _, _ in partial[0]} == set(cancelled.indexed)  # whole files only

    resumed = project_for(root, batch_chunks=6).indexer.run()
    assert not resumed.cancelled and resumed.mode == "scan"
    assert resumed.scan_reason == "the last run was interrupted"
    assert set(resumed.indexed).isdisjoint(cancelled.indexed)  # nothing written twice

    uninterrupted = project_for(reference, batch_chunks=6)
    uninterrupted.indexer.run()
    assert index_state(project_for(root)) == index_state(uninterrupted)


def test_cancel_while_chunking_writes_nothing_and_the_next_run_does_it_all(workspace, project_for):
    root = workspace_of_many_files(workspace({}))
    project = project_for(root)
    seen: list[Step] = []
    report = project.indexer.run(
        progress=seen.append, cancelled=lambda: any(s.phase == "chunk" for s in seen)
    )
    assert report.cancelled and report.indexed == [] and report.chunks_written == 0
    again = project.indexer.run()
    assert not again.cancelled and again.chunks_total == again.chunks_written > 0


def test_a_layout_an_interrupted_run_named_files_under_is_undone_when_it_goes_again(
    workspace, project_for, tmp_path
):
    """A project file that comes and goes while a run is cut short: the files that run
    re-chunked under its name for them are named again, though the stored layout and
    their content are as before (found on a quality workspace: a killed run left modules
    named as if a pyproject.toml still declared them)."""
    root = workspace_of_many_files(workspace({}))
    reference = tmp_path / "reference"  # the tree the runs end on, before any index
    shutil.copytree(root, reference)
    project = project_for(root, batch_chunks=4)
    project.indexer.run()
    (root / "extra" / "pyproject.toml").write_text("[project]\nname = 'extra'\n")
    writes: list[Step] = []

    def progress(step: Step) -> None:
        if step.phase == "write":
            writes.append(step)

    cut = project_for(root, batch_chunks=4).indexer.run(
        progress=progress, cancelled=lambda: bool(writes)
    )
    assert cut.cancelled and cut.indexed  # some files of extra/ were named "modN" ...
    (root / "extra" / "pyproject.toml").unlink()  # ... and the project file went again
    project_for(root, batch_chunks=4).indexer.run()

    uninterrupted = project_for(reference, batch_chunks=4)
    uninterrupted.indexer.run()
    state = index_state(project_for(root))
    assert state == index_state(uninterrupted)
    assert {q for _, p, q, _ in state[0] if p == "extra/mod0.py"} >= {"extra.mod0.step_0"}
