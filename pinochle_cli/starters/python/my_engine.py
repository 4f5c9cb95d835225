"""A starter engine for the Pinochle conformance suite, written by ``pinochle adapter new python``.

It plays double-deck and answers two methods (``trick_winner``, ``card_points``); the SDK
(pinochle_adapters.sdk) speaks the protocol: framing, ``initialize``, params checks, errors.
Add a method by writing one more ``def METHOD(self, params) -> dict`` (spec/protocol.md lists
them); ``initialize`` declares whatever methods the class has. Check it, then test it:

    pinochle smoke --engine "python my_engine.py"
    pinochle test --engine "python my_engine.py" --conformance-report report.json
"""

from __future__ import annotations

import sys
from typing import Any, ClassVar

from pinochle_adapters.sdk import InvalidParams, serve

RANKS = "ATKQJ"
"""Double-deck ranks, highest first (the 9s are out of the deck)."""
COUNTERS = {"A": 1, "T": 1, "K": 1}
"""Card points of double-deck (POINTS-*): aces, tens and kings count one; the last trick two."""
LAST_TRICK = 2


def rank_of(card: str, field: str) -> int:
    """A card's place in RANKS (0 is the ace); a card outside the deck is the caller's error."""
    if card[0] not in RANKS:
        raise InvalidParams(f"{field}: {card} is not a double-deck card")
    return RANKS.index(card[0])


class MyEngine:
    """The engine: each method takes the request's params and returns the result object."""

    name = "my-engine"
    version = "0.1.0"
    # The variants you play, each with the option values you implement. An option left out is
    # played at the variant's default; list one value to declare a house rule.
    variants: ClassVar[dict[str, dict[str, list[str]]]] = {"double-deck": {}}

    def trick_winner(self, params: dict[str, Any]) -> dict[str, Any]:
        """The highest trump wins, else the highest card of the suit led; of identical cards the
        first played wins (TRICK-WINNER, TRICK-IDENTICAL)."""
        trick: list[str] = params["trick"]
        trump: str = params["trump"]
        led = trick[0][1]

        def strength(index: int) -> tuple[int, int, int]:
            card = trick[index]
            suit_order = 2 if card[1] == trump else 1 if card[1] == led else 0
            return (suit_order, -rank_of(card, f"params.trick[{index}]"), -index)

        return {"winner": max(range(len(trick)), key=strength)}

    def card_points(self, params: dict[str, Any]) -> dict[str, Any]:
        """Card points of the cards won, with the last trick's bonus (POINTS-*)."""
        cards: list[str] = params["cards"]
        for index, card in enumerate(cards):
            rank_of(card, f"params.cards[{index}]")
        points = sum(COUNTERS.get(card[0], 0) for card in cards)
        return {"points": points + (LAST_TRICK if params["last_trick"] else 0)}


if __name__ == "__main__":
    sys.exit(serve(MyEngine()))
