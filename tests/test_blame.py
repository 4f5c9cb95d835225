"""The one blame table (pinochle_judge.blame): every field of a whole hand, and of each single
answer, is charged to the rule that decides it; a hand's first divergence is found in play order."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from pinochle_fuzz.oracle import differences, expectation, likely_rules, meld_seat, played_answer
from pinochle_fuzz.questions import Question, play_hand_question
from pinochle_judge import wording
from pinochle_judge.blame import (
    HAND_FIELDS,
    HAND_METHOD,
    HAND_ORDER,
    field_blame,
    hand_divergence,
    meld_rules,
    outcome_rules,
    points_rules,
    total_rules,
    trick_rules,
)
from pinochle_judge.methods import UnknownField, UnknownMethod
from pinochle_judge.verdicts import Where
from reference_engine.variants import load_rules

HAND: dict[str, Any] = {
    "bidder": 1,
    "contract": 50,
    "trump": "s",
    "outcome": "played",
    "meld": [20, 10, 30, 4],
    "team_meld": [50, 14],
    "aces_around": [],
    "tricks": [
        {"leader": 2, "cards": ["As", "Ks", "Qs", "Js"], "winner": 2},
        {"leader": 2, "cards": ["Ah", "Ah", "Kh", "Qh"], "winner": 2},
    ],
    "tricks_won": [12, 8],
    "card_points": [150, 100],
    "delta": [200, 114],
    "scores": [200, 114],
    "game_winner": None,
}
"""A played hand's answer (figures need not add up: only which field differs matters)."""


def changed(**fields: Any) -> dict[str, Any]:
    return {**HAND, **fields}


@pytest.mark.parametrize(
    ("field", "value", "at", "first"),
    [
        ("bidder", 3, "bidder", "AUCTION-END"),
        ("contract", 55, "contract", "AUCTION-END"),
        ("trump", "h", "trump", "TRUMP-CALL"),
        ("meld", [20, 10, 40, 4], "seat 2 meld", "MELD-RUN"),
        ("aces_around", [0], "aces around", "MELD-ACES-DECLARED"),
        ("team_meld", [0, 14], "team meld", "MELD-MINIMUM"),
        ("outcome", "thrown_in", "outcome", "SCORE-THROW-IN"),
        ("tricks_won", [11, 9], "tricks won", "TRICK-WINNER"),
        ("card_points", [140, 100], "card points", "POINTS-LAST-TRICK"),
        ("card_points", [140, 110], "card points", "POINTS-COUNTERS"),
        ("delta", [210, 114], "delta", "SCORE-MADE"),
        ("scores", [200, 0], "scores", "SCORE-MADE"),
        ("game_winner", 0, "game winner", "GAME-TARGET"),
    ],
)
def test_each_hand_field_is_charged_to_its_rule(
    field: str, value: Any, at: str, first: str
) -> None:
    found = hand_divergence(HAND, changed(**{field: value}))
    assert found is not None and found.at == at and found.rules[0] == first, found


def test_every_hand_field_has_a_rule_and_a_place_in_play_order() -> None:
    assert set(HAND_ORDER) <= set(HAND_FIELDS)
    assert all(blame.rules for blame in HAND_FIELDS.values())
    assert hand_divergence(HAND, dict(HAND)) is None


def test_trick_leader_cards_and_winner() -> None:
    tricks = HAND["tricks"]
    first_leader = [{**tricks[0], "leader": 1}, tricks[1]]
    found = hand_divergence(HAND, changed(tricks=first_leader))
    assert found is not None and (found.at, found.rules) == ("trick 1 leader", ("PLAY-LEAD",))
    later_leader = [tricks[0], {**tricks[1], "leader": 0}]
    found = hand_divergence(HAND, changed(tricks=later_leader))
    assert found is not None and found.rules[0] == "TRICK-WINNER"
    # The same actions, other cards in a trick: the turn went round otherwise (PLAY-TURN).
    cards = [{**tricks[0], "cards": ["Ks", "As", "Qs", "Js"]}, tricks[1]]
    found = hand_divergence(HAND, changed(tricks=cards))
    assert found is not None and (found.at, found.rules) == ("trick 1 cards", ("PLAY-TURN",))
    winner = [tricks[0], {**tricks[1], "winner": 3}]
    found = hand_divergence(HAND, changed(tricks=winner))
    assert found is not None and found.rules[0] == "TRICK-IDENTICAL"  # Ah Ah: a twin won
    found = hand_divergence(HAND, changed(tricks=[{**tricks[0], "winner": 0}, tricks[1]]))
    assert found is not None and found.rules[0] == "TRICK-WINNER"


