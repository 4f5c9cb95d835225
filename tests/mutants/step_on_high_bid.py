"""Mutant: double-deck's step rule is judged on the high bid, not on the bid made."""

from reference_engine import auction
from reference_engine.variants import Rules

from . import Mutant

_step_ok = auction.step_ok


def step_ok(bid: int, high: int | None, rules: Rules) -> bool:
    """As ``auction.step_ok``, but "above 60 only fives" looks at the high bid: after 58 or 60 a
    bid of 61 passes, since the high bid is not above 60."""
    a = rules.auction
    if a.unit_above is not None and high is not None and high <= a.unit_above[0]:
        return bid % a.unit == 0
    return _step_ok(bid, high, rules)


MUTANT = Mutant(
    name="step-on-high-bid",
    misreading="above 60 bids go up in fives only once the high bid is above 60",
    caught_by="AUCTION-STEP",
    variants=("double-deck",),
    patches={"reference_engine.auction.step_ok": step_ok},
)
