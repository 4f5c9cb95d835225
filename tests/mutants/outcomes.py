"""A pytest plugin recording each conformance item's outcome and rule IDs as JSON.

``pytest features/ -p tests.mutants.outcomes`` with ``PINOCHLE_OUTCOMES=path`` writes
``{nodeid: {"outcome": passed|failed|errored|skipped, "rules": [...], "skip": reason}}``,
read from the items' ``rule`` marks, so it does not depend on the wording of the terminal summary.
"""

from __future__ import annotations

import json
import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from features.support.outcome import SEVERITY, outcome_of

ENV = "PINOCHLE_OUTCOMES"
_outcomes: dict[str, dict[str, Any]] = {}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    status = outcome_of(report)
    entry = _outcomes.setdefault(
        item.nodeid,
        {
            "outcome": "passed",
            "rules": sorted(
                {m.kwargs["id"] for m in item.iter_markers("rule") if "id" in m.kwargs}
            ),
        },
    )
    if SEVERITY[status] > SEVERITY[entry["outcome"]]:
        entry["outcome"] = status
        if status == "skipped" and isinstance(report.longrepr, tuple):
            entry["skip"] = str(report.longrepr[2])
    return report


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = os.environ.get(ENV)
    if path:
        Path(path).write_text(json.dumps(_outcomes, indent=1, sort_keys=True), encoding="utf-8")
