"""``play_tricks`` for an engine with trick play but no counting (capability ``points: none``):
its tricks are judged, the cases about points skipped, and a trick never cleared
(each later trick judged with every card before it, a public engine's bug) fails."""

from __future__ import annotations

import sys

import pytest

from pinochle_judge.capabilities import POINTS_SKIP, Capabilities, Skip, expectation
from tests.suite_runs import run_suite, start_suite

TABLES = [f"features/tables/tricks-{v}.yaml" for v in ("double-deck", "single-deck", "online")]


def _engine(name: str, declared: bool = True) -> str:
    flag = "" if declared else " --undeclared"
    return f"{sys.executable} -m tests.capability_engines {name}{flag}"


def test_points_none_leaves_the_points_out_of_the_expectation() -> None:
    expect = {"tricks": [{"leader": 0, "cards": ["As"], "winner": 0, "points": 1}]}
    expect |= {"card_points": [1, 0], "tricks_won": [1, 0]}
    none = Capabilities(points="none")
    assert expectation("play_tricks", "PLAY-LEAD", expect, none) == {
        "tricks": [{"leader": 0, "cards": ["As"], "winner": 0}],
        "tricks_won": [1, 0],
    }
    assert expectation("play_tricks", "PLAY-LEAD", expect, Capabilities()) is expect
    assert expectation("meld", "MELD-RUN", expect, none) is expect
    with pytest.raises(Skip, match="no card points"):
        expectation("play_tricks", "POINTS-LAST-TRICK", expect, none)


def prefetch() -> None:
    """Start this module's child runs at collection (tests/conftest.py)."""
    for name, declared in (("no-points", True), ("no-points", False), (NEVER_CLEARED, True)):
        start_suite(_engine(name, declared), paths=TABLES)


NEVER_CLEARED = "no-points-trick-never-cleared"


@pytest.mark.slow
def test_an_engine_counting_no_points_is_judged_on_its_tricks() -> None:
    run = run_suite(_engine("no-points"), paths=TABLES)
    assert run.returncode == 0, run.tail()
    skipped = run.items("skipped")
    assert skipped and all(run.outcomes[n]["rule"].startswith("POINTS-") for n in skipped)
    assert POINTS_SKIP in run.output
    assert len(run.items("passed")) > len(skipped)
    # Without the declaration the missing points are a wrong answer, not a model.
    undeclared = run_suite(_engine("no-points", declared=False), paths=TABLES)
    assert undeclared.returncode == 1 and undeclared.items("failed"), undeclared.tail()


@pytest.mark.slow
def test_a_trick_never_cleared_fails() -> None:
    run = run_suite(_engine(NEVER_CLEARED), paths=TABLES)
    assert run.returncode == 1 and run.items("failed"), run.tail()
    assert "tricks[1].winner" in run.output
