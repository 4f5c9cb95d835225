"""The trick-winner feature."""

from pytest_bdd import scenarios

scenarios("trick-winner.feature")
