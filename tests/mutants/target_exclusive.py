"""Mutant: the game is won only above the target, not on reaching it exactly."""

import dataclasses

from reference_engine.variants import Rules

from . import Mutant


def above_target(rules: Rules) -> Rules:
    """The rules with the target one point higher (reaching it exactly does not win)."""
    return dataclasses.replace(rules, target=rules.target + 1)


MUTANT = Mutant(
    name="target-exclusive",
    misreading="a side must pass the target to win; reaching it exactly is not enough",
    caught_by="GAME-TARGET",
    variants=("online",),
    rules=above_target,
)