def test_play_order_meld_before_tricks_and_no_marriage_before_meld() -> None:
    both = changed(meld=[0, 10, 30, 4], tricks_won=[0, 20])
    found = hand_divergence(HAND, both)
    assert found is not None and found.at == "seat 0 meld"
    no_marriage = changed(outcome="no_marriage", meld=None)
    found = hand_divergence(HAND, no_marriage)
    assert found is not None and found.rules == ("TRUMP-NO-MARRIAGE", "TRUMP-MARRIAGE")


def test_a_set_hand_charges_the_set_first() -> None:
    set_hand = changed(delta=[200, -50], scores=[200, -50])
    found = hand_divergence(set_hand, changed(delta=[200, 0], scores=[200, 0]))
    assert found is not None and found.rules[0] == "SCORE-SET"


def test_a_case_own_rule_of_the_family_comes_first() -> None:
    found = hand_divergence(HAND, changed(contract=60), own=["AUCTION-STEP"])
    assert found is not None and found.rules == ("AUCTION-STEP", "AUCTION-END")
    found = hand_divergence(HAND, changed(team_meld=[0, 14]), own=["MELD-ONE-HAND"])
    assert found is not None and found.rules[0] == "MELD-ONE-HAND"


@pytest.mark.parametrize(
    ("method", "field", "first"),
    [
        ("deal", "hands", "DEAL-PACKETS"),
        ("deal", "next_dealer", "DEAL-ROTATION"),
        ("deal", "answer", "DECK-COMPOSITION"),
        ("deal", "violation", "DECK-COMPOSITION"),
        ("auction", "complete", "AUCTION-END"),
        ("auction", "winner", "AUCTION-END"),
        ("auction", "contract", "AUCTION-END"),
        ("auction", "next_seat", "AUCTION-TURN"),
        ("auction", "min_bid", "AUCTION-STEP"),
        ("auction", "can_pass", "AUCTION-DEALER-FORCED"),
        ("score_hand", "made", "SCORE-MADE"),
        ("score_hand", "delta", "SCORE-MADE"),
        ("score_hand", "scores", "GAME-TARGET"),
        ("score_hand", "game_winner", "GAME-TARGET"),
        ("card_points", "points", "POINTS-COUNTERS"),
        ("legal_plays", "cards", "PLAY-FOLLOW"),
        ("trick_winner", "winner", "TRICK-WINNER"),
        ("meld", "total", "MELD-TYPES"),
        ("play_hand", "team_meld", "MELD-MINIMUM"),
    ],
)
def test_each_answer_field_is_charged_to_its_rule(method: str, field: str, first: str) -> None:
    assert field_blame(method, field).rules[0] == first


def test_a_method_or_field_no_record_knows_is_an_error_not_a_default() -> None:
    with pytest.raises(UnknownMethod, match="trump_suits"):
        field_blame("trump_suits", "suits")
    with pytest.raises(UnknownField, match="meld has no field 'deck'"):
        field_blame("meld", "deck")


def test_value_dependent_rules() -> None:
    assert trick_rules({"leader": 0, "cards": ["As", "As", "Ks"], "winner": 0})[0] == (
        "TRICK-IDENTICAL"
    )
    assert outcome_rules("played", "meld_short") == ("MELD-SHORT-BIDDER",)
    assert outcome_rules("played", "thrown_in", ["SCORE-FORCED-THROW-IN"]) == (
        "SCORE-FORCED-THROW-IN",
    )
    assert points_rules([10, 20], [10, 30])[0] == "POINTS-LAST-TRICK"
    assert meld_rules(["kings_around", "run", "unknown"]) == ("MELD-AROUNDS", "MELD-RUN")
    items = [{"id": "run", "points": 150}, {"id": "aces_around", "points": 100}]
    assert total_rules(items, 250, 150) == ("MELD-AROUNDS", "MELD-RUN")


def test_a_follow_refused_in_a_trumped_trick_is_placed_at_the_trumped_trick_rule() -> None:
    """Read from the actions alone: trump named, a plain suit led and trumped, then a card of
    the suit led (which PLAY-TRUMPED-TRICK lets follow low)."""
    from pinochle_judge.blame import follows_a_trumped_trick

    head = ["bid 50", "pass", "pass", "pass", "trump h", "play-on"]
    trumped = [*head, "play Ac", "play Jh", "play Qc"]
    assert follows_a_trumped_trick(trumped, len(trumped) - 1)
    assert not follows_a_trumped_trick([*head, "play Ac", "play Kc", "play Qc"], 8)  # no trump
    assert not follows_a_trumped_trick([*head, "play Ac", "play Jh", "play Qs"], 8)  # not led
    assert not follows_a_trumped_trick([*head, "play Ah", "play Jh", "play Qh"], 8)  # trump led
    # The trick is counted from the last complete one: four plays close a trick.
    later = [*head, "play Ac", "play Kc", "play Qc", "play Jc", "play As", "seat 3: play Jh"]
    assert follows_a_trumped_trick([*later, "play Ks"], len(later))


