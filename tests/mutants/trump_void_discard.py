"""Mutant: a player void in the suit led may discard any card, even holding a trump."""

from collections.abc import Sequence

from reference_engine import tricks
from reference_engine.cards import NUM_RANKS, Card
from reference_engine.variants import Rules

from . import Mutant

_legal_plays = tricks.legal_plays


def legal_plays(hand: Sequence[int], trick: Sequence[Card], trump: int, rules: Rules) -> list[Card]:
    """As ``tricks.legal_plays``, but void in the suit led every card is allowed."""
    if trick:
        led = trick[0] // NUM_RANKS
        if not any(hand[led * NUM_RANKS : (led + 1) * NUM_RANKS]):
            return [card for card in range(len(hand)) if hand[card]]
    return _legal_plays(hand, trick, trump, rules)


MUTANT = Mutant(
    name="trump-void-discard",
    misreading="void in the suit led, a player may discard instead of trumping",
    caught_by="PLAY-TRUMP-VOID",
    variants=("double-deck",),
    patches={"reference_engine.tricks.legal_plays": legal_plays},
)
