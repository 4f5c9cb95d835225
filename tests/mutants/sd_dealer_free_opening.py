"""Mutant: the single-deck dealer may open with any bid or pass."""

from . import Mutant, replace_auction

MUTANT = Mutant(
    name="sd-dealer-free-opening",
    misreading="the dealer need not open at exactly 150",
    caught_by="AUCTION-DEALER-OPENS",
    variants=("single-deck",),
    rules=replace_auction(dealer_opens=None),
)
