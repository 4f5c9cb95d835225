"""``pinochle suite export``: every case as a ready protocol request with its expected answer,
judged by the same field map that the suite uses (written into the export as data)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pinochle_adapters import protocol
from pinochle_adapters.reference import server
from pinochle_judge.cases import CaseError, load_cases
from pinochle_judge.compare import compare, field_map
from pinochle_tools import export


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("export") / "cases.json"
    assert export.export_suite(out, scenarios=False) == len(load_cases())
    document: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return document


def test_every_case_is_exported_once(exported: dict[str, Any]) -> None:
    assert exported["format"] == export.FORMAT_VERSION
    assert exported["protocol"] == protocol.PROTOCOL_VERSION
    ids = [c["id"] for c in exported["cases"]]
    assert ids == [c.id for c in load_cases()]
    assert len(ids) == len(set(ids)) > 0
    fields = {"id", "kind", "file", "line", "area", "rule", "uses", "rules", "negative", "variant"}
    for case in exported["cases"]:
        assert fields | {"options", "method", "params", "expect", "checks", "why"} == set(case)
        assert case["kind"] == "table" and case["checks"] == []
        assert case["rules"] == [case["rule"], *case["uses"]]
    assert export.validate(exported) == []


def test_every_exported_request_follows_the_protocol(exported: dict[str, Any]) -> None:
    problems = [
        f"{c['id']}: {problem}"
        for c in exported["cases"]
        if (problem := protocol.check_params(c["method"], c["params"])) is not None
    ]
    assert problems == []
    for case in exported["cases"]:
        assert case["params"]["variant"] == case["variant"]
        assert case["params"]["options"] == case["options"]


def test_exported_expectations_pass_against_the_reference(exported: dict[str, Any]) -> None:
    """The exported expectations, judged by the exported comparison, hold for the reference."""
    engine = server()
    failing = []
    for number, record in enumerate(exported["cases"]):
        request = protocol.request(number, record["method"], record["params"])
        reply = json.loads(engine.handle_line(protocol.encode(request)))
        if compare(record["method"], record["expect"], reply.get("result") or {}):
            failing.append(record["id"])
    assert failing == []


def test_expected_card_lists_are_lists_of_codes(exported: dict[str, Any]) -> None:
    tricks = [
        t["cards"]
        for c in exported["cases"]
        if c["method"] == "play_hand"
        for t in c["expect"].get("tricks") or []
    ]
    assert tricks and all(isinstance(cards, list) for cards in tricks)
    legal = [c["expect"]["cards"] for c in exported["cases"] if c["method"] == "legal_plays"]
    assert legal and all(isinstance(cards, list) for cards in legal)


def test_the_comparison_is_the_suites_field_map(exported: dict[str, Any]) -> None:
    comparison = exported["comparison"]
    assert comparison["fields"] == {m: field_map(m) for m in protocol.RULE_METHODS}
    assert comparison["fields"]["play_hand"]["tricks[].cards"] == "sequence"
    kinds = {k for fields in comparison["fields"].values() for k in fields.values()}
    assert kinds <= set(comparison["kinds"])


def test_filters() -> None:
    cases = export.export_cases(variants=["double-deck"], methods=["auction"])
    assert cases
    assert {(c.variant, c.method) for c in cases} == {("double-deck", "auction")}


@pytest.mark.parametrize(
    ("selection", "named"),
    [
        ({"variants": ["triple"]}, r"unknown variant triple: known variants are double-deck, "),
        ({"methods": ["foo"]}, r"unknown method foo: known methods are deal, meld, "),
    ],
)
def test_an_unknown_variant_or_method_is_an_error_naming_the_known_ones(
    tmp_path: Path, selection: dict[str, list[str]], named: str
) -> None:
    """Before: "0 cases" written and exit 0."""
    with pytest.raises(export.ExportError, match=named):
        export.export_suite(tmp_path / "out.json", **selection)  # type: ignore[arg-type]
    with pytest.raises(export.ExportError, match=named):
        export.export_cases(**selection)
    assert not (tmp_path / "out.json").exists()


def test_an_unknown_variant_is_refused_by_the_command(tmp_path: Path) -> None:
    from pinochle_cli import main

    assert main(["suite", "export", str(tmp_path / "x.json"), "--variant", "triple"]) == 2
    assert not (tmp_path / "x.json").exists()


def test_a_broken_table_is_reported_with_its_file(tmp_path: Path) -> None:
    table = tmp_path / "meld-broken.yaml"
    table.write_text("area: meld\nmethod: meld\nvariant: double-deck\ncases: [\n", encoding="utf-8")
    with pytest.raises(CaseError, match=r"meld-broken\.yaml"):
        export.export_suite(tmp_path / "out.json", tables=[table])
    assert not (tmp_path / "out.json").exists()
