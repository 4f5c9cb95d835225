"""Mutant: arounds are counted over three suits: the clubs are never looked at."""

from reference_engine import meld
from reference_engine.cards import Counts
from reference_engine.variants import Rules

from . import Mutant

_counts_of = meld._counts_of
_AROUNDS = meld._AROUNDS


def counts_of(hand: Counts, trump: int, rules: Rules) -> list[tuple[str, int, int | None]]:
    """As ``meld._counts_of``, but an around is the rank in spades, hearts and diamonds only."""
    found = [m for m in _counts_of(hand, trump, rules) if not m[0].endswith("_around")]
    for meld_id, rank in _AROUNDS:
        around = min(hand[rank], hand[6 + rank], hand[12 + rank])  # the loop stops a suit early
        if around:
            found.append((meld_id, around, None))
    return found


MUTANT = Mutant(
    name="arounds-missing-suit",
    misreading="aces (kings, queens, jacks) around need the rank in three suits, clubs forgotten",
    caught_by="MELD-AROUNDS",
    variants=("double-deck",),
    patches={"reference_engine.meld._counts_of": counts_of},
)
