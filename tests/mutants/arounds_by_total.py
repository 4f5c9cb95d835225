"""Mutant: arounds counted from the total of a rank (total // 4), not per suit."""

from reference_engine import meld
from reference_engine.cards import Counts
from reference_engine.variants import Rules

from . import Mutant

_counts_of = meld._counts_of
_AROUND_IDS = {meld_id for meld_id, _ in meld._AROUNDS}


def counts_of(hand: Counts, trump: int, rules: Rules) -> list[tuple[str, int, int | None]]:
    """As ``meld._counts_of``, but k arounds need 4k cards of the rank with one in each suit."""
    found = [m for m in _counts_of(hand, trump, rules) if m[0] not in _AROUND_IDS]
    for meld_id, rank in meld._AROUNDS:
        held = [hand[suit * 6 + rank] for suit in range(4)]
        if min(held):
            found.append((meld_id, sum(held) // 4, None))
    return found


MUTANT = Mutant(
    name="arounds-by-total",
    misreading="arounds multiplicity = cards of the rank // 4 (e.g. As As As Ah Ad Ac Ac Ac = 2)",
    caught_by="MELD-AROUNDS",
    variants=("double-deck",),
    patches={"reference_engine.meld._counts_of": counts_of},
)
