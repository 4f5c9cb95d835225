"""Mutant: no need to beat a card of one's partner that is winning the trick (the partner crawl,
a common house misreading: PLAY-CRAWL applies also when the winning card is the partner's)."""

from collections.abc import Sequence

from reference_engine import tricks
from reference_engine.cards import NUM_RANKS, Card
from reference_engine.variants import Rules

from . import Mutant

_legal_plays = tricks.legal_plays


def legal_plays(hand: Sequence[int], trick: Sequence[Card], trump: int, rules: Rules) -> list[Card]:
    """As ``tricks.legal_plays``, but following suit while the partner (who played two cards
    before) is winning, any card of the suit led will do."""
    plays = _legal_plays(hand, trick, trump, rules)
    if len(trick) < 2 or tricks.trick_winner(trick, trump) != len(trick) - 2:
        return plays
    led = trick[0] // NUM_RANKS
    same = [c for c in range(led * NUM_RANKS, (led + 1) * NUM_RANKS) if hand[c]]
    return same if same and all(c // NUM_RANKS == led for c in plays) else plays


MUTANT = Mutant(
    name="partner-crawl",
    misreading="a player following suit need not beat the partner's winning card",
    caught_by="PLAY-CRAWL",
    variants=("single-deck",),
    patches={"reference_engine.tricks.legal_plays": legal_plays},
)
