"""The questions a fuzz campaign asks: one generator per protocol method, over ``choose(n)``.

Each generator builds a method's input from the reference's state API (deals, auctions, hands
played by random legal actions); 0 is always the simplest choice, so Hypothesis shrinks towards
short auctions, short hands, few meld groups and truncated action lists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pinochle_judge import methods
from reference_engine import auction, tricks
from reference_engine.actions import (
    BID,
    KIND_BITS,
    PASS_ACTION,
    PLAY_ON_ACTION,
    THROW_IN_ACTION,
    TRUMP,
    Action,
    give,
    play,
    text,
)
from reference_engine.auction import Call
from reference_engine.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    KING,
    NINE,
    NUM_KINDS,
    QUEEN,
    SPADES,
    SUITS,
    TEN,
    Card,
    card_code,
    deal,
    from_counts,
    make_card,
    suit_of,
)
from reference_engine.errors import IllegalAction
from reference_engine.hand import HandState, Phase
from reference_engine.variants import Rules
from specdata import house
from specdata.variants import rules_read

from .choices import Choose

Input = dict[str, Any]
"""A method's params without ``variant`` and ``options``."""


@dataclass(frozen=True)
class Question:
    """One question: a method, the variant and options, the input, and (when the generator
    already played it through the reference's state API) the reference's answer."""

    method: str
    variant: str
    options: Mapping[str, str]
    input: Input
    answer: dict[str, Any] | None = field(default=None, compare=False)

    @property
    def params(self) -> dict[str, Any]:
        """The protocol params of the question."""
        return {"variant": self.variant, "options": dict(self.options), **self.input}


def codes(cards: Sequence[Card]) -> list[str]:
    """Card kinds as card codes."""
    return [card_code(c) for c in cards]


# --- cards, decks, deals ------------------------------------------------------------------------


def shuffle(cards: Sequence[Card], choose: Choose) -> list[Card]:
    """A permutation of ``cards`` (Fisher-Yates; all choices 0 keep the canonical order)."""
    order = list(cards)
    for i in range(len(order) - 1):
        j = i + choose(len(order) - i)
        order[i], order[j] = order[j], order[i]
    return order


def dealt(rules: Rules, choose: Choose) -> tuple[int, list[list[Card]]]:
    """A dealer and the four hands of a shuffled deck, dealt in the variant's packets."""
    dealer = choose(4)
    return dealer, deal(shuffle(rules.deck_cards, choose), dealer, rules.deal_packets)


class CardPicker:
    """Draws cards one by one without exceeding the deck's copies, biased towards identical
    cards, the suit led and trumps (the situations where obligations and ties bite)."""

    def __init__(self, rules: Rules, choose: Choose, trump: int) -> None:
        self.kinds = [c for c in range(NUM_KINDS) if rules.deck_counts[c]]
        self.left = list(rules.deck_counts)
        self.choose = choose
        self.trump = trump
        self.drawn: list[Card] = []

    def pick(self, led: Card | None = None) -> Card:
        """One more card: 0 any card, 1 a copy of one drawn, 2 of the suit led, 3 a trump."""
        how = self.choose(4)
        if how == 1 and self.drawn:
            card = self.drawn[self.choose(len(self.drawn))]
        elif how in (2, 3):
            suit = self.trump if how == 3 or led is None else suit_of(led)
            ranks = [c for c in self.kinds if suit_of(c) == suit]
            card = ranks[self.choose(len(ranks))]
        else:
            card = self.kinds[self.choose(len(self.kinds))]
        # A card with no copy left gives way to the next kind that has one.
        start = self.kinds.index(card)
        for step in range(len(self.kinds)):
            card = self.kinds[(start + step) % len(self.kinds)]
            if self.left[card]:
                break
        self.left[card] -= 1
        self.drawn.append(card)
        return card

    def cards(self, n: int, led: Card | None = None) -> list[Card]:
        """``n`` more cards (fewer if the deck runs out)."""
        return [self.pick(led) for _ in range(min(n, sum(self.left)))]


# --- a hand played by choices --------------------------------------------------------------------


