"""Mutant: plain marriages are counted in every suit, trumps included."""

from reference_engine import meld
from reference_engine.cards import KING, QUEEN, Counts
from reference_engine.variants import Rules

from . import Mutant

_counts_of = meld._counts_of


def counts_of(hand: Counts, trump: int, rules: Rules) -> list[tuple[str, int, int | None]]:
    """As ``meld._counts_of``, but the plain-marriage loop does not skip the trump suit."""
    found = _counts_of(hand, trump, rules)
    married = min(hand[trump * 6 + KING], hand[trump * 6 + QUEEN])
    if married:
        found.append(("marriage", married, trump))
    return found


MUTANT = Mutant(
    name="marriage-in-trump",
    misreading="the K-Q of trumps also scores as a plain marriage",
    caught_by="MELD-MARRIAGE",
    variants=("double-deck",),
    patches={"reference_engine.meld._counts_of": counts_of},
)
