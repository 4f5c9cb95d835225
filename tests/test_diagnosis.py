"""The diagnosis: a whole hand is charged to the rule of its first divergence in play order, and a
rule whose own cases all pass is cleared (pinochle_judge/diagnosis.py)."""

from __future__ import annotations

from typing import Any

from pinochle_judge import wording
from pinochle_judge.diagnosis import Charge, Outcome, charge_case, diagnose, hand_divergence
from pinochle_judge.verdicts import Where

TRICKS = [
    {"leader": 0, "cards": ["Kc", "Jc", "Qc", "Tc"], "winner": 3},
    {"leader": 3, "cards": ["Ac", "Jc", "Ac", "Kc"], "winner": 3},
]
EXPECT: dict[str, Any] = {
    "legal": True,
    "first_illegal": None,
    "bidder": 0,
    "contract": 60,
    "outcome": "played",
    "meld": [22, 12, 18, 12],
    "tricks": TRICKS,
    "card_points": [10, 40],
    "delta": [-60, 40],
}
ACTIONS = ["bid 60", "pass", "pass", "pass", "trump h", "play-on", "play Kc"]


def answer(**changes: Any) -> dict[str, Any]:
    return {**EXPECT, **changes}


def test_an_equal_answer_has_no_divergence() -> None:
    assert hand_divergence(EXPECT, answer(), ACTIONS, "SCORE-MADE") is None


def test_a_refused_legal_action_is_charged_to_the_rule_the_engine_named() -> None:
    refused = {"index": 6, "rule": "PLAY-CRAWL", "message": "must beat"}
    charge = hand_divergence(EXPECT, answer(legal=False, first_illegal=refused), ACTIONS, "X-Y")
    assert charge is not None and charge.rules[0] == "PLAY-CRAWL"
    assert charge.at == "action 6 (play Kc)"


def test_a_wrongly_accepted_action_is_charged_to_the_rule_that_refuses_it() -> None:
    expect = {**EXPECT, "legal": False, "first_illegal": {"index": 1, "rule": "AUCTION-TURN"}}
    charge = hand_divergence(expect, answer(), ACTIONS, "AUCTION-TURN")
    assert charge is not None and charge.rules == ("AUCTION-TURN",)


def test_the_first_divergence_wins_over_later_ones() -> None:
    wrong_trick = [TRICKS[0], {**TRICKS[1], "winner": 1}]
    charge = hand_divergence(
        EXPECT, answer(tricks=wrong_trick, card_points=[30, 20]), ACTIONS, "SCORE-MADE"
    )
    assert charge is not None and charge.at == "trick 2 winner"


def test_a_trick_won_by_the_later_identical_card_charges_trick_identical() -> None:
    wrong = [TRICKS[0], {**TRICKS[1], "winner": 1}]  # Ac twice: the first played wins
    charge = hand_divergence(EXPECT, answer(tricks=wrong), ACTIONS, "SCORE-MADE")
    assert charge is not None and charge.rules[0] == "TRICK-IDENTICAL"
    plain = [{**TRICKS[0], "winner": 1}, TRICKS[1]]
    charge = hand_divergence(EXPECT, answer(tricks=plain), ACTIONS, "SCORE-MADE")
    assert charge is not None and charge.rules[0] == "TRICK-WINNER"


def test_meld_comes_before_a_meld_short_outcome() -> None:
    charge = hand_divergence(
        EXPECT,
        answer(outcome="meld_short", meld=[2, 12, 8, 12]),
        ACTIONS,
        "MELD-SHORT-BIDDER",
        ["MELD-AROUNDS"],
    )
    assert charge is not None and charge.at == "seat 0 meld"
    # A seat's total is decided by the meld rules, not by the short-bidder rule the case tests.
    assert charge.rules[0] == "MELD-AROUNDS" and "MELD-SHORT-BIDDER" not in charge.rules


def test_one_side_short_by_the_bonus_points_at_the_last_trick() -> None:
    charge = hand_divergence(EXPECT, answer(card_points=[10, 38]), ACTIONS, "SCORE-MADE")
    assert charge is not None and charge.rules[0] == "POINTS-LAST-TRICK"


def test_a_plain_case_is_charged_to_its_own_rule() -> None:
    charge = charge_case("meld", {}, {"total": 4}, {"total": 2}, "MELD-ROYAL-MARRIAGE")
    assert charge.rules == ("MELD-ROYAL-MARRIAGE",) and charge.at == "answer"


