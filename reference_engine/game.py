"""Whole hands and games: an immutable OpenSpiel-style state, its phases, actions and scoring.

``new_game`` deals; ``legal_actions``/``apply`` move between phases (auction, trump, passing,
decision, tricks) using the rule functions of auction, meld, tricks and scoring.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from . import auction, scoring
from .cards import (
    KING,
    NUM_KINDS,
    SUIT_NAMES,
    SUITS,
    Card,
    Counts,
    card_code,
    card_symbol,
    check_deal,
    deal,
    from_counts,
    parse_card,
    parse_cards,
    shuffled,
    suit_index,
    suit_of,
    to_counts,
)
from .errors import CardError, IllegalAction, PinochleError
from .meld import MeldResult, has_aces_around, has_marriage, meld, meld_total
from .scoring import HandScore
from .tricks import card_points, legal_plays, trick_winner
from .variants import Rules

AUCTION_WINDOW = 10
"""How many bids ``legal_actions`` lists in the auction (the smallest legal ones).

Bids have no upper bound, so the list is a window; ``apply`` accepts any legal bid."""


class Phase(enum.Enum):
    """Where a hand is: whose action is awaited, and of which kind."""

    AUCTION = "auction"  # bid N / pass
    TRUMP = "trump"  # the bidder names trump
    PASSING = "passing"  # partner gives N cards, then the bidder gives N back
    DECISION = "decision"  # the bidder throws in or plays on
    PLAY = "play"  # trick play
    HAND_OVER = "hand_over"  # a single hand (play_hand) is over; no further action
    GAME_OVER = "game_over"  # a team has won


TURN_RULE = {
    Phase.AUCTION: "AUCTION-TURN",
    Phase.TRUMP: "TRUMP-CALL",
    Phase.PASSING: "PASS-CARDS",
    Phase.DECISION: "SCORE-THROW-IN",
    Phase.PLAY: "PLAY-TURN",
}
"""The rule an action of the wrong kind or by the wrong seat breaks, per phase."""


@dataclass(frozen=True)
class Trick:
    """A completed trick: who led it, the cards in play order, and the seat that won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True)
class HandRecord:
    """Everything one finished hand decided, for logs, records and tests."""

    number: int
    dealer: int
    deal: tuple[Counts, ...]
    actions: tuple[tuple[int, str], ...]
    bidder: int | None
    contract: int | None
    trump: int | None
    outcome: str
    meld: tuple[int, ...] | None
    meld_items: tuple[MeldResult, ...] | None
    team_meld: tuple[int, int] | None
    aces_around: tuple[int, ...] | None
    tricks: tuple[Trick, ...]
    card_points: tuple[int, int]
    tricks_won: tuple[int, int]
    scores_before: tuple[int, int]
    score: HandScore


@dataclass(frozen=True)
class GameState:
    """A game at one moment. Immutable: ``apply`` returns a new state.

    Hands are count vectors (``cards.Counts``) per seat 0-3; team = seat % 2. The fields after
    ``auction`` describe the current hand; ``history`` holds every finished hand.
    """

    rules: Rules
    seed: int | str | None
    number: int  # 1-based number of the current hand
    dealer: int
    scores_before: tuple[int, int]  # the scores when this hand began
    phase: Phase
    deal: tuple[Counts, ...]
    hands: tuple[Counts, ...]
    auction: auction.AuctionState
    trump: int | None = None
    gave: tuple[tuple[Card, ...], ...] = ()  # cards passed so far: partner's, then bidder's
    meld: tuple[MeldResult, ...] | None = None
    aces_around: tuple[int, ...] | None = None  # seats with aces around when meld was shown
    leader: int | None = None
    trick: tuple[Card, ...] = ()
    tricks: tuple[Trick, ...] = ()
    points: tuple[int, int] = (0, 0)
    tricks_won: tuple[int, int] = (0, 0)
    outcome: str | None = None
    result: HandScore | None = None
    actions: tuple[tuple[int, str], ...] = ()
    history: tuple[HandRecord, ...] = ()
    single_hand: bool = False

    @property
    def bidder(self) -> int | None:
        """The seat that won the auction, once it is complete."""
        return self.auction.winner

    @property
    def contract(self) -> int | None:
        """The winning bid, once the auction is complete."""
        return self.auction.contract

    @property
    def scores(self) -> tuple[int, int]:
        """The current game scores of teams 0 and 1."""
        return self.result.scores if self.result is not None else self.scores_before

    @property
    def team_meld(self) -> tuple[int, int] | None:
        """Raw meld of each team (the partners' melds added, MELD-ONE-HAND), once shown."""
        if self.meld is None:
            return None
        totals = [m.total for m in self.meld]
        return (totals[0] + totals[2], totals[1] + totals[3])

    @property
    def winner(self) -> int | None:
        """The team that won the game, once it is over."""
        return self.result.game_winner if self.result is not None else None


# --- dealing and starting -------------------------------------------------------------------


def _check_seat(seat: object, what: str = "dealer") -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise PinochleError(f"{what} must be a seat number 0-3, got {seat!r}")
    return seat


def _check_scores(scores: object) -> tuple[int, int]:
    if (
        isinstance(scores, (str, bytes))
        or not isinstance(scores, Sequence)
        or len(scores) != 2
        or any(isinstance(s, bool) or not isinstance(s, int) for s in scores)
    ):
        raise PinochleError(f"scores must be two integers (team 0, team 1), got {scores!r}")
    return (scores[0], scores[1])


