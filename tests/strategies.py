"""Hypothesis strategies for cards, hands, deals, tricks and rulesets."""

from __future__ import annotations

import itertools

from hypothesis import strategies as st

from reference_engine.cards import Card, Counts, deal, to_counts
from reference_engine.variants import Rules, load_rules, variant_options
from specdata import variant_ids


def _all_rulesets() -> list[Rules]:
    """Every variant with its defaults, and with each single option value switched on."""
    out = []
    for variant in variant_ids():
        out.append(load_rules(variant))
        for name, opt in variant_options(variant).items():
            for choice in opt["choices"]:
                if choice != opt["default"]:
                    out.append(load_rules(variant, {name: choice}))
    return out


ALL_RULESETS = _all_rulesets()
DEFAULT_RULESETS = [load_rules(v) for v in variant_ids()]

rulesets = st.sampled_from(ALL_RULESETS)
default_rulesets = st.sampled_from(DEFAULT_RULESETS)
suits = st.integers(min_value=0, max_value=3)
seats = st.integers(min_value=0, max_value=3)


@st.composite
def cards_of(draw: st.DrawFn, rules: Rules) -> Card:
    """One card kind of the variant's deck."""
    return draw(st.sampled_from(sorted(set(rules.deck_cards))))


@st.composite
def hands(draw: st.DrawFn, rules: Rules, size: int | None = None) -> list[Card]:
    """A hand drawn from the variant's deck without replacement (at most ``copies`` of a kind)."""
    n = rules.hand_size if size is None else size
    permutation = draw(st.permutations(list(rules.deck_cards)))
    return sorted(permutation[:n])


@st.composite
def deals(draw: st.DrawFn, rules: Rules) -> list[list[Card]]:
    """Four hands dealt from a shuffled deck of the variant."""
    permutation = draw(st.permutations(list(rules.deck_cards)))
    dealer = draw(seats)
    return deal(permutation, dealer, rules.deal_packets)


@st.composite
def trick_situations(draw: st.DrawFn, rules: Rules) -> tuple[Counts, list[Card], int]:
    """A hand, a partial trick (0-3 cards) consistent with the deck, and a trump suit."""
    permutation = draw(st.permutations(list(rules.deck_cards)))
    played = draw(st.integers(min_value=0, max_value=3))
    hand_size = draw(st.integers(min_value=1, max_value=rules.hand_size))
    trick = list(permutation[:played])
    hand = to_counts(permutation[played : played + hand_size])
    return hand, trick, draw(suits)


def split_into_tricks(cards: list[Card]) -> list[list[Card]]:
    """Consecutive groups of four cards."""
    it = iter(cards)
    return [list(itertools.islice(it, 4)) for _ in range(len(cards) // 4)]
