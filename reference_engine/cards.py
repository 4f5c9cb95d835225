"""Cards, hands and decks: the small values every rule is written over (rules DECK-*, DEAL-*).

A card kind is a small int ``suit * 6 + rank`` (rank 0 = Ace ... 5 = Nine), so its rank and suit
are derived, as python-chess derives a square's file. Identical copies are not distinguished: a
hand is a count vector of 24 ints. The API speaks card codes (``Ah``, ``Ts``, ``9c``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache

from specdata import RANK_SYMBOLS, RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, card_codes
from specdata import card_code as card_code_of

from .errors import CardError

NUM_RANKS = 6
NUM_KINDS = 24

Card = int
"""A card kind: ``suit * 6 + rank``; rank 0 is the Ace (highest), 5 the Nine."""

Counts = tuple[int, ...]
"""A multiset of cards as 24 counts indexed by card kind."""

ACE, TEN, KING, QUEEN, JACK, NINE = range(6)
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)

_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
__all__ = ["RANKS", "RANK_SYMBOLS", "SUITS", "SUIT_NAMES", "SUIT_SYMBOLS"]


def rank_of(card: Card) -> int:
    """Rank index of a card kind: 0 (Ace) is highest, 5 (Nine) lowest."""
    return card % NUM_RANKS


def suit_of(card: Card) -> int:
    """Suit index of a card kind (0 spades, 1 hearts, 2 diamonds, 3 clubs)."""
    return card // NUM_RANKS


def make_card(rank: int, suit: int) -> Card:
    """The card kind with this rank index and suit index."""
    return suit * NUM_RANKS + rank


_CODES = tuple(r + s for s in SUITS for r in RANKS)
"""Card code by card kind (the kind is ``suit * 6 + rank``)."""
_CODE_TO_CARD = {code: card for card, code in enumerate(_CODES)}


def card_code(card: Card) -> str:
    """Canonical code of a card kind: rank letter then suit letter, e.g. ``Ah``, ``Ts``."""
    return _CODES[card]


def card_symbol(card: Card) -> str:
    """The card with a suit symbol, for logs and docs: ``A♥``, ``10♠``."""
    return RANK_SYMBOLS[RANKS[rank_of(card)]] + SUIT_SYMBOLS[SUITS[suit_of(card)]]


def suit_index(letter: str) -> int:
    """Index of a suit given by letter (``h``) or symbol (``♥``); raises CardError otherwise."""
    key = _SYMBOL_TO_SUIT.get(letter, letter.lower() if isinstance(letter, str) else letter)
    if not isinstance(key, str) or len(key) != 1 or key not in SUITS:
        raise CardError(f"unknown suit {letter!r}: expected one of {', '.join(SUITS)}")
    return SUITS.index(key)


def parse_card(token: str) -> Card:
    """Parse one card code (``Ah``, ``10h``, ``A♥``); raise CardError naming a bad token."""
    found = _CODE_TO_CARD.get(token) if type(token) is str else None
    if found is not None:  # a canonical code, as the protocol sends it
        return found
    try:
        return _CODE_TO_CARD[card_code_of(token.strip() if isinstance(token, str) else token)]
    except ValueError as err:
        raise CardError(str(err)) from None


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a list of cards in the one card grammar (``specdata.card_codes``).

    Accepts a sequence of codes, or one string whose codes are separated by spaces or commas or
    run together as the sources write them (``AhThKhKhKhQhQhJh``). Case matters: ``ah`` is not
    a card.
    """
    if isinstance(text, list | tuple):
        # The trusted fast path: a list of canonical codes, as the protocol sends them.
        try:
            return [_CODE_TO_CARD[c] for c in text]
        except (KeyError, TypeError):
            pass  # anything else gets the full grammar and its error message
    try:
        codes = card_codes(text)
    except ValueError as err:
        raise CardError(str(err)) from None
    return [_CODE_TO_CARD[c] for c in codes]


def parse_hands(hands: Sequence[str | Sequence[str]]) -> list[list[Card]]:
    """Hands given as card codes, parsed (``parse_cards``); CardError names the seat."""
    parsed = []
    for seat, hand in enumerate(hands):
        try:
            parsed.append(parse_cards(hand))
        except CardError as err:
            raise CardError(f"hand of seat {seat}: {err}") from None
    return parsed


def to_counts(cards: Iterable[Card]) -> Counts:
    """The count vector of a list of card kinds."""
    counts = [0] * NUM_KINDS
    for c in cards:
        counts[c] += 1
    return tuple(counts)