def deal_hands(rules: Rules, seed: int | str, number: int, dealer: int) -> tuple[Counts, ...]:
    """The hands of hand ``number`` of a seeded game: the deck shuffled by ``seed`` and the hand
    number, dealt clockwise from the dealer's left in the variant's packets (DEAL-PACKETS)."""
    order = shuffled(rules.deck_cards, f"{seed}/{number}")
    return tuple(to_counts(h) for h in deal(order, dealer, rules.deal_packets))


def check_hands(rules: Rules, hands: Sequence[Any]) -> tuple[Counts, ...]:
    """Explicit hands (lists of codes, strings, or card kinds) checked against the deck
    (DEAL-HANDS); raises CardError naming what is wrong."""
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise CardError(f"hands must be a list of 4 hands, got {hands!r}")
    parsed: list[list[Card]] = []
    for seat, hand in enumerate(hands):
        if (
            isinstance(hand, tuple)
            and len(hand) == NUM_KINDS
            and all(isinstance(n, int) for n in hand)
        ):
            parsed.append(from_counts(hand))
        elif isinstance(hand, (str, list, tuple)):
            try:
                parsed.append(parse_cards(hand))
            except CardError as err:
                raise CardError(f"hand of seat {seat}: {err}") from None
        else:
            raise CardError(f"hand of seat {seat} must be a list of card codes, got {hand!r}")
    check_deal(parsed, rules.deck_cards, rules.hand_size)
    return tuple(to_counts(h) for h in parsed)


def new_hand(
    rules: Rules,
    dealer: int,
    hands: tuple[Counts, ...],
    scores: tuple[int, int] = (0, 0),
    number: int = 1,
    seed: int | str | None = None,
    history: tuple[HandRecord, ...] = (),
    single_hand: bool = False,
) -> GameState:
    """A state at the start of a hand's auction with these (already checked) hands."""
    return GameState(
        rules=rules,
        seed=seed,
        number=number,
        dealer=dealer,
        scores_before=scores,
        phase=Phase.AUCTION,
        deal=hands,
        hands=hands,
        auction=auction.start(rules, dealer),
        history=history,
        single_hand=single_hand,
    )


def new_game(
    rules: Rules,
    seed: int | str | None = None,
    hands: Sequence[Any] | None = None,
    dealer: int = 0,
) -> GameState:
    """A new game: scores 0-0, ``dealer`` deals the first hand.

    The first hand is ``hands`` if given (checked, DEAL-HANDS), else dealt from ``seed``; every
    later hand is dealt from ``seed`` and its number. Without a seed one is drawn at random and
    kept in the state, so the game can be replayed. The deal passes clockwise (DEAL-ROTATION).
    """
    _check_seat(dealer)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise PinochleError(f"seed must be an integer or a string, got {seed!r}")
    counts = deal_hands(rules, seed, 1, dealer) if hands is None else check_hands(rules, hands)
    return new_hand(rules, dealer, counts, seed=seed)


# --- actions --------------------------------------------------------------------------------


def parse_action(action: object) -> tuple[str, Any]:
    """Split a canonical action string into ``(verb, argument)``.

    ``bid 55`` -> ("bid", 55); ``pass``; ``trump h`` -> ("trump", suit); ``give Ah Ts`` ->
    ("give", cards); ``throw-in``; ``play-on``; ``play Ah`` -> ("play", card). Raises
    PinochleError naming a malformed action.
    """
    if not isinstance(action, str):
        raise PinochleError(f"an action must be a string, got {action!r}")
    words = action.split()
    verb, rest = (words[0], words[1:]) if words else ("", [])
    if verb in ("pass", "throw-in", "play-on") and not rest:
        return verb, None
    if verb == "bid" and len(rest) == 1:
        try:
            return verb, int(rest[0])
        except ValueError:
            raise PinochleError(f"bad action {action!r}: a bid is a whole number") from None
    if verb == "trump" and len(rest) == 1:
        try:
            return verb, suit_index(rest[0])
        except CardError as err:
            raise PinochleError(f"bad action {action!r}: {err}") from None
    if verb == "play" and len(rest) == 1:
        try:
            return verb, parse_card(rest[0])
        except CardError as err:
            raise PinochleError(f"bad action {action!r}: {err}") from None
    if verb == "give":
        try:
            return verb, tuple(parse_cards(rest))
        except CardError as err:
            raise PinochleError(f"bad action {action!r}: {err}") from None
    raise PinochleError(
        f"bad action {action!r}: expected 'bid N', 'pass', 'trump S', 'give C ...', 'throw-in', "
        "'play-on' or 'play C'"
    )


def give_action(cards: Sequence[Card]) -> str:
    """The canonical ``give`` action for these cards (canonical card order)."""
    return "give " + " ".join(card_code(c) for c in sorted(cards))


def current_seat(state: GameState) -> int | None:
    """The seat whose action is awaited, or ``None`` when no action is (hand or game over)."""
    phase = state.phase
    if phase is Phase.AUCTION:
        return state.auction.next_seat
    bidder = state.bidder
    if phase in (Phase.TRUMP, Phase.DECISION):
        return bidder
    if phase is Phase.PASSING:
        assert bidder is not None
        return (bidder + 2) % 4 if not state.gave else bidder
    if phase is Phase.PLAY:
        assert state.leader is not None
        return (state.leader + len(state.trick)) % 4
    return None


