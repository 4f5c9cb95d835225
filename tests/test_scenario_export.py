"""The export carries the Gherkin scenarios: every question a scenario asks, with the answer its
Then steps' text expects (never the engine's), validated by the schema and replayable as data."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from pinochle_adapters.client import load_server, open_in_process
from pinochle_judge.cases import load_cases
from pinochle_tools import export
from pinochle_tools.scenario_capture import CaptureError, capture_scenarios, scenario_tests
from specdata import FEATURES_DIR

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow  # the export and each capture run the scenarios in a child pytest

WHOLE_DECK = (
    "features/test_card_points.py::test_the_whole_double_deck_with_the_last_trick_is_worth_50"
)


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return export.export_document()


def scenario_items() -> list[str]:
    """The scenario items pytest collects (node IDs), counted independently of the capture."""
    run = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"),
            *("-c", str(FEATURES_DIR / "suite.ini"), "--rootdir", str(FEATURES_DIR.parent)),
            *map(str, scenario_tests()),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return [line for line in run.stdout.splitlines() if "::" in line]


def test_the_export_counts_every_table_case_and_every_scenario_question(
    document: dict[str, Any],
) -> None:
    records = document["cases"]
    tables = [r for r in records if r["kind"] == "table"]
    scenarios = [r for r in records if r["kind"] == "scenario"]
    assert len(tables) == len(load_cases())
    items = scenario_items()
    assert len(items) > 150
    # Every scenario item asks the engine something, so each is exported (at least once).
    assert sorted({r["node"] for r in scenarios}) == sorted(items)
    assert len(records) == len(tables) + sum(
        max(r["question"] for r in scenarios if r["node"] == node) for node in items
    )
    assert len({r["id"] for r in records}) == len(records)
    for record in scenarios:
        assert record["params"]["variant"] == record["variant"]
        assert record["params"]["options"] == record["options"]
        assert record["rules"] == [record["rule"], *record["uses"]]


def test_the_export_follows_its_schema(document: dict[str, Any]) -> None:
    assert export.validate(document) == []
    broken = {**document, "cases": [{**document["cases"][-1], "kind": "gherkin"}]}
    assert export.validate(broken)
    no_node = {k: v for k, v in document["cases"][-1].items() if k != "node"}
    assert export.validate({**document, "cases": [no_node]})


def test_every_record_replays_through_the_client_against_the_reference(
    document: dict[str, Any],
) -> None:
    """What a runner in another language does: send params, judge by expect and checks."""
    engine = open_in_process(load_server("pinochle_adapters.reference:server"))
    try:
        failing = {
            r["id"]: export.check_record(r, engine.call(r["method"], r["params"]))
            for r in document["cases"]
        }
    finally:
        engine.close()
    assert {k: v for k, v in failing.items() if v} == {}


def test_scenario_records_carry_rule_uses_variant_and_the_step_texts_answer(
    document: dict[str, Any],
) -> None:
    by_id = {r["id"]: r for r in document["cases"]}
    whole = by_id[WHOLE_DECK]
    assert whole["file"] == "features/card-points.feature"
    assert (whole["rule"], whole["uses"], whole["variant"]) == ("POINTS-TOTAL", [], "double-deck")
    # 16 of each counter (A, 10, K: one point each) is 48, and 2 for the last trick.
    assert (whole["method"], whole["expect"]) == ("card_points", {"points": 50})
    assert whole["params"]["last_trick"] is True and len(whole["params"]["cards"]) == 80
    deal = by_id["features/test_deck_and_deal.py::test_the_deal_wraps_round_to_the_dealer"]
    assert deal["expect"] == {"next_dealer": 0}
    hands = {c["at"]: c for c in deal["checks"]}
    assert hands["hands[0]"]["kind"] == "multiset"
    assert hands["hands[0]"]["value"][:5] == ["As", "As", "As", "As", "Ts"]
    kinds = {c["kind"] for r in document["cases"] for c in r["checks"]}
    assert {"length", "multiset"} <= kinds


@pytest.mark.parametrize("mutant", ["no_last_trick", "dealer_may_pass"])
def test_a_wrong_engine_changes_nothing_the_export_says(
    document: dict[str, Any], mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Captured against a planted-bug engine, every scenario exports the same question and the
    same expectation: the step text's, not the engine's answer (later Then steps included)."""
    monkeypatch.chdir(ROOT)
    captured = capture_scenarios(
        f"{sys.executable} -m tests.mutants {mutant}", tolerate_failures=True
    )
    assert captured.disagreements, "the mutant should disagree with some scenario"
    # A scenario the mutant cannot answer at all (an engine error) is left out, never halved.
    reference = [
        r for r in document["cases"] if r["kind"] == "scenario" and r["node"] not in captured.failed
    ]
    assert len(reference) > 150
    assert captured.records == reference
    if mutant == "no_last_trick":
        assert WHOLE_DECK in captured.disagreements
        whole = next(r for r in captured.records if r["id"] == WHOLE_DECK)
        assert whole["expect"] == {"points": 50}


