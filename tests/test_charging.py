"""Each failure is charged to the rule where the engine's answer first differs, not to the rule its
case happens to test: wrong engines (the reference engine with one rule misread, in process) are
asked real table cases, and their answers charged (pinochle_judge/diagnosis.py).

Each place a charge is decided has its test: an auction's state fields, an auction check without
``legal``, ``score_hand``, meld as totals only, and the precedence of auction rules; and the
implicit forced bid read back field by field (pinochle_judge/capabilities.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from pinochle_adapters.reference import ReferenceEngine
from pinochle_judge.capabilities import Capabilities, translate
from pinochle_judge.cases import Case, load_cases
from pinochle_judge.compare import Mismatch, compare
from pinochle_judge.diagnosis import Charge, Outcome, charge_case, diagnose
from tests import mutants
from tests.capability_engines import ImplicitForcedBid, MeldTotals


@cache
def cases() -> dict[str, Case]:
    return {c.id: c for c in load_cases()}


def judged(
    engine: ReferenceEngine,
    case_id: str,
    capabilities: Capabilities | None = None,
    expect: dict[str, Any] | None = None,
) -> tuple[list[Mismatch], Charge]:
    """Ask ``engine`` a table case as the suite does (in its declared model) and charge the
    failure as the reporter does; ``expect`` replaces the case's expectation."""
    case = cases()[case_id]
    want = case.expect if expect is None else expect
    translation = translate(case.method, case.request, capabilities or Capabilities())
    raw = getattr(engine, case.method)(translation.params)
    answer = translation.answer(json.loads(json.dumps(raw)))
    mismatches = compare(case.method, want, answer)
    assert mismatches, f"{case_id}: the engine answers as the case expects"
    detail = str(mismatches[0])
    charge = charge_case(case.method, case.request, want, answer, case.rule, case.uses, detail)
    return mismatches, charge


@pytest.fixture
def mutant(request: pytest.FixtureRequest) -> Iterator[ReferenceEngine]:
    """The reference engine misreading one rule (``tests/mutants``), in this process."""
    wrong = mutants.get(request.param)
    with wrong.installed():
        yield wrong.engine()


# --- a. an auction's state: the field that differs, charged to the rule deciding it ----------


@pytest.mark.parametrize("mutant", ["sd-dealer-free-opening"], indirect=True)
def test_right_next_seat_wrong_can_pass_is_the_dealers_opening(mutant: ReferenceEngine) -> None:
    # The single-deck dealer calls first (the case tests AUCTION-FIRST-BIDDER and the engine
    # agrees), but the engine lets the dealer pass: the opening duty is what is wrong.
    mismatches, charge = judged(mutant, "sd-auc-first-bidder-dealer-0")
    assert [m.where for m in mismatches] == ["can_pass"]
    assert charge.rules == ("AUCTION-DEALER-OPENS",) and charge.at == "field can_pass"


class LeastBidIsTheHighBid(ReferenceEngine):
    """Answers ``min_bid`` as the high bid itself, not the least bid above it."""

    def auction(self, params: dict[str, Any]) -> Any:
        answer = dict(super().auction(params))
        bids = [c["bid"] for c in params["calls"] if "bid" in c]
        if bids and answer["min_bid"] is not None:
            answer["min_bid"] = max(bids)
        return answer


def test_right_next_seat_wrong_min_bid_is_the_rule_of_the_least_bid() -> None:
    mismatches, charge = judged(LeastBidIsTheHighBid(), "dd-auc-turn-full-round-clockwise")
    assert [m.where for m in mismatches] == ["min_bid"]
    assert charge.rules == ("AUCTION-HIGHER",), "not the case's AUCTION-TURN"


@pytest.mark.parametrize("mutant", ["dd-bid-61"], indirect=True)
def test_a_least_bid_off_the_steps_is_the_step_rule(mutant: ReferenceEngine) -> None:
    _, charge = judged(mutant, "dd-auc-step-by-ones-50-to-60")
    assert charge.rules == ("AUCTION-STEP",) and charge.at == "field min_bid"


# --- b. an auction checked without ``legal`` still places a refused call ---------------------


@pytest.mark.parametrize("mutant", ["sd-first-bidder-left"], indirect=True)
def test_a_check_without_legal_charges_the_call_the_engine_refused(
    mutant: ReferenceEngine,
) -> None:
    # A scenario's Then steps may check the state only ("seat 1 calls next"): the calls are all
    # legal by the rules, so the engine refusing call 0 is where it leaves them.
    case = cases()["sd-auc-turn-full-round"]
    state = {k: v for k, v in case.expect.items() if k not in ("legal", "violation")}
    _, charge = judged(mutant, case.id, expect=state)
    assert charge.rules[0] == "AUCTION-FIRST-BIDDER" and charge.at.startswith("call 0")


# --- c. score_hand: the first figure that differs, in the order a hand is scored -------------


