"""Conformance reports as files: one engine's report (spec/schema/report.schema.json), or the
combined report of several engines (combined-report.schema.json) that ``pinochle test --engine A
--engine B --conformance-report FILE`` writes; both checked by the one schema checker."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from specdata import Checker, load_schema
from specdata.files import write_atomic

SINGLE = "report.schema.json"
COMBINED = "combined-report.schema.json"
COMBINED_FORMAT = 1


@cache
def checker(name: str) -> Checker:
    """The checker of the schema ``name`` (SINGLE or COMBINED), resolving the one's reference to
    the other (the combined report's items are single reports)."""
    return Checker(load_schema(name), [load_schema(n) for n in (SINGLE, COMBINED)])


def is_combined(document: Any) -> bool:
    """Whether a report file's content is a combined report (it says ``"combined": N``)."""
    return isinstance(document, dict) and "combined" in document


def combined(
    reports: Sequence[dict[str, Any]], exit_status: int, missing: Sequence[dict[str, Any]] = ()
) -> dict[str, Any]:
    """The combined report of several engines' reports (each kept as it is)."""
    document: dict[str, Any] = {
        "combined": COMBINED_FORMAT,
        "exit_status": exit_status,
        "reports": list(reports),
    }
    if missing:
        document["missing"] = list(missing)
    return document


def write_combined(
    path: Path, report_paths: Sequence[Path], exit_status: int, missing: Sequence[dict[str, Any]]
) -> None:
    """Write the combined report of the single reports in ``report_paths`` to ``path``, whole
    or not at all."""
    reports = [json.loads(p.read_text(encoding="utf-8")) for p in report_paths]
    write_atomic(path, json.dumps(combined(reports, exit_status, missing), indent=1) + "\n")
