"""Every protocol method that answers a rules question has one complete record
(``pinochle_judge.methods``), and every place that needs a piece of it finds it there: each test
names the method and the piece it lacks."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import get_args

import pytest

from pinochle_adapters import protocol, reference
from pinochle_adapters.reference import ReferenceEngine
from pinochle_fuzz import campaign, oracle, properties, questions
from pinochle_judge import capabilities, charges, compare, diagnosis, methods, rebase
from pinochle_judge.cases import load_cases
from specdata import rule_ids
from specdata.vocabulary import RULE_METHODS

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "spec" / "schema" / "protocol"
RECORDS = methods.RECORDS


def _result_fields(record: methods.Method) -> list[str]:
    schema = json.loads((SCHEMAS / record.result_schema).read_text(encoding="utf-8"))
    return list(schema.get("properties", {}))


def test_one_record_per_rules_method_in_the_protocols_order() -> None:
    assert [r.name for r in RECORDS] == list(RULE_METHODS)


def test_a_method_without_a_record_is_an_error_naming_it() -> None:
    with pytest.raises(methods.UnknownMethod, match="no record for method 'trump_suits'"):
        methods.method("trump_suits")
    with pytest.raises(methods.UnknownMethod):
        compare.field_map("trump_suits")
    with pytest.raises(methods.UnknownMethod):
        rebase.stop_point("trump_suits", {})
    with pytest.raises(methods.UnknownMethod):
        diagnosis.charge_case("trump_suits", {}, {"suits": []}, {"suits": ["s"]}, "TRUMP-CALL")


SHAPE_TABLES = {
    "pinochle_judge/charges.py FINDERS": charges.FINDERS,
    "pinochle_judge/diagnosis.py UNTRACED": diagnosis.UNTRACED,
    "pinochle_judge/rebase.py STOPS": rebase.STOPS,
    "pinochle_judge/capabilities.py AUCTION_IN": capabilities.AUCTION_IN,
    "pinochle_fuzz/oracle.py LIKELY": oracle.LIKELY,
}
"""Every table keyed by an answer's shape (``methods.Shape``)."""


@pytest.mark.parametrize("table", SHAPE_TABLES)
def test_each_table_of_shapes_has_an_entry_for_every_shape(table: str) -> None:
    shapes = get_args(methods.Shape)
    missing = [s for s in shapes if s not in SHAPE_TABLES[table]]
    assert not missing, f"{table} has no entry for the shapes {missing}"
    assert set(SHAPE_TABLES[table]) <= set(shapes), f"{table}: a shape methods.Shape lacks"


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.name)
def test_its_shape_is_walked_by_every_table_of_shapes(record: methods.Method) -> None:
    for table, entries in SHAPE_TABLES.items():
        assert record.shape in entries, f"{record.name}: shape {record.shape!r} not in {table}"


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.name)
def test_what_the_house_moves_fits_its_request(record: methods.Method) -> None:
    plan = record.rebase
    if plan is None:
        return
    schema = json.loads((SCHEMAS / record.params_schema).read_text(encoding="utf-8"))
    params = set(schema.get("properties", {}))
    assert not plan.dealer or "dealer" in params, f"{record.name}: moves a dealer it has not"
    assert not plan.target or "scores" in params, f"{record.name}: moves scores it has not"
    assert not plan.numbered or "hand" in params, f"{record.name}: numbers a hand it has not"
    assert plan.replay in (None, record.shape), f"{record.name}: replays a {plan.replay}"


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.name)
def test_its_schemas_are_the_protocols(record: methods.Method) -> None:
    for kind, name in (("params", record.params_schema), ("result", record.result_schema)):
        assert name == protocol.schema_name(record.name, kind), f"{record.name}: {kind} schema"
        assert (SCHEMAS / name).is_file(), f"{record.name}: no spec/schema/protocol/{name}"


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.name)
def test_every_field_of_its_answer_is_blamed_on_known_rules(record: methods.Method) -> None:
    known = rule_ids()
    fields = _result_fields(record)
    for name in fields:
        blamed = record.field(name)  # raises UnknownField naming the field
        assert blamed.rules, f"{record.name}.{name}: blamed on no rule"
    for name, blamed in [*record.fields.items(), ("answer", record.answer)]:
        unknown = [r for r in blamed.rules if r not in known]
        assert not unknown, f"{record.name}.{name}: unknown rules {unknown}"
    assert record.refusal is None or record.refusal in fields, f"{record.name}: refusal field"


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.name)
def test_its_comparison_names_fields_of_its_answer(record: methods.Method) -> None:
    fields = _result_fields(record)
    for path in record.compare:
        top = re.split(r"[.\[]", path)[0]
        assert top in fields, f"{record.name}: compare names {path!r}, not a field of its answer"
        assert record.compare[path] in compare.KINDS, f"{record.name}.{path}: kind"


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.name)
def test_the_reference_server_answers_it(record: methods.Method) -> None:
    handler = getattr(ReferenceEngine, record.handler, None)
    assert callable(handler), f"{record.name}: ReferenceEngine has no {record.handler}"
    assert record.name in ReferenceEngine.methods, f"{record.name}: not declared by the reference"
    assert record.name in reference.TRACERS, (
        f"{record.name}: no entry in pinochle_adapters/reference.py TRACERS (its trace)"
    )


