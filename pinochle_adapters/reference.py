"""The reference engine as a protocol server: each method turns checked params into rule calls.

The only module that sees both the rules and the protocol: it shapes every answer. ``python -m
pinochle_adapters.reference`` (or ``pinochle-reference-adapter``) serves it on stdin/stdout.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, ClassVar, NotRequired, TypedDict, cast

import reference_engine
import specdata
from reference_engine import auction, cards, meld, scoring, trace, tricks, variants
from reference_engine.actions import parse_claims, play
from reference_engine.auction import AuctionState, Call
from reference_engine.cards import SUITS, card_code
from reference_engine.errors import CardError, IllegalAction, PinochleError
from reference_engine.game import GameIllegal, replay_game
from reference_engine.hand import HandState, Illegal, replay
from reference_engine.variants import Rules
from specdata import variant_ids

from . import protocol, sdk
from .protocol import RULE_METHODS

Params = dict[str, Any]
"""Params already checked by the server against the method's schema."""


class Violation(TypedDict):
    """The rule an input breaks, with a message naming the input and the situation."""

    rule: str
    message: str


class FirstIllegal(TypedDict):
    """``play_hand``: the first illegal action (index null when the deal itself is refused)."""

    index: int | None
    rule: str
    message: str


class AuctionViolation(TypedDict):
    """``auction``: the rule the first illegal call breaks, and that call's index in calls (the
    reference always gives it; the protocol leaves it optional)."""

    rule: str
    message: str
    index: NotRequired[int]


class GameIllegalEntry(TypedDict):
    """``play_game``: the first illegal step, by hand (0-based) and action index in it."""

    hand: int
    index: int | None
    rule: str
    message: str


class DealAnswer(TypedDict):
    legal: bool
    violation: Violation | None
    hands: list[list[str]] | None
    next_dealer: int | None


class MeldEntry(TypedDict):
    id: str
    type: str
    count: int
    points: int
    cards: list[str]
    suit: NotRequired[str]


class MeldAnswer(TypedDict):
    total: int
    melds: list[MeldEntry]


class CardsAnswer(TypedDict):
    cards: list[str]


class WinnerAnswer(TypedDict):
    winner: int


class PointsAnswer(TypedDict):
    points: int


class AuctionAnswer(TypedDict):
    legal: bool
    violation: AuctionViolation | None
    complete: bool
    next_seat: int | None
    winner: int | None
    contract: int | None
    min_bid: int | None
    can_pass: bool


class ScoreAnswer(TypedDict):
    made: bool
    delta: list[int]
    scores: list[int]
    game_winner: int | None


class TrickEntry(TypedDict):
    leader: int
    cards: list[str]
    winner: int


class PointedTrick(TrickEntry):
    points: NotRequired[int]  # absent from an engine declaring the capability points: none


class PlayTricksAnswer(TypedDict):
    legal: bool
    first_illegal: FirstIllegal | None
    tricks: list[PointedTrick]
    card_points: NotRequired[list[int]]  # as a trick's points
    tricks_won: list[int]


class PlayHandAnswer(TypedDict):
    legal: bool
    first_illegal: FirstIllegal | None
    complete: bool
    bidder: int | None
    contract: int | None
    trump: str | None
    outcome: str | None
    meld: list[int] | None
    team_meld: list[int] | None
    aces_around: list[int] | None
    tricks: list[TrickEntry] | None
    card_points: list[int] | None
    tricks_won: list[int] | None
    delta: list[int] | None
    scores: list[int] | None
    game_winner: int | None


class GameHand(PlayHandAnswer):
    dealer: int


class PlayGameAnswer(TypedDict):
    legal: bool
    first_illegal: GameIllegalEntry | None
    hands: list[GameHand]
    scores: list[int]
    game_winner: int | None
    next_dealer: int | None


def _rules(params: Params) -> Rules:
    return variants.load_rules(params["variant"], params.get("options") or {})


def _codes(values: Sequence[int]) -> list[str]:
    return [card_code(c) for c in values]


