"""The suite has teeth: each wrong engine of tests/mutants fails it on the rule it misreads, and
the diagnosis names that rule first.

Each mutant is served as a subprocess engine (``python -m tests.mutants NAME``) and the
conformance suite runs against it, narrowed to the variants concerned. The control, the
unmodified reference engine served the same way, must pass the same runs.
"""

from __future__ import annotations

import sys
from functools import cache

import pytest

from tests.mutants import CONTROL, Mutant, mutants
from tests.suite_runs import SuiteRun, run_suite


def run_mutant(mutant: Mutant, variants: tuple[str, ...]) -> SuiteRun:
    """The suite against ``mutant`` served as a subprocess engine."""
    return run_suite(f"{sys.executable} -m tests.mutants {mutant.name}", variants)


@cache
def control_run(variants: tuple[str, ...]) -> SuiteRun:
    """The reference engine, served like the mutants, on the same variants (once per process)."""
    return run_mutant(CONTROL, variants)


CONTROL_VARIANTS = sorted({m.variants for m in mutants().values()})


@pytest.mark.parametrize("variants", CONTROL_VARIANTS, ids=["+".join(v) for v in CONTROL_VARIANTS])
def test_reference_passes_the_narrowed_runs(variants: tuple[str, ...]) -> None:
    """The control: without it a failing mutant run proves nothing."""
    run = control_run(variants)
    assert run.outcomes, f"no outcomes recorded:\n{run.tail()}"
    assert run.returncode == 0, (
        f"the reference engine fails {sorted(run.items('failed') | run.items('errored'))}:\n"
        + run.tail()
    )


@pytest.mark.parametrize("mutant", list(mutants().values()), ids=list(mutants()))
def test_mutant_is_caught(mutant: Mutant) -> None:
    """The suite fails (exit 1) against the mutant, with wrong answers on the rule it misreads.

    A case counts only if the control passes it, so a case the reference itself fails (work in
    progress in the tables) cannot make a mutant look caught.
    """
    run = run_mutant(mutant, mutant.variants)
    control = control_run(mutant.variants)
    assert run.outcomes, f"no outcomes recorded:\n{run.tail()}"
    assert run.returncode == 1, f"exit {run.returncode}, expected 1 (tests failed):\n{run.tail()}"
    caught = (run.items("failed") | run.items("errored")) & control.items("passed")
    wrong = run.items("failed") & control.items("passed")
    assert caught, f"{mutant.name}: every case the reference passes also passes"
    assert mutant.caught_by in run.rules_of(wrong), (
        f"{mutant.name} misreads {mutant.caught_by}, but no case of that rule failed; "
        f"failing rules: {sorted(run.rules_of(caught))}"
    )
    suspects = [entry["rule"] for entry in run.diagnosis]
    assert suspects[:1] == [mutant.caught_by], (
        f"{mutant.name} misreads {mutant.caught_by}, but the diagnosis suspects "
        f"{suspects[:5]} first"
    )
