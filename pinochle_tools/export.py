"""``pinochle suite export``: every case of the suite (table cases and the Gherkin scenarios'
questions) as a ready protocol request with the answer the rules require, and how to compare it.

The document follows spec/schema/export.schema.json; ``check_record`` is the comparison a runner
in any language reproduces from the document's ``comparison`` section.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pinochle_adapters.protocol import PROTOCOL_VERSION, RULE_METHODS
from pinochle_judge import wording
from pinochle_judge.cases import Case, load_cases
from pinochle_judge.compare import KINDS, Mismatch, compare, compare_at, field_map, meld_diff
from specdata import checker, suite_version, variant_ids
from specdata.files import write_atomic

FORMAT_VERSION = 3
"""Version of the export file's layout (2: the comparison is the per-method field map; 3: the
scenarios' questions are records too, every record has ``kind``, ``rule``, ``uses`` and
``checks``)."""
SCHEMA = "export.schema.json"

CHECK_KINDS: dict[str, str] = {
    "length": "every item found at `at` (each `[]` is every item of a list) is a list of `value` "
    "items",
    "melds-include": (
        "every meld entry of `value` is among the reported melds, matched as the `melds` kind "
        "matches them; other reported entries are allowed"
    ),
}
"""Kinds of a record's ``checks`` beyond the field kinds (written out by the export)."""


class ExportError(ValueError):
    """The export cannot be made as asked (an unknown variant or method); the message names the
    known ones."""


def comparison() -> dict[str, Any]:
    """How to compare an answer with ``expect`` and ``checks``: the suite's field map as data."""
    return {
        "summary": (
            "A case passes when every key under `expect` matches the engine's result for "
            "`method` called with `params`, and every entry of `checks` holds. Keys of the "
            "result that `expect` does not name are ignored. Each field compares by its kind in "
            "`fields` (paths like `tricks[].cards`; `[]` is every item of a list); a field not "
            "listed compares `exact`."
        ),
        "kinds": dict(KINDS),
        "fields": {method: field_map(method) for method in RULE_METHODS},
        "checks": {
            "summary": (
                "What a scenario's Then steps expect of one part of the answer: `at` is a path "
                "into the result (`hands[2]` is the third hand, `hands[]` every hand), `kind` "
                "how the value found there compares with `value`: a kind of `kinds` (the field "
                "map's kind for that path), or one of these"
            ),
            "kinds": dict(CHECK_KINDS),
        },
        "skipping": (
            "run a case only when the engine implements its method, its variant and every "
            "option value in params.options; otherwise report it skipped"
        ),
    }


def case_record(case: Case) -> dict[str, Any]:
    """One table case as exported: a ready request and the answer the rules require."""
    return {
        "id": case.id,
        "kind": "table",
        "file": case.file,
        "line": case.line,
        "area": case.area,
        "rule": case.rule,
        "uses": list(case.uses),
        "rules": list(case.rules),
        "negative": case.negative,
        "variant": case.variant,
        "options": dict(case.options),
        "method": case.method,
        "params": case.request,
        "expect": case.expect,
        "checks": [],
        "why": case.why,
    }


def export(cases: Sequence[Case], scenarios: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The export document: these table cases, then these scenario records."""
    return {
        "format": FORMAT_VERSION,
        "protocol": PROTOCOL_VERSION,
        "generator": f"pinochle-spec {suite_version()}",
        "comparison": comparison(),
        "cases": [*(case_record(c) for c in cases), *scenarios],
    }


def check_selection(variants: Iterable[str] = (), methods: Iterable[str] = ()) -> None:
    """Raise ExportError for a variant or method the suite does not have, naming the known ones."""
    unknown_variants = sorted(set(variants) - set(variant_ids()))
    if unknown_variants:
        raise ExportError(
            f"unknown variant {', '.join(unknown_variants)}: known variants are "
            + ", ".join(variant_ids())
        )
    unknown_methods = sorted(set(methods) - set(RULE_METHODS))
    if unknown_methods:
        raise ExportError(
            f"unknown method {', '.join(unknown_methods)}: known methods are "
            + ", ".join(RULE_METHODS)
        )


def export_cases(
    variants: Iterable[str] = (),
    methods: Iterable[str] = (),
    tables: Iterable[Path | str] | None = None,
) -> list[Case]:
    """The table cases to export: every table's (or ``tables``'), narrowed to variants and methods.

    Raises CaseError (a ValueError naming file and line) when a table is broken, ExportError for
    an unknown variant or method.
    """
    chosen_variants, chosen_methods = set(variants), set(methods)
    check_selection(chosen_variants, chosen_methods)
    cases = load_cases(tables)
    return [
        c
        for c in cases
        if (not chosen_variants or c.variant in chosen_variants)
        and (not chosen_methods or c.method in chosen_methods)
    ]


def scenario_records(
    variants: Iterable[str] = (), methods: Iterable[str] = (), engine: str | None = None
) -> list[dict[str, Any]]:
    """The Gherkin scenarios' questions as export records, narrowed to variants and methods.

    The scenarios run once in a child pytest against ``engine`` (default: the reference engine)
    only to learn what they ask; the expectations are the step text's. Against the reference a
    scenario it fails is the suite's fault: CaptureError names it.
    """
    from .scenario_capture import CaptureError, capture_scenarios  # runs a child pytest

    chosen_variants, chosen_methods = set(variants), set(methods)
    check_selection(chosen_variants, chosen_methods)
    captured = capture_scenarios(engine)
    if engine is None and captured.disagreements:
        shown = "; ".join(f"{k}: {v[0]}" for k, v in list(captured.disagreements.items())[:3])
        raise CaptureError(f"scenarios the reference engine fails (a suite bug): {shown}")
    return [
        r
        for r in captured.records
        if (not chosen_variants or r["variant"] in chosen_variants)
        and (not chosen_methods or r["method"] in chosen_methods)
    ]


def export_document(
    variants: Iterable[str] = (),
    methods: Iterable[str] = (),
    tables: Iterable[Path | str] | None = None,
    scenarios: bool | None = None,
) -> dict[str, Any]:
    """The export document for the selection. Scenarios are included unless ``scenarios`` is
    False; by default they are left out when ``tables`` names tables of one's own."""
    variants, methods = list(variants), list(methods)
    cases = export_cases(variants, methods, tables)
    with_scenarios = tables is None if scenarios is None else scenarios
    records = scenario_records(variants, methods) if with_scenarios else []
    return export(cases, records)


