"""The step library (features/steps): every step of the suite reads as exactly one phrase."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pytest_bdd.feature import get_feature
from pytest_bdd.parser import Scenario

from features.steps import given, then, when
from features.steps.phrasebook import Phrasebook
from pinochle_judge import wording

FEATURES = Path(__file__).resolve().parent.parent / "features"
BOOKS = {"given": given.given, "when": when.when, "then": then.then}


def _scenarios() -> list[Scenario]:
    found = []
    for path in sorted(FEATURES.glob("*.feature")):
        for template in get_feature(str(FEATURES), path.name).scenarios.values():
            contexts = [c for ex in template.examples for c in ex.as_contexts()] or [{}]
            found += [template.render(context) for context in contexts]
    return found


def test_every_step_of_the_suite_is_one_phrase_of_its_keyword() -> None:
    scenarios = _scenarios()
    assert scenarios
    faults = []
    for scenario in scenarios:
        for step in scenario.steps:
            matching = BOOKS[step.type].matching(step.name)
            if len(matching) != 1:
                names = [f.__name__ for f in matching] or "no phrase"
                faults.append(f"{scenario.name}: {step.type} {step.name!r} reads as {names}")
    assert faults == []


def test_a_book_reads_a_step_as_its_phrase_with_the_arguments() -> None:
    book = then.then
    assert book.is_matching("the meld total is 88")
    assert not book.is_matching("the meld total is many")
    parsed = book.parse_arguments("the meld total is 88")
    assert parsed == {"phrase": then.meld_total, "args": {"total": "88"}, "extra": None}
    plain = book.parse_arguments("the meld has nothing else")
    assert plain is not None and plain["phrase"] is then.meld_nothing_else
    table = given.given.parse_arguments("the seats hold")
    assert table == {"phrase": given.seats_hold, "args": {}, "extra": "datatable"}


def test_the_seats_table_holds_a_hand_per_row_under_its_header() -> None:
    held: dict[int, list[str]] = {}

    class Seats:
        def hold(self, seat: int, cards: list[str]) -> None:
            held[seat] = cards

    given.seats_hold(Seats(), datatable=[["seat", "cards"], ["0", "AsTs"], [" 3 ", "Kh Qh"]])
    assert held == {0: ["As", "Ts"], 3: ["Kh", "Qh"]}
    for headless in ([["0", "AsTs"], ["1", "Kh"]], [["seat", "cards"]]):
        with pytest.raises(AssertionError, match=re.escape(wording.SEATS_TABLE)):
            given.seats_hold(Seats(), datatable=headless)


def test_a_phrase_declared_twice_is_seen_as_ambiguous() -> None:
    def here(situation: object) -> None:
        """A phrase for this test."""

    book = Phrasebook("then")  # its step definition lands in this function's locals: unseen
    book("a step")(here)
    book("a step")(here)
    assert book.matching("a step") == [here, here]
    assert book.matching("another step") == []
