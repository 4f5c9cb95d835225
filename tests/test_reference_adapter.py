"""The reference adapter refuses cards the variant's deck cannot supply, never silently."""

from __future__ import annotations

from typing import Any

import pytest

from pinochle_adapters import protocol
from pinochle_adapters.client import EngineError
from tests.suite_runs import reference_in_process

DD: dict[str, Any] = {"variant": "double-deck", "options": {}}
SD: dict[str, Any] = {"variant": "single-deck", "options": {}}


@pytest.mark.parametrize(
    ("method", "params", "message"),
    [
        ("meld", {**DD, "trump": "h", "hand": ["9h"]}, "9h is not in this variant's deck"),
        ("meld", {**DD, "trump": "h", "hand": ["Ah"] * 5}, "5 copies of Ah, but the deck has 4"),
        (
            "legal_plays",
            {**SD, "trump": "h", "hand": ["Ah", "Ah"], "trick": ["Ah"]},
            "3 copies of Ah, but the deck has 2",
        ),
        ("trick_winner", {**DD, "trump": "s", "trick": ["9s", "As"]}, "9s is not in"),
        ("card_points", {**SD, "cards": ["Ks"] * 3, "last_trick": False}, "3 copies of Ks"),
    ],
)
def test_cards_outside_the_deck_are_refused(
    method: str, params: dict[str, Any], message: str
) -> None:
    engine = reference_in_process()
    with pytest.raises(EngineError, match=message):
        engine.call(method, params)


def test_cards_from_the_deck_are_answered() -> None:
    engine = reference_in_process()
    answer = engine.call("meld", {**DD, "trump": "h", "hand": ["Ah"] * 4})
    assert answer == {"total": 0, "melds": []}


@pytest.mark.parametrize(
    "calls",
    [
        [{"bid": 50}],
        [{"seat": 1, "bid": "50"}],
        [{"seat": 1, "bid": 50.5}],
        [{"seat": 1, "bid": 50, "pass": True}],
        [{"seat": 1}],
        [{"seat": 1, "pass": False}],
        [{"seat": 4, "bid": 50}],
        [{"seat": 1, "bid": True}],
        ["bid 50"],
    ],
)
def test_malformed_calls_are_refused_at_the_entry(calls: list[Any]) -> None:
    """The server checks shapes against the params schema; the rules never see them."""
    engine = reference_in_process()
    with pytest.raises(EngineError, match="calls"):
        engine.call("auction", {**DD, "dealer": 0, "calls": calls})


@pytest.mark.parametrize("action", [7, "dance", "bid -5", "give"])
def test_malformed_actions_are_refused_at_the_entry(action: object) -> None:
    engine = reference_in_process()
    hands = [["As"] * 20] * 4
    with pytest.raises(EngineError, match="actions"):
        engine.call(
            "play_hand", {**DD, "dealer": 0, "scores": [0, 0], "hands": hands, "actions": [action]}
        )


def test_rounds_need_the_hand_number() -> None:
    engine = reference_in_process()
    online = {"variant": "online", "options": {"rounds": "3"}}
    hands = [["As"] * 12] * 4
    with pytest.raises(EngineError, match=r"hand .* is required with the rounds option"):
        engine.call(
            "play_hand", {**online, "dealer": 0, "scores": [0, 0], "hands": hands, "actions": []}
        )
    answer = engine.call(
        "play_hand",
        {**online, "dealer": 0, "scores": [0, 0], "hands": hands, "actions": [], "hand": 1},
    )
    assert answer["legal"] is False and answer["first_illegal"]["rule"] == "DEAL-HANDS"


SD_DEAL = [
    hand.split()
    for hand in (
        "Ac Ac Tc Tc Kc Qc Jc Jc 9c 9s 9h Jd",
        "As As Ts Ts Ks Ks Qs Js 9s Kh 9d Qc",
        "Ah Ah Th Th Kh Qh Jh Jh 9h Js Kd 9c",
        "Ad Ad Td Td Kd Qd Qd Jd 9d Qs Qh Kc",
    )
]
SD_CALLS = ["bid 150", "bid 160", "pass", "bid 170", "pass", "bid 200", "pass", "trump s"]
SD_SEATS = [0, 1, 2, 3, 0, 1, 3, 1]


