"""How one test report counts for the conformance summary: passed, skipped, failed or errored."""

from __future__ import annotations

import pytest

ENGINE_ERROR = "engine_error"
"""User property set on a report whose failure was the engine's, not a wrong answer."""

SEVERITY = {"passed": 0, "skipped": 1, "failed": 2, "errored": 3}
"""Outcomes from best to worst; an item counts once, by its worst report."""


def outcome_of(report: pytest.TestReport) -> str:
    """A wrong answer fails; an engine that misbehaves (in a table case's setup or a scenario's
    step) errors."""
    if report.failed:
        engine_error = any(key == ENGINE_ERROR for key, _ in report.user_properties)
        return "failed" if report.when == "call" and not engine_error else "errored"
    return "skipped" if report.skipped else "passed"
