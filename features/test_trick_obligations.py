"""The trick-obligations feature."""

from pytest_bdd import scenarios

scenarios("trick-obligations.feature")
