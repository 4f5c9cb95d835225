"""Actions as small ints, and their canonical strings (``bid 55``, ``give Ah Ts``, ``play Qs``).

An action packs its kind in the low three bits and its argument above them, so sorting ints sorts
actions canonically; text is parsed once, at the entry (``parse``), and written back by ``text``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, repeat

from .cards import NUM_KINDS, SUITS, Card, card_code, parse_card, parse_cards, suit_index
from .errors import CardError, PinochleError

Action = int
"""An action: ``kind | argument << 3`` (see the kinds below)."""

KIND_BITS = 3
KIND_MASK = (1 << KIND_BITS) - 1

# The kinds, in the order their actions sort: a card played sorts by card kind, a suit by suit;
# play-on before throw-in; pass before every bid, bids ascending; gives by their sorted cards.
PLAY = 0  # argument: the card kind
TRUMP = 1  # argument: the suit index
PLAY_ON = 2
THROW_IN = 3
PASS = 4
BID = 5  # argument: the amount
GIVE = 6  # argument: the packed count vector of the cards (see ``give``)

PLAY_ON_ACTION: Action = PLAY_ON
THROW_IN_ACTION: Action = THROW_IN
PASS_ACTION: Action = PASS

# A give packs its count vector, one byte per card kind with the Ace of spades highest, and is
# stored as _GIVE_TOP minus it: so more copies of a lower card sort first, the order of the sorted
# card lists; and a give is a sum of per-card weights (``gives``).
_GIVE_TOP = 1 << (8 * NUM_KINDS)
_GIVE_WEIGHT = tuple(-(1 << (8 * (NUM_KINDS - 1 - c) + KIND_BITS)) for c in range(NUM_KINDS))
_GIVE_START = _GIVE_TOP << KIND_BITS | GIVE
_PLAIN = {"pass": PASS_ACTION, "throw-in": THROW_IN_ACTION, "play-on": PLAY_ON_ACTION}
_PLAIN_TEXT = {action: word for word, action in _PLAIN.items()}
PLAY_ACTIONS: tuple[Action, ...] = tuple(c << KIND_BITS for c in range(NUM_KINDS))
"""``play(card)`` for every card kind, indexed by card kind."""


def play(card: Card) -> Action:
    """The action of playing ``card``."""
    return card << KIND_BITS


def trump(suit: int) -> Action:
    """The action of naming ``suit`` (an index 0-3) trump."""
    return suit << KIND_BITS | TRUMP


def bid(amount: int) -> Action:
    """The action of bidding ``amount``."""
    return amount << KIND_BITS | BID


def give(cards: Iterable[Card]) -> Action:
    """The action of giving these cards (in any order; the action holds their count vector).

    Raises PinochleError for 256 or more copies of one card, which no action can hold.
    """
    counts = [0] * NUM_KINDS
    for card in cards:
        counts[card] += 1
    try:
        packed = int.from_bytes(bytes(counts), "big")
    except ValueError:
        raise PinochleError("a give holds at most 255 copies of a card") from None
    return (_GIVE_TOP - packed) << KIND_BITS | GIVE


def kind(action: Action) -> int:
    """The kind of an action (``PLAY``, ``TRUMP`` ... ``GIVE``)."""
    return action & KIND_MASK


def argument(action: Action) -> int:
    """The argument of an action: a card, a suit, an amount or the packed cards of a give."""
    return action >> KIND_BITS


def given_cards(action: Action) -> tuple[Card, ...]:
    """The cards of a ``give`` action, in canonical order."""
    counts = (_GIVE_TOP - (action >> KIND_BITS)).to_bytes(NUM_KINDS, "big")
    return tuple(c for c in range(NUM_KINDS) for _ in range(counts[c]))


def give_action(cards: Sequence[Card]) -> str:
    """The canonical ``give`` text for these cards (canonical card order)."""
    return text(give(cards))


def text(action: Action) -> str:
    """The canonical string of an action: ``bid 55``, ``pass``, ``trump h``, ``give Ah Ts``,
    ``throw-in``, ``play-on``, ``play Qs``."""
    k = action & KIND_MASK
    arg = action >> KIND_BITS
    if k == PLAY:
        return f"play {card_code(arg)}"
    if k == BID:
        return f"bid {arg}"
    if k == TRUMP:
        return f"trump {SUITS[arg]}"
    if k == GIVE:
        return " ".join(["give", *(card_code(c) for c in given_cards(action))])
    return _PLAIN_TEXT[action]


PARSED_LIMIT = 4096
"""How many distinct action strings ``parse`` remembers: the few hundred a suite's hands use
(``play Ah``, ``bid 250``) parsed once, not once a hand; a flood of new ones is parsed each time."""
_PARSED: dict[str, Action] = {}


def parse(words: str) -> Action:
    """The action a canonical action string names (``bid 55``, ``give Ah Ts`` ...).

    Raises PinochleError naming a malformed action; whether it is legal is the state's question.
    """
    if type(words) is str:
        found = _PARSED.get(words)
        if found is not None:
            return found
    action = _parse(words)
    if len(_PARSED) < PARSED_LIMIT:
        _PARSED[words] = action
    return action


def _parse(words: str) -> Action:
    if not isinstance(words, str):
        raise PinochleError(f"an action must be a string, got {words!r}")
    split = words.split()
    verb, rest = (split[0], split[1:]) if split else ("", [])
    if verb in _PLAIN and not rest:
        return _PLAIN[verb]
    if verb == "bid" and len(rest) == 1:
        try:
            return bid(int(rest[0]))
        except ValueError:
            raise PinochleError(f"bad action {words!r}: a bid is a whole number") from None
    try:
        if verb == "trump" and len(rest) == 1:
            return trump(suit_index(rest[0]))
        if verb == "play" and len(rest) == 1:
            return play(parse_card(rest[0]))
        if verb == "give":
            return give(parse_cards(rest))
    except CardError as err:
        raise PinochleError(f"bad action {words!r}: {err}") from None
    raise PinochleError(
        f"bad action {words!r}: expected 'bid N', 'pass', 'trump S', 'give C ...', 'throw-in', "
        "'play-on' or 'play C'"
    )


def gives(counts: Sequence[int], n: int) -> list[Action]:
    """Every distinct ``give`` of ``n`` cards from a count vector, in canonical order.

    Sums of per-card weights over the combinations of the held cards, so the passing phase
    lists its hundreds of choices without a Python step per choice.
    """
    weights = [_GIVE_WEIGHT[c] for c in range(NUM_KINDS) for _ in range(counts[c])]
    # Combinations of cards in canonical order come in canonical order, so the first of
    # identical sums keeps the order.
    return list(dict.fromkeys(map(sum, combinations(weights, n), repeat(_GIVE_START))))


SEAT_PREFIX = "seat "
"""A protocol action may name who acts: ``seat 2: trump h`` (spec/protocol.md, "Seats")."""


def parse_claim(words: str) -> tuple[int | None, Action]:
    """The seat an action string names (``seat 2: trump h``) or None, and the action.

    The claim is the protocol's, not the canonical action's (game records give the seat in its
    own field): the rest after ``seat N: `` must be a canonical action (``parse``). Raises
    PinochleError for a malformed claim or action.
    """
    if not isinstance(words, str) or not words.startswith(SEAT_PREFIX):
        return None, parse(words)
    claim, colon, rest = words[len(SEAT_PREFIX) :].partition(": ")
    if not colon or claim not in ("0", "1", "2", "3"):
        raise PinochleError(f"bad action {words!r}: a seat claim is 'seat N: ACTION' with N 0-3")
    return int(claim), parse(rest)


def parse_claims(words: Sequence[str]) -> tuple[list[Action], list[int | None]]:
    """A list of action strings, each optionally claimed by a seat (``parse_claim``): the
    actions and the claimed seats. Raises PinochleError naming the index of a malformed one."""
    parsed: list[Action] = []
    seats: list[int | None] = []
    for index, item in enumerate(words):
        try:
            seat, action = parse_claim(item)
        except PinochleError as err:
            raise PinochleError(f"action {index}: {err}") from None
        parsed.append(action)
        seats.append(seat)
    return parsed, seats
