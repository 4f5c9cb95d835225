"""Mutant: a team's meld under the minimum (20) still scores."""

from reference_engine.variants import Rules

from . import Mutant


def counted_meld(rules: Rules, raw: int) -> int:
    """As ``scoring.counted_meld``, but the minimum is ignored."""
    return raw


MUTANT = Mutant(
    name="meld-minimum-ignored",
    misreading="meld under 20 still scores",
    caught_by="MELD-MINIMUM",
    variants=("double-deck",),
    patches={"reference_engine.scoring.counted_meld": counted_meld},
)
