"""The trump-and-passing feature."""

from pytest_bdd import scenarios

scenarios("trump-and-passing.feature")
