"""The hand-scoring feature."""

from pytest_bdd import scenarios

scenarios("hand-scoring.feature")
