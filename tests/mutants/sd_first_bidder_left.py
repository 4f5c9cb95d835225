"""Mutant: single-deck bidding starts left of the dealer, as in double-deck."""

from . import Mutant, replace_auction

MUTANT = Mutant(
    name="sd-first-bidder-left",
    misreading="the player left of the dealer bids first in single-deck too",
    caught_by="AUCTION-FIRST-BIDDER",
    variants=("single-deck",),
    rules=replace_auction(first_bidder="left-of-dealer"),
)
