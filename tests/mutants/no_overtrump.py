"""Mutant: a player void in the suit led may play any trump, even holding one that beats."""

from collections.abc import Sequence

from reference_engine import tricks
from reference_engine.cards import Card, suit_of
from reference_engine.variants import Rules

from . import Mutant

_legal_plays = tricks.legal_plays


def legal_plays(hand: Sequence[int], trick: Sequence[Card], trump: int, rules: Rules) -> list[Card]:
    """As ``tricks.legal_plays``, but void in the suit led any trump will do."""
    plays = _legal_plays(hand, trick, trump, rules)
    if not trick or any(suit_of(c) == suit_of(trick[0]) for c in plays):
        return plays
    trumps = [c for c in range(len(hand)) if hand[c] and suit_of(c) == trump]
    return trumps or plays


MUTANT = Mutant(
    name="no-overtrump",
    misreading="void in the suit led, any trump may be played (no duty to over-trump)",
    caught_by="PLAY-OVERTRUMP",
    variants=("double-deck",),
    patches={"reference_engine.tricks.legal_plays": legal_plays},
)