def choose_action(state: HandState, choose: Choose) -> Action:
    """A legal action of the seat to act. Auction: 0-2 the cheapest call (pass if allowed, else
    the smallest bid), 3-6 the smallest bid, 7 any legal bid; decision: play on, throw in one
    time in four; other phases: any legal action (0 the first, the lowest card kind)."""
    if state.phase is Phase.AUCTION:
        how = choose(8)
        if how < 7:
            # From the auction's own answers: the full list holds every bid to the ceiling.
            low = auction.min_bid(state.auction, state.rules)
            can_pass = auction.can_pass(state.auction, state.rules)
            if low is None or (how < 3 and can_pass):
                return PASS_ACTION
            return low << KIND_BITS | BID
    legal = state.legal_actions()
    if state.phase is Phase.DECISION:
        return legal[-1] if choose(4) == 3 else legal[0]
    return legal[choose(len(legal))]


def illegal_action(state: HandState, choose: Choose) -> Action:
    """An action that is not legal now: a card, a call, a trump, a decision or a give."""
    rules = state.rules
    seat = state.current_seat()
    low = auction.min_bid(state.auction, rules) or rules.auction.minimum
    held = from_counts(state.held[seat]) if seat is not None else []
    n = max(rules.pass_cards, 1)
    candidates = [
        *(play(c) for c in range(NUM_KINDS) if rules.deck_counts[c]),
        *(b << KIND_BITS | BID for b in sorted({max(low - 1, 1), low + 1, low})),
        PASS_ACTION,
        *(s << KIND_BITS | TRUMP for s in range(4)),
        PLAY_ON_ACTION,
        THROW_IN_ACTION,
        *([give(held[: n - 1] or held[:1])] if held else []),
    ]
    legal = set(state.legal_actions())
    if state.phase is Phase.PLAY:
        # A card the player holds but may not play breaks an obligation that binds now (follow,
        # beat, trump, over-trump): three times in four, the illegal action is one of those.
        breaking = [play(c) for c in sorted(set(held)) if play(c) not in legal]
        # In a trick already trumped, a void player's lower trump breaks the duty to
        # over-trump: the rarest obligation to reach, so its card is offered first.
        under = [a for a in breaking if _trumped(state) and _is_trump(state, a >> KIND_BITS)]
        if under and choose(2) == 0:
            return under[choose(len(under))]
        if breaking and choose(4) != 0:
            return breaking[choose(len(breaking))]
    wrong = [a for a in candidates if a not in legal]
    return wrong[choose(len(wrong))]


@dataclass
class PlayedHand:
    """A hand dealt and played by choices: the deal as dealt, and the state after ``actions``."""

    dealer: int
    hands: list[list[Card]]
    scores: tuple[int, int]
    number: int
    state: HandState
    actions: list[Action]


def play_choices(
    rules: Rules,
    choose: Choose,
    stop: Callable[[HandState], bool] | None = None,
    limit: int | None = None,
) -> PlayedHand:
    """Deal and play legal actions until the hand is over, ``limit`` actions are played, or
    ``stop(state)`` says so."""
    dealer, hands = dealt(rules, choose)
    scores = (0, 0)
    if choose(4) == 3:  # scores near the end of the game, where GAME-* rules decide
        scores = (game_score(rules, choose), game_score(rules, choose))
    number = 1 + choose(rules.rounds + 1) if rules.rounds else 1
    counts = [tuple(h.count(c) for c in range(NUM_KINDS)) for h in hands]
    state = HandState(rules, dealer, counts, scores, number)
    actions: list[Action] = []
    while not state.is_terminal() and not (stop is not None and stop(state)):
        if limit is not None and len(actions) >= limit:
            break
        action = choose_action(state, choose)
        state.apply(action)
        actions.append(action)
    return PlayedHand(dealer, hands, scores, number, state, actions)


def game_score(rules: Rules, choose: Choose) -> int:
    """A score before a hand: 0, or near the target or the bid-to-win mark (either side)."""
    how = choose(4)
    if how == 0:
        return 0
    unit = rules.auction.unit
    mark = rules.bid_to_win if how == 2 and rules.bid_to_win else rules.target
    score = max(mark - unit * choose(8) + (unit if how == 3 else 0), -mark)
    if house.past_target_refusable(rules.variant, rules_read(rules.variant, rules.options)):
        # The game would have ended (ERRATA-SCORE-HAND-INPUTS, item 5): only double-deck
        # sides under bid-to-win stand past the target (ERRATA-PAST-TARGET).
        score = min(score, rules.target - 1)
    return score