def is_terminal(state: GameState) -> bool:
    """Whether no action remains: the game is over (or, for ``play_hand``, the hand is)."""
    return state.phase in (Phase.GAME_OVER, Phase.HAND_OVER)


def returns(state: GameState) -> tuple[int, int, int, int]:
    """Each seat's current game score (its team's score), seats 0-3."""
    s = state.scores
    return (s[0], s[1], s[0], s[1])


def _multisets(counts: Counts, n: int) -> Iterator[tuple[Card, ...]]:
    """Every distinct multiset of ``n`` cards from a count vector, in canonical order."""
    kinds = [c for c in range(NUM_KINDS) if counts[c]]

    def walk(i: int, left: int) -> Iterator[tuple[Card, ...]]:
        if left == 0:
            yield ()
            return
        if i == len(kinds):
            return
        card = kinds[i]
        for take in range(min(counts[card], left), -1, -1):
            for rest in walk(i + 1, left - take):
                yield (card,) * take + rest

    return walk(0, n)


def forced_throw_in(state: GameState) -> bool:
    """SCORE-FORCED-THROW-IN (online): the bidding team's meld leaves more to take in tricks
    than the cards hold (contract minus meld > all card points), so the bidder must throw in."""
    rules = state.rules
    if not rules.forced_throw_in or state.team_meld is None or state.bidder is None:
        return False
    assert state.contract is not None
    needed = state.contract - state.team_meld[state.bidder % 2]
    return needed > rules.total_card_points


def trump_suits(state: GameState) -> list[int]:
    """Suits the bidder may name (TRUMP-MARRIAGE: in double-deck only a suit in which the
    bidder holds a king and a queen)."""
    if state.bidder is None:
        return []
    hand = state.hands[state.bidder]
    if state.rules.trump_requires_marriage:
        return [s for s in range(4) if has_marriage(hand, s)]
    return list(range(4))


def legal_actions(state: GameState) -> list[str]:
    """The legal actions of the seat to act, in canonical order; empty when terminal.

    Auction: the ``AUCTION_WINDOW`` smallest legal bids ascending, then ``pass`` if allowed
    (``apply`` accepts any legal bid). Trump: suits in s h d c order. Passing: every distinct
    set of N cards, canonical order. Decision: ``play-on`` then ``throw-in`` (``throw-in``
    alone when forced). Play: the legal cards in canonical order (spades first, Ace first).
    """
    phase = state.phase
    rules = state.rules
    if phase is Phase.AUCTION:
        a = state.auction
        bids = [f"bid {b}" for b in auction.legal_bids(a, rules, AUCTION_WINDOW)]
        return bids + (["pass"] if auction.can_pass(a, rules) else [])
    if phase is Phase.TRUMP:
        return [f"trump {SUITS[s]}" for s in trump_suits(state)]
    if phase is Phase.PASSING:
        seat = current_seat(state)
        assert seat is not None
        return [give_action(m) for m in _multisets(state.hands[seat], rules.pass_cards)]
    if phase is Phase.DECISION:
        return ["throw-in"] if forced_throw_in(state) else ["play-on", "throw-in"]
    if phase is Phase.PLAY:
        seat = current_seat(state)
        assert seat is not None and state.trump is not None
        cards = legal_plays(state.hands[seat], state.trick, state.trump, rules)
        return [f"play {card_code(c)}" for c in cards]
    return []


def _over_rule(state: GameState) -> str:
    if state.phase is Phase.GAME_OVER:
        return "GAME-ROUNDS" if state.rules.rounds is not None else "GAME-TARGET"
    return {
        "played": "PLAY-TURN",
        "thrown_in": "SCORE-THROW-IN",
        "meld_short": "MELD-SHORT-BIDDER",
        "no_marriage": "TRUMP-NO-MARRIAGE",
    }[state.outcome or "played"]


def _over_reason(state: GameState) -> str:
    if state.phase is Phase.GAME_OVER:
        return f"the game is over (team {state.winner} won)"
    reasons = {
        "played": "all tricks are played",
        "thrown_in": "the bidder threw in",
        "meld_short": "the bidding side is short of the meld minimum",
        "no_marriage": "the bidder holds no marriage to name trump",
    }
    return f"the hand is over: {reasons[state.outcome or 'played']}"


VERB_PHASE = {
    "bid": Phase.AUCTION,
    "pass": Phase.AUCTION,
    "trump": Phase.TRUMP,
    "give": Phase.PASSING,
    "throw-in": Phase.DECISION,
    "play-on": Phase.DECISION,
    "play": Phase.PLAY,
}
"""The phase each kind of action belongs to; out of it the action breaks that phase's rule."""


