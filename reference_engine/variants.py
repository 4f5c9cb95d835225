"""Variants as data: one frozen ``Rules`` value per variant and options, loaded from spec/variants.

Every number or choice a rule uses is read from ``spec/variants/<id>.yaml`` (checked against
``spec/schema/variant.schema.json``); house rules are named options whose chosen value patches
the variant's rules. No module of the engine asks which variant it is playing.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any

from specdata import VARIANTS_DIR, load_yaml, option_text, variant_ids

from .cards import NUM_KINDS, RANKS, deck, rank_of
from .errors import VariantError

MELD_IDS = (
    "run",
    "royal_marriage",
    "marriage",
    "dix",
    "pinochle",
    "aces_around",
    "kings_around",
    "queens_around",
    "jacks_around",
)
"""Meld identifiers in the order the engine reports them."""


@dataclass(frozen=True)
class Auction:
    """Auction parameters (AUCTION-*)."""

    first_bidder: str
    minimum: int
    unit: int
    unit_above: tuple[int, int] | None
    max_raise: int | None
    dealer_opens: int | None
    all_pass: str
    end: str


@dataclass(frozen=True)
class Rules:
    """Everything a variant with its options decides, as one frozen value."""

    variant: str
    options: Mapping[str, str]
    ranks: str
    copies: int
    hand_size: int
    deal_packets: tuple[int, ...]
    auction: Auction
    trump_requires_marriage: bool
    pass_cards: int
    meld_table: Mapping[str, tuple[int, ...]]
    extra_trump_kq: bool
    meld_minimum: int
    short_bidder_loses: bool
    obligations: str
    card_points: Mapping[str, int]
    last_trick: int
    trick_minimum: int
    opponents_need_trick: bool
    throw_in: str
    forced_throw_in: bool
    target: int
    rounds: int | None
    tie: str
    bid_to_win: int | None
    bid_out: str
    points_by_kind: tuple[int, ...] = field(repr=False)
    deck_cards: tuple[int, ...] = field(repr=False)

    @property
    def has_nines(self) -> bool:
        """Whether the deck has nines (and so the dix meld)."""
        return "9" in self.ranks

    @property
    def total_card_points(self) -> int:
        """All card points in play, including the last-trick bonus (POINTS-TOTAL)."""
        return sum(self.points_by_kind[c] for c in self.deck_cards) + self.last_trick

    def meld_value(self, meld_id: str, count: int) -> int:
        """Points of ``count`` copies of a meld: the table's value at that multiplicity.

        A multiplicity beyond the table (only possible where the table is shorter than the deck
        allows) scores as that many single melds.
        """
        values = self.meld_table[meld_id]
        if count <= 0:
            return 0
        if count <= len(values):
            return values[count - 1]
        return values[0] * count


@cache
def _variant_file(variant: str) -> dict[str, Any]:
    path = VARIANTS_DIR / f"{variant}.yaml"
    if not path.is_file():
        raise VariantError(f"unknown variant {variant!r}: choose one of {', '.join(variant_ids())}")
    data: dict[str, Any] = load_yaml(path, "variant.schema.json")
    if data["id"] != variant:
        raise VariantError(f"{path}: id {data['id']!r} does not match the file name")
    for name, opt in data["options"].items():
        if opt["default"] not in opt["choices"]:
            raise VariantError(f"{path}: option {name}: default {opt['default']!r} not a choice")
    return data


def variant_options(variant: str) -> dict[str, dict[str, Any]]:
    """The named options of a variant: ``{name: {description, default, choices: [...]}}``."""
    data = _variant_file(variant)
    return {
        name: {
            "description": opt["description"],
            "default": opt["default"],
            "choices": list(opt["choices"]),
        }
        for name, opt in data["options"].items()
    }


def _patch(rules: dict[str, Any], dotted: str, value: Any) -> None:
    keys = dotted.split(".")
    node = rules
    for k in keys[:-1]:
        node = node[k]
    node[keys[-1]] = copy.deepcopy(value)


def load_rules(variant: str, options: Mapping[str, object] | None = None) -> Rules:
    """The rules of a variant with options applied. Unknown names or values list the valid ones."""
    if not isinstance(variant, str):
        raise VariantError(f"variant must be a string, got {variant!r}")
    key = tuple(sorted((str(k), option_text(v)) for k, v in (options or {}).items()))
    return _load_rules(variant, key)


@cache
def _load_rules(variant: str, option_items: tuple[tuple[str, str], ...]) -> Rules:
    data = _variant_file(variant)
    declared = data["options"]
    chosen = {name: opt["default"] for name, opt in declared.items()}
    for name, value in option_items:
        if name not in declared:
            valid = ", ".join(sorted(declared)) or "none"
            raise VariantError(
                f"variant {variant} has no option {name!r}; its options are: {valid}"
            )
        choices = declared[name]["choices"]
        if value not in choices:
            raise VariantError(
                f"option {name}={value!r} is not valid for {variant}; "
                f"choose one of: {', '.join(choices)}"
            )
        chosen[name] = value
    raw = copy.deepcopy(data["rules"])
    for name, value in chosen.items():
        for dotted, new in declared[name]["choices"][value].items():
            _patch(raw, dotted, new)
    return _build(variant, chosen, raw)


def _build(variant: str, chosen: dict[str, str], raw: dict[str, Any]) -> Rules:
    a = raw["auction"]
    above = a["unit_above"]
    ranks = raw["deck"]["ranks"]
    points = raw["card_points"]
    points_by_kind = tuple(points.get(RANKS[rank_of(c)], 0) for c in range(NUM_KINDS))
    table = {k: tuple(v) for k, v in raw["meld"]["table"].items()}
    if "9" in ranks and "dix" not in table:
        raise VariantError(f"variant {variant}: the deck has nines but the meld table has no dix")
    rules = Rules(
        variant=variant,
        options=MappingProxyType(dict(chosen)),
        ranks=ranks,
        copies=raw["deck"]["copies"],
        hand_size=raw["hand_size"],
        deal_packets=tuple(raw["deal"]["packets"]),
        auction=Auction(
            first_bidder=a["first_bidder"],
            minimum=a["minimum"],
            unit=a["unit"],
            unit_above=(above["threshold"], above["unit"]) if above else None,
            max_raise=a["max_raise"],
            dealer_opens=a["dealer_opens"],
            all_pass=a["all_pass"],
            end=a["end"],
        ),
        trump_requires_marriage=raw["trump"]["requires_marriage"],
        pass_cards=raw["passing"]["cards"],
        meld_table=MappingProxyType(table),
        extra_trump_kq=raw["meld"]["extra_trump_kq"],
        meld_minimum=raw["meld"]["minimum"],
        short_bidder_loses=raw["meld"]["short_bidder_loses"],
        obligations=raw["tricks"]["obligations"],
        card_points=MappingProxyType(dict(points)),
        last_trick=raw["last_trick"],
        trick_minimum=raw["scoring"]["trick_minimum"],
        opponents_need_trick=raw["scoring"]["opponents_need_trick"],
        throw_in=raw["scoring"]["throw_in"],
        forced_throw_in=raw["scoring"]["forced_throw_in"],
        target=raw["game"]["target"],
        rounds=raw["game"]["rounds"],
        tie=raw["game"]["tie"],
        bid_to_win=raw["game"]["bid_to_win"],
        bid_out=raw["game"]["bid_out"],
        points_by_kind=points_by_kind,
        deck_cards=tuple(deck(ranks, raw["deck"]["copies"])),
    )
    if len(rules.deck_cards) != 4 * rules.hand_size:
        raise VariantError(
            f"variant {variant}: a deck of {len(rules.deck_cards)} cards cannot give four hands "
            f"of {rules.hand_size}"
        )
    return rules
