"""Wires the conformance suite: the installed ``pytest_pinochle`` plugin runs it; this names the
step library (./steps) the scenarios use."""

import pytest

from .steps import given, then, when


def pytest_configure(config: pytest.Config) -> None:
    for steps in (given, when, then):
        config.pluginmanager.register(steps, steps.__name__)
