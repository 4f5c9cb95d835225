"""Each shared list is written once, in ``specdata.vocabulary``; every copy kept as a file (a JSON
schema, the Node example) or as a table beside it is checked here, so that adding a protocol
method or a meld id fails naming each place left behind.
"""

from __future__ import annotations

import json
import random
import re
import types
import typing
from collections.abc import Iterator
from typing import Any

import pytest

import specdata
from pinochle_adapters import protocol
from pinochle_adapters.reference import ReferenceEngine
from pinochle_fuzz import questions
from pinochle_judge import blame, methods
from reference_engine import meld, variants
from specdata.vocabulary import MELD_RULES, MELD_TYPES, METHODS, RULE_METHODS

NODE_ENGINE = specdata.SPEC_DIR.parent / "pinochle_adapters" / "examples" / "node" / "engine.js"


def _schema_file(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((specdata.SCHEMA_DIR / name).read_text(encoding="utf-8"))
    return loaded


# --- protocol methods -------------------------------------------------------------------------


def test_the_request_schema_lists_every_method() -> None:
    enum = _schema_file("protocol/request.json")["properties"]["method"]["enum"]
    assert enum == list(METHODS), "spec/schema/protocol/request.json: method enum"


@pytest.mark.parametrize(
    ("name", "pointer"),
    [
        ("table.schema.json", ("properties", "method", "enum")),
        ("export.schema.json", ("$defs", "record", "properties", "method", "enum")),
    ],
)
def test_the_case_schemas_list_every_rule_method(name: str, pointer: tuple[str, ...]) -> None:
    node: Any = _schema_file(name)
    for part in pointer:
        node = node[part]
    assert sorted(node) == sorted(RULE_METHODS), f"spec/schema/{name}: method enum"


def test_every_method_has_its_params_and_result_schema() -> None:
    present = {p.name for p in (specdata.SCHEMA_DIR / "protocol").glob("*.json")}
    missing = [f"{m}.{k}.json" for m in METHODS for k in ("params", "result")]
    assert [name for name in missing if name not in present] == []


def test_the_reference_server_answers_every_rule_method() -> None:
    assert [m for m in RULE_METHODS if not callable(getattr(ReferenceEngine, m, None))] == []


# --- meld ids -----------------------------------------------------------------------------------


def test_every_meld_id_has_a_rule_that_the_rule_text_defines() -> None:
    assert list(MELD_RULES) == list(MELD_TYPES)
    chapter = (specdata.RULES_DIR / "meld.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^## ([A-Z0-9-]+):", chapter, re.MULTILINE))
    assert set(MELD_RULES.values()) - headings == set(), "spec/rules/meld.md"


def test_the_meld_result_schema_lists_every_meld_id_and_type() -> None:
    entry = _schema_file("protocol/meld.result.json")["properties"]["melds"]["items"]
    assert entry["properties"]["id"]["enum"] == list(MELD_TYPES), "meld.result.json: id enum"
    types_ = sorted(set(MELD_TYPES.values()))
    assert entry["properties"]["type"]["enum"] == types_, "meld.result.json: type enum"


def test_the_variant_schema_values_every_meld_id() -> None:
    table = _schema_file("variant.schema.json")["$defs"]["rules"]["properties"]["meld"][
        "properties"
    ]["table"]
    assert list(table["properties"]) == list(MELD_TYPES), "variant.schema.json: meld.table"
    # The dix is the one meld a variant may leave out (decks without nines have none).
    assert set(MELD_TYPES) - set(table["required"]) == {"dix"}, "variant.schema.json: required"


def test_the_blame_table_charges_every_meld_id() -> None:
    assert {m: blame.MELD_ITEM_RULE[m] for m in MELD_TYPES} == MELD_RULES
    assert set(MELD_RULES.values()) <= set(methods.MELD_ITEM_RULES), "methods.MELD_ITEM_RULES"


def test_the_node_example_values_every_meld_id_it_knows() -> None:
    """The example plays double-deck (no nines, so no dix): its table has every other id."""
    source = NODE_ENGINE.read_text(encoding="utf-8")
    table = re.search(r"const TABLE = \{(.*?)\};", source, re.DOTALL)
    assert table, f"{NODE_ENGINE}: const TABLE"
    ids = re.findall(r"^\s*(\w+):", table.group(1), re.MULTILINE)
    assert ids == [m for m in MELD_TYPES if m != "dix"], f"{NODE_ENGINE}: TABLE"
    kinds = re.search(r"const TYPES = \{(.*?)\};", source)
    assert kinds, f"{NODE_ENGINE}: const TYPES"
    named = dict(re.findall(r'(\w+): "(\w+)"', kinds.group(1)))
    # Ids missing from TYPES default to "III" in the example.
    assert {m: named.get(m, "III") for m in ids} == {m: MELD_TYPES[m] for m in ids}


