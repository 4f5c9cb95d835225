"""The one card grammar: rank and suit letters, symbols and names, and the parsing of card codes
as people write them (``10h``, ``A♥``, ``AhThKh``) into the two-letter codes of the wire."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .text import shown

__all__ = [
    "CARD_HELP",
    "CARD_TOKEN",
    "RANKS",
    "RANK_SYMBOLS",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "card_code",
    "card_codes",
    "is_card",
]

RANKS = "ATKQJ9"
"""Rank letters, highest first (DECK-RANK): Ace, Ten, King, Queen, Jack, Nine."""
SUITS = "shdc"
"""Suit letters: spades, hearts, diamonds, clubs."""
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANK_SYMBOLS = {"A": "A", "T": "10", "K": "K", "Q": "Q", "J": "J", "9": "9"}
CARD_TOKEN = re.compile(r"(10|[ATKQJ9])([shdc♠♥♦♣])")
"""One card as people write it: rank ``A T K Q J 9`` (or ``10``), suit ``s h d c`` or a symbol.
Case matters: ``ah`` and ``jc`` are not cards. On the wire only the two-letter code is allowed."""
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
SHOWN_LIMIT = 40
"""Longest quote of a bad card or card list in a message (characters)."""
CARD_HELP = "a card is a rank from A T K Q J 9 then a suit from s h d c (e.g. 'Ah', 'Ts', '9c')"


def card_code(token: str) -> str:
    """The canonical code of one card token (``10h`` -> ``Th``, ``A♥`` -> ``Ah``).

    Raises ValueError naming the token when it is not a card.
    """
    m = CARD_TOKEN.fullmatch(token) if isinstance(token, str) else None
    if m is None:
        raise ValueError(f"bad card code {shown(token, SHOWN_LIMIT)}: {CARD_HELP}")
    rank = "T" if m.group(1) == "10" else m.group(1)
    return rank + _SYMBOL_TO_SUIT.get(m.group(2), m.group(2))


def card_codes(value: str | Iterable[object]) -> list[str]:
    """Canonical codes from one string (codes separated by spaces or commas, or run together as
    the sources write them: ``AhThKh``) or from a list of such strings.

    Raises ValueError naming the first bad token.
    """
    if isinstance(value, str):
        chunks = [c for c in re.split(r"[\s,]+", value.strip()) if c]
    elif isinstance(value, Iterable) and not isinstance(value, bytes | dict):
        chunks = []
        for item in value:
            if not isinstance(item, str):
                raise ValueError(f"bad card code {shown(item, SHOWN_LIMIT)}: {CARD_HELP}")
            chunks.extend(c for c in re.split(r"[\s,]+", item.strip()) if c)
    else:
        raise ValueError(f"expected a list of cards, got {shown(value, SHOWN_LIMIT)}")
    cards: list[str] = []
    for chunk in chunks:
        pos = 0
        while pos < len(chunk):
            m = CARD_TOKEN.match(chunk, pos)
            if m is None:
                raise ValueError(
                    f"bad card code {shown(chunk[pos : pos + 2], SHOWN_LIMIT)} in "
                    f"{shown(chunk, SHOWN_LIMIT)}: {CARD_HELP}"
                )
            cards.append(card_code(m.group(0)))
            pos = m.end()
    return cards


def is_card(value: object) -> bool:
    """Whether ``value`` is one canonical card code (``Ah``, ``Ts``, ``9c``)."""
    return isinstance(value, str) and len(value) == 2 and value[0] in RANKS and value[1] in SUITS