def _stop_in_play(choose: Choose, odds: int) -> Callable[[HandState], bool]:
    """Stop at some position of trick play (each position with chance 1/odds)."""

    def stop(state: HandState) -> bool:
        return state.phase is Phase.PLAY and choose(odds) == 0

    return stop


def _binding(choose: Choose) -> Callable[[HandState], bool]:
    """Stop at a position of trick play where the player to act holds a card it may not play
    (an obligation binds): one time in two where it is void in the suit led (trumping and
    over-trumping bind, late in the hand), one in twelve elsewhere (following, beating)."""

    def stop(state: HandState) -> bool:
        seat = state.current_seat()
        if state.phase is not Phase.PLAY or seat is None:
            return False
        held = sum(1 for count in state.held[seat] if count)
        if len(state.legal_actions()) == held:
            return False
        # Void in the suit led, trumping and over-trumping bind: rarer, so taken more often;
        # over-trumping a trick already trumped, the rarest, always.
        led = suit_of(state.trick[0]) if state.trick else None
        void = led is not None and not any(
            count and suit_of(kind) == led for kind, count in enumerate(state.held[seat])
        )
        if void and _trumped(state):
            return True
        return choose(2 if void else 12) == 0

    return stop


def _is_trump(state: HandState, card: Card) -> bool:
    return state.trump is not None and suit_of(card) == state.trump


def _trumped(state: HandState) -> bool:
    """Whether the trick in play holds a trump that did not lead (the suit led was trumped)."""
    return bool(state.trick) and any(_is_trump(state, c) for c in state.trick[1:])


# --- one generator per method --------------------------------------------------------------------


def ask_deal(rules: Rules, choose: Choose) -> Input:
    """DEAL-*: a shuffled deck and a dealer; sometimes a deck with a card missing, doubled or
    added (DECK-COMPOSITION)."""
    dealer = choose(4)
    deck = shuffle(rules.deck_cards, choose)
    broken = choose(24)  # one deck in eight is not the variant's
    if broken == 21:
        del deck[choose(len(deck))]
    elif broken == 22:
        deck[choose(len(deck))] = deck[choose(len(deck))]
    elif broken == 23:
        deck.insert(choose(len(deck) + 1), deck[choose(len(deck))])
    return {"dealer": dealer, "deck": codes(deck)}


def boundary_bids(high: int | None, rules: Rules) -> list[int]:
    """Bids at every threshold of the bid steps and one off each side of each step there: the
    opening minimum, the mark above which the unit changes (double-deck 60: 59 to 66), the
    largest raise over the high bid (online 50) and the highest bid; legal and illegal alike."""
    a = rules.auction
    near: set[int] = set()
    marks = [a.minimum, *([a.maximum] if a.maximum is not None else [])]
    if high is not None:
        marks += [high + a.unit]
        if a.max_raise is not None:
            marks += [high + a.max_raise]
    for mark in marks:
        near.update((mark - 1, mark, mark + 1, mark + a.unit))
    if a.unit_above is not None:
        threshold, unit = a.unit_above
        near.update(range(threshold - 2 * a.unit, threshold + unit + 2))
    return sorted(b for b in near if b >= 1)


def ask_auction(rules: Rules, choose: Choose) -> Input:
    """AUCTION-*: a sequence of calls, each with chance 1/16 of being the last; mostly legal
    (the smallest bid, a pass, a raise of exactly the largest raise, any legal bid), one in ten
    illegal (off step, too low, out of turn, a forced pass), one in six a bid at a threshold of
    the steps or one off it (``boundary_bids``), and now and then a call after the end."""
    a = rules.auction
    dealer = choose(4)
    state = auction.start(rules, dealer)
    calls: list[dict[str, Any]] = []
    while choose(16) != 0:
        seat = state.next_seat
        call: Call
        if seat is None:  # complete: any call now breaks AUCTION-END
            if choose(4) != 3:
                break
            seat, call = choose(4), None if choose(2) == 0 else a.minimum
        else:
            low = auction.min_bid(state, rules)
            how = choose(24)
            high = state.high_bid or a.minimum
            call = None if low is None else low
            if 8 <= how < 14 and auction.can_pass(state, rules):
                call = None
            elif how in (14, 15) and a.max_raise is not None and state.high_bid is not None:
                call = high + a.max_raise
            elif how in (16, 17):
                bids = auction.legal_bids(state, rules)
                call = bids[choose(len(bids))] if bids else None
            elif how == 18:
                wrong = [high + 1, high - a.unit, high + (a.max_raise or 0) + a.unit, high]
                pick = choose(len(wrong) + 1)
                forced = not auction.can_pass(state, rules)
                call = None if pick == len(wrong) and forced else max(wrong[pick % len(wrong)], 1)
            elif how == 19:
                seat = (seat + 1 + choose(3)) % 4
            elif how >= 20:
                near = boundary_bids(state.high_bid, rules)
                call = near[choose(len(near))]
        calls.append({"seat": seat, "pass": True} if call is None else {"seat": seat, "bid": call})
        try:
            state = auction.apply_call(state, rules, seat, call)
        except IllegalAction:
            break  # the answer stops at the first illegal call
    return {"dealer": dealer, "calls": calls}


