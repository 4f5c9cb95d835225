"""The game's language for messages: cards with suit symbols (A♥ 10♠), suits and seats by name.

Only formatting and parsing of the suite's own words; no rule of the game is decided here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from adapters.cases import parse_card_list

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
SUIT_BY_NAME = {name: letter for letter, name in SUIT_NAMES.items()}
RANK_WORDS = {"T": "10"}
ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3}
CARD_FIELDS = ("hand", "trick", "cards", "deck")


def parse_cards(text: str) -> list[str]:
    """Card codes from the feature's words (``Ah Th``, ``AhTh``, ``A♥ 10♥``)."""
    return parse_card_list(text)


def card(code: str) -> str:
    """One card code with its suit symbol: ``Th`` -> ``10♥``."""
    if len(code) != 2:
        return code
    return RANK_WORDS.get(code[0], code[0]) + SUIT_SYMBOLS.get(code[1], code[1])


def cards(codes: Iterable[str] | str) -> str:
    """A list of cards with suit symbols, in the order given (``A♥ 10♥ K♥``); '-' if none."""
    if isinstance(codes, str):
        codes = parse_card_list(codes)
    shown = [card(c) for c in codes]
    return " ".join(shown) if shown else "-"


def suit(letter: str | None) -> str:
    """A suit letter in words: ``h`` -> ``♥ hearts``."""
    if letter is None:
        return "none"
    return f"{SUIT_SYMBOLS.get(letter, '?')} {SUIT_NAMES.get(letter, letter)}"


def options(values: Mapping[str, str]) -> str:
    """Options as ``name=value`` words, or ``default options``."""
    if not values:
        return "default options"
    return ", ".join(f"{k}={v}" for k, v in sorted(values.items()))


def value(key: str, data: Any) -> str:
    """A field of a request or answer in the game's language (cards with symbols)."""
    if key == "trump" and isinstance(data, str):
        return suit(data)
    if key in CARD_FIELDS and isinstance(data, list | str):
        return cards(data)
    if key == "hands" and isinstance(data, list):
        return "; ".join(f"seat {i}: {cards(h)}" for i, h in enumerate(data))
    if key == "melds" and isinstance(data, list):
        return ", ".join(meld(m) for m in data) or "none"
    if key == "tricks" and isinstance(data, list):
        return " | ".join(
            f"{cards(t.get('cards', []))} -> seat {t.get('winner')}"
            if isinstance(t, dict)
            else str(t)
            for t in data
        )
    return repr(data) if isinstance(data, str) else str(data)


def meld(entry: Mapping[str, Any]) -> str:
    """A meld entry in words: ``run ♥ x1 = 16``."""
    where = f" {SUIT_SYMBOLS.get(entry['suit'], entry['suit'])}" if entry.get("suit") else ""
    return f"{entry.get('id')}{where} x{entry.get('count')} = {entry.get('points')}"


def seat_of(text: str) -> int:
    """A seat number 0-3 from its word."""
    seat = int(text)
    if not 0 <= seat <= 3:
        raise ValueError(f"seat {text}: seats are 0-3")
    return seat


def ordinal(text: str) -> int:
    """0-based index of ``first`` .. ``fourth``."""
    return ORDINALS[text]