def counts_of_codes(text: str | Iterable[str]) -> Counts:
    """``to_counts(parse_cards(text))`` without the list of kinds in between: the trusted fast
    path for a list of canonical codes, the full grammar (and its errors) for anything else."""
    if isinstance(text, list | tuple):
        counts = [0] * NUM_KINDS
        try:
            for code in text:
                counts[_CODE_TO_CARD[code]] += 1
        except (KeyError, TypeError):
            pass  # parse_cards words the fault
        else:
            return tuple(counts)
    return to_counts(parse_cards(text))


def from_counts(counts: Sequence[int]) -> list[Card]:
    """The card kinds of a count vector, in canonical order (spades first, Ace first)."""
    return [c for c in range(NUM_KINDS) for _ in range(counts[c])]


def hand_counts(cards: str | Iterable[str]) -> Counts:
    """Count vector of cards given as codes."""
    return to_counts(parse_cards(cards))


def format_cards(cards: Iterable[Card], symbols: bool = False) -> str:
    """Cards as space-separated codes (or symbols), sorted canonically."""
    show = card_symbol if symbols else card_code
    return " ".join(show(c) for c in sorted(cards))


def sort_key(code: str) -> int:
    """Sort key of a card code in canonical order (spades, hearts, diamonds, clubs; Ace first)."""
    return parse_card(code)


def deck(ranks: str, copies: int) -> list[Card]:
    """The deck of a variant (DECK-COMPOSITION): ``copies`` of each rank in ``ranks`` per suit."""
    unknown = set(ranks) - set(RANKS)
    if unknown:
        raise CardError(f"unknown ranks {sorted(unknown)} in deck: ranks are from {RANKS}")
    return [make_card(RANKS.index(r), s) for s in range(4) for r in ranks for _ in range(copies)]


def shuffled(cards: Sequence[Card], seed: int | str) -> list[Card]:
    """A seeded shuffle: the same seed gives the same order on every machine."""
    out = list(cards)
    random.Random(f"pinochle:{seed}").shuffle(out)
    return out


def deal(cards: Sequence[Card], dealer: int, packets: Sequence[int]) -> list[list[Card]]:
    """Deal all cards clockwise from the dealer's left in the given packet sizes (DEAL-PACKETS).

    ``packets`` is the sequence of packet sizes each player receives per round, repeated until
    the cards run out (for example ``[5]`` for five at a time, ``[2, 3]`` for two then threes).
    """
    hands: list[list[Card]] = [[], [], [], []]
    pos = 0
    round_no = 0
    while pos < len(cards):
        size = packets[round_no] if round_no < len(packets) else packets[-1]
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            hands[seat].extend(cards[pos : pos + size])
            pos += size
        round_no += 1
    return hands


def check_deal(hands: Sequence[Sequence[Card]], deck_cards: Sequence[Card], hand_size: int) -> None:
    """Check explicit hands against a variant's deck (DEAL-HANDS): sizes and the exact multiset."""
    if len(hands) != 4:
        raise CardError(f"a deal has 4 hands, got {len(hands)}")
    for seat, hand in enumerate(hands):
        if len(hand) != hand_size:
            raise CardError(f"seat {seat} holds {len(hand)} cards; each hand has {hand_size}")
    difference = deck_difference(to_counts(c for h in hands for c in h), to_counts(deck_cards))
    if difference is not None:
        raise CardError(f"the hands are not the variant's deck: {difference}")


def deck_difference(have: Counts, want: Counts) -> str | None:
    """How a multiset of cards differs from a deck: ``too many Ah; missing Ts``, or ``None``
    when they are the same (DECK-COMPOSITION, DEAL-HANDS)."""
    if have == want:
        return None
    extra = [card_code(c) for c in range(NUM_KINDS) if have[c] > want[c]]
    missing = [card_code(c) for c in range(NUM_KINDS) if have[c] < want[c]]
    return f"too many {' '.join(extra) or '-'}; missing {' '.join(missing) or '-'}"


@cache
def _deck_counts(deck_cards: tuple[Card, ...]) -> Counts:
    return to_counts(deck_cards)


def check_from_deck(cards: Sequence[Card], deck_cards: Sequence[Card], what: str) -> None:
    """Refuse cards that a variant's deck cannot supply: a rank it lacks, or too many copies.

    ``what`` names the cards in the message (``"hand"``, ``"hand and trick"``).
    """
    check_counts_from_deck(to_counts(cards), _deck_counts(tuple(deck_cards)), what)


def check_counts_from_deck(have: Counts, deck_counts: Counts, what: str) -> None:
    """``check_from_deck`` for cards already counted, against the deck's counts."""
    if all(map(int.__le__, have, deck_counts)):
        return
    for kind in range(NUM_KINDS):
        if have[kind] > deck_counts[kind]:
            code = card_code(kind)
            if deck_counts[kind] == 0:
                raise CardError(f"{what}: {code} is not in this variant's deck")
            raise CardError(
                f"{what}: {have[kind]} copies of {code}, but the deck has {deck_counts[kind]}"
            )