MULTI = """\
Feature: Two questions
  @double-deck @POINTS-COUNTERS
  Scenario: Counted twice
    When the cards "Ah Th" are counted
    Then they are worth 2 points
    When the cards "Ah Th" of the last trick are counted
    Then they are worth 4 points

  @double-deck @MELD-MARRIAGE
  Scenario: Meld named in part
    Given spades are trump
    And seat 0 holds "Kh Qh Ks Qs Js Ah"
    When the meld is counted
    Then the meld includes 1 marriage in hearts worth 2
"""

SILENT_THEN = """\
Feature: A Then step the export cannot carry
  @double-deck @POINTS-COUNTERS
  Scenario: Unknown check
    When the cards "Ah" are counted
    Then nothing is recorded
"""


def _feature_dir(tmp_path: Path, feature: str, extra_step: str = "") -> Path:
    (tmp_path / "two.feature").write_text(feature, encoding="utf-8")
    (tmp_path / "test_two.py").write_text(
        'from pytest_bdd import scenarios\n\nscenarios("two.feature")\n', encoding="utf-8"
    )
    (tmp_path / "conftest.py").write_text(
        textwrap.dedent(
            """\
            from pytest_bdd import then
            from features.steps import given, then as then_steps, when

            def pytest_configure(config):
                for steps in (given, when, then_steps):
                    config.pluginmanager.register(steps, steps.__name__)
            """
        )
        + extra_step,
        encoding="utf-8",
    )
    return tmp_path / "test_two.py"


def test_a_scenario_asking_two_questions_exports_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    captured = capture_scenarios(tests=[_feature_dir(tmp_path, MULTI)])
    counted = captured.records[:2]
    # Two counters are 1 point each in double deck; the last trick adds 2 (POINTS-LAST-TRICK).
    assert [(r["question"], r["params"]["last_trick"], r["expect"]) for r in counted] == [
        (1, False, {"points": 2}),
        (2, True, {"points": 4}),
    ]
    assert [r["id"].rsplit("#", 1)[1] for r in counted] == ["1", "2"]
    assert len({r["node"] for r in counted}) == 1


def test_a_meld_named_in_part_is_a_check_not_the_complete_meld(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without "the meld has nothing else" other melds may be reported (here the royal marriage
    in spades is left unnamed), so the named ones are a melds-include check."""
    monkeypatch.chdir(ROOT)
    meld = capture_scenarios(tests=[_feature_dir(tmp_path, MULTI)]).records[2]
    named = [{"id": "marriage", "count": 1, "points": 2, "suit": "h"}]
    assert meld["expect"] == {}
    assert meld["checks"] == [{"at": "melds", "kind": "melds-include", "value": named}]
    check = meld["checks"][0]
    extra = {"id": "dix", "count": 1, "points": 1, "suit": "s"}
    assert export.run_check("meld", check, {"total": 3, "melds": [*named, extra]}) == []
    assert export.run_check("meld", check, {"total": 1, "melds": [extra]})


def test_a_then_step_recording_nothing_is_an_error_not_a_silent_gap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    step = (
        '\n\n@then("nothing is recorded")\ndef nothing(situation):\n    situation.check(True, "")\n'
    )
    with pytest.raises(CaptureError, match="nothing is recorded"):
        capture_scenarios(tests=[_feature_dir(tmp_path, SILENT_THEN, step)])