def test_the_reference_traces_only_the_rules_methods() -> None:
    assert set(reference.TRACERS) == set(RULE_METHODS)
    with pytest.raises(ValueError, match="trump_suits"):
        reference.decisions("trump_suits", {})


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.name)
def test_its_area_is_one_its_cases_are_filed_under(record: methods.Method) -> None:
    areas = {c.area for c in load_cases() if c.method == record.name}
    assert areas, f"{record.name}: no table of the suite asks it"
    assert record.area in areas, f"{record.name}: area {record.area!r}, its tables: {areas}"


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.name)
def test_a_fuzzed_method_has_its_generator_round_and_property(record: methods.Method) -> None:
    if record.fuzz is None:
        assert record.name not in campaign.ROUND_METHODS
        return
    generator = getattr(questions, record.fuzz.generator, None)
    assert callable(generator), (
        f"{record.name}: no fuzz generator {record.fuzz.generator} in pinochle_fuzz/questions.py"
    )
    assert record.name in campaign.ROUND_METHODS, f"{record.name}: not asked by a round"
    test = getattr(properties, f"test_{record.name}", None)
    assert callable(test), f"{record.name}: no test_{record.name} in pinochle_fuzz/properties.py"


def test_a_round_asks_the_fuzzed_methods_each_at_its_own_place() -> None:
    places = sorted(r.fuzz.round for r in RECORDS if r.fuzz is not None)
    assert places == list(range(len(places)))


def test_every_fuzz_property_is_a_fuzzed_method() -> None:
    tests = {n.removeprefix("test_") for n in vars(properties) if n.startswith("test_")}
    assert tests == set(campaign.ROUND_METHODS)


def _table_methods(path: Path, heading: str) -> set[str]:
    """The methods named in the first column of the Markdown table under ``heading``."""
    text = path.read_text(encoding="utf-8").split(heading + "\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    return {m for row in rows for m in re.findall(r"`(\w+)`", row.split("|")[1])}


def test_the_protocols_method_table_has_a_row_for_each() -> None:
    listed = _table_methods(ROOT / "spec" / "protocol.md", "## Methods")
    assert not set(RULE_METHODS) - listed, "spec/protocol.md, Methods"


def test_the_fuzzing_guide_describes_the_questions_of_each_fuzzed_method() -> None:
    listed = _table_methods(ROOT / "docs" / "fuzzing.md", "## What it asks")
    assert listed == set(campaign.ROUND_METHODS), "docs/fuzzing.md, What it asks"