def outcome(node: str, status: str, rule: str, charged: str | None = None) -> Outcome:
    charge = Charge((charged,), "trick 1 winner", "", kind="point") if charged else None
    return Outcome(node, status, rule, (), charge)


def test_a_rule_whose_own_cases_pass_is_cleared_and_the_broken_one_comes_first() -> None:
    outcomes = [
        outcome("w1", "failed", "TRICK-IDENTICAL"),
        outcome("w2", "failed", "TRICK-IDENTICAL"),
        outcome("w3", "passed", "TRICK-IDENTICAL"),
        # A whole hand tested on SCORE-MADE whose trick 1 went wrong: charged to the trick rule.
        outcome("h1", "failed", "SCORE-MADE", charged="TRICK-IDENTICAL"),
        outcome("s1", "passed", "SCORE-MADE"),
        # A crawl case fails too, but most crawl cases pass.
        outcome("c1", "failed", "PLAY-CRAWL"),
        *(outcome(f"c{n}", "passed", "PLAY-CRAWL") for n in range(2, 12)),
        outcome("k1", "skipped", "MELD-RUN"),
    ]
    found = [d["rule"] for d in diagnose(outcomes)]
    assert found == ["TRICK-IDENTICAL", "PLAY-CRAWL"]


def test_a_null_expected_field_is_compared_without_error() -> None:
    expect = {**EXPECT, "tricks": None, "meld": None, "card_points": None}
    charge = hand_divergence(expect, answer(tricks=[], delta=[0, 0]), ACTIONS, "SCORE-THROW-IN")
    assert charge is not None and charge.at == "tricks"


# --- auction cases: the first call refused by one side only ---------------------------------

SD_OPENING = [{"seat": 0, "bid": 150}, {"seat": 1, "bid": 160}]


def test_an_auction_refused_before_the_tested_call_is_charged_to_that_call() -> None:
    # A left-of-dealer opener refuses the single-deck dealer's first call as out of turn: the
    # case tests AUCTION-HIGHER at call 1, but call 0 is where the engine left the rules.
    refused = {"rule": "AUCTION-TURN", "message": "not your turn", "index": 0}
    charge = charge_case(
        "auction",
        {"calls": SD_OPENING},
        {"legal": True, "next_seat": 2},
        {"legal": False, "violation": refused},
        "AUCTION-HIGHER",
    )
    assert charge.rules == ("AUCTION-FIRST-BIDDER", "AUCTION-TURN")
    assert charge.at == "call 0 (seat 0: bid 150)"


def test_a_refusal_under_an_earlier_rule_of_the_precedence_charges_that_rule() -> None:
    calls = [{"seat": 0, "pass": True}]
    expect = {"legal": False, "violation": {"rule": "AUCTION-DEALER-OPENS"}}
    turn = {"legal": False, "violation": {"rule": "AUCTION-TURN", "message": "", "index": 0}}
    charge = charge_case("auction", {"calls": calls}, expect, turn, "AUCTION-DEALER-OPENS")
    # The engine stopped before the dealer's opening duty: that rule was never reached.
    assert charge.rules == ("AUCTION-FIRST-BIDDER", "AUCTION-TURN")
    # A later rule of the precedence means the engine missed the expected one: that is charged.
    low = {"legal": False, "violation": {"rule": "AUCTION-OPENING-MIN", "message": "", "index": 0}}
    charge = charge_case("auction", {"calls": calls}, expect, low, "AUCTION-DEALER-OPENS")
    assert charge.rules == ("AUCTION-DEALER-OPENS",)


def test_a_wrongly_accepted_last_call_is_charged_to_the_expected_rule() -> None:
    calls = [{"seat": 1, "bid": 50}, {"seat": 2, "bid": 61}]
    expect = {"legal": False, "violation": {"rule": "AUCTION-STEP"}}
    charge = charge_case("auction", {"calls": calls}, expect, {"legal": True}, "AUCTION-STEP")
    assert charge.rules == ("AUCTION-STEP",) and charge.at == "call 1 (seat 2: bid 61)"


def test_a_dealer_opening_refused_after_the_first_call_points_at_the_first_bidder() -> None:
    # Unclaimed hand actions: the engine gave "bid 150" to the seat on the dealer's left, so the
    # dealer's pass at action 3 is refused as the dealer's opening.
    refused = {"index": 3, "rule": "AUCTION-DEALER-OPENS", "message": "must open 150"}
    actions = ["bid 150", "pass", "pass", "pass", "trump h"]
    charge = hand_divergence(
        {"legal": True, "first_illegal": None},
        {"legal": False, "first_illegal": refused},
        actions,
        "TRUMP-CALL",
    )
    assert charge is not None and charge.rules[0] == "AUCTION-FIRST-BIDDER"


