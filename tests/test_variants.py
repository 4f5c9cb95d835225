"""Variants as data: loading, options, schema errors with file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference_engine.errors import VariantError
from reference_engine.variants import load_rules, variant_options
from specdata import DataFileError, load_yaml, variant_ids


def test_three_variants() -> None:
    assert variant_ids() == ["double-deck", "online", "single-deck"]


@pytest.mark.parametrize(
    ("variant", "hand_size", "minimum", "target"),
    [("double-deck", 20, 50, 500), ("single-deck", 12, 150, 1000), ("online", 12, 250, 1500)],
)
def test_variant_values(variant: str, hand_size: int, minimum: int, target: int) -> None:
    rules = load_rules(variant)
    assert (rules.hand_size, rules.auction.minimum, rules.target) == (hand_size, minimum, target)


def test_option_patches_rules_and_rules_are_cached_values() -> None:
    assert load_rules("online", {"pass_cards": 3}).pass_cards == 3
    assert load_rules("online", {"pass_cards": "0"}).pass_cards == 0
    assert load_rules("online", {"target": 2500}).target == 2500
    assert load_rules("double-deck", {"bid_to_win": "off"}).bid_to_win is None
    assert load_rules("double-deck") is load_rules("double-deck", {})


def test_unknown_variant_lists_choices() -> None:
    with pytest.raises(VariantError, match="double-deck, online, single-deck"):
        load_rules("triple-deck")


def test_unknown_option_and_bad_value_list_choices() -> None:
    with pytest.raises(VariantError, match=r"its options are: .*trick_rules"):
        load_rules("double-deck", {"pass_cards": 4})
    with pytest.raises(VariantError, match="choose one of: 4, 3, 0"):
        load_rules("online", {"pass_cards": 5})


def test_every_option_choice_loads() -> None:
    for variant in variant_ids():
        for name, opt in variant_options(variant).items():
            for choice in opt["choices"]:
                assert load_rules(variant, {name: choice}).options[name] == choice


def test_schema_fault_names_file_and_line(tmp_path: Path) -> None:
    src = Path("spec/variants/double-deck.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "double-deck.yaml"
    bad.write_text(src.replace("hand_size: 20", "hand_size: twenty"), encoding="utf-8")
    line = 1 + [ln.strip() for ln in src.splitlines()].index("hand_size: 20")
    with pytest.raises(DataFileError, match=rf"double-deck.yaml:{line}: at rules/hand_size"):
        load_yaml(bad, "variant.schema.json")


def test_yaml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "x.yaml"
    bad.write_text("a: 1\nb: [1, 2\nc: 3\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"x.yaml:\d+: not valid YAML"):
        load_yaml(bad)


def test_unsafe_yaml_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "x.yaml"
    bad.write_text("a: !!python/object/apply:os.system ['true']\n", encoding="utf-8")
    with pytest.raises(DataFileError):
        load_yaml(bad)
