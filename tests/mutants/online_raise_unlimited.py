"""Mutant: online raises are not limited to 50."""

from . import Mutant, replace_auction

MUTANT = Mutant(
    name="online-raise-unlimited",
    misreading="any raise is allowed online (no limit of 50 over the high bid)",
    caught_by="AUCTION-STEP",
    variants=("online",),
    rules=replace_auction(max_raise=None),
)
