"""The reference adapter refuses cards the variant's deck cannot supply, never silently."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.client import EngineError, open_engine

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