def _wrong_phase(state: GameState, action: str, verb: str) -> IllegalAction:
    """The error for an action of another phase: the rule of the action's own kind.

    A call after the auction breaks AUCTION-END; naming trump other than as the bidder right
    after the auction, TRUMP-CALL; giving cards outside passing, PASS-CARDS; throwing in or
    playing on outside the bidder's decision, SCORE-THROW-IN; playing a card before trick play,
    PLAY-TURN.
    """
    seat = current_seat(state)
    now = f"seat {seat} is to act in the {state.phase.value} phase"
    rules = state.rules
    if verb == "trump":
        if state.phase is Phase.AUCTION:
            why = "only the bidder names trump, once the auction is over"
        else:
            assert state.trump is not None
            why = f"trump is already {SUIT_NAMES[SUITS[state.trump]]}"
        return IllegalAction("TRUMP-CALL", f"{action!r} is refused: {why}; {now}")
    if verb == "give":
        if rules.pass_cards == 0:
            why = f"{rules.variant} with these options passes no cards"
        else:
            why = "cards are passed only after trump is named, before meld"
        return IllegalAction("PASS-CARDS", f"{action!r} is refused: {why}; {now}")
    if verb in ("throw-in", "play-on"):
        if rules.throw_in == "none":
            why = f"{rules.variant} with these options has no throw-in decision"
        else:
            why = "the bidder decides after meld, before the first lead"
        return IllegalAction("SCORE-THROW-IN", f"{action!r} is refused: {why}; {now}")
    return IllegalAction(
        "PLAY-TURN", f"{action!r} is refused: cards are played only in trick play; {now}"
    )


def apply(state: GameState, action: str, seat: int | None = None) -> GameState:
    """The state after the seat to act takes ``action`` (a canonical action string).

    ``seat``, if given, is who claims to act: a different seat breaks the phase's turn rule
    (AUCTION-TURN or AUCTION-PASS-FINAL, TRUMP-CALL, PASS-CARDS, SCORE-THROW-IN, PLAY-TURN).
    An action of another phase breaks the rule of its own kind (``_wrong_phase``; a call after
    the auction: AUCTION-END). Raises IllegalAction with the rule broken, or PinochleError for a
    malformed action; the state passed in is never changed.
    """
    verb, arg = parse_action(action)
    if seat is not None:
        _check_seat(seat, "seat")
    if is_terminal(state):
        raise IllegalAction(_over_rule(state), f"{action!r} is not possible: {_over_reason(state)}")
    phase = state.phase
    to_act = current_seat(state)
    assert to_act is not None
    actor = to_act if seat is None else seat
    if verb in ("bid", "pass"):
        # AUCTION-END (after the auction) and every auction rule come from auction.apply_call.
        new_auction = auction.apply_call(state.auction, state.rules, actor, arg)
        state = _record(state, actor, action, auction=new_auction)
        return _after_auction(state) if new_auction.complete else state
    if VERB_PHASE[verb] is not phase:
        raise _wrong_phase(state, action, verb)
    if actor != to_act:
        raise IllegalAction(
            TURN_RULE[phase],
            f"seat {actor} cannot {action!r}: it is seat {to_act}'s turn ({phase.value})",
        )
    if phase is Phase.TRUMP:
        return _apply_trump(state, action, verb, arg)
    if phase is Phase.PASSING:
        return _apply_give(state, action, verb, arg)
    if phase is Phase.DECISION:
        return _apply_decision(state, action, verb)
    return _apply_play(state, action, verb, arg)


def _record(state: GameState, seat: int, action: str, **changes: Any) -> GameState:
    return replace(state, actions=(*state.actions, (seat, action)), **changes)


def _after_auction(state: GameState) -> GameState:
    """TRUMP-NO-MARRIAGE: a bidder with no marriage in any suit (double-deck) cannot name
    trump, and the hand ends at once."""
    if not trump_suits(state):
        return _end_hand(state, "no_marriage")
    return replace(state, phase=Phase.TRUMP)


def _apply_trump(state: GameState, action: str, verb: str, suit: Any) -> GameState:
    """TRUMP-CALL: the bidder names a suit; TRUMP-MARRIAGE: in double-deck one in which the
    bidder holds a king and a queen."""
    bidder = state.bidder
    if verb != "trump":
        raise IllegalAction("TRUMP-CALL", f"seat {bidder} must name trump, not {action!r}")
    if suit not in trump_suits(state):
        raise IllegalAction(
            "TRUMP-MARRIAGE",
            f"seat {bidder} cannot name {SUIT_NAMES[SUITS[suit]]}: trump must be a suit in "
            "which the bidder holds a king and a queen",
        )
    assert bidder is not None
    state = _record(state, bidder, f"trump {SUITS[suit]}", trump=suit)
    if state.rules.pass_cards > 0:
        return replace(state, phase=Phase.PASSING)
    return _show_meld(state)


def _apply_give(state: GameState, action: str, verb: str, cards: Any) -> GameState:
    """PASS-CARDS: the bidder's partner gives N cards to the bidder, then the bidder gives N
    back (any N it holds, including those just received)."""
    seat = current_seat(state)
    bidder = state.bidder
    assert seat is not None and bidder is not None
    n = state.rules.pass_cards
    who = "the bidder" if seat == bidder else "the bidder's partner"
    if verb != "give":
        raise IllegalAction(
            "PASS-CARDS", f"seat {seat} ({who}) must give {n} cards, not {action!r}"
        )
    if len(cards) != n:
        raise IllegalAction(
            "PASS-CARDS", f"seat {seat} ({who}) must give exactly {n} cards, not {len(cards)}"
        )
    given = to_counts(cards)
    hand = state.hands[seat]
    missing = [card_code(c) for c in range(NUM_KINDS) if given[c] > hand[c]]
    if missing:
        raise IllegalAction(
            "PASS-CARDS", f"seat {seat} ({who}) cannot give {' '.join(missing)}: not held"
        )
    to = bidder if seat != bidder else (bidder + 2) % 4
    hands = list(state.hands)
    hands[seat] = tuple(h - g for h, g in zip(hand, given, strict=True))
    hands[to] = tuple(h + g for h, g in zip(hands[to], given, strict=True))
    cards_sorted = tuple(sorted(cards))
    state = _record(
        state, seat, give_action(cards_sorted), hands=tuple(hands), gave=(*state.gave, cards_sorted)
    )
    return _show_meld(state) if len(state.gave) == 2 else state


