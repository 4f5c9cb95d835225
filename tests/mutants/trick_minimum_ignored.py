"""Mutant: no trick minimum in double-deck: meld alone can make the contract."""

from . import Mutant, replace_rules

MUTANT = Mutant(
    name="trick-minimum-ignored",
    misreading="bidders with under 20 in tricks can still make it on meld",
    caught_by="SCORE-TRICK-MINIMUM",
    variants=("double-deck",),
    rules=replace_rules(trick_minimum=0),
)