@cache  # a meld item is one of a few hundred values (id, type, count, points, suit)
def _meld_fields(item: meld.MeldItem) -> tuple[tuple[str, Any], ...]:
    fields: list[tuple[str, Any]] = [
        ("id", item.id),
        ("type", item.type),
        ("count", item.count),
        ("points", item.points),
        ("cards", tuple(card_code(c) for c in item.cards)),
    ]
    if item.suit is not None:
        fields.append(("suit", SUITS[item.suit]))
    return tuple(fields)


def _meld_entry(item: meld.MeldItem) -> MeldEntry:
    """A meld item as the protocol writes it: a fresh dict with its own card list."""
    entry = dict(_meld_fields(item))
    entry["cards"] = list(entry["cards"])
    return cast(MeldEntry, entry)


@cache  # keyed like _meld_fields: a few hundred distinct entries, never one per hand
def _meld_json(meld_id: str, count: int, suit: int | None, points: int) -> str:
    """One meld entry as JSON text, exactly as the protocol's encoder writes ``_meld_entry``."""
    item = meld.MeldItem(meld_id, meld.MELD_TYPES[meld_id], count, points, suit)
    return protocol.encode(cast(dict[str, Any], _meld_entry(item)))


def _meld_question(params: Params) -> tuple[cards.Counts, int, Rules]:
    """``meld``'s params as the rules take them: the hand counted (from the deck), trump, rules."""
    rules = _rules(params)
    trump = cards.suit_index(params["trump"])
    counts = cards.counts_of_codes(params["hand"])
    cards.check_counts_from_deck(counts, rules.deck_counts, "params.hand")
    return counts, trump, rules


def _pair(values: Sequence[int]) -> tuple[int, int]:
    return (values[0], values[1])


def _check_hand_number(rules: Rules, params: Params) -> int | None:
    """GAME-ROUNDS needs the hand's number: without it no game end can be decided."""
    hand: int | None = params.get("hand")
    if rules.rounds is not None and hand is None:
        raise sdk.InvalidParams(
            f"hand (the 1-based hand number) is required with the rounds option "
            f"(rounds={rules.rounds})"
        )
    return hand


def _score_figures(rules: Rules, params: Params) -> tuple[Any, ...]:
    """``score_hand``'s params in the order ``scoring.score_hand`` takes them after the rules."""
    return (
        params["bidder_team"],
        params["contract"],
        params["outcome"],
        _pair(params["meld"]),
        _pair(params["tricks"]),
        _pair(params["tricks_won"]),
        _pair(params["scores"]),
        _check_hand_number(rules, params),
    )


def check_figures(rules: Rules, params: Params) -> None:
    """``score_hand`` figures that cannot come from one hand: a contract under 1, a negative
    meld or trick figure, or (played) card points and tricks that do not add up."""
    if params["contract"] < 1:
        raise sdk.InvalidParams(f"contract must be at least 1, got {params['contract']}")
    for name in ("meld", "tricks", "tricks_won"):
        for team, value in enumerate(params[name]):
            if value < 0:
                raise sdk.InvalidParams(f"{name}[{team}] must be at least 0, got {value}")
    if params["outcome"] != "played":
        return
    points, won = params["tricks"], params["tricks_won"]
    if sum(points) != rules.total_card_points:
        raise sdk.InvalidParams(
            f"tricks {list(points)} add up to {sum(points)}, but a played hand "
            f"of {rules.variant} has {rules.total_card_points} card points"
        )
    if sum(won) != rules.hand_size:
        raise sdk.InvalidParams(
            f"tricks_won {list(won)} add up to {sum(won)}, but a played hand "
            f"of {rules.variant} has {rules.hand_size} tricks"
        )
    for team in (0, 1):
        if won[team] == 0 and points[team] != 0:
            raise sdk.InvalidParams(f"team {team} won no trick but has {points[team]} card points")


def auction_answer(
    state: AuctionState, rules: Rules, violation: AuctionViolation | None = None
) -> AuctionAnswer:
    """The protocol ``auction`` answer for an auction (stopped at ``violation``, if any)."""
    return {
        "legal": violation is None,
        "violation": violation,
        "complete": state.complete,
        "next_seat": state.next_seat,
        "winner": state.winner,
        "contract": state.contract,
        "min_bid": auction.min_bid(state, rules),
        "can_pass": auction.can_pass(state, rules),
    }