def export_json(cases: Sequence[Case], scenarios: Sequence[dict[str, Any]] = ()) -> str:
    """The export document as JSON text."""
    return to_json(export(cases, scenarios))


def to_json(document: dict[str, Any]) -> str:
    """An export document as the JSON text written."""
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def export_suite(
    path: Path | str,
    *,
    variants: Iterable[str] = (),
    methods: Iterable[str] = (),
    tables: Iterable[Path | str] | None = None,
    scenarios: bool | None = None,
) -> int:
    """Write the export to ``path`` (``-``: standard output); the number of records written.
    Nothing is written if a table is broken (CaseError) or the selection is unknown."""
    document = export_document(variants, methods, tables, scenarios)
    text = to_json(document)
    if str(path) == "-":
        import sys

        sys.stdout.write(text)
    else:
        write_atomic(Path(path), text)
    return len(document["cases"])


# --- reading an export ----------------------------------------------------------------------


def validate(document: Any) -> list[str]:
    """Why ``document`` is not a valid export (spec/schema/export.schema.json); empty if it is."""
    schema = checker(SCHEMA)
    if schema.is_valid(document):
        return []
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(document)'}: {e.message}"
        for e in sorted(schema.errors(document), key=lambda e: list(e.absolute_path))
    ]


_STEP = re.compile(r"\.?([^.\[\]]+)|\[(\d*)\]")


def values_at(answer: Any, path: str) -> list[Any]:
    """The values found at ``path`` of an answer (``hands[2]`` one, ``hands[]`` every hand);
    nothing where the answer lacks a part of the path."""
    found = [answer]
    for key, index in _STEP.findall(path):
        step: list[Any] = []
        for value in found:
            if key:
                if isinstance(value, dict) and key in value:
                    step.append(value[key])
            elif isinstance(value, list):
                if index == "":
                    step.extend(value)
                elif int(index) < len(value):
                    step.append(value[int(index)])
        found = step
    return found


def run_check(method: str, check: dict[str, Any], answer: dict[str, Any]) -> list[Mismatch]:
    """How ``answer`` fails one of a record's ``checks`` (empty when it holds)."""
    at, kind, want = check["at"], check["kind"], check["value"]
    found = values_at(answer, at)
    if not found:
        return [Mismatch(at, wording.missing(want))]
    if kind == "length":
        return [
            Mismatch(at, wording.item_count(want, v))
            for v in found
            if not isinstance(v, list) or len(v) != want
        ]
    if kind == "melds-include":
        got = found[0]
        if not isinstance(got, list):
            return [Mismatch(at, wording.not_a_meld_list(got))]
        missing = meld_diff(want, got).missing
        return [Mismatch(at, wording.meld_missing(m)) for m in missing]
    generic = re.sub(r"\[\d+\]", "[]", at)
    return [m for value in found for m in compare_at(method, generic, want, value)]


def check_record(record: dict[str, Any], answer: dict[str, Any]) -> list[Mismatch]:
    """How ``answer`` differs from what an exported record requires (empty when it conforms):
    its ``expect`` by the field map, then each of its ``checks``."""
    method = record["method"]
    out = compare(method, record["expect"], answer)
    for check in record.get("checks", []):
        out.extend(run_check(method, check, answer))
    return out
