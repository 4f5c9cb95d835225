"""Bots (bots.py): policies choose legal actions; playouts are a loop over the hand state API."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from reference_engine import bots
from reference_engine.actions import Action
from reference_engine.cards import check_deal, from_counts
from reference_engine.hand import HandState
from reference_engine.variants import Rules
from tests.strategies import ALL_RULESETS


@pytest.mark.parametrize("rules", ALL_RULESETS[::3], ids=lambda r: f"{r.variant}{dict(r.options)}")
def test_simple_bot_only_chooses_listed_actions(rules: Rules) -> None:
    def checked(state: HandState, rng: random.Random) -> Action:
        action = bots.simple(state, rng)
        assert action in state.legal_actions()
        return action

    rng = random.Random(rules.variant)
    for dealer in range(4):
        assert bots.playout(rules, rng, checked, dealer=dealer).is_terminal()


def test_playouts_are_reproducible_from_the_seed() -> None:
    rules = ALL_RULESETS[0]
    one = bots.playout(rules, random.Random(3), bots.uniform, dealer=2, number=5)
    two = bots.playout(rules, random.Random(3), bots.uniform, dealer=2, number=5)
    assert one == two and one.number == 5 and one.dealer == 2


@pytest.mark.parametrize("rules", ALL_RULESETS[:1] + ALL_RULESETS[-1:])
def test_random_deals_are_deals_of_the_deck(rules: Rules) -> None:
    rng = random.Random(0)
    first_cards = Counter()
    for _ in range(200):
        hands = bots.random_deal(rules, rng, 0)
        check_deal([from_counts(h) for h in hands], rules.deck_cards, rules.hand_size)
        first_cards[from_counts(hands[1])[0]] += 1
    assert len(first_cards) > 1  # not the same hand every time


def test_uniform_takes_each_legal_action() -> None:
    """Over many draws from one state every listed action comes up."""
    rules = ALL_RULESETS[0]
    state = HandState(rules, 0, bots.random_deal(rules, random.Random(1), 0))
    rng = random.Random(2)
    seen = {bots.uniform(state, rng) for _ in range(20000)}
    assert seen == set(state.legal_actions())
