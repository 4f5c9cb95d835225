"""Mutant: the double-deck trick minimum is applied with ``<=``: 20 in tricks is not enough."""

from . import Mutant, replace_rules

MUTANT = Mutant(
    name="trick-minimum-inclusive",
    misreading="a side needs more than 20 in tricks; exactly 20 counts as short",
    caught_by="SCORE-TRICK-MINIMUM",
    variants=("double-deck",),
    # "fewer than 20" read as "20 or fewer" is the same as a minimum of 21.
    rules=replace_rules(trick_minimum=21),
)
