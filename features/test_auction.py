"""The auction feature."""

from pytest_bdd import scenarios

scenarios("auction.feature")
