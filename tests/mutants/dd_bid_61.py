"""Mutant: double-deck bids go up by ones above 60 too (61 accepted)."""

from . import Mutant, replace_auction

MUTANT = Mutant(
    name="dd-bid-61",
    misreading="above 60 bids still go up by ones, so 61 is a legal bid",
    caught_by="AUCTION-STEP",
    variants=("double-deck",),
    rules=replace_auction(unit_above=None),
)
