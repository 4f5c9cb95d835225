"""Mutant: no bid-to-win: past 400 each, either side still wins by reaching 500."""

from . import Mutant, replace_rules

MUTANT = Mutant(
    name="bid-to-win-ignored",
    misreading="with both sides at 400 or more, the non-bidders can still win",
    caught_by="GAME-BID-TO-WIN",
    variants=("double-deck",),
    rules=replace_rules(bid_to_win=None),
)