_GROUPS = ("run", "royal", "marriage", "around", "pinochle", "dix")


def meld_hand(rules: Rules, choose: Choose, trump: int) -> list[Card]:
    """A hand rich in meld: up to four groups (a run in trumps, an extra K-Q of trumps, a
    marriage, an around of a rank, a pinochle, a dix), each in one or more copies, then a few
    other cards; never more than a hand or the deck holds."""
    left = list(rules.deck_counts)
    hand: list[Card] = []

    def add(cards: Sequence[Card]) -> None:
        for c in cards:
            if left[c] and len(hand) < rules.hand_size:
                left[c] -= 1
                hand.append(c)

    for _ in range(choose(5)):
        group = _GROUPS[choose(len(_GROUPS))]
        copies = 1 + choose(rules.copies)
        if group == "run":
            cards = [make_card(r, trump) for r in (ACE, TEN, KING, QUEEN, JACK)]
        elif group == "royal":
            cards = [make_card(KING, trump), make_card(QUEEN, trump)]
        elif group == "marriage":
            suit = choose(4)
            cards = [make_card(KING, suit), make_card(QUEEN, suit)]
        elif group == "around":
            rank = (ACE, KING, QUEEN, JACK)[choose(4)]
            cards = [make_card(rank, s) for s in (SPADES, HEARTS, DIAMONDS, CLUBS)]
        elif group == "pinochle":
            cards = [make_card(QUEEN, SPADES), make_card(JACK, DIAMONDS)]
        else:
            cards = [make_card(NINE, trump)] if rules.has_nines else []
        for _ in range(copies):
            add(cards)
    kinds = [c for c in range(NUM_KINDS) if rules.deck_counts[c]]
    for _ in range(choose(rules.hand_size + 1)):
        add([kinds[choose(len(kinds))]])
    return sorted(hand)


def ask_meld(rules: Rules, choose: Choose) -> Input:
    """MELD-*: a hand rich in meld (0) or a dealt hand (1), and a trump suit."""
    trump = choose(4)
    if choose(2) == 0:
        hand = meld_hand(rules, choose, trump)
    else:
        _, hands = dealt(rules, choose)
        hand = sorted(hands[choose(4)])
    return {"trump": SUITS[trump], "hand": codes(hand)}


def _position(rules: Rules, choose: Choose) -> tuple[int, list[Card], list[Card]] | None:
    """A position reached in trick play: trump, the hand of the seat to play, the trick so far
    (None when the hand ended before any trick play)."""
    played = play_choices(rules, choose, _stop_in_play(choose, rules.hand_size * 2))
    state = played.state
    if state.phase is not Phase.PLAY or state.trump is None:
        return None
    seat = state.current_seat()
    assert seat is not None
    return state.trump, from_counts(state.held[seat]), list(state.trick)


def ask_legal_plays(rules: Rules, choose: Choose) -> Input:
    """PLAY-*: a constructed position (0: a hand and up to three cards of a trick, drawn with
    identical cards, the suit led and trumps likely) or a position reached in play (1)."""
    trump = choose(4)
    if choose(2) == 1 and (reached := _position(rules, choose)) is not None:
        trump, hand, trick = reached
    else:
        picker = CardPicker(rules, choose, trump)
        trick = picker.cards(choose(4))
        hand = sorted(picker.cards(1 + choose(rules.hand_size), trick[0] if trick else None))
    return {"trump": SUITS[trump], "hand": codes(hand), "trick": codes(trick)}


