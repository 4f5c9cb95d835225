"""House engines exposing whole hands only, declaring ``pass_cards=3``,
``first_bidder=left-of-dealer`` and ``target=1000`` alone and together, each with a planted
trick-play and scoring bug: every bug is caught and diagnosed first at its rule and the clean
engine fails nothing; a strict engine refusing exactly ERRATA-SCORE-HAND-INPUTS gets no error.
Each run asks only the variant's whole-hand (or score) tables (tests/suite_runs.py batches)."""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path

import pytest

from tests import mutants
from tests.house_engines import HOUSES, House
from tests.suite_runs import SuiteRun, python_engine, start_suite
from tests.test_house_rules import _counts

WHOLE_HAND_HOUSES = {name: h for name, h in HOUSES.items() if h.whole_hands}
STRICT_HOUSES = ("online-1000", "sd-left-opens", "dd-no-bid-to-win")
"""Houses whose options put `score_hand` cases near figures the errata let an engine refuse."""


def whole_hand_tables(variant: str) -> list[str]:
    """The tables of a variant's whole-hand cases (what a whole-hands-only engine is asked)."""
    names = [f"{area}-{variant}.yaml" for area in ("hands", "games", "reach", "seats")]
    return [f"features/tables/{n}" for n in [*names, "hands-house-rules.yaml"]]


def score_tables(variant: str) -> list[str]:
    """The tables of a variant's `score_hand` cases."""
    areas = ("scoring", "game-end", "past-target")
    return [
        f"features/tables/{a}-{variant}.yaml"
        for a in areas
        if Path(f"features/tables/{a}-{variant}.yaml").exists()
    ]


def _whole_hand_run(house: House, bug: str | None = None) -> Future[SuiteRun]:
    args = [house.name] if bug is None else [house.name, bug]
    engine = python_engine("tests.house_engines", *args)
    return start_suite(engine, [house.variant], paths=whole_hand_tables(house.variant))


def _strict_run(house: House) -> Future[SuiteRun]:
    engine = python_engine("tests.house_engines", house.name, "--strict")
    return start_suite(engine, [house.variant], paths=score_tables(house.variant))


def prefetch() -> None:
    """Start this module's child runs at collection (tests/conftest.py)."""
    for house in WHOLE_HAND_HOUSES.values():
        for bug in (None, house.bug, *house.more_bugs):
            _whole_hand_run(house, bug)
    for name in STRICT_HOUSES:
        _strict_run(HOUSES[name])


PLANTED = [
    pytest.param(house, bug, id=f"{house.name}-{bug}")
    for house in WHOLE_HAND_HOUSES.values()
    for bug in (house.bug, *house.more_bugs)
]


@pytest.mark.slow
@pytest.mark.parametrize("house", WHOLE_HAND_HOUSES.values(), ids=list(WHOLE_HAND_HOUSES))
def test_a_whole_hands_only_house_engine_fails_nothing_and_says_its_reach(house: House) -> None:
    clean = _whole_hand_run(house).result()
    total, judged, bad = _counts(clean)
    assert clean.returncode == 0 and bad == 0, clean.tail()
    assert judged >= 0.9 * total, f"{judged} of {total} judged\n{clean.tail()}"
    # The summary says how many whole hands reach their end; the report marks those that do not.
    assert "whole-hand cases play to where their hand-worked versions end" in clean.output
    short = [c for c in clean.outcomes.values() if c.get("reached") is False]
    assert all(c.get("expectation") == "derived" for c in short), short


@pytest.mark.slow
@pytest.mark.parametrize(("house", "bug"), PLANTED)
def test_a_bug_planted_in_a_whole_hands_only_house_engine_is_caught_at_its_rule(
    house: House, bug: str
) -> None:
    buggy = _whole_hand_run(house, bug).result()
    assert buggy.returncode == 1, buggy.tail()
    rule = mutants.get(bug).caught_by
    failed = {c["rule"] for c in buggy.outcomes.values() if c["outcome"] == "failed"}
    named = {s["rule"] for s in buggy.diagnosis}
    assert rule in failed | named, buggy.diagnosis[:3]
    assert buggy.diagnosis and buggy.diagnosis[0]["rule"] == rule, buggy.diagnosis[:3]


@pytest.mark.slow
@pytest.mark.parametrize("name", STRICT_HOUSES)
def test_an_engine_refusing_exactly_the_errata_list_gets_no_error(name: str) -> None:
    run = _strict_run(HOUSES[name]).result()
    assert run.returncode == 0, run.tail()
    assert not run.items("errored") and not run.items("failed"), run.tail()
    assert run.items("passed"), run.tail()
