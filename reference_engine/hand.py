"""One hand as an OpenSpiel-style state machine: its phases, each phase's legal actions and apply.

``HandState(rules, dealer, hands)`` starts the auction; ``legal_actions``/``apply`` move through
auction, trump, passing, decision and tricks with the rule functions of auction, meld, tricks and
scoring, one legality function and one apply function per phase. ``replay`` applies a list.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import NamedTuple

from . import auction, meld, scoring, tricks
from .actions import (
    BID,
    GIVE,
    KIND_BITS,
    KIND_MASK,
    PASS,
    PASS_ACTION,
    PLAY,
    PLAY_ACTIONS,
    PLAY_ON,
    PLAY_ON_ACTION,
    THROW_IN,
    THROW_IN_ACTION,
    TRUMP,
    Action,
    given_cards,
    gives,
    parse,
    text,
)
from .cards import NUM_KINDS, SUIT_NAMES, SUITS, Card, Counts, card_code, suit_of
from .errors import IllegalAction, PinochleError
from .meld import MeldResult
from .scoring import HandScore, Outcome
from .variants import Rules


class Phase(enum.Enum):
    """Where a hand is: whose action is awaited, and of which kind."""

    AUCTION = "auction"  # bid N / pass
    TRUMP = "trump"  # the bidder names trump
    PASSING = "passing"  # partner gives N cards, then the bidder gives N back
    DECISION = "decision"  # the bidder throws in or plays on
    PLAY = "play"  # trick play
    OVER = "over"  # the hand is scored; no further action


TURN_RULE = {
    Phase.AUCTION: "AUCTION-TURN",
    Phase.TRUMP: "TRUMP-CALL",
    Phase.PASSING: "PASS-CARDS",
    Phase.DECISION: "SCORE-THROW-IN",
    Phase.PLAY: "PLAY-TURN",
}
"""The rule an action of the wrong kind or by the wrong seat breaks, per phase."""

KIND_PHASE = {
    PLAY: Phase.PLAY,
    TRUMP: Phase.TRUMP,
    PLAY_ON: Phase.DECISION,
    THROW_IN: Phase.DECISION,
    PASS: Phase.AUCTION,
    BID: Phase.AUCTION,
    GIVE: Phase.PASSING,
}
"""The phase each kind of action belongs to; out of it the action breaks that phase's rule."""

# The phases as module constants: the hot paths compare against these, as an Enum attribute
# lookup costs as much as the comparison several times over.
_AUCTION, _TRUMP, _PASSING = Phase.AUCTION, Phase.TRUMP, Phase.PASSING
_DECISION, _PLAY, _OVER = Phase.DECISION, Phase.PLAY, Phase.OVER


