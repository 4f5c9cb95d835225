"""The in-process and subprocess engine paths give exactly the same outcome for every case.

Both paths exchange the same protocol messages (the in-process one skips the pipe), so the full
conformance suite run through ``python -m pinochle_adapters.reference`` as a subprocess must
report, case by case, what the in-process run reports.
"""

from __future__ import annotations

import sys

import pytest

from pinochle_adapters.client import MAX_CONSECUTIVE_TIMEOUTS
from tests import report_runs
from tests.report_runs import report_of
from tests.suite_runs import ROOT, run_suite, start_suite

pytestmark = pytest.mark.slow  # each test runs the whole suite in a child pytest


PIPE = f"{sys.executable} -m pinochle_adapters.reference"
HANG = f"{sys.executable} {ROOT / 'tests' / 'broken_engines' / 'hang.py'} meld"
HANG_RUN: tuple[list[str], list[str]] = (["double-deck"], ["--engine-timeout", "0.5"])


def prefetch() -> None:
    """Start this module's runs at once (tests/conftest.py)."""
    report_runs.prefetch()
    start_suite(PIPE, extra=["--validate-protocol"])
    start_suite(HANG, *HANG_RUN)


def test_subprocess_engine_gives_the_in_process_outcomes() -> None:
    in_process = report_of(None)[1]  # shared with the report tests
    through_pipe = run_suite(PIPE, extra=["--validate-protocol"])
    assert in_process.returncode == 0, in_process.tail()
    assert through_pipe.returncode == 0, through_pipe.tail()
    assert len(in_process.outcomes) > 1000
    assert in_process.outcomes.keys() == through_pipe.outcomes.keys()
    differing = [k for k, v in in_process.outcomes.items() if through_pipe.outcomes[k] != v]
    assert not differing, differing[:20]


def test_an_engine_that_hangs_costs_the_run_only_a_few_timeouts() -> None:
    """An engine hanging on every meld request: meld cases error, the rest pass, and the run
    waits out only a few timeouts.

    After MAX_CONSECUTIVE_TIMEOUTS timeouts in a row the client gives meld up, so the run does
    not pay one timeout per meld case (about 370 of them): counted, not timed.
    """
    run = run_suite(HANG, *HANG_RUN)
    assert run.returncode == 1, run.tail()
    meld_cases = {n for n in run.outcomes if "/meld-double-deck.yaml::" in n}
    assert meld_cases and meld_cases <= run.items("errored")
    assert not run.items("failed")
    assert run.items("passed")
    waited = [n for n in meld_cases if "no reply within" in run.outcomes[n]["message"]]
    given_up = [n for n in meld_cases if "given up after" in run.outcomes[n]["message"]]
    assert len(waited) == MAX_CONSECUTIVE_TIMEOUTS, sorted(waited)
    assert len(given_up) == len(meld_cases) - len(waited)
