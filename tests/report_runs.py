"""Conformance reports of real suite runs, made once per test process and shared by the tests of
the report's schema, the known failures, the site, the engine paths and the recorded outcomes:
the reference engine and one planted bug."""

from __future__ import annotations

import json
import tempfile
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from tests.suite_runs import SuiteRun, python_engine, start_suite

BUGGY = python_engine("tests.mutants", "no-last-trick")
"""An engine with one planted bug: the last trick's 10 points are never counted
(POINTS-LAST-TRICK)."""
REPORTS = Path(tempfile.mkdtemp(prefix="pinochle-reports-"))


def _report_path(engine: str | None) -> Path:
    return REPORTS / f"{'reference' if engine is None else engine.split()[-1]}.json"


def _start(engine: str | None) -> Future[SuiteRun]:
    # The last --conformance-report wins: the report is kept here, not in run_suite's tempdir.
    return start_suite(engine, extra=["--conformance-report", str(_report_path(engine))])


def prefetch() -> None:
    """Start both runs in the background (tests/conftest.py calls this for the modules using
    them), so they are made while other tests run."""
    _start(None)
    _start(BUGGY)


def report_of(engine: str | None) -> tuple[Path, SuiteRun]:
    """The ``--conformance-report`` file of the whole suite against ``engine`` (None: the
    reference engine in-process), and the run."""
    run = _start(engine).result()
    path = _report_path(engine)
    assert path.exists(), f"the suite wrote no report:\n{run.tail()}"
    return path, run


def document_of(engine: str | None) -> dict[str, Any]:
    """The report of ``report_of(engine)`` as JSON."""
    data: dict[str, Any] = json.loads(report_of(engine)[0].read_text(encoding="utf-8"))
    return data