def hand_answer(state: HandState | None, first_illegal: FirstIllegal | None) -> PlayHandAnswer:
    """The protocol ``play_hand`` answer: the hand as far as it got; fields it never reached are
    null, and ``tricks`` lists the completed tricks in play order."""
    answer: PlayHandAnswer = {
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
            {"leader": t.leader, "cards": _codes(t.cards), "winner": t.winner} for t in state.tricks
        ]
        answer["card_points"] = list(state.card_points)
        answer["tricks_won"] = list(state.tricks_won)
    if state.score is not None:
        answer["complete"] = True
        answer["outcome"] = state.outcome
        answer["delta"] = list(state.score.delta)
        answer["scores"] = list(state.score.scores)
        answer["game_winner"] = state.score.game_winner
    return answer


def game_answer(
    played: Sequence[HandState], illegal: GameIllegal | None, start: tuple[int, int]
) -> PlayGameAnswer:
    """The protocol ``play_game`` answer: the hands as far as they got (``played``, from the
    scores ``start``), the first illegal step, the scores and the winner."""
    entries: list[GameHand] = []
    for k, state in enumerate(played):
        own = illegal if illegal is not None and illegal.hand == k else None
        answer = hand_answer(state, _first_illegal(_hand_illegal(own)))
        entries.append({"dealer": state.dealer, **answer})
    last = played[-1] if played else None
    over = last is not None and last.is_terminal()
    winner = last.score.game_winner if over and last and last.score else None
    scores = last.scores if last is not None else start
    return {
        "legal": illegal is None,
        "first_illegal": _game_illegal(illegal),
        "hands": entries,
        "scores": list(scores),
        "game_winner": winner,
        "next_dealer": (last.dealer + 1) % 4 if over and last and winner is None else None,
    }


def _first_illegal(illegal: Illegal | None) -> FirstIllegal | None:
    if illegal is None:
        return None
    return {"index": illegal.index, "rule": illegal.rule, "message": illegal.message}


def _hand_illegal(illegal: GameIllegal | None) -> Illegal | None:
    if illegal is None or illegal.index is None:
        return None
    return Illegal(illegal.index, illegal.rule, illegal.message)


def _game_illegal(illegal: GameIllegal | None) -> GameIllegalEntry | None:
    if illegal is None:
        return None
    return {
        "hand": illegal.hand,
        "index": illegal.index,
        "rule": illegal.rule,
        "message": illegal.message,
    }