def test_a_claimed_action_is_charged_by_its_kind() -> None:
    refused = {"index": 1, "rule": "", "message": "no rule named"}
    charge = hand_divergence(
        {"legal": True}, {"legal": False, "first_illegal": refused}, ["bid 50", "seat 2: pass"], "X"
    )
    assert charge is not None and charge.rules == ("AUCTION-PASS-FINAL",)


# --- meld cases: charged to the rule of the item that differs ------------------------------


def test_a_meld_item_reported_wrong_is_charged_to_that_items_rule() -> None:
    run = {"id": "run", "count": 1, "points": 15, "suit": "h"}
    royal = {"id": "royal_marriage", "count": 1, "points": 4, "suit": "h"}
    expect = {"total": 15, "melds": [run]}
    charge = charge_case("meld", {}, expect, {"total": 19, "melds": [run, royal]}, "MELD-RUN")
    assert charge.rules == ("MELD-ROYAL-MARRIAGE", "MELD-RUN") and charge.at == "meld items"
    # The case's own item wrong: its own rule stays first.
    charge = charge_case("meld", {}, expect, {"total": 0, "melds": []}, "MELD-RUN")
    assert charge.rules == ("MELD-RUN",)


def test_a_meld_item_charge_is_direct_evidence_for_the_items_rule() -> None:
    item = Charge(("MELD-ROYAL-MARRIAGE", "MELD-RUN"), "meld items", "", kind="meld items")
    outcomes = [
        Outcome("r1", "failed", "MELD-RUN", (), item),
        Outcome("r2", "failed", "MELD-RUN", (), item),
        Outcome("r3", "passed", "MELD-RUN"),
        Outcome("k1", "failed", "MELD-ROYAL-MARRIAGE"),
        Outcome("k2", "passed", "MELD-ROYAL-MARRIAGE"),
    ]
    found = diagnose(outcomes)
    assert found[0]["rule"] == "MELD-ROYAL-MARRIAGE" and found[0]["direct"]


def test_a_hand_that_plays_on_without_a_marriage_names_both_trump_rules() -> None:
    expect = {**EXPECT, "outcome": "no_marriage"}
    charge = hand_divergence(expect, answer(outcome=None), ACTIONS, "TRUMP-NO-MARRIAGE")
    assert charge is not None
    assert charge.rules == ("TRUMP-NO-MARRIAGE", "TRUMP-MARRIAGE")


# --- several deviations: each failure explained once ---------------------------------------


def test_a_cascade_explained_by_the_first_suspect_does_not_outrank_the_second_bug() -> None:
    # Bug 1: a plain marriage counted in trumps. Meld cases of other rules fail with it (their
    # charge names the marriage), and so do scenarios checking a total only (the engine
    # reports a marriage among its items). Bug 2: no last-trick bonus, 3 of its 5 cases.
    marriage = Charge(("MELD-MARRIAGE", "MELD-RUN"), "meld items", "", kind="meld items")
    total = Charge(("MELD-ROUNDHOUSE", "MELD-MARRIAGE"), "meld total", "", kind="meld total")
    outcomes = [
        *(Outcome(f"m{n}", "failed", "MELD-MARRIAGE") for n in range(3)),
        *(Outcome(f"mp{n}", "passed", "MELD-MARRIAGE") for n in range(10)),
        *(Outcome(f"r{n}", "failed", "MELD-RUN", (), marriage) for n in range(6)),
        *(Outcome(f"rp{n}", "passed", "MELD-RUN") for n in range(2)),
        *(Outcome(f"h{n}", "failed", "MELD-ROUNDHOUSE", (), total) for n in range(3)),
        *(Outcome(f"l{n}", "failed", "POINTS-LAST-TRICK") for n in range(3)),
        *(Outcome(f"lp{n}", "passed", "POINTS-LAST-TRICK") for n in range(2)),
    ]
    found = [d["rule"] for d in diagnose(outcomes)]
    assert found[:2] == ["MELD-MARRIAGE", "POINTS-LAST-TRICK"], found


TRACED = Where("auction", "min_bid", "min_bid")


