"""Mutant: after three passes the dealer may pass too (the hand is passed out)."""

from reference_engine import auction
from reference_engine.auction import AuctionState
from reference_engine.variants import Rules

from . import Mutant

_forced_bid = auction.forced_bid


def forced_bid(state: AuctionState, rules: Rules) -> tuple[str, int] | None:
    """As ``auction.forced_bid``, without AUCTION-DEALER-FORCED: four passes end the auction."""
    forced = _forced_bid(state, rules)
    return None if forced is not None and forced[0] == "AUCTION-DEALER-FORCED" else forced


MUTANT = Mutant(
    name="dealer-may-pass",
    misreading="the dealer may pass after three passes (no forced bid)",
    caught_by="AUCTION-DEALER-FORCED",
    variants=("double-deck",),
    patches={"reference_engine.auction.forced_bid": forced_bid},
)