def ask_trick_winner(rules: Rules, choose: Choose) -> Input:
    """TRICK-*: a constructed trick of one to four cards (identical cards likely) or a trick
    reached in play, complete or not."""
    trump = choose(4)
    if choose(2) == 1 and (reached := _position(rules, choose)) is not None:
        trump, hand, trick = reached
        legal = tricks.legal_plays(
            tuple(hand.count(c) for c in range(NUM_KINDS)), trick, trump, rules
        )
        trick = [*trick, legal[choose(len(legal))]]
    else:
        picker = CardPicker(rules, choose, trump)
        first = picker.pick()
        trick = [first, *picker.cards(choose(4), first)]
    return {"trump": SUITS[trump], "trick": codes(trick)}


def ask_card_points(rules: Rules, choose: Choose) -> Input:
    """POINTS-*: some cards won (a trick's worth is likely) and whether the last trick is among
    them."""
    picker = CardPicker(rules, choose, choose(4))
    n = 4 if choose(2) == 0 else choose(rules.hand_size + 1)
    return {"cards": codes(picker.cards(n)), "last_trick": choose(2) == 1}


def score_outcomes(rules: Rules) -> list[str]:
    """The outcomes a hand of these rules can have (``specdata.house.score_outcomes``)."""
    return house.score_outcomes(rules.variant, rules.options)


def contracts(rules: Rules, count: int = 40) -> list[int]:
    """The ``count`` smallest contracts the variant's auction can produce (on the bid steps,
    from the opening minimum up: ERRATA-SCORE-HAND-INPUTS, item 1)."""
    key = (rules.variant, tuple(sorted(rules.options.items())), count)
    if key not in _CONTRACTS:
        _CONTRACTS[key] = tuple(_contracts(rules, count))
    return list(_CONTRACTS[key])


_CONTRACTS: dict[tuple[str, tuple[tuple[str, str], ...], int], tuple[int, ...]] = {}
"""``contracts`` per variant and options (a score question asks them; the rules never change)."""


def _contracts(rules: Rules, count: int) -> list[int]:
    a = rules.auction
    found: list[int] = []
    bid = a.minimum
    while len(found) < count and (a.maximum is None or bid <= a.maximum):
        if auction.step_ok(bid, None, rules):
            found.append(bid)
        bid += 1
    return found


def refusable(rules: Rules, figures: Mapping[str, Any]) -> str | None:
    """Which item of the closed list of ERRATA-SCORE-HAND-INPUTS these ``score_hand`` figures
    fall under (an engine may refuse them or score them freely, so they are never asked), or
    None: the one list the suite uses too (``specdata.house.refusable``)."""
    return house.refusable(rules.variant, rules.options, figures)


