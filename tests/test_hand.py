"""The hand state machine (hand.py): legal_actions are exactly what apply accepts, playouts end."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_engine import actions, bots, text
from reference_engine.cards import NUM_KINDS
from reference_engine.errors import IllegalAction, PinochleError
from reference_engine.hand import HandState, Phase, replay
from reference_engine.variants import Rules
from tests.strategies import ALL_RULESETS

rulesets = st.sampled_from(ALL_RULESETS)


def candidates(state: HandState) -> list[actions.Action]:
    """Every action of the kinds a hand knows, legal or not, within bounds worth trying."""
    rules = state.rules
    seat = state.current_seat()
    found = [actions.PASS_ACTION, actions.PLAY_ON_ACTION, actions.THROW_IN_ACTION]
    found += [actions.trump(s) for s in range(4)]
    found += [actions.play(c) for c in range(NUM_KINDS)]
    low = rules.auction.minimum
    found += [actions.bid(b) for b in range(low - 10, low + 250)]
    found += [actions.bid(b) for b in range(rules.bid_ceiling - 20, rules.bid_ceiling + 1)]
    if state.phase is Phase.PASSING and seat is not None:
        held = state.held[seat]
        found += actions.gives(held, rules.pass_cards)  # every legal give
        found += actions.gives([min(n, 1) for n in held], max(rules.pass_cards - 1, 0))
        found += [actions.give([c] * rules.pass_cards) for c in range(NUM_KINDS)]
    return found


def advance(state: HandState, rng: random.Random, steps: int) -> HandState:
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(bots.uniform(state, rng))
    return state


@settings(max_examples=120, deadline=None)
@given(rulesets, st.integers(0, 3), st.integers(0, 2**32), st.integers(0, 120))
def test_legal_actions_are_exactly_the_accepted_actions(
    rules: Rules, dealer: int, seed: int, steps: int
) -> None:
    """Sampled: a random moment of a random hand, every candidate action tried on a copy."""
    rng = random.Random(seed)
    state = advance(HandState(rules, dealer, bots.random_deal(rules, rng, dealer)), rng, steps)
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    for action in candidates(state):
        trial = state.clone()
        try:
            trial.apply(action)
        except IllegalAction:
            assert action not in legal, actions.text(action)
            assert trial == state  # an illegal action leaves the state as it was
        else:
            bid_above = actions.kind(action) == actions.BID and (
                actions.argument(action) > rules.bid_ceiling
            )
            assert action in legal or bid_above, actions.text(action)
    for action in legal:
        state.clone().apply(action)  # every listed action is accepted


@settings(max_examples=60, deadline=None)
@given(rulesets, st.integers(0, 3), st.integers(0, 2**32))
def test_random_playouts_reach_a_scored_end(rules: Rules, dealer: int, seed: int) -> None:
    rng = random.Random(seed)
    policy = bots.uniform if seed % 2 else bots.simple
    state = bots.playout(rules, rng, policy, dealer=dealer, number=3)
    assert state.is_terminal() and state.current_seat() is None and state.legal_actions() == []
    assert state.score is not None and state.outcome is not None
    if state.outcome == "played":
        assert len(state.tricks) == rules.hand_size
        assert sum(state.card_points) == rules.total_card_points
    assert "hand over" in text.view(state) or "game over" in text.view(state)


def test_illegal_action_after_the_end_names_how_the_hand_ended() -> None:
    rules = ALL_RULESETS[0]
    state = bots.playout(rules, random.Random(4), bots.simple)
    before = state.clone()
    rule = {"played": "PLAY-TURN", "thrown_in": "SCORE-THROW-IN"}.get(state.outcome or "")
    try:
        state.apply(actions.PASS_ACTION)
    except IllegalAction as err:
        assert rule is None or err.rule == rule
        assert "is not possible" in str(err)
    else:
        raise AssertionError("an action after the end was accepted")
    assert state == before


def test_replay_stops_at_the_first_illegal_action_with_seats() -> None:
    rules = ALL_RULESETS[0]
    played = bots.playout(rules, random.Random(8), bots.simple, dealer=1)
    words = [actions.text(a) for _, a in played.actions]
    seats = [seat for seat, _ in played.actions]
    seats[3] = (seats[3] + 1) % 4  # the fourth action claimed by the wrong seat
    state, illegal = replay(HandState(rules, 1, played.deal), words, seats)
    assert illegal is not None and illegal.index == 3
    assert illegal.rule in ("AUCTION-TURN", "AUCTION-PASS-FINAL")
    assert len(state.actions) == 3


@settings(max_examples=60, deadline=None)
@given(rulesets, st.integers(0, 3), st.integers(0, 2**32), st.integers(0, 11))
def test_trick_play_alone_gives_the_hand_s_remaining_tricks(
    rules: Rules, dealer: int, seed: int, done: int
) -> None:
    """``at_trick_play`` from the held cards at the start of any trick plays the rest of the hand
    exactly as the hand does: the same tricks, and the same card points (last-trick bonus
    included) added from there."""
    rng = random.Random(seed)
    state = HandState(rules, dealer, bots.random_deal(rules, rng, dealer))
    while not state.is_terminal() and not (
        state.phase is Phase.PLAY and not state.trick and len(state.tricks) >= done
    ):
        state.apply(bots.uniform(state, rng))
    if state.is_terminal():
        return  # the hand ended before trick play (thrown in, no marriage, short of meld)
    assert state.trump is not None and state.leader is not None
    alone = HandState.at_trick_play(rules, state.trump, state.leader, state.hands)
    before, points_before = len(state.tricks), list(state.card_points)
    while not state.is_terminal():
        action = bots.uniform(state, rng)
        assert alone.legal_actions() == state.legal_actions()
        state.apply(action)
        alone.apply(action)
    assert alone.is_terminal() and alone.score is None and alone.outcome == "played"
    assert alone.tricks == state.tricks[before:]
    gained = [state.card_points[t] - points_before[t] for t in (0, 1)]
    assert alone.card_points == gained


def test_a_play_after_trick_play_alone_is_refused_under_play_turn() -> None:
    rules = ALL_RULESETS[0]
    hands = [[0] * len(rules.deck_counts) for _ in range(4)]
    for seat, card in enumerate(rules.deck_cards[:4]):
        hands[seat][card] += 1
    state = HandState.at_trick_play(rules, 0, 0, hands)
    for seat in range(4):
        state.apply(actions.play(rules.deck_cards[seat]))
    assert state.is_terminal()
    try:
        state.apply(actions.play(rules.deck_cards[0]))
    except IllegalAction as err:
        assert err.rule == "PLAY-TURN"
    else:
        raise AssertionError("a play after the last trick was accepted")


@pytest.mark.parametrize(
    ("words", "claim"),
    [
        ("pass", (None, actions.PASS_ACTION)),
        ("seat 2: trump h", (2, actions.trump(1))),
        ("seat 0: bid 55", (0, actions.bid(55))),
    ],
)
def test_an_action_may_name_its_seat(words: str, claim: tuple[int | None, int]) -> None:
    assert actions.parse_claim(words) == claim


@pytest.mark.parametrize(
    "words", ["seat 4: pass", "seat 1:pass", "seat 1: seat 2: pass", "seat one: pass", "seat 1: "]
)
def test_a_malformed_seat_claim_is_refused(words: str) -> None:
    with pytest.raises(PinochleError, match="bad action"):
        actions.parse_claim(words)
    with pytest.raises(PinochleError, match="action 1: "):
        actions.parse_claims(["pass", words])
