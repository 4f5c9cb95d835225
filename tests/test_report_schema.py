"""The JSON report (``--conformance-report``) is what spec/schema/report.schema.json says, for a
passing engine and a buggy one; the schema itself refuses what a report must never hold."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

from pinochle_tools.site import reports
from specdata import load_schema
from tests.report_runs import BUGGY, document_of
from tests.report_runs import prefetch as prefetch  # its runs start early: conftest.py

pytestmark = pytest.mark.slow  # the reports come from whole-suite runs in child processes


def validator() -> jsonschema.Draft202012Validator:
    schema = load_schema("report.schema.json")
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def combined_validator() -> jsonschema.Draft202012Validator:
    """The combined report's schema, its reference to the single report's resolved, formats
    checked too (the suite's own checker, ``reports.checker``, leaves formats alone)."""
    schemas = [load_schema(n) for n in (reports.SINGLE, reports.COMBINED)]
    registry: Registry[Any] = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in schemas
    )
    return jsonschema.Draft202012Validator(
        schemas[1], registry=registry, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def problems(document: dict[str, Any]) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator().iter_errors(document)
    ]


@pytest.mark.parametrize("engine", [None, BUGGY], ids=["reference", "no-last-trick"])
def test_a_real_report_follows_the_schema(engine: str | None) -> None:
    document = document_of(engine)
    assert problems(document) == []
    assert document["cases"], "the report holds no case"


def test_the_buggy_run_exercises_charges_and_the_diagnosis() -> None:
    """So the schema's failure parts are checked against real data, not only the passing shape."""
    document = document_of(BUGGY)
    assert any("charge" in case for case in document["cases"].values())
    assert document["diagnosis"] and document["diagnosis"][0]["evidence"]


def _broken(change: str) -> dict[str, Any]:
    document = copy.deepcopy(document_of(BUGGY))
    node, case = next((n, c) for n, c in document["cases"].items() if "charge" in c)
    if change == "outcome":
        case["outcome"] = "xfailed"
    elif change == "rule":
        case["rule"] = "points-last-trick"
    elif change == "totals":
        del document["totals"]["errored"]
    elif change == "unknown field":
        case["verdict"] = "bad"
    elif change == "node":
        document["cases"]["no-separator"] = document["cases"].pop(node)
    return document


@pytest.mark.parametrize("change", ["outcome", "rule", "totals", "unknown field", "node"])
def test_the_schema_refuses_a_broken_report(change: str) -> None:
    assert problems(_broken(change)), f"a report with a bad {change} passed the schema"


def test_a_failure_can_be_replayed_from_the_report() -> None:
    """The report carries the suite, the time and, per case, where it ran, what it asked
    (the request line) and, when it did not pass, the failure text."""
    document = document_of(BUGGY)
    assert document["format"] == 4 and document["suite"]["name"] == "pinochle-spec"
    assert document["time"]
    failed = [c for c in document["cases"].values() if c["outcome"] == "failed"]
    assert failed and all(c.get("message") and c.get("request") for c in failed)
    table = document["cases"]["features/tables/meld-double-deck.yaml::dd-meld-run-single"]
    assert table["variant"] == "double-deck" and table["method"] == "meld"
    request = json.loads(table["request"])
    assert request["method"] == "meld" and request["params"]["variant"] == "double-deck"
    scenarios = [c for n, c in document["cases"].items() if "::test_" in n and c.get("request")]
    assert scenarios, "no scenario carries its request line"


def test_a_combined_report_of_real_runs_follows_its_schema() -> None:
    """``pinochle test --engine A --engine B --conformance-report FILE``: each engine's
    report unchanged inside combined-report.schema.json, every one checked by report.schema.json."""
    jsonschema.Draft202012Validator.check_schema(load_schema(reports.COMBINED))
    combined = combined_validator()
    document = reports.combined([document_of(None), document_of(BUGGY)], 1)
    assert [e.message for e in combined.iter_errors(document)] == []
    broken = reports.combined([document_of(None), _broken("outcome")], 1)
    assert [list(e.absolute_path)[:2] for e in combined.iter_errors(broken)] == [["reports", 1]]