class ReferenceEngine:
    """The reference engine behind the protocol: every variant, every option, every method."""

    invalid_params = (PinochleError,)
    """Its errors for bad input (a bad card, an impossible figure): -32602; anything else it
    raises is a bug: -32603 (pinochle_adapters.sdk)."""
    name = "pinochle-reference"
    version = reference_engine.__version__
    methods: ClassVar[list[str]] = list(RULE_METHODS)

    @property
    def variants(self) -> list[dict[str, Any]]:
        """Every variant in spec/variants with every value of every option."""
        return [
            {
                "id": vid,
                "options": {
                    name: list(opt["choices"])
                    for name, opt in variants.variant_options(vid).items()
                },
            }
            for vid in variant_ids()
        ]

    def deal(self, params: Params) -> DealAnswer:
        """Deal a given deck (DEAL-PACKETS) and name the next dealer (DEAL-ROTATION); a deck that
        is not the variant's is a DECK-COMPOSITION answer, not dealt."""
        rules = _rules(params)
        dealer: int = params["dealer"]
        deck = cards.parse_cards(params["deck"])
        difference = cards.deck_difference(cards.to_counts(deck), rules.deck_counts)
        if difference is not None:
            message = (
                f"the deck has {len(deck)} cards and is not the {rules.variant} deck of "
                f"{len(rules.deck_cards)}: {difference} (DECK-COMPOSITION)"
            )
            return {
                "legal": False,
                "violation": {"rule": "DECK-COMPOSITION", "message": message},
                "hands": None,
                "next_dealer": None,
            }
        hands = cards.deal(deck, dealer, rules.deal_packets)
        return {
            "legal": True,
            "violation": None,
            "hands": [_codes(h) for h in hands],
            "next_dealer": (dealer + 1) % 4,
        }

    def meld(self, params: Params) -> MeldAnswer:
        """The itemised meld of one hand (MELD-*)."""
        found = meld.meld(*_meld_question(params))
        return {"total": found.total, "melds": [_meld_entry(item) for item in found.items]}

    def meld_encoded(self, params: Params) -> sdk.Encoded:
        """``meld``'s answer written straight to JSON from the meld counts, each entry's text
        kept per distinct entry: no item objects, no dicts, no encoder walk per request."""
        hand, trump, rules = _meld_question(params)
        value = rules.meld_value
        total = 0
        entries = []
        for meld_id, count, suit in meld._counts_of(hand, trump, rules):
            points = value(meld_id, count)
            total += points
            entries.append(_meld_json(meld_id, count, suit, points))
        return sdk.Encoded(f'{{"total":{total},"melds":[{",".join(entries)}]}}')

    def legal_plays(self, params: Params) -> CardsAnswer:
        """The cards a hand may play to a trick (PLAY-*)."""
        rules = _rules(params)
        trump = cards.suit_index(params["trump"])
        trick = cards.parse_cards(params["trick"])
        hand = cards.parse_cards(params["hand"])
        cards.check_from_deck(hand + trick, rules.deck_cards, "params.hand and params.trick")
        return {"cards": _codes(tricks.legal_plays(cards.to_counts(hand), trick, trump, rules))}

    def trick_winner(self, params: Params) -> WinnerAnswer:
        """Index of the winning card of a trick (TRICK-WINNER, TRICK-IDENTICAL)."""
        rules = _rules(params)  # unknown variants and options are errors here too
        trump = cards.suit_index(params["trump"])
        trick = cards.parse_cards(params["trick"])
        cards.check_from_deck(trick, rules.deck_cards, "params.trick")
        if not trick:
            raise sdk.InvalidParams("params.trick: a trick has at least one card")
        return {"winner": tricks.trick_winner(trick, trump)}

    def card_points(self, params: Params) -> PointsAnswer:
        """Card points of cards won, with the last-trick bonus (POINTS-*)."""
        rules = _rules(params)
        won = cards.parse_cards(params["cards"])
        cards.check_from_deck(won, rules.deck_cards, "params.cards")
        last: bool = params.get("last_trick", False)
        return {"points": tricks.card_points(won, rules, last)}

    def auction(self, params: Params) -> AuctionAnswer:
        """Judge a sequence of calls (AUCTION-*): replay stops at the first illegal call, and
        the other fields describe the auction before it."""
        rules = _rules(params)
        state = auction.start(rules, params["dealer"])
        for index, call in enumerate(params["calls"]):
            bid: Call = None if call.get("pass") else call["bid"]
            try:
                state = auction.apply_call(state, rules, call["seat"], bid)
            except IllegalAction as err:
                refused: AuctionViolation = {"rule": err.rule, "message": str(err), "index": index}
                return auction_answer(state, rules, refused)
        return auction_answer(state, rules)

    def score_hand(self, params: Params) -> ScoreAnswer:
        """Score one hand and decide the game (SCORE-*, GAME-*)."""
        rules = _rules(params)
        check_figures(rules, params)
        score = scoring.score_hand(rules, *_score_figures(rules, params))
        return {
            "made": score.made,
            "delta": list(score.delta),
            "scores": list(score.scores),
            "game_winner": score.game_winner,
        }

    def play_hand(self, params: Params) -> PlayHandAnswer:
        """Play a whole hand from given hands and actions (every rule of a hand).

        Hands that are not the variant's deal answer ``legal: false`` under DEAL-HANDS; the
        first illegal action stops the replay (``hand.replay``). An action may name the seat
        that claims it (``seat 2: trump h``); a claim by a seat whose turn it is not is refused
        under the turn rule of the moment.
        """
        rules = _rules(params)
        number = _check_hand_number(rules, params)
        hands = cards.parse_hands(params["hands"])
        try:
            cards.check_deal(hands, rules.deck_cards, rules.hand_size)
        except CardError as err:
            return hand_answer(
                None, {"index": None, "rule": "DEAL-HANDS", "message": f"{err} (DEAL-HANDS)"}
            )
        counts = [cards.to_counts(h) for h in hands]
        state = HandState(rules, params["dealer"], counts, _pair(params["scores"]), number or 1)
        steps, seats = parse_claims(params["actions"])
        state, illegal = replay(state, steps, seats)
        return hand_answer(state, _first_illegal(illegal))

    def play_game(self, params: Params) -> PlayGameAnswer:
        """Play hands in a row from given deals and actions (DEAL-ROTATION, GAME-*, and every
        rule of a hand); the first illegal step stops the game (``game.replay_game``)."""
        rules = _rules(params)
        deals, lists = params["hands"], params["actions"]
        if len(deals) != len(lists):
            raise sdk.InvalidParams(
                f"hands lists {len(deals)} deals and actions {len(lists)} lists of actions: "
                "one of each per hand"
            )
        claims = [parse_claims(steps) for steps in lists]
        for seat_hands in deals:
            cards.parse_hands(seat_hands)  # a bad card code is malformed input, not a deal
        start = _pair(params.get("scores") or (0, 0))
        played, illegal = replay_game(
            rules,
            params["dealer"],
            deals,
            [steps for steps, _ in claims],
            [seats for _, seats in claims],
            start,
        )
        return game_answer(played, illegal, start)

    def play_tricks(self, params: Params) -> PlayTricksAnswer:
        """Play the last tricks of a hand from given hands, trump and leader (PLAY-*, TRICK-*,
        POINTS-*): each trick's winner leads the next, and the trick that empties the hands
        takes the last-trick bonus. The first illegal play stops the replay."""
        rules = _rules(params)
        trump = cards.suit_index(params["trump"])
        hands = cards.parse_hands(params["hands"])
        sizes = {len(h) for h in hands}
        if len(sizes) != 1 or not 1 <= len(hands[0]) <= rules.hand_size:
            raise sdk.InvalidParams(
                f"params.hands: every seat must hold the same number of cards, 1 to "
                f"{rules.hand_size}; got {[len(h) for h in hands]}"
            )
        plays = cards.parse_cards(params["plays"])
        cards.check_from_deck(
            [c for h in hands for c in h], rules.deck_cards, "params.hands (all four together)"
        )
        state = HandState.at_trick_play(
            rules, trump, params["leader"], [cards.to_counts(h) for h in hands]
        )
        illegal: FirstIllegal | None = None
        for index, card in enumerate(plays):
            try:
                state.apply(play(card))
            except IllegalAction as err:
                illegal = {"index": index, "rule": err.rule, "message": str(err)}
                break
        points = [
            tricks.card_points(t.cards, rules, last_trick=i == state.hand_tricks - 1)
            for i, t in enumerate(state.tricks)
        ]
        return {
            "legal": illegal is None,
            "first_illegal": illegal,
            "tricks": [
                {"leader": t.leader, "cards": _codes(t.cards), "winner": t.winner, "points": p}
                for t, p in zip(state.tricks, points, strict=True)
            ],
            "card_points": list(state.card_points),
            "tricks_won": list(state.tricks_won),
        }


