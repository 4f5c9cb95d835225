"""``pinochle suite export``: every case as a ready protocol request with its expected answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adapters import export, protocol
from adapters.cases import compare, load_cases
from adapters.reference import server


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("export") / "cases.json"
    assert export.main(["export", str(out)]) == 0
    document: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return document


def test_every_case_is_exported_once(exported: dict[str, Any]) -> None:
    assert exported["format"] == export.FORMAT_VERSION
    assert exported["protocol"] == protocol.PROTOCOL_VERSION
    ids = [c["id"] for c in exported["cases"]]
    assert ids == [c.id for c in load_cases()]
    assert len(ids) == len(set(ids)) > 0
    fields = {"id", "file", "line", "area", "rules", "negative", "variant", "options", "method"}
    for case in exported["cases"]:
        assert fields | {"params", "expect", "why"} == set(case)


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


def test_exported_expectations_judge_as_the_tables_do(exported: dict[str, Any]) -> None:
    """Normalising card strings in ``expect`` must not change any verdict."""
    engine = server()
    by_id = {c.id: c for c in load_cases()}
    for number, record in enumerate(exported["cases"]):
        request = protocol.request(number, record["method"], record["params"])
        reply = json.loads(engine.handle_line(protocol.encode(request)))
        answer = reply.get("result") or {}
        original = by_id[record["id"]]
        passes = not compare(record["method"], record["expect"], answer)
        assert passes == (not compare(original.method, original.expect, answer)), record["id"]


def test_card_strings_in_expect_become_lists() -> None:
    normalised = export._cards_normalised(
        None, {"cards": "Ah Th", "hands": ["AhAh", ["Ks"]], "violation": {"rule": "PLAY-TURN"}}
    )
    assert normalised == {
        "cards": ["Ah", "Th"],
        "hands": [["Ah", "Ah"], ["Ks"]],
        "violation": {"rule": "PLAY-TURN"},
    }


def test_comparison_section_names_the_special_keys(exported: dict[str, Any]) -> None:
    keys = {(k["method"], k["key"]): k["compare"] for k in exported["comparison"]["keys"]}
    assert keys == {
        ("legal_plays", "cards"): "set",
        ("*", "melds"): "multiset",
        ("*", "violation"): "given-keys",
        ("*", "first_illegal"): "given-keys",
    }


def test_filters_and_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert export.main(["export", "-", "--variant", "double-deck", "--method", "auction"]) == 0
    cases = json.loads(capsys.readouterr().out)["cases"]
    assert cases
    assert {(c["variant"], c["method"]) for c in cases} == {("double-deck", "auction")}


def test_a_broken_table_is_reported_with_its_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "meld-broken.yaml"
    table.write_text("area: meld\nmethod: meld\nvariant: double-deck\ncases: [\n", encoding="utf-8")
    assert export.main(["export", str(tmp_path / "out.json"), "--tables", str(table)]) == 1
    assert "meld-broken.yaml" in capsys.readouterr().err
    assert not (tmp_path / "out.json").exists()