def _show_meld(state: GameState) -> GameState:
    """Meld is computed for every seat when trump is named and passing is done (MELD-*).

    MELD-SHORT-BIDDER (double-deck): a bidding side whose raw meld is under the minimum loses
    the hand at once. Otherwise the bidder decides to throw in where the variant allows it
    (SCORE-THROW-IN), or play begins with the bidder's lead (PLAY-LEAD).
    """
    rules = state.rules
    assert state.trump is not None and state.bidder is not None
    bidder = state.bidder
    melds = tuple(meld(h, state.trump, rules) for h in state.hands)
    # MELD-ACES-DECLARED: seats holding an ace of every suit are made known with the meld.
    aces = tuple(s for s in range(4) if has_aces_around(state.hands[s]))
    state = replace(state, meld=melds, aces_around=aces)
    team_meld = state.team_meld
    assert team_meld is not None
    if rules.short_bidder_loses and team_meld[bidder % 2] < rules.meld_minimum:
        return _end_hand(state, "meld_short")
    if rules.throw_in == "voluntary":
        return replace(state, phase=Phase.DECISION)
    return replace(state, phase=Phase.PLAY, leader=bidder)


def _apply_decision(state: GameState, action: str, verb: str) -> GameState:
    """SCORE-THROW-IN: the bidder throws in or plays on; SCORE-FORCED-THROW-IN: only throw in
    when the contract is out of reach."""
    bidder = state.bidder
    assert bidder is not None
    if verb == "throw-in":
        return _end_hand(_record(state, bidder, "throw-in"), "thrown_in")
    if verb == "play-on":
        if forced_throw_in(state):
            assert state.contract is not None and state.team_meld is not None
            raise IllegalAction(
                "SCORE-FORCED-THROW-IN",
                f"seat {bidder} cannot play on: the contract {state.contract} less the meld "
                f"{state.team_meld[bidder % 2]} is more than the "
                f"{state.rules.total_card_points} card points in play",
            )
        return replace(_record(state, bidder, "play-on"), phase=Phase.PLAY, leader=bidder)
    raise IllegalAction(
        "SCORE-THROW-IN", f"seat {bidder} must choose throw-in or play-on, not {action!r}"
    )


def play_violation(
    hand: Counts, trick: Sequence[Card], trump: int, rules: Rules, card: Card
) -> str:
    """The rule a held card outside ``tricks.legal_plays`` breaks, read from the situation.

    Holding the suit led: another suit breaks PLAY-FOLLOW, a card of it that fails to beat
    breaks PLAY-CRAWL (under post-1945 rules that duty holds only when trumps are led,
    PLAY-POST-1945, and ``legal_plays`` has already applied it). Void in the suit led: a
    non-trump while holding trumps breaks PLAY-TRUMP-VOID, a trump that fails to beat the
    highest trump breaks PLAY-OVERTRUMP. ``legal_plays`` alone decides legality.
    """
    led = suit_of(trick[0])
    if any(hand[c] for c in range(led * 6, led * 6 + 6)):
        return "PLAY-FOLLOW" if suit_of(card) != led else "PLAY-CRAWL"
    return "PLAY-TRUMP-VOID" if suit_of(card) != trump else "PLAY-OVERTRUMP"


def _apply_play(state: GameState, action: str, verb: str, card: Any) -> GameState:
    """PLAY-TURN: the seat to play plays a card it holds; it must be one of
    ``tricks.legal_plays`` (PLAY-FOLLOW, PLAY-CRAWL, PLAY-TRUMP-VOID, PLAY-OVERTRUMP ...).
    Four cards make a trick: TRICK-WINNER takes it and leads next (PLAY-LEAD); its card points
    and on the last trick the bonus go to the winner's team (POINTS-COUNTERS, POINTS-LAST-TRICK).
    """
    seat = current_seat(state)
    rules = state.rules
    trump, leader = state.trump, state.leader
    assert seat is not None and trump is not None and leader is not None
    if verb != "play":
        raise IllegalAction("PLAY-TURN", f"seat {seat} must play a card, not {action!r}")
    hand = state.hands[seat]
    code = card_code(card)
    if not hand[card]:
        raise IllegalAction("PLAY-TURN", f"seat {seat} cannot play {code}: not in hand")
    legal = legal_plays(hand, state.trick, trump, rules)
    if card not in legal:
        rule = play_violation(hand, state.trick, trump, rules, card)
        allowed = " ".join(card_code(c) for c in legal)
        trick = " ".join(card_code(c) for c in state.trick)
        raise IllegalAction(
            rule,
            f"seat {seat} cannot play {code} to {trick} ({SUIT_NAMES[SUITS[trump]]} "
            f"trump): the legal plays are {allowed}",
        )
    hands = list(state.hands)
    hands[seat] = tuple(n - (k == card) for k, n in enumerate(hand))
    trick_cards = (*state.trick, card)
    state = _record(state, seat, f"play {code}", hands=tuple(hands), trick=trick_cards)
    if len(trick_cards) < 4:
        return state
    winner = (leader + trick_winner(trick_cards, trump)) % 4
    last = not any(hands[winner])
    points = list(state.points)
    points[winner % 2] += card_points(trick_cards, rules, last_trick=last)
    won = list(state.tricks_won)
    won[winner % 2] += 1
    state = replace(
        state,
        trick=(),
        leader=winner,
        tricks=(*state.tricks, Trick(leader, trick_cards, winner)),
        points=(points[0], points[1]),
        tricks_won=(won[0], won[1]),
    )
    return _end_hand(state, "played") if last else state


