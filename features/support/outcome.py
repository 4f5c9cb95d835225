"""How one test report counts for the conformance summary: passed, skipped, failed or errored."""

from __future__ import annotations

import pytest

SEVERITY = {"passed": 0, "skipped": 1, "failed": 2, "errored": 3}
"""Outcomes from best to worst; an item counts once, by its worst report."""


def outcome_of(report: pytest.TestReport) -> str:
    """A wrong answer fails in the call phase; an engine that misbehaves errors in setup."""
    if report.failed:
        return "failed" if report.when == "call" else "errored"
    return "skipped" if report.skipped else "passed"
