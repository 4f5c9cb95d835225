"""Whole hands reach every rule (issue 17): an engine declaring only ``play_hand`` and
``play_game`` is judged on every trick obligation, card points, meld minimum, set, throw-in and
game end, and each bug planted in it is caught with its rule named first by the diagnosis.

The engines are tests/whole_hand_engines, served as subprocesses; the suite runs once per engine
and variant (each run is cached for the session).
"""

from __future__ import annotations

from functools import cache

import pytest

from tests.suite_runs import SuiteRun, python_engine, run_suite
from tests.whole_hand_engines import BUGS

pytestmark = pytest.mark.slow

VARIANTS = ("double-deck", "single-deck", "online")
TRICK_OBLIGATIONS = (
    "PLAY-FOLLOW",
    "PLAY-CRAWL",
    "PLAY-TRUMP-VOID",
    "PLAY-OVERTRUMP",
    "PLAY-TRUMPED-TRICK",
    "PLAY-DISCARD",
    "TRICK-IDENTICAL",
)
SCORING = ("POINTS-COUNTERS", "POINTS-LAST-TRICK", "SCORE-SET", "SCORE-THROW-IN", "GAME-TARGET")
REACHED = {
    "double-deck": (*TRICK_OBLIGATIONS, *SCORING, "MELD-MINIMUM"),
    "single-deck": (
        *TRICK_OBLIGATIONS,
        *SCORING,
    ),  # SCORE-THROW-IN: refused, as the variant has none
    "online": (*TRICK_OBLIGATIONS, *SCORING),
}
"""Rules each variant's whole-hand cases test as their own rule (a failure is charged to it)."""

DIAGNOSIS_GAPS = {
    ("throw-in-free", "double-deck"): "play_game cases are charged to their own rule as direct "
    "evidence (no first-divergence charging for play_game): GAME-TARGET is named first",
    ("throw-in-free", "online"): "play_game cases are charged to their own rule as direct "
    "evidence (no first-divergence charging for play_game): GAME-ROUNDS is named first",
    ("trumped-trick-crawl", "single-deck"): "a play the rules allow but the engine refuses is "
    "charged to the engine's rule and PLAY-FOLLOW, never to PLAY-TRUMPED-TRICK that allows it; "
    "once those are cleared, each hand through the trumped trick charges its own rule",
    ("trumped-trick-crawl", "online"): "a play the rules allow but the engine refuses is charged "
    "to the engine's rule (PLAY-CRAWL), never to PLAY-TRUMPED-TRICK that allows it",
}
"""Bugs the whole hands catch but the diagnosis did not name first when these tests were written
(pytest_pinochle's diagnosis, outside these engines; being reworked): the catch is still required,
the first suspect is an expected failure until the diagnosis names it."""


@cache
def whole_hand_run(engine: str, variant: str) -> SuiteRun:
    """The suite against a whole-hand-only engine, one variant (once per session)."""
    return run_suite(python_engine("tests.whole_hand_engines", engine), [variant])


@pytest.mark.parametrize("variant", VARIANTS)
def test_clean_whole_hand_engine_fails_nothing_and_is_judged_on_every_rule(variant: str) -> None:
    run = whole_hand_run("clean", variant)
    assert run.outcomes, f"no outcomes recorded:\n{run.tail()}"
    assert run.returncode == 0, (
        f"the clean whole-hand engine fails {sorted(run.items('failed') | run.items('errored'))}:"
        f"\n{run.tail()}"
    )
    judged = run.rules_of(run.items("passed"))
    missing = [rule for rule in REACHED[variant] if rule not in judged]
    assert not missing, f"{variant}: no whole-hand case of its own judges {missing}"


BUG_RUNS = [(name, variant) for name, bug in BUGS.items() for variant in bug.variants]


@pytest.mark.parametrize(
    ("name", "variant"), BUG_RUNS, ids=[f"{name}-{variant}" for name, variant in BUG_RUNS]
)
def test_planted_bug_is_caught_through_whole_hands_at_its_rule(name: str, variant: str) -> None:
    """The run fails on a case of the planted rule that the clean engine passes, and the
    diagnosis names that rule first."""
    bug = BUGS[name]
    run = whole_hand_run(name, variant)
    control = whole_hand_run("clean", variant)
    assert run.outcomes, f"no outcomes recorded:\n{run.tail()}"
    assert run.returncode == 1, f"exit {run.returncode}, expected 1 (tests failed):\n{run.tail()}"
    wrong = run.items("failed") & control.items("passed")
    assert bug.caught_by in run.rules_of(wrong), (
        f"{name} misreads {bug.caught_by}, but no whole-hand case of that rule failed in "
        f"{variant}; failing rules: {sorted(run.rules_of(wrong))}"
    )
    suspects = [entry["rule"] for entry in run.diagnosis]
    if suspects[:1] != [bug.caught_by] and (name, variant) in DIAGNOSIS_GAPS:
        pytest.xfail(f"{DIAGNOSIS_GAPS[name, variant]} (suspects {suspects[:3]})")
    assert suspects[:1] == [bug.caught_by], (
        f"{name} misreads {bug.caught_by}, but the diagnosis suspects {suspects[:5]} first"
    )
