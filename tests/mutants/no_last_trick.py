"""Mutant: no bonus for the last trick."""

from . import Mutant, replace_rules

MUTANT = Mutant(
    name="no-last-trick",
    misreading="the last trick earns no bonus",
    caught_by="POINTS-LAST-TRICK",
    variants=("double-deck",),
    rules=replace_rules(last_trick=0),
)
