"""Meld: the combinations one hand shows after trump is named, itemised and totalled (MELD-*).

Works on count vectors. A card may serve melds of different types (I runs, marriages and the dix;
II pinochles; III arounds) but never two melds of the same type (MELD-TYPES).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from specdata.vocabulary import MELD_TYPES as MELD_TYPES

from .cards import (
    ACE,
    DIAMONDS,
    JACK,
    KING,
    NINE,
    QUEEN,
    SPADES,
    TEN,
    Card,
    Counts,
    make_card,
)
from .variants import Rules

_RUN_RANKS = (ACE, TEN, KING, QUEEN, JACK)
assert tuple(range(ACE, JACK + 1)) == _RUN_RANKS, "_counts_of slices the run's ranks"
_AROUNDS = (
    ("aces_around", ACE),
    ("kings_around", KING),
    ("queens_around", QUEEN),
    ("jacks_around", JACK),
)
_QS = make_card(QUEEN, SPADES)
_JD = make_card(JACK, DIAMONDS)


class MeldItem(NamedTuple):
    """One scored meld: its id, type, multiplicity, points and the cards it uses."""

    id: str
    type: str
    # The protocol names the multiplicity `count`; as a field it shadows tuple.count on purpose.
    count: int  # type: ignore[assignment]
    points: int
    suit: int | None = None

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards this meld uses (derived, so that counting meld builds no card lists)."""
        return _cards_of(self.id, self.count, self.suit)


@dataclass(frozen=True)
class MeldResult:
    """The itemised meld of one hand and its total."""

    items: tuple[MeldItem, ...]

    @property
    def total(self) -> int:
        """Sum of the items' points."""
        return sum(item.points for item in self.items)

    def count(self, meld_id: str) -> int:
        """Multiplicity of a meld id in this result (summed over suits for marriages)."""
        return sum(item.count for item in self.items if item.id == meld_id)


def _counts_of(hand: Counts, trump: int, rules: Rules) -> list[tuple[str, int, int | None]]:
    """(meld id, multiplicity, suit) for every meld the hand holds with this trump."""
    found: list[tuple[str, int, int | None]] = []
    base = trump * 6
    # MELD-RUN: A T K Q J of trumps; as many runs as the scarcest of those ranks allows.
    runs = min(hand[base + ACE : base + JACK + 1])  # the run's ranks are A..J, side by side
    if runs:
        found.append(("run", runs, trump))
    # MELD-ROYAL-MARRIAGE: K-Q of trumps not already inside a run (MELD-TYPES); with
    # run_royal=both (single-deck option) a run's own K-Q marries as well.
    if rules.run_royal == "both":
        royal = min(hand[base + KING], hand[base + QUEEN])
    elif runs == 0 or rules.extra_trump_kq:
        royal = min(hand[base + KING], hand[base + QUEEN]) - runs
    else:
        royal = 0
    if royal > 0:
        found.append(("royal_marriage", royal, trump))
    # MELD-MARRIAGE: K-Q of a plain suit; each king marries one queen.
    for suit in range(4):
        if suit != trump:
            married = min(hand[suit * 6 + KING], hand[suit * 6 + QUEEN])
            if married:
                found.append(("marriage", married, suit))
    # MELD-DIX: each nine of trumps, where the deck has nines.
    if rules.has_nines and hand[base + NINE]:
        found.append(("dix", hand[base + NINE], trump))
    # MELD-PINOCHLE: Qs with Jd.
    pinochles = min(hand[_QS], hand[_JD])
    if pinochles:
        found.append(("pinochle", pinochles, None))
    # MELD-AROUNDS: the rank in every suit; tens around score nothing (MELD-TENS-AROUND).
    for meld_id, rank in _AROUNDS:
        around = min(hand[rank::6])  # the rank in each suit (kind = suit * 6 + rank)
        if around:
            found.append((meld_id, around, None))
    return found


@cache  # a few hundred distinct items at most; the answer is a pure function of them
def _cards_of(meld_id: str, count: int, suit: int | None) -> tuple[Card, ...]:
    if meld_id == "run":
        assert suit is not None
        ranks: Sequence[int] = _RUN_RANKS
        return tuple(make_card(r, suit) for r in ranks for _ in range(count))
    if meld_id in ("royal_marriage", "marriage"):
        assert suit is not None
        return tuple(make_card(r, suit) for r in (KING, QUEEN) for _ in range(count))
    if meld_id == "dix":
        assert suit is not None
        return tuple(make_card(NINE, suit) for _ in range(count))
    if meld_id == "pinochle":
        return tuple(c for c in (_QS, _JD) for _ in range(count))
    rank = dict(_AROUNDS)[meld_id]
    return tuple(make_card(rank, s) for s in range(4) for _ in range(count))


def meld(hand: Counts, trump: int, rules: Rules) -> MeldResult:
    """The itemised meld of one hand with ``trump`` as the trump suit (MELD-*)."""
    value = rules.meld_value
    return MeldResult(
        tuple(
            MeldItem(meld_id, MELD_TYPES[meld_id], count, value(meld_id, count), suit)
            for meld_id, count, suit in _counts_of(hand, trump, rules)
        )
    )


def meld_total(hand: Counts, trump: int, rules: Rules) -> int:
    """The meld total alone, without building the itemised result (the fast path)."""
    return sum(rules.meld_value(m, n) for m, n, _ in _counts_of(hand, trump, rules))


def has_marriage(hand: Sequence[int], suit: int) -> bool:
    """Whether the hand holds a king and a queen of ``suit`` (TRUMP-MARRIAGE)."""
    return hand[suit * 6 + KING] > 0 and hand[suit * 6 + QUEEN] > 0


def has_aces_around(hand: Sequence[int]) -> bool:
    """Whether the hand holds an ace in every suit (MELD-ACES-DECLARED)."""
    return all(hand[s * 6 + ACE] for s in range(4))
