"""Variants as data: one frozen ``Rules`` value per variant and options, loaded from spec/variants.

Every number or choice a rule uses is read from ``spec/variants/<id>.yaml`` (checked against
``spec/schema/variant.schema.json``); house rules are named options whose chosen value patches
the variant's rules. No module of the engine asks which variant it is playing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any, Literal

from specdata import Variant, load_variant, option_text, shown, variant_ids

from .cards import NUM_KINDS, RANKS, Card, deck, rank_of
from .errors import VariantError

FirstBidder = Literal["left-of-dealer", "dealer"]
AllPass = Literal["last-forced"]
AuctionEnd = Literal["three-passes", "four-passes"]
Obligations = Literal["pre-1945", "post-1945"]
ThrowIn = Literal["voluntary", "none"]
Tie = Literal["bidder-wins", "higher-score"]
BidOut = Literal["made", "score"]
RunRoyal = Literal["separate", "both"]
TrumpedTrick = Literal["any", "beat-led"]


@dataclass(frozen=True)
class Auction:
    """Auction parameters (AUCTION-*)."""

    first_bidder: FirstBidder  # AUCTION-FIRST-BIDDER: who makes the first call
    minimum: int  # AUCTION-OPENING-MIN: the lowest bid
    unit: int  # AUCTION-STEP: every bid is a multiple of this
    unit_above: tuple[int, int] | None  # AUCTION-STEP: (threshold, unit) above the threshold
    max_raise: int | None  # AUCTION-STEP: the largest raise over the high bid (online 50)
    maximum: int | None  # AUCTION-STEP: the highest legal bid (double-deck max_bid=target)
    dealer_opens: int | None  # AUCTION-DEALER-OPENS: the dealer's first call must be this bid
    all_pass: AllPass  # AUCTION-DEALER-FORCED: after three passes the fourth must bid
    end: AuctionEnd  # AUCTION-END: three passes end it, or the high bidder's own pass


@dataclass(frozen=True)
class Rules:
    """Everything a variant with its options decides, as one frozen value.

    The fields after ``deck_cards`` are derived once from the others (``__post_init__``), so a
    changed copy (``dataclasses.replace``) derives them again.
    """

    variant: str  # the variant id (file name in spec/variants)
    options: Mapping[str, str]  # every option of the variant with its chosen value
    ranks: str  # DECK-COMPOSITION: the ranks of each suit, high to low (ATKQJ or ATKQJ9)
    copies: int  # DECK-COMPOSITION: copies of each card
    hand_size: int  # DEAL-HANDS: cards per hand
    deal_packets: tuple[int, ...]  # DEAL-PACKETS: packet sizes per round, the last repeated
    auction: Auction  # AUCTION-*: the auction's parameters
    trump_requires_marriage: bool  # TRUMP-MARRIAGE: trump must be a suit the bidder marries
    pass_cards: int  # PASS-CARDS: cards the partner gives and the bidder returns (0: none)
    meld_table: Mapping[str, tuple[int, ...]]  # MELD-*: points by multiplicity, per meld id
    extra_trump_kq: bool  # MELD-ROYAL-MARRIAGE: a K-Q of trumps beyond the runs still marries
    run_royal: RunRoyal  # MELD-ROYAL-MARRIAGE: a run's own K-Q also marries (both) or not
    meld_minimum: int  # MELD-MINIMUM: the least meld a team counts
    short_bidder_loses: bool  # MELD-SHORT-BIDDER: bidders under the minimum lose at once
    obligations: Obligations  # PLAY-CRAWL (pre-1945) or PLAY-POST-1945
    trumped_trick: TrumpedTrick  # PLAY-TRUMPED-TRICK: any card of the suit led, or beat it
    card_points: Mapping[str, int]  # POINTS-COUNTERS: points of each rank won in tricks
    last_trick: int  # POINTS-LAST-TRICK: the bonus for the last trick
    trick_minimum: int  # SCORE-TRICK-MINIMUM: card points a side needs to score (0: none)
    opponents_need_trick: bool  # SCORE-OPPONENTS-TRICK: opponents score only with a trick
    throw_in: ThrowIn  # SCORE-THROW-IN: whether the bidder may throw in after meld
    forced_throw_in: bool  # SCORE-FORCED-THROW-IN: out-of-reach contracts must be thrown in
    target: int  # GAME-TARGET: the score that wins the game
    rounds: int | None  # GAME-ROUNDS: a game of this many hands instead of a target
    tie: Tie  # GAME-BOTH-REACH: who wins when both sides reach the target
    bid_to_win: int | None  # GAME-BID-TO-WIN: both at or over this, only the bidders can win
    bid_out: BidOut  # ERRATA-BID-OUT: under bid-to-win, must the bidders make their contract
    negative_loss: int | None  # GAME-TARGET: a side at or below this score loses (None: never)
    points_by_kind: tuple[int, ...] = field(repr=False)  # card points indexed by card kind
    deck_cards: tuple[int, ...] = field(repr=False)  # the deck, one entry per card
    deck_counts: tuple[int, ...] = field(init=False, repr=False)  # the deck as 24 counts
    has_nines: bool = field(init=False, repr=False)  # the deck has nines (and so the dix)
    total_card_points: int = field(init=False, repr=False)  # POINTS-TOTAL, last trick included
    bid_ceiling: int = field(init=False, repr=False)  # the largest bid legal_actions lists

    def __post_init__(self) -> None:
        counts = [0] * NUM_KINDS
        for card in self.deck_cards:
            counts[card] += 1
        total = sum(self.points_by_kind[c] for c in self.deck_cards) + self.last_trick
        # No hand holds more of a meld than the deck has copies, and a marriage can be in any
        # of the three plain suits: so two partner hands meld at most twice this, and the
        # bidders can never make a contract above it plus every card point.
        most_meld = sum(
            self.meld_value(meld_id, self.copies) * (3 if meld_id == "marriage" else 1)
            for meld_id in self.meld_table
        )
        derived = {
            "deck_counts": tuple(counts),
            "has_nines": "9" in self.ranks,
            "total_card_points": total,
            "bid_ceiling": total + 2 * most_meld,
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

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


def _variant_file(variant: str) -> Variant:
    """The variant, checked by specdata (a broken file is a DataFileError naming it)."""
    try:
        return load_variant(variant)
    except KeyError:
        raise VariantError(
            f"unknown variant {shown(variant)}: choose one of {', '.join(variant_ids())}"
        ) from None


def variant_options(variant: str) -> dict[str, dict[str, Any]]:
    """The named options of a variant: ``{name: {description, default, choices: [...]}}``."""
    return {
        name: {
            "description": opt.description,
            "default": opt.default,
            "choices": list(opt.choices),
        }
        for name, opt in _variant_file(variant).options.items()
    }


def load_rules(variant: str, options: Mapping[str, object] | None = None) -> Rules:
    """The rules of a variant with options applied. Unknown names or values list the valid ones."""
    if not isinstance(variant, str):
        raise VariantError(f"variant must be a string, got {shown(variant)}")
    if not options:
        return _load_rules(variant, ())
    key = tuple(sorted((str(k), option_text(v)) for k, v in options.items()))
    return _load_rules(variant, key)


@cache
def _load_rules(variant: str, option_items: tuple[tuple[str, str], ...]) -> Rules:
    data = _variant_file(variant)
    declared = data.options
    chosen = data.defaults
    for name, value in option_items:
        if name not in declared:
            valid = ", ".join(sorted(declared)) or "none"
            raise VariantError(
                f"variant {variant} has no option {shown(name)}; its options are: {valid}"
            )
        choices = declared[name].choices
        if value not in choices:
            raise VariantError(
                f"option {name}={shown(value)} is not valid for {variant}; "
                f"choose one of: {', '.join(choices)}"
            )
        chosen[name] = value
    return _build(variant, chosen, data.rules_under(chosen))


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
            # "target": the cap follows the game's target, whichever target option is chosen.
            maximum=raw["game"]["target"] if a["maximum"] == "target" else a["maximum"],
            dealer_opens=a["dealer_opens"],
            all_pass=a["all_pass"],
            end=a["end"],
        ),
        trump_requires_marriage=raw["trump"]["requires_marriage"],
        pass_cards=raw["passing"]["cards"],
        meld_table=MappingProxyType(table),
        extra_trump_kq=raw["meld"]["extra_trump_kq"],
        run_royal=raw["meld"]["run_royal"],
        meld_minimum=raw["meld"]["minimum"],
        short_bidder_loses=raw["meld"]["short_bidder_loses"],
        obligations=raw["tricks"]["obligations"],
        trumped_trick=raw["tricks"]["trumped_trick"],
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
        negative_loss=raw["game"]["negative_loss"],
        points_by_kind=points_by_kind,
        deck_cards=_deck_cards(ranks, raw["deck"]["copies"]),
    )
    if len(rules.deck_cards) != 4 * rules.hand_size:
        raise VariantError(
            f"variant {variant}: a deck of {len(rules.deck_cards)} cards cannot give four hands "
            f"of {rules.hand_size}"
        )
    return rules


@cache
def _deck_cards(ranks: str, copies: int) -> tuple[Card, ...]:
    """``deck(ranks, copies)`` built once: the few decks the variants use are shared by every
    set of options (a CardError is raised, not remembered)."""
    return tuple(deck(ranks, copies))