class Trick(NamedTuple):
    """A completed trick: who led it, the cards in play order, and the seat that won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True)
class Illegal:
    """The first illegal action of a replay: its index, the rule it breaks and the message."""

    index: int
    rule: str
    message: str


def trump_suits_of(hand: Sequence[int], rules: Rules) -> list[int]:
    """Suits a bidder holding ``hand`` may name (TRUMP-MARRIAGE: in double-deck only a suit in
    which the bidder holds a king and a queen)."""
    if rules.trump_requires_marriage:
        return [s for s in range(4) if meld.has_marriage(hand, s)]
    return [0, 1, 2, 3]


class HandState:
    """A hand at one moment. ``apply`` changes it in place (OpenSpiel's ``apply_action``); an
    illegal action raises IllegalAction and leaves it exactly as it was; ``clone`` copies it.

    ``held`` are the seats' count vectors (``cards.Counts`` as lists); team = seat % 2.
    """

    __slots__ = (
        "_legal",
        "aces_around",
        "actions",
        "auction",
        "card_points",
        "deal",
        "dealer",
        "gave",
        "hand_tricks",
        "held",
        "leader",
        "meld",
        "number",
        "outcome",
        "phase",
        "rules",
        "score",
        "scores_before",
        "trick",
        "tricks",
        "tricks_won",
        "trump",
    )

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        hands: Sequence[Sequence[int]],
        scores: tuple[int, int] = (0, 0),
        number: int = 1,
    ) -> None:
        """A hand at the start of its auction with these (already checked) count vectors;
        ``scores`` are the game scores before it, ``number`` its 1-based number in the game."""
        self.rules = rules
        self.dealer = dealer
        self.number = number
        self.scores_before = scores
        self.deal: tuple[Counts, ...] = tuple(tuple(h) for h in hands)
        self.held: list[list[int]] = [list(h) for h in hands]
        self.hand_tricks = rules.hand_size  # tricks until the hand's last (POINTS-LAST-TRICK)
        self.auction = auction.start(rules, dealer)
        self.phase = Phase.AUCTION
        self.trump: int | None = None
        self.gave: list[tuple[Card, ...]] = []  # cards passed so far: partner's, then bidder's
        self.meld: tuple[MeldResult, ...] | None = None
        self.aces_around: tuple[int, ...] | None = None  # seats with aces around at meld
        self.leader: int | None = None
        self.trick: list[Card] = []
        self.tricks: list[Trick] = []
        self.card_points = [0, 0]
        self.tricks_won = [0, 0]
        self.outcome: Outcome | None = None
        self.score: HandScore | None = None
        self.actions: list[tuple[int, Action]] = []
        self._legal: list[Action] | None = None  # legal_actions of this moment, once asked

    @classmethod
    def at_trick_play(
        cls, rules: Rules, trump: int, leader: int, hands: Sequence[Sequence[int]]
    ) -> HandState:
        """The tricks that end a hand, from these (already checked, equal-sized) count vectors:
        ``leader`` leads to the first, the winner of each trick leads the next, and the trick
        that empties the hands is the hand's last (POINTS-LAST-TRICK). No auction, meld or
        score: the state stops, unscored, after the last trick."""
        state = cls(rules, (leader + 3) % 4, hands)
        state.phase = Phase.PLAY
        state.trump = trump
        state.leader = leader
        state.hand_tricks = sum(hands[0])
        return state

    # --- reading the state ------------------------------------------------------------------

    @property
    def bidder(self) -> int | None:
        """The seat that won the auction, once it is complete."""
        return self.auction.winner

    @property
    def contract(self) -> int | None:
        """The winning bid, once the auction is complete."""
        return self.auction.contract

    @property
    def hands(self) -> tuple[Counts, ...]:
        """The seats' hands now, as count vectors."""
        return tuple(tuple(h) for h in self.held)

    @property
    def team_meld(self) -> tuple[int, int] | None:
        """Raw meld of each team (the partners' melds added, MELD-ONE-HAND), once shown."""
        if self.meld is None:
            return None
        totals = [m.total for m in self.meld]
        return (totals[0] + totals[2], totals[1] + totals[3])

    @property
    def scores(self) -> tuple[int, int]:
        """The game scores of teams 0 and 1: after the hand once it is scored."""
        return self.score.scores if self.score is not None else self.scores_before

    def current_seat(self) -> int | None:
        """The seat whose action is awaited, or ``None`` when the hand is over."""
        phase = self.phase
        if phase is Phase.PLAY:
            assert self.leader is not None
            return (self.leader + len(self.trick)) % 4
        if phase is Phase.AUCTION:
            return self.auction.next_seat
        if phase is Phase.PASSING:
            assert self.bidder is not None
            return (self.bidder + 2) % 4 if not self.gave else self.bidder
        if phase is Phase.OVER:
            return None
        return self.bidder

    def is_terminal(self) -> bool:
        """Whether the hand is over (scored)."""
        return self.phase is Phase.OVER

    def returns(self) -> tuple[int, int, int, int]:
        """What each seat's team scored in this hand, seats 0-3 (zeros until it is over)."""
        if self.score is None:
            return (0, 0, 0, 0)
        d = self.score.delta
        return (d[0], d[1], d[0], d[1])

    def trump_suits(self) -> list[int]:
        """Suits the bidder may name now (``trump_suits_of``); none before the auction ends."""
        if self.bidder is None:
            return []
        return trump_suits_of(self.held[self.bidder], self.rules)

    def forced_throw_in(self) -> bool:
        """SCORE-FORCED-THROW-IN (online): the bidding team's meld leaves more to take in tricks
        than the cards hold (contract minus meld > all card points), so the bidder must throw
        in."""
        team_meld, bidder, contract = self.team_meld, self.bidder, self.contract
        if not self.rules.forced_throw_in or team_meld is None or bidder is None:
            return False
        assert contract is not None
        return contract - team_meld[bidder % 2] > self.rules.total_card_points

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, sorted (ints sort in canonical order); empty
        when the hand is over.

        Auction: ``pass`` if allowed, then every legal bid ascending up to the variant's
        ``bid_ceiling`` (``auction.legal_calls``; ``apply`` accepts any legal bid). Trump:
        suits s h d c. Passing: every distinct set of N cards. Decision: ``play-on`` then
        ``throw-in`` (``throw-in`` alone when forced). Play: the legal cards, spades first,
        Ace first.
        """
        legal = self._legal
        if legal is None:
            phase = self.phase
            if phase is _PLAY:
                legal = _play_actions(self)
            elif phase is _AUCTION:
                legal = _auction_actions(self)
            elif phase is _PASSING:
                legal = _passing_actions(self)
            elif phase is _TRUMP:
                legal = _trump_actions(self)
            elif phase is _DECISION:
                legal = _decision_actions(self)
            else:
                legal = []
            self._legal = legal
        return list(legal)

    def clone(self) -> HandState:
        """An independent copy of this state."""
        other = HandState.__new__(HandState)
        for name in HandState.__slots__:
            setattr(other, name, getattr(self, name))
        other.held = [list(h) for h in self.held]
        other.gave = list(self.gave)
        other.trick = list(self.trick)
        other.tricks = list(self.tricks)
        other.card_points = list(self.card_points)
        other.tricks_won = list(self.tricks_won)
        other.actions = list(self.actions)
        other._legal = None
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandState):
            return NotImplemented
        return all(
            getattr(self, name) == getattr(other, name)
            for name in HandState.__slots__
            if name != "_legal"
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    # --- acting -----------------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """The seat to act takes ``action``; the state changes in place.

        ``seat``, if given, is who claims to act: a different seat breaks the phase's turn rule
        (AUCTION-TURN or AUCTION-PASS-FINAL, TRUMP-CALL, PASS-CARDS, SCORE-THROW-IN, PLAY-TURN).
        An action of another phase breaks the rule of its own kind (``_wrong_phase``; a call
        after the auction: AUCTION-END). Raises IllegalAction with the rule broken, and then the
        state is unchanged.
        """
        phase = self.phase
        kind = action & KIND_MASK
        if phase is _PLAY and kind == PLAY:  # the common case first, with no lookups
            assert self.leader is not None
            player = (self.leader + len(self.trick)) % 4
            if seat is None or seat == player:
                _apply_play(self, player, action)
                return
        if phase is _OVER:
            raise self._over(action)
        to_act = self.current_seat()
        assert to_act is not None
        actor = to_act if seat is None else seat
        if kind in (PASS, BID):
            # AUCTION-END (after the auction) and every auction rule come from apply_call.
            call = None if kind == PASS else action >> KIND_BITS
            self.auction = auction.apply_call(self.auction, self.rules, actor, call)
            self._done(actor, action)
            if self.auction.complete:
                self._after_auction()
            return
        if KIND_PHASE[kind] is not phase:
            raise self._wrong_phase(action, kind)
        if actor != to_act:
            raise IllegalAction(
                TURN_RULE[phase],
                f"seat {actor} cannot {text(action)!r}: it is seat {to_act}'s turn ({phase.value})",
            )
        if phase is _TRUMP:
            _apply_trump(self, actor, action)
        elif phase is _PASSING:
            _apply_give(self, actor, action)
        elif phase is _DECISION:
            _apply_decision(self, actor, action)
        else:
            _apply_play(self, actor, action)

    def apply_text(self, words: str, seat: int | None = None) -> Action:
        """Parse a canonical action string (``actions.parse``) and apply it; the action."""
        action = parse(words)
        self.apply(action, seat)
        return action

    def _done(self, seat: int, action: Action) -> None:
        self.actions.append((seat, action))
        self._legal = None

    def _after_auction(self) -> None:
        """TRUMP-NO-MARRIAGE: a bidder with no marriage in any suit (double-deck) cannot name
        trump, and the hand ends at once."""
        if not self.trump_suits():
            self._end("no_marriage")
        else:
            self.phase = Phase.TRUMP

    def _show_meld(self) -> None:
        """Meld is computed for every seat when trump is named and passing is done (MELD-*).

        MELD-SHORT-BIDDER (double-deck): a bidding side whose raw meld is under the minimum
        loses the hand at once. Otherwise the bidder decides to throw in where the variant
        allows it (SCORE-THROW-IN), or play begins with the bidder's lead (PLAY-LEAD).
        """
        rules, trump, bidder = self.rules, self.trump, self.bidder
        assert trump is not None and bidder is not None
        self.meld = tuple(meld.meld(tuple(h), trump, rules) for h in self.held)
        # MELD-ACES-DECLARED: seats holding an ace of every suit are made known with the meld.
        self.aces_around = tuple(s for s in range(4) if meld.has_aces_around(self.held[s]))
        team_meld = self.team_meld
        assert team_meld is not None
        if rules.short_bidder_loses and team_meld[bidder % 2] < rules.meld_minimum:
            self._end("meld_short")
        elif rules.throw_in == "voluntary":
            self.phase = Phase.DECISION
        else:
            self.phase = Phase.PLAY
            self.leader = bidder

    def _end(self, outcome: Outcome) -> None:
        """Score the hand (scoring.score_hand) and decide the game."""
        bidder, contract = self.bidder, self.contract
        assert bidder is not None and contract is not None
        self.score = scoring.score_hand(
            self.rules,
            bidder % 2,
            contract,
            outcome,
            self.team_meld or (0, 0),
            (self.card_points[0], self.card_points[1]),
            (self.tricks_won[0], self.tricks_won[1]),
            self.scores_before,
            hand=self.number,
        )
        self.outcome = outcome
        self.phase = Phase.OVER

    # --- refusals ---------------------------------------------------------------------------

    def _over(self, action: Action) -> IllegalAction:
        """The error for any action once the hand is over: the game's rule if it was won."""
        assert self.outcome is not None
        winner = self.score.game_winner if self.score is not None else None
        if winner is not None:
            rule = "GAME-ROUNDS" if self.rules.rounds is not None else "GAME-TARGET"
            why = f"the game is over (team {winner} won)"
        else:
            rule, why = _OVER_RULE[self.outcome]
            why = f"the hand is over: {why}"
        return IllegalAction(rule, f"{text(action)!r} is not possible: {why}")

    def _wrong_phase(self, action: Action, kind: int) -> IllegalAction:
        """The error for an action of another phase: the rule of the action's own kind.

        Naming trump other than as the bidder right after the auction breaks TRUMP-CALL; giving
        cards outside passing, PASS-CARDS; throwing in or playing on outside the bidder's
        decision, SCORE-THROW-IN; playing a card before trick play, PLAY-TURN.
        """
        now = f"seat {self.current_seat()} is to act in the {self.phase.value} phase"
        rules = self.rules
        refused = f"{text(action)!r} is refused"
        if kind == TRUMP:
            if self.phase is _AUCTION:
                why = "only the bidder names trump, once the auction is over"
            else:
                assert self.trump is not None
                why = f"trump is already {SUIT_NAMES[SUITS[self.trump]]}"
            return IllegalAction("TRUMP-CALL", f"{refused}: {why}; {now}")
        if kind == GIVE:
            if rules.pass_cards == 0:
                why = f"{rules.variant} with these options passes no cards"
            else:
                why = "cards are passed only after trump is named, before meld"
            return IllegalAction("PASS-CARDS", f"{refused}: {why}; {now}")
        if kind in (THROW_IN, PLAY_ON):
            if rules.throw_in == "none":
                why = f"{rules.variant} with these options has no throw-in decision"
            else:
                why = "the bidder decides after meld, before the first lead"
            return IllegalAction("SCORE-THROW-IN", f"{refused}: {why}; {now}")
        return IllegalAction("PLAY-TURN", f"{refused}: cards are played only in trick play; {now}")


_OVER_RULE: dict[Outcome, tuple[str, str]] = {
    "played": ("PLAY-TURN", "all tricks are played"),
    "thrown_in": ("SCORE-THROW-IN", "the bidder threw in"),
    "meld_short": ("MELD-SHORT-BIDDER", "the bidding side is short of the meld minimum"),
    "no_marriage": ("TRUMP-NO-MARRIAGE", "the bidder holds no marriage to name trump"),
}
"""The rule and reason an action after a finished hand breaks, by how the hand ended."""


# --- one legality function and one apply function per phase ----------------------------------


def _auction_actions(state: HandState) -> list[Action]:
    bids = auction.legal_bid_ranges(state.auction, state.rules)
    # bid(n) is n << 3 | BID, so a range of bids is a range of actions.
    legal = [PASS_ACTION] if auction.can_pass(state.auction, state.rules) else []
    for r in bids:
        legal.extend(
            range(r.start << KIND_BITS | BID, r.stop << KIND_BITS | BID, r.step << KIND_BITS)
        )
    return legal


def _trump_actions(state: HandState) -> list[Action]:
    return [s << KIND_BITS | TRUMP for s in state.trump_suits()]


def _apply_trump(state: HandState, bidder: int, action: Action) -> None:
    """TRUMP-CALL: the bidder names a suit; TRUMP-MARRIAGE: in double-deck one in which the
    bidder holds a king and a queen."""
    suit = action >> KIND_BITS
    if suit not in state.trump_suits():
        raise IllegalAction(
            "TRUMP-MARRIAGE",
            f"seat {bidder} cannot name {SUIT_NAMES[SUITS[suit]]}: trump must be a suit in "
            "which the bidder holds a king and a queen",
        )
    state.trump = suit
    state._done(bidder, action)
    if state.rules.pass_cards > 0:
        state.phase = Phase.PASSING
    else:
        state._show_meld()


def _passing_actions(state: HandState) -> list[Action]:
    seat = state.current_seat()
    assert seat is not None
    return gives(state.held[seat], state.rules.pass_cards)


def _apply_give(state: HandState, seat: int, action: Action) -> None:
    """PASS-CARDS: the bidder's partner gives N cards to the bidder, then the bidder gives N
    back (any N it holds, including those just received)."""
    bidder = state.bidder
    assert bidder is not None
    n = state.rules.pass_cards
    who = "the bidder" if seat == bidder else "the bidder's partner"
    cards = given_cards(action)
    if len(cards) != n:
        raise IllegalAction(
            "PASS-CARDS", f"seat {seat} ({who}) must give exactly {n} cards, not {len(cards)}"
        )
    hand = state.held[seat]
    given = [0] * NUM_KINDS
    for c in cards:
        given[c] += 1
    missing = [card_code(c) for c in range(NUM_KINDS) if given[c] > hand[c]]
    if missing:
        raise IllegalAction(
            "PASS-CARDS", f"seat {seat} ({who}) cannot give {' '.join(missing)}: not held"
        )
    taker = state.held[bidder if seat != bidder else (bidder + 2) % 4]
    for c in cards:
        hand[c] -= 1
        taker[c] += 1
    state.gave.append(cards)
    state._done(seat, action)
    if len(state.gave) == 2:
        state._show_meld()


def _decision_actions(state: HandState) -> list[Action]:
    return [THROW_IN_ACTION] if state.forced_throw_in() else [PLAY_ON_ACTION, THROW_IN_ACTION]


def _apply_decision(state: HandState, bidder: int, action: Action) -> None:
    """SCORE-THROW-IN: the bidder throws in or plays on; SCORE-FORCED-THROW-IN: only throw in
    when the contract is out of reach."""
    if action == THROW_IN_ACTION:
        state._done(bidder, action)
        state._end("thrown_in")
        return
    if state.forced_throw_in():
        assert state.contract is not None and state.team_meld is not None
        raise IllegalAction(
            "SCORE-FORCED-THROW-IN",
            f"seat {bidder} cannot play on: the contract {state.contract} less the meld "
            f"{state.team_meld[bidder % 2]} is more than the "
            f"{state.rules.total_card_points} card points in play",
        )
    state._done(bidder, action)
    state.phase = Phase.PLAY
    state.leader = bidder


def _play_actions(state: HandState) -> list[Action]:
    trick, trump, leader = state.trick, state.trump, state.leader
    assert trump is not None and leader is not None
    plays = tricks.legal_plays(state.held[(leader + len(trick)) % 4], trick, trump, state.rules)
    return [PLAY_ACTIONS[c] for c in plays]


def play_violation(
    hand: Sequence[int], trick: Sequence[Card], trump: int, rules: Rules, card: Card
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


def _apply_play(state: HandState, seat: int, action: Action) -> None:
    """PLAY-TURN: the seat to play plays a card it holds; it must be one of
    ``tricks.legal_plays`` (PLAY-FOLLOW, PLAY-CRAWL, PLAY-TRUMP-VOID, PLAY-OVERTRUMP ...).
    Four cards make a trick: TRICK-WINNER takes it and leads next (PLAY-LEAD); its card points
    and on the last trick the bonus go to the winner's team (POINTS-COUNTERS, POINTS-LAST-TRICK).
    """
    card = action >> KIND_BITS
    hand = state.held[seat]
    trick = state.trick
    trump = state.trump
    assert trump is not None
    if not hand[card]:
        raise IllegalAction("PLAY-TURN", f"seat {seat} cannot play {card_code(card)}: not in hand")
    legal = state._legal
    if legal is None:
        legal = state._legal = _play_actions(state)
    if action not in legal:
        rules = state.rules
        allowed = " ".join(card_code(c) for c in tricks.legal_plays(hand, trick, trump, rules))
        raise IllegalAction(
            play_violation(hand, trick, trump, rules, card),
            f"seat {seat} cannot play {card_code(card)} to "
            f"{' '.join(card_code(c) for c in trick)} ({SUIT_NAMES[SUITS[trump]]} "
            f"trump): the legal plays are {allowed}",
        )
    hand[card] -= 1
    trick.append(card)
    state.actions.append((seat, action))
    state._legal = None
    if len(trick) == 4:
        _take_trick(state, trump)


def _take_trick(state: HandState, trump: int) -> None:
    rules = state.rules
    leader = state.leader
    assert leader is not None
    cards = tuple(state.trick)
    winner = (leader + tricks.trick_winner(cards, trump)) % 4
    state.tricks.append(Trick(leader, cards, winner))
    last = len(state.tricks) == state.hand_tricks
    state.card_points[winner % 2] += tricks.card_points(cards, rules, last_trick=last)
    state.tricks_won[winner % 2] += 1
    state.trick = []
    state.leader = winner
    if last:
        if state.contract is not None:
            state._end("played")
        else:  # trick play alone (``at_trick_play``): nothing to score
            state.outcome = "played"
            state.phase = Phase.OVER


def replay(
    state: HandState,
    actions: Iterable[Action | str],
    seats: Iterable[int | None] | None = None,
) -> tuple[HandState, Illegal | None]:
    """Apply ``actions`` in order to ``state`` (changed in place, and returned).

    A string is parsed when reached (``actions.parse``): a malformed one raises PinochleError
    naming its index. ``seats``, if given, are who claims each action. The first illegal
    action stops the replay and is returned as ``Illegal``; the state is as it was before it.
    """
    claims: Iterable[int | None] = repeat(None) if seats is None else seats
    for index, (action, seat) in enumerate(zip(actions, claims, strict=False)):
        if isinstance(action, str):
            try:
                action = parse(action)
            except PinochleError as err:
                raise PinochleError(f"action {index}: {err}") from None
        try:
            state.apply(action, seat)
        except IllegalAction as err:
            return state, Illegal(index, err.rule, str(err))
    return state, None
