"""The card-points feature."""

from pytest_bdd import scenarios

scenarios("card-points.feature")
