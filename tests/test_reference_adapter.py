"""The reference adapter refuses cards the variant's deck cannot supply, never silently."""

from __future__ import annotations

from typing import Any

import pytest

from pinochle_adapters.client import EngineError, open_engine

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
    engine = open_engine(None)
    with pytest.raises(EngineError, match=message):
        engine.call(method, params)


def test_cards_from_the_deck_are_answered() -> None:
    engine = open_engine(None)
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
    engine = open_engine(None)
    with pytest.raises(EngineError, match="calls"):
        engine.call("auction", {**DD, "dealer": 0, "calls": calls})


@pytest.mark.parametrize("action", [7, "dance", "bid -5", "give"])
def test_malformed_actions_are_refused_at_the_entry(action: object) -> None:
    engine = open_engine(None)
    hands = [["As"] * 20] * 4
    with pytest.raises(EngineError, match="actions"):
        engine.call(
            "play_hand", {**DD, "dealer": 0, "scores": [0, 0], "hands": hands, "actions": [action]}
        )


def test_rounds_need_the_hand_number() -> None:
    engine = open_engine(None)
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
