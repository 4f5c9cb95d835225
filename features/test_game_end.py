"""The game-end feature."""

from pytest_bdd import scenarios

scenarios("game-end.feature")
