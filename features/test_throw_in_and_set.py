"""The throw-in-and-set feature."""

from pytest_bdd import scenarios

scenarios("throw-in-and-set.feature")
