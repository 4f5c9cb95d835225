"""Cards, parsing, decks and dealing (DECK-COMPOSITION, DECK-RANK, DEAL-HANDS, DEAL-PACKETS)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_engine.cards import (
    HEARTS,
    SPADES,
    card_code,
    card_symbol,
    check_deal,
    check_from_deck,
    counts_of_codes,
    deal,
    deck,
    format_cards,
    parse_card,
    parse_cards,
    rank_of,
    shuffled,
    suit_of,
    to_counts,
)
from reference_engine.errors import CardError
from reference_engine.variants import load_rules
from tests.strategies import default_rulesets


def test_card_code_round_trip_for_every_kind() -> None:
    codes = [r + s for s in "shdc" for r in "ATKQJ9"]
    assert [card_code(parse_card(c)) for c in codes] == codes


def test_rank_and_suit_are_derived() -> None:
    qs = parse_card("Qs")
    assert (rank_of(qs), suit_of(qs)) == (3, SPADES)
    assert suit_of(parse_card("Ah")) == HEARTS
    assert rank_of(parse_card("Ah")) < rank_of(parse_card("Th")) < rank_of(parse_card("Kh"))


def test_symbols() -> None:
    assert card_symbol(parse_card("Ah")) == "A♥"
    assert card_symbol(parse_card("Ts")) == "10♠"
    assert parse_card("10♦") == parse_card("Td")


def test_run_together_form_of_the_sources() -> None:
    cards = parse_cards("AhThKhKhKhQhQhJh QdQdJd QcQc AsKsKsQsQsJsJs")
    assert len(cards) == 20
    assert format_cards(parse_cards("Kh,Ah  Th")) == "Ah Th Kh"


@pytest.mark.parametrize("bad", ["Xh", "Ahx", "A", "1h", "Ah Zz", "Aq"])
def test_bad_tokens_are_named(bad: str) -> None:
    with pytest.raises(CardError) as err:
        parse_cards(bad)
    assert "bad card code" in str(err.value)


def test_decks() -> None:
    """DECK-COMPOSITION: 80 cards A-J x4 per suit; 48 cards A-9 x2 per suit."""
    dd = deck("ATKQJ", 4)
    sd = deck("ATKQJ9", 2)
    assert len(dd) == 80 and len(sd) == 48
    assert to_counts(dd).count(4) == 20 and to_counts(dd).count(0) == 4
    assert set(to_counts(sd)) == {2}


def test_deal_in_packets_from_the_dealers_left() -> None:
    """DEAL-PACKETS: dealer 3 deals first to seat 0; packets of 5."""
    cards = list(range(20)) * 4
    hands = deal(cards, dealer=3, packets=[5])
    assert hands[0][:5] == cards[:5]
    assert hands[1][:5] == cards[5:10]
    assert hands[3][:5] == cards[15:20]
    assert [len(h) for h in hands] == [20, 20, 20, 20]


def test_deal_two_then_threes() -> None:
    cards = list(range(48))
    hands = deal(cards, dealer=0, packets=[2, 3])
    assert hands[1][:2] == [0, 1]
    assert hands[2][:2] == [2, 3]
    assert hands[1][2:5] == [8, 9, 10]


@given(default_rulesets, st.integers(min_value=0, max_value=10**6), st.integers(0, 3))
def test_dealing_conserves_the_deck(rules, seed, dealer) -> None:  # type: ignore[no-untyped-def]
    hands = deal(shuffled(rules.deck_cards, seed), dealer, rules.deal_packets)
    assert all(len(h) == rules.hand_size for h in hands)
    check_deal(hands, rules.deck_cards, rules.hand_size)


def test_check_deal_names_the_fault() -> None:
    rules = load_rules("single-deck")
    hands = deal(list(rules.deck_cards), 0, [3])
    hands[0][0], hands[1][0] = hands[1][0], hands[1][0]
    with pytest.raises(CardError, match="too many"):
        check_deal(hands, rules.deck_cards, 12)
    with pytest.raises(CardError, match="holds 11 cards"):
        check_deal([h[:11] for h in hands], rules.deck_cards, 12)


def test_seeded_shuffle_is_reproducible() -> None:
    d = deck("ATKQJ", 4)
    assert shuffled(d, 7) == shuffled(d, 7)
    assert shuffled(d, 7) != shuffled(d, 8)


def test_check_from_deck_names_the_card() -> None:
    dd = deck("ATKQJ", 4)
    check_from_deck(parse_cards("Ah Ah Ah Ah"), dd, "hand")
    with pytest.raises(CardError, match="hand: 9h is not in this variant's deck"):
        check_from_deck(parse_cards("9h"), dd, "hand")
    with pytest.raises(CardError, match="5 copies of Qs, but the deck has 4"):
        check_from_deck(parse_cards("Qs") * 5, dd, "hand")


@pytest.mark.parametrize(
    "codes", [["Ah", "Ah", "9s"], ("Kd", "Qs"), "AhAh 9s", ["Ah", "10h", "A♥"], []]
)
def test_counting_codes_is_counting_the_parsed_cards(codes: Any) -> None:
    assert counts_of_codes(codes) == to_counts(parse_cards(codes))


@pytest.mark.parametrize("codes", [["Ah", "Zz"], ["Ah", 3], "Ah Zz"])
def test_counting_bad_codes_names_the_bad_card_as_parsing_does(codes: Any) -> None:
    with pytest.raises(CardError) as counted:
        counts_of_codes(codes)
    with pytest.raises(CardError) as parsed:
        parse_cards(codes)
    assert str(counted.value) == str(parsed.value)