# --- the place, as data ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", [k for k in HAND_ORDER if k not in ("meld", "tricks")])
def test_each_field_of_a_hand_is_placed_as_data(key: str) -> None:
    value = HAND[key]
    other = [*value, 1] if isinstance(value, list) else f"not {value}"
    found = hand_divergence(HAND, changed(**{key: other}))
    assert found is not None and found.where == Where(HAND_METHOD, key, key)


def test_a_seat_meld_and_a_trick_are_placed_by_seat_and_trick() -> None:
    found = hand_divergence(HAND, changed(meld=[20, 10, 40, 4]))
    assert found is not None and found.where == Where(HAND_METHOD, "meld", "meld", seat=2)
    tricks = [HAND["tricks"][0], {**HAND["tricks"][1], "winner": 3}]
    found = hand_divergence(HAND, changed(tricks=tricks))
    assert found is not None and found.where == Where(
        HAND_METHOD, "trick winner", "winner", trick=1
    )
    found = hand_divergence(HAND, changed(tricks=[*HAND["tricks"], tricks[0]]))
    assert found is not None and found.where == Where(HAND_METHOD, "tricks", "tricks")


def _hands() -> Iterator[tuple[Question, dict[str, Any]]]:
    """Whole single-deck hands the generator plays through their tricks (a few fixed seeds),
    with the reference's answer."""
    rules = load_rules("single-deck", {})
    for seed in range(40):
        choose = random.Random(seed).randrange
        params, played, extra = play_hand_question(rules, choose)
        answer = played_answer(played, extra)
        tricks = answer.get("tricks")
        if extra is None and isinstance(tricks, list) and len(tricks) >= 3 and answer["meld"]:
            yield Question("play_hand", "single-deck", {}, params, answer), answer


def _wrong_answers(question: Question, answer: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Engine answers leaving the hand at a seat's meld, a trick's winner, the contract, each
    alone and with a play refused after it (the oracle then looks for the earlier divergence)."""
    plays = [i for i, a in enumerate(question.input["actions"]) if "play " in a]
    tricks = answer["tricks"]
    late = {"index": plays[9], "rule": "PLAY-FOLLOW", "message": "no"}
    early = {"index": plays[1], "rule": "PLAY-FOLLOW", "message": "no"}
    wrong_meld = {**answer, "meld": [m + 10 * (s == 1) for s, m in enumerate(answer["meld"])]}
    wrong_trick = {**answer, "tricks": [{**tricks[0], "winner": (tricks[0]["winner"] + 1) % 4}]}
    wrong_trick["tricks"] += tricks[1:]
    wrong_contract = {**answer, "contract": answer["contract"] + 10}
    for wrong in (wrong_meld, wrong_trick, wrong_contract):
        yield wrong
        for refused in (late, early):
            yield {**wrong, "legal": False, "first_illegal": refused}


def _judged() -> list[tuple[tuple[str, ...], int | None]]:
    found = []
    for question, answer in _hands():
        expect = expectation("play_hand", answer)
        for got in _wrong_answers(question, answer):
            mismatches = differences("play_hand", expect, got)
            found.append(
                (likely_rules(question, expect, got, mismatches), meld_seat(question, expect, got))
            )
    return found


def _misleading(where: Where) -> str:
    """Words naming another place than ``where``: a reader that parses them goes astray."""
    return "trick 1 winner" if where.field == "meld" else "seat 3 meld"


def test_the_oracle_reads_the_place_never_its_words(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = _judged()
    # Every reading is exercised: a seat's meld (alone and before a refused play), a trick
    # (before a refused play, or not: the refusal's own rule), a field before play.
    assert 1 in {seat for _rules, seat in honest}
    assert {"AUCTION-END", "TRICK-WINNER", "PLAY-FOLLOW"} <= {rules[0] for rules, _ in honest}
    monkeypatch.setattr(wording, "blame_at", _misleading)
    found = hand_divergence(HAND, changed(meld=[0, 10, 30, 4]))
    assert found is not None and found.at == "trick 1 winner"
    assert _judged() == honest
