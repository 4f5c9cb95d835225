"""The meld feature (rules MELD-*)."""

from pytest_bdd import scenarios

scenarios("meld.feature")
