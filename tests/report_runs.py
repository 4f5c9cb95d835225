"""Conformance reports of real suite runs, made once per test process and shared by the tests of
the report's schema, the known failures and the site: the reference engine and one planted bug."""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path
from typing import Any

from tests.suite_runs import SuiteRun, python_engine, run_suite

BUGGY = python_engine("tests.mutants", "no-last-trick")
"""An engine with one planted bug: the last trick's 10 points are never counted
(POINTS-LAST-TRICK)."""
REPORTS = Path(tempfile.mkdtemp(prefix="pinochle-reports-"))


@functools.cache
def report_of(engine: str | None) -> tuple[Path, SuiteRun]:
    """The ``--conformance-report`` file of the whole suite against ``engine`` (None: the
    reference engine in-process), and the run."""
    path = REPORTS / f"{'reference' if engine is None else engine.split()[-1]}.json"
    # The last --conformance-report wins: the report is kept here, not in run_suite's tempdir.
    run = run_suite(engine, extra=["--conformance-report", str(path)])
    assert path.exists(), f"the suite wrote no report:\n{run.tail()}"
    return path, run


def document_of(engine: str | None) -> dict[str, Any]:
    """The report of ``report_of(engine)`` as JSON."""
    data: dict[str, Any] = json.loads(report_of(engine)[0].read_text(encoding="utf-8"))
    return data
