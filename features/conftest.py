"""Wires the conformance suite: the installed ``pytest_pinochle`` plugin runs it; this names the
step library (./steps) the scenarios use, and runs them through its books (``Speaker``)."""

import pytest

from .steps import given, phrasebook, then, when


def pytest_configure(config: pytest.Config) -> None:
    for steps in (given, when, then):
        config.pluginmanager.register(steps, steps.__name__)
    config.pluginmanager.register(
        phrasebook.Speaker(given.given, when.when, then.then), phrasebook.__name__
    )
