"""The suite has teeth: each wrong engine of tests/mutants fails it on the rule it misreads, and
the diagnosis names that rule first.

The conformance suite runs against each mutant, narrowed to the variants concerned, with the
mutant installed in-process (``tests.suite_batch``: a few child processes share the imports; the
transport is judged by ``test_engine_paths``). The control, the unmodified reference engine run
the same way over every variant, must pass.
"""

from __future__ import annotations

import pytest

from tests.mutants import CONTROL, Mutant, mutants
from tests.suite_runs import SuiteRun, assert_caught_first, start_mutants

pytestmark = pytest.mark.slow


RUNS = {**{name: mutant.variants for name, mutant in mutants().items()}, CONTROL.name: ()}
"""Each mutant on its variants, and the control on all."""


def prefetch() -> None:
    """Start the runs at once (tests/conftest.py), so they are made while other tests run."""
    start_mutants(RUNS)


@pytest.fixture(scope="session")
def mutant_runs() -> dict[str, SuiteRun]:
    """Every mutant's run and the control's, made once, on all cores at once."""
    runs: dict[str, SuiteRun] = start_mutants(RUNS).result()
    return runs


def test_reference_passes_the_whole_suite(mutant_runs: dict[str, SuiteRun]) -> None:
    """The control: without it a failing mutant run proves nothing."""
    run = mutant_runs[CONTROL.name]
    assert len(run.outcomes) > 1000, f"no outcomes recorded:\n{run.tail()}"
    assert run.returncode == 0, (
        f"the reference engine fails {sorted(run.items('failed') | run.items('errored'))}:\n"
        + run.tail()
    )


@pytest.mark.parametrize("mutant", list(mutants().values()), ids=list(mutants()))
def test_mutant_is_caught(mutant: Mutant, mutant_runs: dict[str, SuiteRun]) -> None:
    """The suite fails (exit 1) against the mutant, with wrong answers on the rule it misreads.

    A case counts only if the control passes it, so a case the reference itself fails (work in
    progress in the tables) cannot make a mutant look caught.
    """
    run, control = mutant_runs[mutant.name], mutant_runs[CONTROL.name]
    assert_caught_first(run, control, mutant.name, mutant.caught_by)
