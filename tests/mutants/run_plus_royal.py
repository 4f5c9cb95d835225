"""Mutant: the K-Q inside a run also scores as a royal marriage."""

from reference_engine import meld
from reference_engine.cards import KING, QUEEN, Counts
from reference_engine.variants import Rules

from . import Mutant

_counts_of = meld._counts_of


def counts_of(hand: Counts, trump: int, rules: Rules) -> list[tuple[str, int, int | None]]:
    """As ``meld._counts_of``, but every K-Q of trumps is a royal marriage, run or not."""
    found = [m for m in _counts_of(hand, trump, rules) if m[0] != "royal_marriage"]
    royal = min(hand[trump * 6 + KING], hand[trump * 6 + QUEEN])
    if royal:
        found.insert(1 if found and found[0][0] == "run" else 0, ("royal_marriage", royal, trump))
    return found


MUTANT = Mutant(
    name="run-plus-royal",
    misreading="the run's K-Q also counts as a royal marriage",
    caught_by="MELD-ROYAL-MARRIAGE",
    variants=("double-deck",),
    patches={"reference_engine.meld._counts_of": counts_of},
)