def decisions(method: str, params: Params) -> list[dict[str, Any]]:
    """The reference engine's answer to ``method`` traced, point by point, to the rule that
    decided it (``reference_engine.trace``), as JSON objects: ``rule``, ``point``, ``value``
    and, where they apply, ``index``, ``seat``, ``team``, ``hand`` and ``also``.

    Asked only to charge a failure (never on the way to an answer); params are those sent to an
    engine. Params the reference cannot read give no decisions (an empty list), never an error;
    a method it does not know is a ``ValueError``.
    """
    if method not in TRACERS:
        raise ValueError(f"the reference traces no method {method!r}: {', '.join(TRACERS)}")
    tracer = TRACERS[method]
    try:
        found = [] if tracer is None else tracer(_rules(params), params)
    except (PinochleError, KeyError, TypeError, ValueError, IndexError):
        return []
    return [_decision_entry(d) for d in found]


def _trace_meld(rules: Rules, params: Params) -> list[trace.Decision]:
    hand = cards.to_counts(cards.parse_cards(params["hand"]))
    return trace.meld_items(hand, cards.suit_index(params["trump"]), rules)


def _trace_legal_plays(rules: Rules, params: Params) -> list[trace.Decision]:
    hand = cards.to_counts(cards.parse_cards(params["hand"]))
    trick = cards.parse_cards(params["trick"])
    return [trace.legal_plays(hand, trick, cards.suit_index(params["trump"]), rules)]


