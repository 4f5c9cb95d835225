"""Mutant: after three passes the dealer may pass too (the hand is passed out)."""

from dataclasses import replace

from reference_engine import auction
from reference_engine.auction import AuctionState, Call
from reference_engine.variants import Rules

from . import Mutant

_forced_bid = auction.forced_bid
_advance = auction._advance


def forced_bid(state: AuctionState, rules: Rules) -> tuple[str, int] | None:
    """As ``auction.forced_bid``, without AUCTION-DEALER-FORCED."""
    forced = _forced_bid(state, rules)
    return None if forced is not None and forced[0] == "AUCTION-DEALER-FORCED" else forced


def advance(state: AuctionState, rules: Rules, seat: int, call: Call) -> AuctionState:
    """As ``auction._advance``, but four passes end the auction with no winner."""
    if call is None and state.high_bid is None and len(state.passed | {seat}) == 4:
        return replace(
            state,
            calls=(*state.calls, (seat, call)),
            passed=state.passed | {seat},
            next_seat=None,
            dealer_spoken=True,
        )
    return _advance(state, rules, seat, call)


MUTANT = Mutant(
    name="dealer-may-pass",
    misreading="the dealer may pass after three passes (no forced bid)",
    caught_by="AUCTION-DEALER-FORCED",
    variants=("double-deck",),
    patches={
        "reference_engine.auction.forced_bid": forced_bid,
        "reference_engine.auction._advance": advance,
    },
)
