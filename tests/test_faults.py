"""Fault injection (issue 12): kill -9 at random moments of a full and of an incremental
`codekith index`, then resume → an index equal to an uninterrupted one (chunks, catalog,
search results, edges). A small N keeps this within CI's time: scripts/fault_injection.py
runs a larger N, reports whether each resumed index, compacted, answers like one built
from scratch, and runs two CLI writers and a CLI beside a server (the suite keeps
tests/test_writers.py's refused writer)."""

from __future__ import annotations

import random

import pytest

from tests.faults import Scenario

TRIALS = 1
pytestmark = pytest.mark.timeout(1800)  # the shared scenario builds three reference indexes


@pytest.fixture(scope="module")
def scenario(tmp_path_factory, embedder) -> Scenario:
    return Scenario.build(tmp_path_factory.mktemp("faults"), embedder, parts=1)


@pytest.mark.parametrize("number", range(TRIALS))
def test_kill_during_a_full_run_then_resume(scenario, number):
    trial = scenario.full_trial(random.Random(1000 + number), number)
    assert trial.equal, trial


@pytest.mark.parametrize("number", range(TRIALS))
def test_kill_during_an_incremental_run_then_resume(scenario, number):
    trial = scenario.incremental_trial(random.Random(2000 + number), number)
    assert trial.equal, trial
