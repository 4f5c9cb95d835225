"""Bot policies over the hand state API, and random playouts: a loop over ``HandState``.

A policy maps a state and a seeded ``random.Random`` to a legal action; ``playout`` deals a hand
and lets a policy play it from the deal to the score.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from . import auction
from .actions import (
    BID,
    KIND_BITS,
    PASS_ACTION,
    PLAY_ON_ACTION,
    THROW_IN_ACTION,
    TRUMP,
    Action,
    give,
)
from .cards import Counts, deal, from_counts, to_counts
from .hand import HandState, Phase, trump_suits_of
from .meld import meld_total
from .variants import Rules

Policy = Callable[[HandState, random.Random], Action]
"""Chooses the action of the seat to act."""


def uniform(state: HandState, rng: random.Random) -> Action:
    """Any legal action, each equally likely."""
    legal = state.legal_actions()
    # As rng.choice, at a quarter of its cost: the bias of a 53-bit float is below 2**-40.
    return legal[int(rng.random() * len(legal))]


def simple(state: HandState, rng: random.Random) -> Action:
    """A simple legal-playing bot.

    Bids the smallest legal bid while its best meld plus a fair share of the card points
    covers it; names its best meld suit; gives random cards; throws in when the contract is
    far beyond meld; plays a random legal card.
    """
    rules = state.rules
    seat = state.current_seat()
    assert seat is not None
    hand = state.held[seat]
    phase = state.phase
    if phase is Phase.AUCTION:
        low = auction.min_bid(state.auction, rules)
        assert low is not None
        if not auction.can_pass(state.auction, rules):
            return low << KIND_BITS | BID
        counts = tuple(hand)
        best = max((meld_total(counts, t, rules) for t in trump_suits_of(hand, rules)), default=0)
        reach = (
            best + rules.total_card_points // 2 + rng.randrange(rules.total_card_points // 4 + 1)
        )
        return low << KIND_BITS | BID if low <= reach else PASS_ACTION
    if phase is Phase.TRUMP:
        counts = tuple(hand)
        best_suit = max(state.trump_suits(), key=lambda t: (meld_total(counts, t, rules), -t))
        return best_suit << KIND_BITS | TRUMP
    if phase is Phase.PASSING:
        return give(rng.sample(from_counts(hand), rules.pass_cards))
    if phase is Phase.DECISION:
        if state.forced_throw_in():
            return THROW_IN_ACTION
        assert state.team_meld is not None and state.contract is not None
        short = state.contract - state.team_meld[seat % 2]
        return THROW_IN_ACTION if short > rules.total_card_points * 3 // 4 else PLAY_ON_ACTION
    return rng.choice(state.legal_actions())


def random_deal(rules: Rules, rng: random.Random, dealer: int) -> tuple[Counts, ...]:
    """Four hands from a deck shuffled by ``rng``, dealt in the variant's packets."""
    # Sorting by independent uniform keys is a uniform shuffle, at a third of the cost of
    # random.shuffle (one C-level random() per card instead of a Python-level _randbelow).
    draw = rng.random
    order = sorted(rules.deck_cards, key=lambda _: draw())
    return tuple(to_counts(h) for h in deal(order, dealer, rules.deal_packets))


def playout(
    rules: Rules,
    rng: random.Random,
    policy: Policy = uniform,
    dealer: int = 0,
    scores: tuple[int, int] = (0, 0),
    number: int = 1,
    hands: tuple[Counts, ...] | None = None,
) -> HandState:
    """One hand from the deal (``hands``, or a random deal) to the score, every action chosen
    by ``policy``; the finished state."""
    if hands is None:
        hands = random_deal(rules, rng, dealer)
    state = HandState(rules, dealer, hands, scores, number)
    while state.phase is not Phase.OVER:
        state.apply(policy(state, rng))
    return state
