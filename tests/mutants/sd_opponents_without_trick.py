"""Mutant: single-deck opponents score their meld without taking a trick."""

from . import Mutant, replace_rules

MUTANT = Mutant(
    name="sd-opponents-without-trick",
    misreading="opponents who take no trick still score their meld",
    caught_by="SCORE-OPPONENTS-TRICK",
    variants=("single-deck",),
    rules=replace_rules(opponents_need_trick=False),
)