def _trace_trick_winner(rules: Rules, params: Params) -> list[trace.Decision]:
    trick = cards.parse_cards(params["trick"])
    return [trace.trick_winner(trick, cards.suit_index(params["trump"]))]


def _trace_card_points(rules: Rules, params: Params) -> list[trace.Decision]:
    won = cards.parse_cards(params["cards"])
    return trace.card_points(won, rules, bool(params.get("last_trick")))


def _trace_auction(rules: Rules, params: Params) -> list[trace.Decision]:
    calls = [(int(c["seat"]), None if c.get("pass") else int(c["bid"])) for c in params["calls"]]
    return trace.auction_trace(rules, int(params["dealer"]), calls)[0]


def _trace_score_hand(rules: Rules, params: Params) -> list[trace.Decision]:
    return trace.score_hand(rules, *_score_figures(rules, params))


def _trace_play_hand(rules: Rules, params: Params) -> list[trace.Decision]:
    hands = [cards.to_counts(h) for h in cards.parse_hands(params["hands"])]
    number = _check_hand_number(rules, params) or 1
    state = HandState(rules, params["dealer"], hands, _pair(params["scores"]), number)
    steps, seats = parse_claims(params["actions"])
    return trace.hand_trace(state, steps, seats)


def _trace_play_game(rules: Rules, params: Params) -> list[trace.Decision]:
    claims = [parse_claims(steps) for steps in params["actions"]]
    return trace.game_trace(
        rules,
        params["dealer"],
        params["hands"],
        [steps for steps, _ in claims],
        _pair(params.get("scores") or (0, 0)),
        [seats for _, seats in claims],
    )


def _trace_play_tricks(rules: Rules, params: Params) -> list[trace.Decision]:
    hands = [cards.to_counts(h) for h in cards.parse_hands(params["hands"])]
    plays = cards.parse_cards(params["plays"])
    trump = cards.suit_index(params["trump"])
    return trace.tricks_trace(rules, trump, params["leader"], hands, plays)


TRACERS: dict[str, Callable[[Rules, Params], list[trace.Decision]] | None] = {
    "deal": None,
    "meld": _trace_meld,
    "legal_plays": _trace_legal_plays,
    "trick_winner": _trace_trick_winner,
    "card_points": _trace_card_points,
    "auction": _trace_auction,
    "score_hand": _trace_score_hand,
    "play_hand": _trace_play_hand,
    "play_game": _trace_play_game,
    "play_tricks": _trace_play_tricks,
}
"""How the reference traces its answer to each rules method (``tests/test_methods.py`` checks
there is an entry for each); None: a deal is decided by no point a charge walks."""


def _decision_entry(d: trace.Decision) -> dict[str, Any]:
    value = d.value
    if d.point == "legal_plays" and isinstance(value, list):
        value = _codes(value)
    entry: dict[str, Any] = {"rule": d.rule, "point": d.point, "value": value}
    for key in ("index", "seat", "team", "hand"):
        if getattr(d, key) is not None:
            entry[key] = getattr(d, key)
    if d.also:
        entry["also"] = list(d.also)
    return entry


def server() -> sdk.Server:
    """A protocol server for the reference engine."""
    return sdk.Server(ReferenceEngine())


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the reference engine on stdin/stdout until shutdown (pinochle-reference-adapter)."""
    del argv  # no options: the protocol says everything
    try:
        engine = server()
    except specdata.DataFileError as e:  # a broken variant file: one line naming file and line
        print(f"pinochle-reference-adapter: {e}", file=sys.stderr)
        return 2
    return engine.serve_stdio()


if __name__ == "__main__":
    raise SystemExit(main())
