"""Mutant: the nine of trumps (dix) scores nothing."""

from reference_engine import meld
from reference_engine.cards import Counts
from reference_engine.variants import Rules

from . import Mutant

_counts_of = meld._counts_of


def counts_of(hand: Counts, trump: int, rules: Rules) -> list[tuple[str, int, int | None]]:
    """As ``meld._counts_of``, without the dix."""
    return [m for m in _counts_of(hand, trump, rules) if m[0] != "dix"]


MUTANT = Mutant(
    name="dix-ignored",
    misreading="the dix (nine of trumps) is not meld",
    caught_by="MELD-DIX",
    variants=("single-deck",),
    patches={"reference_engine.meld._counts_of": counts_of},
)
