"""Mutant: the meld minimum is applied with ``<=``: a team with exactly 20 meld scores none."""

from reference_engine.variants import Rules

from . import Mutant


def counted_meld(rules: Rules, raw: int) -> int:
    """As ``scoring.counted_meld``, but the minimum itself is not enough (``raw <= 20`` is 0)."""
    return raw if raw > rules.meld_minimum else 0


MUTANT = Mutant(
    name="meld-minimum-inclusive",
    misreading="a team needs more than 20 meld; exactly 20 scores nothing",
    caught_by="MELD-MINIMUM",
    variants=("double-deck",),
    patches={"reference_engine.scoring.counted_meld": counted_meld},
)
