"""A run's verdicts counted without pytest (pinochle_judge.tally): per rule, in total, apart for
derived expectations and undeclared cases, and each case's report entry."""

from __future__ import annotations

from pinochle_judge.diagnosis import Charge, Outcome
from pinochle_judge.house_rules import DERIVED
from pinochle_judge.reach import ReachEntry
from pinochle_judge.tally import UNSUPPORTED_SKIP, Tally
from pinochle_judge.wording import UNDECLARED


def _tally() -> Tally:
    """Six items: a pass, a failure with a charge, an error, an unsupported skip, an undeclared
    skip (another variant) and a derived pass."""
    tally = Tally()
    charge = Charge(("MELD-RUN",), "meld", "expected 150, got 190", kind="answer")
    verdicts = [
        Outcome("t.yaml::pass", "passed", "MELD-RUN"),
        Outcome("t.yaml::fail", "failed", "MELD-RUN", ("MELD-MARRIAGE",), charge),
        Outcome("t.yaml::err", "errored", "TRICK-WINNER"),
        Outcome("t.yaml::unsup", "skipped", "TRICK-WINNER"),
        Outcome("t.yaml::undeclared", "skipped", "AUCTION-STEP"),
        Outcome("t.yaml::derived", "passed", "TRICK-WINNER"),
    ]
    tally.outcomes = {o.node: o for o in verdicts}
    tally.skips = {
        "t.yaml::unsup": f"{UNSUPPORTED_SKIP}method",
        "t.yaml::undeclared": f"{UNDECLARED[0]}auction",
    }
    tally.derived = {"t.yaml::derived"}
    tally.messages = {"t.yaml::fail": "meld: expected 150, got 190", "t.yaml::pass": "unused"}
    tally.details = {"t.yaml::fail": {"variant": "double-deck", "judged": ("meld",)}}
    tally.reach_entries = {
        "t.yaml::derived": ReachEntry("TRICK-WINNER", "double-deck", "play_hand", False),
        "t.yaml::pass": ReachEntry("MELD-RUN", "double-deck", "meld", True),
    }
    return tally


def test_counts_per_rule_leave_out_the_undeclared_and_totals_the_derived() -> None:
    tally = _tally()
    zero = {"passed": 0, "failed": 0, "errored": 0, "skipped": 0}
    assert tally.per_rule() == {
        "MELD-RUN": {**zero, "passed": 1, "failed": 1},
        "TRICK-WINNER": {**zero, "errored": 1, "skipped": 1, "passed": 1},
    }
    assert tally.totals() == {**zero, "passed": 1, "failed": 1, "errored": 1, "skipped": 1}
    assert tally.derived_totals() == {**zero, "passed": 1}
    assert tally.unsupported_by_rule() == {"TRICK-WINNER": 1}
    count = tally.count()
    assert (count.judged, count.not_counted) == (4, 1)
    assert not tally.nothing_judged()


def test_a_case_entry_carries_what_its_verdict_says() -> None:
    cases = _tally().cases()
    assert list(cases) == sorted(cases)
    fail = cases["t.yaml::fail"]
    assert fail["rules"] == ["MELD-RUN", "MELD-MARRIAGE"]
    assert fail["variant"] == "double-deck" and "judged" not in fail
    assert fail["message"] == "meld: expected 150, got 190"
    assert fail["charge"]["rule"] == "MELD-RUN"
    assert "message" not in cases["t.yaml::pass"]  # a passing case's text is not kept
    assert cases["t.yaml::undeclared"]["undeclared"] is True
    assert cases["t.yaml::derived"]["expectation"] == DERIVED
    assert cases["t.yaml::derived"]["reached"] is False
    assert "reached" not in cases["t.yaml::pass"]


def test_a_run_that_judged_nothing_is_told_apart() -> None:
    tally = Tally()
    assert not tally.nothing_judged()  # no case at all: nothing was asked
    tally.outcomes = {"t.yaml::a": Outcome("t.yaml::a", "skipped", "MELD-RUN")}
    tally.skips = {"t.yaml::a": f"{UNSUPPORTED_SKIP}method"}
    assert tally.nothing_judged()


def test_the_diagnosis_names_the_charged_rule_and_is_kept() -> None:
    tally = _tally()
    del tally.outcomes["t.yaml::err"]  # the failure alone: its charge names MELD-RUN
    suspects = tally.diagnosis()
    assert [s["rule"] for s in suspects][:1] == ["MELD-RUN"]
    tally.outcomes.clear()
    assert tally.diagnosis() is suspects  # worked out once, when the run is over
