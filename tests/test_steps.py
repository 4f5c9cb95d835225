"""The step library (features/steps): every step of the suite reads as exactly one phrase, and the
books run the suite's scenarios as pytest-bdd's own runner would."""

from __future__ import annotations

import json
import re
from concurrent.futures import Future
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import pytest_bdd
from pytest_bdd.feature import get_feature
from pytest_bdd.parser import Scenario

from features.steps import given, then, when
from features.steps.phrasebook import Phrasebook, Speaker, template_of
from pinochle_judge import wording
from tests.suite_runs import OUT, SuiteRun, python_engine, start_suite

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


def _made_by_pytest_bdd(feature: Path, name: str) -> Any:
    def test_it() -> None:
        """The test function pytest-bdd wraps."""

    return pytest_bdd.scenario(str(feature), name)(test_it)


def test_the_scenario_behind_a_test_function_is_the_one_pytest_bdd_made_it_from() -> None:
    made = _made_by_pytest_bdd(FEATURES / "auction.feature", "The player left of the dealer opens")
    found = template_of(made)
    assert found is not None and found.name == "The player left of the dealer opens"
    assert template_of(_made_by_pytest_bdd) is None  # a plain function
    assert template_of(len) is None  # not weakly referenceable


def test_the_speaker_leaves_to_pytest_bdd_what_is_not_the_suites(tmp_path: Path) -> None:
    """A scenario outside the suite's folder, or with a step no book reads, runs as before."""
    (tmp_path / "own.feature").write_text(
        "Feature: own\n  Scenario: own\n    Given the dealer is seat 0\n    Then trace\n",
        encoding="utf-8",
    )
    (tmp_path / "ours.feature").write_text(
        "Feature: ours\n  Scenario: ours\n    Given the dealer is seat 0\n", encoding="utf-8"
    )
    speaker = Speaker(*BOOKS.values())

    def item(feature: str, home: Path) -> Any:
        made = _made_by_pytest_bdd(tmp_path / feature, feature.split(".")[0])
        # No request: the speaker must decline before it needs one.
        return SimpleNamespace(obj=made, path=home / "test_it.py", funcargs={})

    assert speaker.pytest_pyfunc_call(item("ours.feature", tmp_path)) is None  # not at home
    assert speaker.pytest_pyfunc_call(item("own.feature", FEATURES)) is None  # "trace": no phrase
    with pytest.raises(KeyError, match="request"):  # at home and all phrases: it takes it
        speaker.pytest_pyfunc_call(item("ours.feature", FEATURES))
    plain = SimpleNamespace(obj=_made_by_pytest_bdd, path=FEATURES / "test_it.py", funcargs={})
    assert speaker.pytest_pyfunc_call(plain) is None
    assert speaker.spoken == 1


SCENARIO_MODULES = tuple(
    str(path.relative_to(FEATURES.parent)) for path in sorted(FEATURES.glob("test_*.py"))
)
RUNNERS = {"speaker": (), "pytest-bdd": ("-p", "no:features.steps.phrasebook")}
"""The suite's runner, and pytest-bdd's own (the speaker's plugin blocked)."""
PARITY_ENGINE = python_engine("tests.mutants", "no_last_trick")
"""A wrong engine whose scenarios fail (a Then step's mismatch) and err (a When step's question
it answers against the rules): every hook of a step is called somewhere."""


def _runs() -> dict[str, Future[SuiteRun]]:
    return {
        runner: start_suite(
            PARITY_ENGINE,
            extra=("-p", "tests.bdd_hooks", "--bdd-hook-log", f"{OUT}/hooks-{runner}.json", *block),
            paths=SCENARIO_MODULES,
        )
        for runner, block in RUNNERS.items()
    }


def prefetch() -> None:
    _runs()


@pytest.mark.slow
def test_the_speaker_runs_each_scenario_as_pytest_bdds_runner_does() -> None:
    runs = {runner: future.result() for runner, future in _runs().items()}
    logs = {}
    for runner, run in runs.items():
        assert run.folder is not None, run.tail()
        log = run.folder / f"hooks-{runner}.json"
        logs[runner] = json.loads(log.read_text(encoding="utf-8"))
    ours, theirs = runs["speaker"], runs["pytest-bdd"]
    assert ours.items("failed") and ours.items("errored"), ours.tail()
    assert ours.outcomes == theirs.outcomes
    assert ours.diagnosis == theirs.diagnosis
    assert logs["speaker"]["spoken"] == len(ours.outcomes)  # it ran every scenario
    assert logs["pytest-bdd"]["spoken"] is None
    calls = logs["speaker"]["calls"]
    assert {call[0] for call in calls} >= {"before_step_call", "after_step", "step_error"}
    assert calls == logs["pytest-bdd"]["calls"]