@pytest.mark.parametrize("variant", specdata.variant_ids())
def test_the_fuzzer_builds_hands_holding_every_meld_id(variant: str) -> None:
    """``questions.meld_hand`` writes the card shapes of each meld: together they reach every id
    the variant scores (a new meld id needs a shape there)."""
    rules = variants.load_rules(variant, {})
    seen: set[str] = set()
    for seed in range(400):
        rng = random.Random(seed)
        trump = rng.randrange(4)
        hand = questions.meld_hand(rules, rng.randrange, trump)
        seen.update(item.id for item in meld.meld(_counts(hand), trump, rules).items)
    scored = {m for m in MELD_TYPES if m != "dix" or rules.has_nines}
    assert scored - seen == set(), "pinochle_fuzz/questions.py: meld_hand"


def _counts(hand: list[int]) -> list[int]:
    counts = [0] * 24
    for card in hand:
        counts[card] += 1
    return counts


# --- result shapes ------------------------------------------------------------------------------


def _objects(node: Any) -> Iterator[dict[str, Any]]:
    """The object schemas a (possibly combined or nullable) schema node allows."""
    if not isinstance(node, dict):
        return
    if "properties" in node:
        yield node
    for key in ("allOf", "anyOf", "oneOf"):
        for part in node.get(key, ()):
            yield from _objects(part)


def _items(node: Any) -> Iterator[Any]:
    """The item schemas of the arrays a schema node allows."""
    if not isinstance(node, dict):
        return
    if "items" in node:
        yield node["items"]
    for key in ("allOf", "anyOf", "oneOf"):
        for part in node.get(key, ()):
            yield from _items(part)


def _typed_dict(hint: Any) -> tuple[Any, bool] | None:
    """The TypedDict inside ``hint`` (through ``| None`` and ``list[...]``), and whether it sits
    in a list."""
    if typing.is_typeddict(hint):
        return hint, False
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(hint):
            found = _typed_dict(arg)
            if found:
                return found
    if origin is list:
        inner = _typed_dict(typing.get_args(hint)[0])
        if inner:
            return inner[0], True
    return None


def _required_keys(cls: Any) -> set[str]:
    """A TypedDict's required keys, read from its hints: ``__required_keys__`` misses
    ``NotRequired`` under ``from __future__ import annotations`` before Python 3.12."""
    hints = typing.get_type_hints(cls, include_extras=True)
    if cls.__total__:
        return {k for k, hint in hints.items() if typing.get_origin(hint) is not typing.NotRequired}
    return {k for k, hint in hints.items() if typing.get_origin(hint) is typing.Required}


def _shape_problems(cls: Any, node: Any, where: str) -> list[str]:
    objects = list(_objects(node))
    if not objects:
        return [f"{where}: the schema has no object for {cls.__name__}"]
    properties: dict[str, Any] = {}
    required: set[str] = set()
    for obj in objects:
        properties.update(obj["properties"])
        required.update(obj.get("required", ()))
    hints = typing.get_type_hints(cls)
    problems = []
    if set(hints) != set(properties):
        problems.append(
            f"{where}: {cls.__name__} has {sorted(set(hints) - set(properties))} beyond the "
            f"schema and lacks {sorted(set(properties) - set(hints))}"
        )
    if _required_keys(cls) != required:
        problems.append(
            f"{where}: {cls.__name__} requires {sorted(_required_keys(cls))}, "
            f"the schema {sorted(required)}"
        )
    for key in sorted(set(hints) & set(properties)):
        found = _typed_dict(hints[key])
        if found is None:
            continue
        inner, listed = found
        sub = [properties[key]]
        if listed:
            sub = [item for part in sub for item in _items(part)]
        problems += [p for s in sub for p in _shape_problems(inner, s, f"{where}.{key}")]
    return problems


@pytest.mark.parametrize("method", RULE_METHODS)
def test_the_reference_answer_types_match_the_result_schema(method: str) -> None:
    """Each result TypedDict of ``pinochle_adapters/reference.py`` has the keys and the required
    keys of ``spec/schema/protocol/<method>.result.json``, nested entries included."""
    answer = typing.get_type_hints(getattr(ReferenceEngine, method))["return"]
    schema = protocol.inlined_schema(f"{method}.result.json")
    assert _shape_problems(answer, schema, f"{method}.result.json") == []