def _end_hand(state: GameState, outcome: str) -> GameState:
    """Score the hand (scoring.score_hand) and decide the game; then the game ends, the single
    hand ends, or the next dealer (clockwise, DEAL-ROTATION) deals the next hand."""
    rules = state.rules
    bidder, contract = state.bidder, state.contract
    assert bidder is not None and contract is not None
    team_meld = state.team_meld or (0, 0)
    score = scoring.score_hand(
        rules,
        bidder % 2,
        contract,
        outcome,
        team_meld,
        state.points,
        state.tricks_won,
        state.scores_before,
        hand=state.number,
    )
    record = HandRecord(
        number=state.number,
        dealer=state.dealer,
        deal=state.deal,
        actions=state.actions,
        bidder=bidder,
        contract=contract,
        trump=state.trump,
        outcome=outcome,
        meld=tuple(m.total for m in state.meld) if state.meld is not None else None,
        meld_items=state.meld,
        team_meld=state.team_meld,
        aces_around=state.aces_around,
        tricks=state.tricks,
        card_points=state.points,
        tricks_won=state.tricks_won,
        scores_before=state.scores_before,
        score=score,
    )
    history = (*state.history, record)
    if score.game_winner is not None or state.single_hand:
        phase = Phase.GAME_OVER if score.game_winner is not None else Phase.HAND_OVER
        return replace(state, phase=phase, outcome=outcome, result=score, history=history)
    dealer = (state.dealer + 1) % 4
    number = state.number + 1
    assert state.seed is not None
    return new_hand(
        rules,
        dealer,
        deal_hands(rules, state.seed, number, dealer),
        scores=score.scores,
        number=number,
        seed=state.seed,
        history=history,
    )


# --- text -------------------------------------------------------------------------------------


def show_cards(counts: Counts) -> str:
    """A hand with suit symbols, grouped by suit."""
    groups = []
    for s in range(4):
        cards = [card_symbol(c) for c in range(s * 6, s * 6 + 6) for _ in range(counts[c])]
        if cards:
            groups.append(" ".join(cards))
    return "  ".join(groups) or "-"


def show_meld(result: MeldResult) -> str:
    """An itemised meld with suit symbols: ``run ♥ 16, pinochle 4 = 20``."""
    if not result.items:
        return "none = 0"
    parts = []
    for item in result.items:
        name = item.id.replace("_", " ")
        if item.suit is not None:
            name += " " + card_symbol(KING + item.suit * 6)[-1]
        if item.count > 1:
            name = f"{item.count}x {name}"
        parts.append(f"{name} {item.points}")
    return ", ".join(parts) + f" = {result.total}"


def view(state: GameState) -> str:
    """The state as readable text: hand number, phase, scores, hands, auction, trump, meld and
    the trick in progress."""
    lines = [
        f"{state.rules.variant} hand {state.number}, dealer seat {state.dealer}, "
        f"phase {state.phase.value}, scores {state.scores[0]}-{state.scores[1]}"
    ]
    for seat in range(4):
        lines.append(f"  seat {seat}: {show_cards(state.hands[seat])}")
    if state.auction.calls:
        calls = ", ".join(f"{s}:{auction.describe_call(c)}" for s, c in state.auction.calls)
        lines.append(f"  auction: {calls}")
    if state.bidder is not None:
        lines.append(f"  bidder seat {state.bidder} at {state.contract}")
    if state.trump is not None:
        lines.append(f"  trump {SUIT_NAMES[SUITS[state.trump]]}")
    if state.meld is not None:
        for seat, m in enumerate(state.meld):
            lines.append(f"  meld seat {seat}: {show_meld(m)}")
    if state.trick:
        lines.append(f"  trick: {' '.join(card_symbol(c) for c in state.trick)}")
    to_act = current_seat(state)
    if to_act is not None:
        lines.append(f"  seat {to_act} to act")
    elif state.phase is Phase.GAME_OVER:
        lines.append(f"  game over: team {state.winner} wins")
    return "\n".join(lines)


# --- protocol answers -----------------------------------------------------------------------


def deal_summary(rules: Rules, dealer: int, deck_codes: Sequence[Any]) -> dict[str, Any]:
    """The protocol ``deal`` answer: all cards dealt clockwise from the dealer's left in the
    variant's packets (DEAL-PACKETS), ``next_dealer`` the seat on the dealer's left
    (DEAL-ROTATION); a deck that is not the variant's (DECK-COMPOSITION) is not dealt."""
    _check_seat(dealer)
    if isinstance(deck_codes, (bytes,)) or not isinstance(deck_codes, (str, Sequence)):
        raise PinochleError(f"deck must be a list of card codes, got {deck_codes!r}")
    cards = parse_cards(deck_codes)
    have, want = to_counts(cards), to_counts(rules.deck_cards)
    if have != want:
        extra = [card_code(c) for c in range(NUM_KINDS) if have[c] > want[c]]
        missing = [card_code(c) for c in range(NUM_KINDS) if have[c] < want[c]]
        message = (
            f"the deck has {len(cards)} cards and is not the {rules.variant} deck of "
            f"{len(rules.deck_cards)}: too many {' '.join(extra) or '-'}; "
            f"missing {' '.join(missing) or '-'} (DECK-COMPOSITION)"
        )
        return {
            "legal": False,
            "violation": {"rule": "DECK-COMPOSITION", "message": message},
            "hands": None,
            "next_dealer": None,
        }
    hands = deal(cards, dealer, rules.deal_packets)
    return {
        "legal": True,
        "violation": None,
        "hands": [[card_code(c) for c in h] for h in hands],
        "next_dealer": (dealer + 1) % 4,
    }


