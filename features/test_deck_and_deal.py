"""The deck-and-deal feature."""

from pytest_bdd import scenarios

scenarios("deck-and-deal.feature")
