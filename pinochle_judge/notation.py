"""The suite's words: which protocol fields hold cards; cards, suits, seats and melds in messages.

Card codes are parsed by specdata's one grammar; the card fields are read from the protocol
schemas, so no list of field names is kept here. Nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import Any

from specdata import RANK_SYMBOLS, SUIT_NAMES, SUIT_SYMBOLS, card_codes, load_schema, option_text

SUIT_BY_NAME = {name: letter for letter, name in SUIT_NAMES.items()}
ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3}
_CARDS_REF = "#/$defs/cards"


class CardFieldError(ValueError):
    """A card field holds something that is not a card; ``trail`` is the key path to it."""

    def __init__(self, trail: list[str | int], message: str) -> None:
        super().__init__(message)
        self.trail = trail


# --- which fields hold cards ------------------------------------------------------------------


def _card_refs(node: object, path: str) -> Iterator[str]:
    """Paths (``tricks[].cards``) under a schema node where a list of cards is defined."""
    if not isinstance(node, dict):
        return
    if str(node.get("$ref", "")).endswith(_CARDS_REF):
        yield path
        return
    for key, child in (node.get("properties") or {}).items():
        yield from _card_refs(child, f"{path}.{key}" if path else key)
    if "items" in node:
        yield from _card_refs(node["items"], f"{path}[]")
    for word in ("anyOf", "oneOf", "allOf"):
        for child in node.get(word, []):
            yield from _card_refs(child, path)


@cache
def card_paths(method: str, kind: str) -> frozenset[str]:
    """Paths of a method's ``params`` or ``result`` that are card lists, from its schema."""
    return frozenset(_card_refs(load_schema(f"protocol/{method}.{kind}.json"), ""))


def with_card_codes(method: str, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with every card field turned into canonical codes (``"AhTh"`` -> ``["Ah", "Th"]``).

    Raises CardFieldError naming the key path of the first bad card.
    """
    paths = card_paths(method, kind)

    def walk(path: str, value: Any, trail: list[str | int]) -> Any:
        if path in paths and isinstance(value, str | list):
            try:
                return card_codes(value)
            except ValueError as e:
                raise CardFieldError(trail, str(e)) from None
        if isinstance(value, dict):
            return {
                k: walk(f"{path}.{k}" if path else str(k), v, [*trail, str(k)])
                for k, v in value.items()
            }
        if isinstance(value, list):
            return [walk(f"{path}[]", v, [*trail, i]) for i, v in enumerate(value)]
        return value

    out: dict[str, Any] = walk("", dict(data), [])
    return out


# --- words ------------------------------------------------------------------------------------


def parse_cards(text: str) -> list[str]:
    """Card codes from a feature's words (``Ah Th``, ``AhTh``, ``A♥ 10♥``); ValueError if bad."""
    return card_codes(text)


def card(code: str) -> str:
    """One card code with its suit symbol: ``Th`` -> ``10♥``."""
    if len(code) != 2:
        return code
    return RANK_SYMBOLS.get(code[0], code[0]) + SUIT_SYMBOLS.get(code[1], code[1])


def cards(codes: Iterable[str]) -> str:
    """A list of cards with suit symbols, in the order given (``A♥ 10♥ K♥``); '-' if none."""
    shown = [card(c) for c in codes]
    return " ".join(shown) if shown else "-"


def suit(letter: str | None) -> str:
    """A suit letter in words: ``h`` -> ``♥ hearts``."""
    if letter is None:
        return "none"
    return f"{SUIT_SYMBOLS.get(letter, '?')} {SUIT_NAMES.get(letter, letter)}"


def options(values: Mapping[str, object]) -> str:
    """Options as ``name=value`` words, or ``default options``."""
    if not values:
        return "default options"
    return ", ".join(f"{k}={option_text(v)}" for k, v in sorted(values.items()))


def meld(entry: Mapping[str, object]) -> str:
    """A meld entry in words: ``run ♥ x1 = 16`` (the one meld wording of the suite)."""
    suit = str(entry.get("suit") or "")
    where = f" {SUIT_SYMBOLS.get(suit, suit)}" if suit else ""
    return f"{entry.get('id')}{where} x{entry.get('count')} = {entry.get('points')}"


def value(method: str, kind: str, key: str, data: object) -> str:
    """A field of a request (kind ``params``) or answer (``result``) in the game's language."""
    paths = card_paths(method, kind)
    if key == "trump" and isinstance(data, str):
        return suit(data)
    if key in paths and isinstance(data, list):
        return cards(data)
    if f"{key}[]" in paths and isinstance(data, list):
        return "; ".join(
            f"seat {i}: {cards(h) if isinstance(h, list) else h}" for i, h in enumerate(data)
        )
    if key == "melds" and isinstance(data, list):
        return ", ".join(meld(m) for m in data if isinstance(m, dict)) or "none"
    if key == "tricks" and isinstance(data, list):
        return " | ".join(
            f"{cards(t.get('cards') or [])} -> seat {t.get('winner')}"
            if isinstance(t, dict)
            else str(t)
            for t in data
        )
    return repr(data) if isinstance(data, str) else str(data)


def seat_of(text: str) -> int:
    """A seat number 0-3 from its word."""
    seat = int(text)
    if not 0 <= seat <= 3:
        raise ValueError(f"seat {text}: seats are 0-3")
    return seat


def ordinal(text: str) -> int:
    """0-based index of ``first`` .. ``fourth``."""
    return ORDINALS[text]
