"""The whole-hands feature."""

from pytest_bdd import scenarios

scenarios("whole-hands.feature")