def _hand_answer(state: GameState | None, first_illegal: dict[str, Any] | None) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "legal": first_illegal is None,
        "first_illegal": first_illegal,
        "complete": False,
        "bidder": None,
        "contract": None,
        "trump": None,
        "outcome": None,
        "meld": None,
        "team_meld": None,
        "aces_around": None,
        "tricks": None,
        "card_points": None,
        "tricks_won": None,
        "delta": None,
        "scores": None,
        "game_winner": None,
    }
    if state is None:
        return answer
    answer["bidder"] = state.bidder
    answer["contract"] = state.contract
    answer["trump"] = SUITS[state.trump] if state.trump is not None else None
    if state.meld is not None:
        answer["meld"] = [m.total for m in state.meld]
        answer["team_meld"] = list(state.team_meld or ())
        answer["aces_around"] = list(state.aces_around or ())
    if state.leader is not None:
        answer["tricks"] = [
            {"leader": t.leader, "cards": [card_code(c) for c in t.cards], "winner": t.winner}
            for t in state.tricks
        ]
        answer["card_points"] = list(state.points)
        answer["tricks_won"] = list(state.tricks_won)
    if state.result is not None:
        answer["complete"] = True
        answer["outcome"] = state.outcome
        answer["delta"] = list(state.result.delta)
        answer["scores"] = list(state.result.scores)
        answer["game_winner"] = state.result.game_winner
    return answer


def play_hand(
    rules: Rules,
    dealer: int,
    scores: Sequence[int],
    hands: Sequence[Any],
    actions: Sequence[Any],
    hand: int | None = None,
) -> dict[str, Any]:
    """The protocol ``play_hand`` answer: replay one hand's actions from explicit hands.

    Hands that are not the variant's deal give ``legal: false`` with DEAL-HANDS; the first
    illegal action stops the replay (``first_illegal`` gives its index, rule and message) and
    the other fields describe the hand as far as it got. Tricks list completed tricks; fields
    the hand never reached are null. Malformed input raises PinochleError.
    """
    _check_seat(dealer)
    before = _check_scores(scores)
    if hand is not None and (isinstance(hand, bool) or not isinstance(hand, int) or hand < 1):
        raise PinochleError(f"hand must be a hand number from 1, got {hand!r}")
    if rules.rounds is not None and hand is None:
        raise PinochleError(
            f"hand (the 1-based hand number) is required with the rounds option "
            f"(rounds={rules.rounds})"
        )
    if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence):
        raise PinochleError(f"actions must be a list of action strings, got {actions!r}")
    for i, action in enumerate(actions):
        if not isinstance(action, str):
            raise PinochleError(f"action {i} must be a string, got {action!r}")
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise PinochleError(f"hands must be a list of 4 lists of card codes, got {hands!r}")
    parsed: list[list[Card]] = []
    for seat, h in enumerate(hands):
        if not isinstance(h, (str, list, tuple)):
            raise PinochleError(f"hand of seat {seat} must be a list of card codes, got {h!r}")
        try:
            parsed.append(parse_cards(h))
        except CardError as err:
            raise CardError(f"hand of seat {seat}: {err}") from None
    try:
        check_deal(parsed, rules.deck_cards, rules.hand_size)
    except CardError as err:
        return _hand_answer(
            None, {"index": None, "rule": "DEAL-HANDS", "message": f"{err} (DEAL-HANDS)"}
        )
    counts = tuple(to_counts(h) for h in parsed)
    state = new_hand(rules, dealer, counts, before, number=hand or 1, single_hand=True)
    for i, action in enumerate(actions):
        try:
            state = apply(state, action)
        except IllegalAction as err:
            return _hand_answer(state, {"index": i, "rule": err.rule, "message": str(err)})
        except PinochleError as err:
            raise PinochleError(f"action {i}: {err}") from None
    return _hand_answer(state, None)


# --- simple bots and fast random hands ----------------------------------------------------


