"""Mutant: the double-deck bidder may name any suit trump, marriage or not."""

from . import Mutant, replace_rules

MUTANT = Mutant(
    name="trump-without-marriage",
    misreading="trump may be any suit; no K-Q of it is needed",
    caught_by="TRUMP-MARRIAGE",
    variants=("double-deck",),
    rules=replace_rules(trump_requires_marriage=False),
)