@pytest.mark.parametrize("mutant", ["sd-opponents-without-trick"], indirect=True)
def test_a_wrong_delta_in_a_game_end_case_is_a_scoring_fault(mutant: ReferenceEngine) -> None:
    mismatches, charge = judged(mutant, "sd-game-opponents-no-trick-cannot-reach")
    assert "delta" in [m.where.split("[")[0] for m in mismatches]
    assert charge.rules[0] == "SCORE-OPPONENTS-TRICK", "not the case's GAME-TARGET"
    assert charge.at == "field delta (team 1)"


@pytest.mark.parametrize("mutant", ["throw-in-free"], indirect=True)
def test_a_thrown_in_hand_scored_wrong_is_the_throw_in(mutant: ReferenceEngine) -> None:
    _, charge = judged(mutant, "dd-game-throw-in-opponents-reach")
    assert charge.rules[0] == "SCORE-THROW-IN" and charge.at == "field delta (team 0)"


@pytest.mark.parametrize("mutant", ["bid-to-win-ignored"], indirect=True)
def test_a_right_score_with_the_wrong_winner_is_the_game_rule(mutant: ReferenceEngine) -> None:
    _, charge = judged(mutant, "dd-game-bid-to-win-opponents-reach-no-winner")
    assert charge.rules[0] == "GAME-BID-TO-WIN" and charge.at == "field game winner"


# --- d. meld as totals only: the case's rule, and nothing convicted by the total alone -------


class TotalsWithoutDix(MeldTotals):
    """Meld as totals only, and the dix forgotten."""

    def meld(self, params: dict[str, Any]) -> Any:
        with mutants.get("dix-ignored").installed():
            return super().meld(params)


def test_a_wrong_total_is_charged_to_the_cases_rule_not_its_first_item() -> None:
    # The case tests the dix; its first expected item is a royal marriage.
    _, charge = judged(TotalsWithoutDix(), "sd-meld-dix-with-royal", Capabilities(meld="totals"))
    assert charge.rules[0] == "MELD-DIX" and charge.at == "meld total"


def test_a_total_alone_convicts_no_item_rule_whose_own_cases_pass() -> None:
    # A run case's total is off (the engine's run is wrong); a case testing the arounds, whose
    # total holds a run too, fails with it. The arounds' other cases pass: they are cleared, and
    # the run takes that failure.
    total = Charge(("MELD-AROUNDS", "MELD-RUN"), "meld total", "", kind="meld total")
    outcomes = [
        Outcome("a1", "failed", "MELD-AROUNDS", (), total),
        *(Outcome(f"a{n}", "passed", "MELD-AROUNDS") for n in range(2, 9)),
        Outcome(
            "r1",
            "failed",
            "MELD-RUN",
            (),
            Charge(("MELD-RUN",), "meld total", "", kind="meld total"),
        ),
        Outcome("r2", "passed", "MELD-RUN"),
    ]
    found = diagnose(outcomes)
    assert [d["rule"] for d in found] == ["MELD-RUN"]
    assert found[0]["direct"] and len(found[0]["evidence"]) == 2


# --- e. precedence: the engine stopped earlier, so the expected rule was never reached -------


@pytest.mark.parametrize("mutant", ["sd-first-bidder-left"], indirect=True)
def test_a_refusal_under_an_earlier_rule_names_no_rule_the_engine_never_reached(
    mutant: ReferenceEngine,
) -> None:
    _, charge = judged(mutant, "sd-auc-dealer-opens-pass-refused")
    assert charge.rules == ("AUCTION-FIRST-BIDDER", "AUCTION-TURN")
    assert "AUCTION-DEALER-OPENS" not in charge.rules


# --- the implicit forced bid: the field the engine got wrong --------------------------------


class ImplicitForcedLow(ImplicitForcedBid):
    """Makes the forced bid implicitly, but holds the passed-out auction at 240 online."""

    def auction(self, params: dict[str, Any]) -> Any:
        answer = dict(super().auction(params))
        if answer.get("complete") and answer.get("contract") == 250:
            answer["contract"] = 240
        return answer


def test_an_implicit_forced_contract_off_the_minimum_shows_as_that_amount() -> None:
    mismatches, charge = judged(
        ImplicitForcedLow(), "ol-auc-forced-fourth-speaker", Capabilities(forced_bid="implicit")
    )
    assert [str(m) for m in mismatches] == ["min_bid: expected 250, got 240"]
    assert charge.rules == ("AUCTION-DEALER-FORCED",)
    # The forced bid made: the implicit answer is judged as given, on its contract.
    mismatches, charge = judged(
        ImplicitForcedLow(),
        "ol-auc-forced-fourth-speaker-bids-250",
        Capabilities(forced_bid="implicit"),
    )
    assert [str(m) for m in mismatches] == ["contract: expected 250, got 240"]
    assert charge.rules == ("AUCTION-DEALER-FORCED",)


# --- play_game: the first hand that differs, placed as a hand is --------------------------


@pytest.mark.parametrize("mutant", ["throw-in-free"], indirect=True)
def test_a_game_is_charged_at_its_first_diverging_hand(mutant: ReferenceEngine) -> None:
    # The case tests the rotation of the deal; its second hand is thrown in, scored as free.
    _, charge = judged(mutant, "dd-game-rotation-three-hands")
    assert charge.rules[0] == "SCORE-THROW-IN" and charge.at == "hand 2 delta"