def test_a_rule_failing_only_where_the_first_suspect_is_charged_first_is_explained_by_it() -> None:
    # The engine's opening minimum is 250: every least-bid answer it gets wrong names the step
    # rule after the minimum (what decides the least bid), and a bid off the step is refused as
    # below the minimum. A second deviation, the forced bid, fails cases of its own.
    # Placed by the reference's trace, as the suite charges them: every rule named decided it.
    least = Charge(
        ("AUCTION-OPENING-MIN", "AUCTION-STEP"), "field min_bid", "", TRACED, kind="field"
    )
    forced = Charge(
        ("AUCTION-DEALER-FORCED", "AUCTION-END"), "field contract", "", TRACED, kind="field"
    )
    outcomes = [
        *(Outcome(f"o{n}", "failed", "AUCTION-OPENING-MIN", (), least) for n in range(3)),
        *(Outcome(f"op{n}", "passed", "AUCTION-OPENING-MIN") for n in range(3)),
        *(Outcome(f"s{n}", "failed", "AUCTION-STEP", (), least) for n in range(2)),
        *(Outcome(f"sp{n}", "passed", "AUCTION-STEP") for n in range(2)),
        *(Outcome(f"f{n}", "failed", "AUCTION-DEALER-FORCED", (), forced) for n in range(3)),
    ]
    found = diagnose(outcomes)
    ranked = [d["rule"] for d in found if not d.get("explained_by")]
    assert set(ranked) == {"AUCTION-OPENING-MIN", "AUCTION-DEALER-FORCED"}, found
    assert {d["rule"]: d.get("explained_by") for d in found[2:]} == {
        "AUCTION-END": ["AUCTION-DEALER-FORCED"],
        "AUCTION-STEP": ["AUCTION-OPENING-MIN"],
    }
    assert "AUCTION-STEP, explained by AUCTION-OPENING-MIN" in wording.suspect_lines(found)[-1]


def test_a_second_bug_whose_failures_also_name_the_first_is_never_explained_away() -> None:
    # Every failing case of the step rule also names the minimum, but charged to the step rule
    # first: the step rule is a suspect of its own, whatever the minimum's cases explain.
    least = Charge(
        ("AUCTION-OPENING-MIN", "AUCTION-STEP"), "field min_bid", "", TRACED, kind="field"
    )
    step = Charge(
        ("AUCTION-STEP", "AUCTION-OPENING-MIN"), "field min_bid", "", TRACED, kind="field"
    )
    outcomes = [
        *(Outcome(f"o{n}", "failed", "AUCTION-OPENING-MIN", (), least) for n in range(4)),
        *(Outcome(f"s{n}", "failed", "AUCTION-STEP", (), step) for n in range(2)),
        *(Outcome(f"sp{n}", "passed", "AUCTION-STEP") for n in range(6)),
    ]
    found = diagnose(outcomes)
    assert [d["rule"] for d in found] == ["AUCTION-OPENING-MIN", "AUCTION-STEP"], found
    assert not any(d.get("explained_by") for d in found)
    assert "explained" not in "\n".join(wording.suspect_lines(found))


def test_a_total_checked_alone_names_the_item_worth_the_surplus() -> None:
    reported = [
        {"id": "royal_marriage", "count": 1, "points": 4, "suit": "h"},
        {"id": "marriage", "count": 1, "points": 2, "suit": "h"},
    ]
    charge = charge_case(
        "meld", {}, {"total": 4}, {"total": 6, "melds": reported}, "MELD-ROUNDHOUSE"
    )
    assert charge.rules == ("MELD-MARRIAGE", "MELD-ROUNDHOUSE", "MELD-ROYAL-MARRIAGE")
    assert charge.at == "meld total"


def test_an_unplaced_whole_hand_is_not_direct_evidence() -> None:
    # A scenario step checked a field the charge does not see: the hand accuses its rule, but
    # as a whole hand does, after the rules a plain case convicts.
    charge = charge_case("play_hand", {"actions": []}, {}, {}, "MELD-ONE-HAND")
    assert charge.at == "the hand"
    outcomes = [
        Outcome("h1", "failed", "MELD-ONE-HAND", (), charge),
        Outcome("s1", "failed", "AUCTION-STEP"),
        *(Outcome(f"sp{n}", "passed", "AUCTION-STEP") for n in range(20)),
    ]
    found = diagnose(outcomes)
    assert [d["rule"] for d in found] == ["AUCTION-STEP", "MELD-ONE-HAND"]
    assert not found[1]["direct"]
