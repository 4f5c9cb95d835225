"""The architecture change kept every verdict: each case's outcome, case by case, as recorded
before it (tests/data/outcomes-before-issue-8.json, from the suite at c7fb0e7).

New cases may be added; a recorded case may not vanish or change outcome. The wrong engines'
records are checked in tests/test_mutants.py, where their runs already happen.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from tests.suite_runs import run_suite

BEFORE = Path(__file__).parent / "data" / "outcomes-before-issue-8.json"


@cache
def recorded() -> dict[str, Any]:
    """Outcomes per engine recorded before the change: ``reference`` and one entry per mutant."""
    data: dict[str, Any] = json.loads(BEFORE.read_text(encoding="utf-8"))
    return data


def test_every_recorded_case_keeps_its_outcome_on_the_reference_engine() -> None:
    before: dict[str, str] = recorded()["reference"]
    run = run_suite(None)
    assert len(before) == 1305
    missing = sorted(before.keys() - run.outcomes.keys())
    assert not missing, f"{len(missing)} recorded cases are gone: {missing[:10]}"
    changed = {
        k: (v, run.outcomes[k]["outcome"])
        for k, v in before.items()
        if run.outcomes[k]["outcome"] != v
    }
    assert not changed, f"{len(changed)} cases changed outcome: {list(changed.items())[:10]}"