def test_actions_claimed_by_the_right_seats_answer_as_unclaimed() -> None:
    engine = reference_in_process()
    params = {**SD, "dealer": 0, "scores": [0, 0], "hands": SD_DEAL}
    plain = engine.call("play_hand", {**params, "actions": SD_CALLS})
    claimed = [f"seat {s}: {a}" for s, a in zip(SD_SEATS, SD_CALLS, strict=True)]
    assert engine.call("play_hand", {**params, "actions": claimed}) == plain
    wrong = [*claimed[:7], "seat 3: trump s"]
    answer = engine.call("play_hand", {**params, "actions": wrong})
    assert answer["first_illegal"]["index"] == 7
    assert answer["first_illegal"]["rule"] == "TRUMP-CALL"


def test_a_refused_action_keeps_to_the_result_schema() -> None:
    """The suite trusts the reference's answers (their schema is not checked on the way) and
    compares rule IDs, never messages: this is where a refusal's message is held to be a text."""
    engine = reference_in_process()
    actions = ["bid 150", "bid 155"]  # single-deck bids go up in tens
    params = {**SD, "dealer": 0, "scores": [0, 0], "hands": SD_DEAL, "actions": actions}
    answer = engine.call("play_hand", params)
    assert answer["first_illegal"]["index"] == 1
    assert protocol.check_result("play_hand", answer) is None
    assert answer["first_illegal"]["message"]


@pytest.mark.parametrize("action", ["seat 4: pass", "seat 1:pass", "seat 1: seat 1: pass"])
def test_malformed_seat_claims_are_refused_at_the_entry(action: str) -> None:
    engine = reference_in_process()
    with pytest.raises(EngineError, match="actions"):
        engine.call(
            "play_hand",
            {**SD, "dealer": 0, "scores": [0, 0], "hands": SD_DEAL, "actions": [action]},
        )


def test_the_auction_answer_names_the_refused_call() -> None:
    engine = reference_in_process()
    calls = [{"seat": 1, "bid": 50}, {"seat": 2, "bid": 51}, {"seat": 0, "bid": 52}]
    answer = engine.call("auction", {**DD, "dealer": 0, "calls": calls})
    assert answer["violation"]["index"] == 2 and answer["violation"]["rule"] == "AUCTION-TURN"
    assert engine.call("auction", {**DD, "dealer": 0, "calls": calls[:2]})["violation"] is None


def test_play_game_needs_one_list_of_actions_per_deal() -> None:
    engine = reference_in_process()
    with pytest.raises(EngineError, match="one of each per hand"):
        engine.call("play_game", {**SD, "dealer": 0, "hands": [SD_DEAL, SD_DEAL], "actions": [[]]})
    with pytest.raises(EngineError, match="hand 0 is not over"):
        engine.call(
            "play_game", {**SD, "dealer": 0, "hands": [SD_DEAL, SD_DEAL], "actions": [[], []]}
        )


def test_play_game_answers_each_hand_with_its_dealer() -> None:
    engine = reference_in_process()
    answer = engine.call("play_game", {**SD, "dealer": 0, "hands": [SD_DEAL], "actions": [[]]})
    assert answer["legal"] is True and answer["next_dealer"] is None
    assert answer["hands"][0]["dealer"] == 0 and answer["hands"][0]["complete"] is False
    assert answer["scores"] == [0, 0] and answer["game_winner"] is None


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ([["As", "Ah"], ["Ks"], ["Kh"], ["Qs"]], "the same number of cards"),
        ([[]] * 4, "the same number of cards"),
        ([["As"], ["As"], ["As"], ["Ts"]], "3 copies of As"),
    ],
)
def test_play_tricks_refuses_hands_no_hand_can_end_with(
    hands: list[list[str]], message: str
) -> None:
    engine = reference_in_process()
    with pytest.raises(EngineError, match=message):
        engine.call("play_tricks", {**SD, "trump": "s", "leader": 0, "hands": hands, "plays": []})
