"""Mutant: a trumped trick still obliges a follower to beat the best card of the suit led."""

from collections.abc import Sequence

from reference_engine import tricks
from reference_engine.cards import Card, rank_of, suit_of
from reference_engine.variants import Rules

from . import Mutant

_legal_plays = tricks.legal_plays


def legal_plays(hand: Sequence[int], trick: Sequence[Card], trump: int, rules: Rules) -> list[Card]:
    """As ``tricks.legal_plays``, but the crawl applies within the led suit once trumped."""
    plays = _legal_plays(hand, trick, trump, rules)
    if not trick or rules.obligations != "pre-1945":
        return plays
    led = suit_of(trick[0])
    if led == trump or suit_of(trick[tricks.trick_winner(trick, trump)]) != trump:
        return plays
    follow = [c for c in plays if suit_of(c) == led]
    top = min(rank_of(c) for c in trick if suit_of(c) == led)
    return [c for c in follow if rank_of(c) < top] or plays


MUTANT = Mutant(
    name="trumped-trick-crawl",
    misreading="after a trick is trumped, followers must still beat the best card of the suit led",
    caught_by="PLAY-TRUMPED-TRICK",
    variants=("double-deck",),
    patches={"reference_engine.tricks.legal_plays": legal_plays},
)