def ask_score_hand(rules: Rules, choose: Choose) -> Input:
    """SCORE-*, GAME-*: figures of one hand that add up, placed around the thresholds: the
    contract made exactly or missed by one, the meld and trick minimums, the game target. Never
    figures of the closed list of ERRATA-SCORE-HAND-INPUTS (``refusable``)."""
    total, size = rules.total_card_points, rules.hand_size
    outcomes = score_outcomes(rules)
    # Played five times in eight; the other outcomes share the rest.
    how = choose(8)
    outcome = (
        outcomes[0] if how < 5 or len(outcomes) == 1 else outcomes[1 + choose(len(outcomes) - 1)]
    )
    bidder_team = choose(2)
    steps = contracts(rules)
    contract = steps[choose(8 * (1 + choose(4))) % len(steps)]
    minimum = rules.meld_minimum
    edges = [0, minimum - 1, minimum, contract // 2, contract]
    bid_meld = max(edges[choose(len(edges))] + choose(3) - 1, 0)
    other_meld = max(edges[choose(len(edges))] + choose(3) - 1, 0)
    if rules.variant == "double-deck":
        # The bidders' meld decides whether the hand is played at all (MELD-SHORT-BIDDER).
        if outcome in ("played", "thrown_in"):
            bid_meld = max(bid_meld, minimum)
        elif outcome == "meld_short":
            bid_meld = min(bid_meld, minimum - 1)
    if rules.forced_throw_in and outcome == "played":
        # More than the card points above the bidders' meld must be thrown in (item 3).
        reachable = [c for c in steps if c - bid_meld <= total] or steps[:1]
        contract = min(contract, reachable[-1])
    if outcome == "played":
        trick_edges = [contract - bid_meld, rules.trick_minimum, total // 2, 0, total]
        bid_tricks = trick_edges[choose(len(trick_edges))] + choose(3) - 1
        bid_tricks = min(max(bid_tricks, 0), total)
        other_tricks = total - bid_tricks
        most = max(rules.points_by_kind) * 4
        need = [-(-max(t - rules.last_trick, 0) // most) for t in (bid_tricks, other_tricks)]
        bid_won = need[0] + choose(max(size - need[0] - need[1], 0) + 1)
        bid_won = max(bid_won, 1 if bid_tricks else 0)
        other_won = size - bid_won
        if other_won == 0 and other_tricks:
            bid_won, other_won = size - 1, 1
    else:
        bid_tricks = other_tricks = bid_won = other_won = 0

    def pair(bidders: int, others: int) -> list[int]:
        return [bidders, others] if bidder_team == 0 else [others, bidders]

    answer: Input = {
        "bidder_team": bidder_team,
        "contract": contract,
        "outcome": outcome,
        "meld": pair(bid_meld, other_meld),
        "tricks": pair(bid_tricks, other_tricks),
        "tricks_won": pair(bid_won, other_won),
        "scores": [game_score(rules, choose), game_score(rules, choose)],
    }
    if rules.rounds:
        answer["hand"] = 1 + choose(rules.rounds + 1)
    if choose(5) == 0:  # drawn last: the questions asked before stay the same
        answer["scores"][choose(2)] = below_zero(rules, choose)
    return answer


def in_tens(rules: Rules, figures: Input) -> Input:
    """``score_hand`` figures moved to the tens, for an engine that keeps its figures in tens
    (ERRATA-TENS-SCALE): the contract up to the next step of ten, meld and scores down to a
    ten, the bidders' card points to the nearest ten (the opponents' the rest of the total);
    the original figures when the variant's total is off the tens or the result is refusable."""
    total = rules.total_card_points
    if total % 10:
        return figures
    bidders = figures["bidder_team"]
    tricks = list(figures["tricks"])
    if any(tricks):
        tricks[bidders] = min(max(round(tricks[bidders] / 10) * 10, 0), total)
        tricks[1 - bidders] = sum(figures["tricks"]) - tricks[bidders]
    moved: Input = {
        **figures,
        "contract": -(-figures["contract"] // 10) * 10,
        "meld": [m // 10 * 10 for m in figures["meld"]],
        "tricks": tricks,
        "scores": [s // 10 * 10 for s in figures["scores"]],
    }
    return figures if refusable(rules, moved) else moved


def below_zero(rules: Rules, choose: Choose) -> int:
    """A score below zero (a side set more than it scored), above the single-deck
    negative_loss limit where it is played (at or below it the game is over, item 5)."""
    unit = rules.auction.unit
    floor = rules.negative_loss
    deepest = -(rules.target // 2) if floor is None else floor + unit
    return max(-unit * (1 + choose(8)) * (1 + choose(10)), deepest)


MAX_LIMIT = 1024
"""Action lists are cut at ``choose(MAX_LIMIT)`` actions: most random hands are whole (about 90
actions in double-deck), and shrinking the cut gives the shortest action list."""


def play_hand_question(rules: Rules, choose: Choose) -> tuple[Input, PlayedHand, Action | None]:
    """A hand from its deal, whole or cut after a number of actions (most random hands are
    whole), one in eight with an illegal action after them, and one in eight stopped where an
    obligation binds with a held card that breaks it; the input, the hand played, and the
    illegal action if any."""
    how = choose(8)
    if how == 7:
        # Stopped where an obligation binds (the player holds a card it may not play), to play
        # a card that breaks it.
        played = play_choices(rules, choose, stop=_binding(choose))
    else:
        played = play_choices(rules, choose, limit=choose(MAX_LIMIT))
    actions = played.actions
    extra = illegal_action(played.state, choose) if how >= 6 else None
    listed = [*actions, extra] if extra is not None else actions
    params: Input = {
        "dealer": played.dealer,
        "scores": list(played.scores),
        "hands": [codes(sorted(h)) for h in played.hands],
        "actions": [text(a) for a in listed],
    }
    if rules.rounds:
        params["hand"] = played.number
    return params, played, extra


def ask_play_tricks(rules: Rules, choose: Choose) -> Input:
    """PLAY-*, TRICK-*, POINTS-*: the last tricks of a dealt hand (from the first lead, or after
    some tricks played), played legally to the end or cut short, one time in eight with a held
    card after them that breaks the obligation binding then (or, with none binding, a card not
    held)."""
    _, dealt_hands = dealt(rules, choose)
    trump, leader = choose(4), choose(4)
    counts = [tuple(h.count(c) for c in range(NUM_KINDS)) for h in dealt_hands]
    state = HandState.at_trick_play(rules, trump, leader, counts)
    for _ in range(4 * choose(rules.hand_size)):  # some whole tricks first, not asked about
        state.apply(choose_action(state, choose))
    start = [from_counts(h) for h in state.held]
    first = state.leader
    assert first is not None
    limit = choose(MAX_LIMIT)
    plays: list[Card] = []
    while not state.is_terminal() and len(plays) < limit:
        action = choose_action(state, choose)
        state.apply(action)
        plays.append(action >> KIND_BITS)
    if not state.is_terminal() and choose(8) == 0:
        seat = state.current_seat()
        assert seat is not None
        legal = set(state.legal_actions())
        held = sorted({c for c in range(NUM_KINDS) if state.held[seat][c]})
        breaking = [c for c in held if play(c) not in legal]
        others = [c for c in range(NUM_KINDS) if rules.deck_counts[c] and c not in held]
        wrong = breaking or others
        if wrong:
            plays.append(wrong[choose(len(wrong))])
    return {
        "trump": SUITS[trump],
        "leader": first,
        "hands": [codes(sorted(h)) for h in start],
        "plays": codes(plays),
    }


MAX_GAME_HANDS = 3
"""A game question plays at most this many hands (the last may be cut short)."""


def ask_play_game(rules: Rules, choose: Choose) -> Input:
    """DEAL-ROTATION, GAME-*, and every rule of a hand: hands dealt one after another, the deal
    passing clockwise and the scores carried over (from scores near the end of the game one time
    in four, below zero included), each played legally to its end, the last one possibly cut
    short, until a side wins or ``MAX_GAME_HANDS`` hands are played."""
    return play_game_question(rules, choose)[0]


def play_game_question(rules: Rules, choose: Choose) -> tuple[Input, list[HandState]]:
    """``ask_play_game``'s input and the hands it played (the states the reference's answer is
    read from, rather than replayed)."""
    dealer = choose(4)
    scores = (0, 0)
    if choose(4) == 3:
        scores = (game_score(rules, choose), below_zero(rules, choose) if choose(3) == 0 else 0)
    deals: list[list[list[str]]] = []
    lists: list[list[str]] = []
    played: list[HandState] = []
    before = scores
    for k in range(1 + choose(MAX_GAME_HANDS)):
        hands = deal(shuffle(rules.deck_cards, choose), (dealer + k) % 4, rules.deal_packets)
        counts = [tuple(h.count(c) for c in range(NUM_KINDS)) for h in hands]
        state = HandState(rules, (dealer + k) % 4, counts, before, k + 1)
        actions: list[str] = []
        last = k == MAX_GAME_HANDS - 1
        limit = choose(MAX_LIMIT) if last else MAX_LIMIT
        while not state.is_terminal() and len(actions) < limit:
            action = choose_action(state, choose)
            state.apply(action)
            actions.append(text(action))
        deals.append([codes(sorted(h)) for h in hands])
        lists.append(actions)
        played.append(state)
        if state.score is None or state.score.game_winner is not None:
            break
        before = state.score.scores
    given = {"dealer": dealer, "scores": list(scores), "hands": deals, "actions": lists}
    return given, played


def _generators() -> dict[str, Callable[[Rules, Choose], Input]]:
    """Each fuzzed method's generator, named by its record (``pinochle_judge.methods``)."""
    found: dict[str, Callable[[Rules, Choose], Input]] = {}
    for record in methods.fuzzed():
        assert record.fuzz is not None
        generator = globals().get(record.fuzz.generator)
        if not callable(generator):
            raise LookupError(
                f"{record.name}: its record names the fuzz generator {record.fuzz.generator!r}, "
                "which pinochle_fuzz/questions.py does not define"
            )
        if record.shape != "hand":  # a whole hand is generated with its played answer
            found[record.name] = generator
    return found


GENERATORS = _generators()
"""The generator of each fuzzed method but ``play_hand`` (which also returns the hand it
played)."""
