"""``pinochle suite export``: every scenario-table case as a ready protocol request with the answer
the rules require, and the comparison's field map as data, in one JSON document."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from pinochle_adapters.protocol import PROTOCOL_VERSION, RULE_METHODS

from .compare import KINDS, field_map
from .tables import Case, load_cases

FORMAT_VERSION = 2
"""Version of the export file's layout (2: the comparison is the per-method field map)."""


def comparison() -> dict[str, Any]:
    """How to compare an answer with ``expect``: the suite's field map, written out as data."""
    return {
        "summary": (
            "A case passes when every key under `expect` matches the engine's result for "
            "`method` called with `params`. Keys of the result that `expect` does not name are "
            "ignored. Each field compares by its kind in `fields` (paths like `tricks[].cards`; "
            "`[]` is every item of a list); a field not listed compares `exact`."
        ),
        "kinds": dict(KINDS),
        "fields": {method: field_map(method) for method in RULE_METHODS},
        "skipping": (
            "run a case only when the engine implements its method, its variant and every "
            "option value in params.options; otherwise report it skipped"
        ),
    }


def case_record(case: Case) -> dict[str, Any]:
    """One case as exported: a ready request and the answer the rules require."""
    return {
        "id": case.id,
        "file": case.file,
        "line": case.line,
        "area": case.area,
        "rules": list(case.rules),
        "negative": case.negative,
        "variant": case.variant,
        "options": dict(case.options),
        "method": case.method,
        "params": case.request,
        "expect": case.expect,
        "why": case.why,
    }


def _suite_version() -> str:
    try:
        return metadata.version("pinochle-spec")
    except metadata.PackageNotFoundError:
        return "unknown"


def export(cases: Sequence[Case]) -> dict[str, Any]:
    """The export document for these cases."""
    return {
        "format": FORMAT_VERSION,
        "protocol": PROTOCOL_VERSION,
        "generator": f"pinochle-spec {_suite_version()}",
        "comparison": comparison(),
        "cases": [case_record(c) for c in cases],
    }


def export_cases(
    variants: Iterable[str] = (),
    methods: Iterable[str] = (),
    tables: Iterable[Path | str] | None = None,
) -> list[Case]:
    """The cases to export: every table's (or ``tables``'), narrowed to variants and methods.

    Raises CaseError (a ValueError naming file and line) when a table is broken.
    """
    cases = load_cases(tables)
    chosen_variants, chosen_methods = set(variants), set(methods)
    return [
        c
        for c in cases
        if (not chosen_variants or c.variant in chosen_variants)
        and (not chosen_methods or c.method in chosen_methods)
    ]


def export_json(cases: Sequence[Case]) -> str:
    """The export document as JSON text."""
    return json.dumps(export(cases), indent=1, ensure_ascii=False) + "\n"


def export_suite(
    path: Path | str,
    *,
    variants: Iterable[str] = (),
    methods: Iterable[str] = (),
    tables: Iterable[Path | str] | None = None,
) -> int:
    """Write the export to ``path``; the number of cases written. Nothing is written if a table
    is broken (CaseError)."""
    cases = export_cases(variants, methods, tables)
    Path(path).write_text(export_json(cases), encoding="utf-8")
    return len(cases)