def bot_action(state: GameState, rng: random.Random) -> str:
    """A simple legal-playing bot's action, seeded by ``rng``.

    Bids the smallest legal bid while its best meld plus a fair share of the card points
    covers it; names its best meld suit; gives random cards; throws in when the contract is
    far beyond meld; plays a random legal card.
    """
    rules = state.rules
    seat = current_seat(state)
    assert seat is not None
    if state.phase is Phase.AUCTION:
        low = auction.min_bid(state.auction, rules)
        assert low is not None
        if not auction.can_pass(state.auction, rules):
            return f"bid {low}"
        best = max(
            ((_meld_value(state.hands[seat], t, rules)) for t in _trumps(state.hands[seat], rules)),
            default=0,
        )
        reach = (
            best + rules.total_card_points // 2 + rng.randrange(rules.total_card_points // 4 + 1)
        )
        return f"bid {low}" if low <= reach else "pass"
    if state.phase is Phase.TRUMP:
        hand = state.hands[seat]
        suits = trump_suits(state)
        best_suit = max(suits, key=lambda t: ((_meld_value(hand, t, rules)), -t))
        return f"trump {SUITS[best_suit]}"
    if state.phase is Phase.PASSING:
        cards = rng.sample(from_counts(state.hands[seat]), rules.pass_cards)
        return give_action(cards)
    if state.phase is Phase.DECISION:
        if forced_throw_in(state):
            return "throw-in"
        assert state.team_meld is not None and state.contract is not None
        short = state.contract - state.team_meld[seat % 2]
        return "throw-in" if short > rules.total_card_points * 3 // 4 else "play-on"
    return rng.choice(legal_actions(state))


def _trumps(hand: Counts, rules: Rules) -> list[int]:
    if rules.trump_requires_marriage:
        return [s for s in range(4) if has_marriage(hand, s)]
    return list(range(4))


def _meld_value(hand: Counts, trump: int, rules: Rules) -> int:
    return meld_total(hand, trump, rules)


@dataclass(frozen=True)
class Playout:
    """The result of one fast random hand (``random_hand``)."""

    dealer: int
    deal: tuple[Counts, ...]
    actions: tuple[str, ...]  # canonical actions, only when asked for
    bidder: int
    contract: int
    trump: int | None
    outcome: str
    team_meld: tuple[int, int]
    card_points: tuple[int, int]
    tricks_won: tuple[int, int]
    score: HandScore


def random_hand(
    rules: Rules,
    rng: random.Random,
    dealer: int = 0,
    scores: tuple[int, int] = (0, 0),
    number: int = 1,
    hands: tuple[Counts, ...] | None = None,
    keep_actions: bool = False,
) -> Playout:
    """Play one hand with random legal actions on mutable lists: the fast path for playouts.

    It calls the same rule functions as ``apply`` (auction.apply_call, meld.meld_total,
    tricks.legal_plays / trick_winner / card_points, scoring.score_hand); only the state
    keeping is lighter. Policy: bid the minimum with probability 1/2 (else pass), name the
    suit of best meld, pass random cards, throw in only when forced, play a random legal card.
    """
    if hands is None:
        order = list(rules.deck_cards)
        rng.shuffle(order)
        hands = tuple(to_counts(h) for h in deal(order, dealer, rules.deal_packets))
    deal_counts = hands
    held = [list(h) for h in hands]
    actions: list[str] = []
    state = auction.start(rules, dealer)
    while state.next_seat is not None:
        seat = state.next_seat
        call: int | None
        if auction.can_pass(state, rules) and rng.random() < 0.5:
            call = None
        else:
            call = auction.min_bid(state, rules)
        state = auction.apply_call(state, rules, seat, call)
        if keep_actions:
            actions.append(auction.describe_call(call))
    bidder, contract = state.winner, state.contract
    assert bidder is not None and contract is not None
    team = bidder % 2
    points = [0, 0]
    won = [0, 0]
    team_meld = (0, 0)
    trump: int | None = None

    def finish(outcome: str) -> Playout:
        score = scoring.score_hand(
            rules, team, contract, outcome, team_meld, points, won, scores, hand=number
        )
        return Playout(
            dealer, deal_counts, tuple(actions), bidder, contract, trump, outcome,
            team_meld, (points[0], points[1]), (won[0], won[1]), score,
        )  # fmt: skip

    bidder_hand = tuple(held[bidder])
    suits = (
        [s for s in range(4) if has_marriage(bidder_hand, s)]
        if (rules.trump_requires_marriage)
        else [0, 1, 2, 3]
    )
    if not suits:
        return finish("no_marriage")
    trump = max(suits, key=lambda s: meld_total(bidder_hand, s, rules))
    if keep_actions:
        actions.append(f"trump {SUITS[trump]}")
    n = rules.pass_cards
    if n:
        partner = (bidder + 2) % 4
        for giver, taker in ((partner, bidder), (bidder, partner)):
            cards = rng.sample(from_counts(held[giver]), n)
            for c in cards:
                held[giver][c] -= 1
                held[taker][c] += 1
            if keep_actions:
                actions.append(give_action(cards))
    melds = [meld_total(tuple(h), trump, rules) for h in held]
    team_meld = (melds[0] + melds[2], melds[1] + melds[3])
    if rules.short_bidder_loses and team_meld[team] < rules.meld_minimum:
        return finish("meld_short")
    if rules.throw_in == "voluntary":
        if rules.forced_throw_in and contract - team_meld[team] > rules.total_card_points:
            if keep_actions:
                actions.append("throw-in")
            return finish("thrown_in")
        if keep_actions:
            actions.append("play-on")
    leader = bidder
    for trick_no in range(rules.hand_size):
        trick: list[Card] = []
        for k in range(4):
            seat = (leader + k) % 4
            card = rng.choice(legal_plays(tuple(held[seat]), trick, trump, rules))
            held[seat][card] -= 1
            trick.append(card)
            if keep_actions:
                actions.append(f"play {card_code(card)}")
        leader = (leader + trick_winner(trick, trump)) % 4
        last = trick_no == rules.hand_size - 1
        points[leader % 2] += card_points(trick, rules, last_trick=last)
        won[leader % 2] += 1
    return finish("played")
