"""Variants as data: loading, options, schema errors with file and line."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

import specdata
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


def test_auction_house_rule_options_patch_the_auction() -> None:
    """ERRATA-AUCTION-HOUSE-RULES: who opens, the unit of bids, a ceiling at the target."""
    left = load_rules("single-deck", {"first_bidder": "left-of-dealer"}).auction
    assert (left.first_bidder, left.dealer_opens, left.minimum) == ("left-of-dealer", None, 150)
    assert load_rules("single-deck").auction.dealer_opens == 150
    assert load_rules("single-deck", {"bid_step": "any"}).auction.unit == 1
    assert load_rules("double-deck", {"max_bid": "target"}).auction.maximum == 500
    capped = load_rules("double-deck", {"max_bid": "target", "target": "1000"})
    assert capped.auction.maximum == 1000
    assert all(load_rules(v).auction.maximum is None for v in variant_ids())


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


# --- a broken variant file is one DataFileError naming file and line -------------------------


def variants_with(tmp_path: Path, old: str, new: str) -> Path:
    """spec/variants copied, with ``dd-broken.yaml``: double-deck with one change (a fresh id,
    so no rules cached from another test answer for it)."""
    folder = tmp_path / "variants"
    shutil.copytree(specdata.VARIANTS_DIR, folder)
    text = (folder / "double-deck.yaml").read_text(encoding="utf-8")
    assert old in text
    text = text.replace("id: double-deck", "id: dd-broken").replace(old, new, 1)
    (folder / "dd-broken.yaml").write_text(text, encoding="utf-8")
    return folder


def line_of(folder: Path, needle: str) -> int:
    lines = (folder / "dd-broken.yaml").read_text(encoding="utf-8").splitlines()
    return 1 + next(i for i, text in enumerate(lines) if needle in text)


@pytest.mark.parametrize(
    ("old", "new", "needle", "message"),
    [
        # A misspelt rule path is the variant file's fault, named as such (never the request's).
        ("meld.table.run:", "meld.tabel.run:", "meld.tabel.run", "unknown rule path"),
        ("meld.table.run:", "meld.table.runs:", "meld.table.runs", "rules.meld.table has run"),
        # A value of the wrong type is named with the type the rule path needs.
        ("[15, 150, 225, 300]", '"fifteen"', "fifteen", "'fifteen' is not of type 'array'"),
        (
            "{tricks.obligations: post-1945}",
            "{tricks.obligations: 1945}",
            "obligations: 1945",
            "1945 is not one of",
        ),
        ('    default: "16"', '    default: "17"', 'default: "17"', "not one of its choices"),
        ("hand_size: 20", "hand_size: 19", "hand_size: 19", "four hands of 19"),
        ("{game.bid_to_win: 401}", "{deck.copies: 3}", "deck.copies", "four hands of 20"),
    ],
)
def test_a_broken_variant_file_names_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str, needle: str, message: str
) -> None:
    folder = variants_with(tmp_path, old, new)
    monkeypatch.setattr(specdata.paths, "VARIANTS_DIR", folder)
    with pytest.raises(DataFileError) as info:
        load_rules("dd-broken", {"run": "15"})
    text = str(info.value)
    assert f"dd-broken.yaml:{line_of(folder, needle)}: " in text and message in text, text
    assert "\n" not in text and len(text) < 400


def test_every_variant_file_checks() -> None:
    specdata.check_variants()
    assert specdata.option_choices("double-deck")["run"] == ["16", "15"]


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("x" * 10_000_000, None),
        (["x"] * 1_000_000, None),
        ("online", {"x" * 10_000_000: "1"}),
        ("online", {"pass_cards": "9" * 10_000_000}),
    ],
    ids=["variant", "variant-list", "option-name", "option-value"],
)
def test_messages_never_echo_a_huge_value(variant: Any, options: dict[str, str] | None) -> None:
    with pytest.raises(VariantError) as info:
        load_rules(variant, options)
    assert len(str(info.value)) < 400


# --- the one checked Variant value ---------------------------------------------------------------


def test_a_variant_is_one_frozen_value_read_once() -> None:
    variant = specdata.load_variant("single-deck")
    assert variant is specdata.load_variant("single-deck")  # the file is read and checked once
    assert variant.defaults["first_bidder"] == "dealer"
    assert variant.option_methods["first_bidder"] == ("auction", "play_hand", "play_game")
    assert variant.options["double_run"].values == ("300", "1500")
    with pytest.raises(TypeError):
        variant.rules["hand_size"] = 13  # type: ignore[index]
    with pytest.raises(KeyError):
        specdata.load_variant("no-such-variant")


def test_rules_under_options_patch_a_fresh_copy() -> None:
    variant = specdata.load_variant("single-deck")
    left = variant.rules_under({"first_bidder": "left-of-dealer"})
    assert left["auction"]["first_bidder"] == "left-of-dealer"
    assert left["auction"]["dealer_opens"] is None
    assert variant.rules["auction"]["first_bidder"] == "dealer"  # the value itself is unchanged
    left["auction"]["minimum"] = 0
    assert variant.rules_under()["auction"]["minimum"] == 150
    with pytest.raises(KeyError):
        variant.rules_under({"first_bidder": "nobody"})


@pytest.mark.parametrize(
    ("text", "limit", "kwargs", "shortened"),
    [
        ("abcdef", 6, {}, "abcdef"),
        ("abcdefg", 3, {}, "abc... (7 characters)"),
        ("abcdefg", 5, {"count": False}, "ab..."),
        ("abcdefg", 3, {"quote": True}, "'abc' ... (7 characters)"),
        ("abc", 3, {"quote": True}, "'abc'"),
    ],
)
def test_one_helper_shortens_every_message(
    text: str, limit: int, kwargs: dict[str, bool], shortened: str
) -> None:
    assert specdata.shorten(text, limit, **kwargs) == shortened
    assert specdata.shown("x" * 100, 10) == "'xxxxxx..."
