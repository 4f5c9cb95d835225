"""Whole hands reach every rule: an engine declaring only ``play_hand`` and
``play_game`` is judged on every trick obligation, card points, meld minimum, set, throw-in and
game end, and each bug planted in it is caught with its rule named first by the diagnosis.

The engines are tests/whole_hand_engines, served as subprocesses; the suite runs once per engine
and variant (each run is cached for the session).
"""

from __future__ import annotations

from concurrent.futures import Future

import pytest

from tests.suite_runs import SuiteRun, assert_caught_first, python_engine, start_suite
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

WHOLE_HAND_FEATURES = ("whole_hands", "throw_in_and_set", "trump_and_passing")
"""The Gherkin areas whose scenarios ask play_hand or play_game."""


def whole_hand_paths(variant: str) -> list[str]:
    """Every table and feature that asks play_hand or play_game in ``variant``: the rest of the
    suite is skipped against a whole-hand-only engine anyway (undeclared methods), so the run
    is narrowed to what it can judge."""
    tables = [f"features/tables/{t}-{variant}.yaml" for t in ("hands", "reach", "games", "seats")]
    return [*tables, *(f"features/test_{f}.py" for f in WHOLE_HAND_FEATURES)]


def _start(engine: str, variant: str) -> Future[SuiteRun]:
    command = python_engine("tests.whole_hand_engines", engine)
    return start_suite(command, [variant], paths=whole_hand_paths(variant))


def whole_hand_run(engine: str, variant: str) -> SuiteRun:
    """The narrowed suite against a whole-hand-only engine, one variant (once per session)."""
    return _start(engine, variant).result()


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


ALL_VARIANTS_FOR = ("partner-no-crawl", "trumped-trick-crawl")
"""Bugs run in every variant they show in; the others in their first (the clean runs still prove
every rule is judged in every variant)."""
BUG_RUNS = [
    (name, variant)
    for name, bug in BUGS.items()
    for variant in (bug.variants if name in ALL_VARIANTS_FOR else bug.variants[:1])
]


def prefetch() -> None:
    """Start every run this module waits for (tests/conftest.py)."""
    for variant in VARIANTS:
        _start("clean", variant)
    for name, variant in BUG_RUNS:
        _start(name, variant)


@pytest.mark.parametrize(
    ("name", "variant"), BUG_RUNS, ids=[f"{name}-{variant}" for name, variant in BUG_RUNS]
)
def test_planted_bug_is_caught_through_whole_hands_at_its_rule(name: str, variant: str) -> None:
    """The run fails on a case of the planted rule that the clean engine passes, and the
    diagnosis names that rule first."""
    bug = BUGS[name]
    run = whole_hand_run(name, variant)
    control = whole_hand_run("clean", variant)
    assert_caught_first(run, control, f"{name} ({variant})", bug.caught_by)
