"""The runner of the slow tier's child suite runs (tests/suite_runs.py) against a batch process
that breaks: every run sent gets an outcome, none is waited for forever."""

from __future__ import annotations

from concurrent.futures import Future

import pytest

from tests.suite_runs import BASE_ARGS, OUT, SuiteRun, _Batcher, _Spec

pytestmark = pytest.mark.slow  # starts batch processes


def _spec(name: str, mutant: str | None = None) -> _Spec:
    args = ("features/tables/meld-online.yaml", *BASE_ARGS)
    return _Spec(name, None, (*args, "--conformance-report", f"{OUT}/{name}.json"), mutant)


def test_a_run_is_made_and_reported() -> None:
    batcher = _Batcher()
    try:
        done: Future[SuiteRun] = Future()
        batcher.send(_spec("meld"), done)
        run = done.result(timeout=120)
    finally:
        batcher.close()
    assert run.returncode == 0, run.tail()
    assert run.items("passed") and not run.items("failed"), run.tail()


def test_a_batch_process_that_dies_fails_its_runs_and_no_later_one_waits() -> None:
    batcher = _Batcher()
    try:
        first: Future[SuiteRun] = Future()
        second: Future[SuiteRun] = Future()
        batcher.send(_spec("crash", mutant="no-such-mutant"), first)  # it raises in the batch
        batcher.send(_spec("after"), second)
        crashed, after = first.result(timeout=120), second.result(timeout=120)
        late: Future[SuiteRun] = Future()
        batcher.child.wait(timeout=60)
        batcher.send(_spec("late"), late)  # sent to a process already gone
        assert late.result(timeout=60).returncode == -1
    finally:
        batcher.close()
    assert crashed.returncode == -1 and "no-such-mutant" in crashed.output, crashed.output
    assert after.returncode == -1 and not after.outcomes
