"""Meld (MELD-*): hand-worked values from the sources' tables."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_engine.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    hand_counts,
    parse_cards,
    to_counts,
)
from reference_engine.meld import has_aces_around, has_marriage, meld, meld_total
from reference_engine.variants import load_rules
from tests.strategies import hands, rulesets, suits

DD = load_rules("double-deck")
SD = load_rules("single-deck")
ONLINE = load_rules("online")
EXAMPLE_88 = "AhThKhKhKhQhQhJh QdQdJd QcQc AsKsKsQsQsJsJs"


def items(hand: str, trump: int, rules=DD) -> dict[tuple[str, int | None], tuple[int, int]]:  # type: ignore[no-untyped-def]
    return {
        (i.id, i.suit): (i.count, i.points) for i in meld(hand_counts(hand), trump, rules).items
    }


def test_the_88_point_hand_of_source_003() -> None:
    """Run 16, royal marriage 4, double spade marriage 4, pinochle 4, double queens around 60."""
    result = meld(hand_counts(EXAMPLE_88), HEARTS, DD)
    assert result.total == 88
    assert items(EXAMPLE_88, HEARTS) == {
        ("run", HEARTS): (1, 16),
        ("royal_marriage", HEARTS): (1, 4),
        ("marriage", SPADES): (2, 4),
        ("pinochle", None): (1, 4),
        ("queens_around", None): (2, 60),
    }


def test_the_queen_of_spades_serves_three_types_at_once() -> None:
    """MELD-TYPES: Qs in a marriage (I), a pinochle (II) and queens around (III)."""
    result = meld(hand_counts("Ks Qs Jd Qh Qd Qc"), HEARTS, DD)
    assert {i.id for i in result.items} == {"marriage", "pinochle", "queens_around"}
    assert result.total == 2 + 4 + 6


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("Kd Qd Qd", 2),  # a king and two queens: one marriage, not two
        ("Kd Kd Kd Qd", 2),  # three kings, one queen: one marriage
        ("Kd Kd Qd Qd", 4),  # double marriage
    ],
)
def test_one_card_serves_one_meld_of_a_type(hand: str, expected: int) -> None:
    assert meld_total(hand_counts(hand), SPADES, DD) == expected


@pytest.mark.parametrize(("copies", "dd_value"), [(1, 16), (2, 150), (3, 225), (4, 300)])
def test_run_multiplicities_double_deck(copies: int, dd_value: int) -> None:
    hand = " ".join(["Ac Tc Kc Qc Jc"] * copies)
    result = meld(hand_counts(hand), CLUBS, DD)
    assert result.total == dd_value
    assert result.count("royal_marriage") == 0


def test_run_outside_trumps_is_only_a_marriage() -> None:
    assert items("Ac Tc Kc Qc Jc", HEARTS) == {("marriage", CLUBS): (1, 2)}


def test_extra_trump_king_and_queen_beyond_the_run() -> None:
    """Twenty-pounder: A T K K Q Q J of trumps = 16 + 4 (003 glossary).

    Online by default (extra_trump_kq off) the K-Q beyond the run scores nothing.
    """
    hand = hand_counts("Ah Th Kh Kh Qh Qh Jh")
    assert meld_total(hand, HEARTS, DD) == 20
    assert meld_total(hand_counts("Ah Th Kh Kh Qh Qh Jh"), HEARTS, SD) == 190
    assert meld_total(hand, HEARTS, ONLINE) == 150
    assert meld_total(hand, HEARTS, load_rules("online", {"extra_trump_kq": "on"})) == 190
    assert meld_total(hand_counts("Kh Qh"), HEARTS, ONLINE) == 40


def test_single_deck_run_royal_both_marries_the_runs_own_king_and_queen() -> None:
    """run_royal=both (ERRATA-RUN-MARRIAGE-48): every trump K-Q is a royal marriage, runs or not;
    each king still pairs with one queen only."""
    both = load_rules("single-deck", {"run_royal": "both"})
    assert meld_total(hand_counts("Ah Th Kh Qh Jh"), HEARTS, SD) == 150
    assert meld_total(hand_counts("Ah Th Kh Qh Jh"), HEARTS, both) == 190
    assert meld_total(hand_counts("Ah Th Kh Kh Qh Qh Jh"), HEARTS, both) == 230
    assert meld_total(hand_counts("Ah Th Kh Kh Qh Jh"), HEARTS, both) == 190
    assert meld_total(hand_counts("Ah Ah Th Th Kh Kh Qh Qh Jh Jh"), HEARTS, both) == 380
    assert meld_total(hand_counts("Kh Qh"), HEARTS, both) == 40


def test_arounds_take_the_smallest_count_over_suits() -> None:
    """Three aces of spades and one in each other suit: single aces around, not triple."""
    assert items("As As As Ah Ad Ac", HEARTS) == {("aces_around", None): (1, 10)}
    assert meld_total(hand_counts("As As Ah Ah Ad Ad Ac Ac"), HEARTS, DD) == 100
    assert meld_total(hand_counts("As Ah Ad"), HEARTS, DD) == 0


def test_tens_around_score_nothing() -> None:
    assert meld(hand_counts("Ts Th Td Tc Ts Th Td Tc"), HEARTS, DD).items == ()


def test_roundhouse_totals_of_the_glossary() -> None:
    """MELD-ROUNDHOUSE: 24 double-deck; 36 with a run; 240 single-deck."""
    roundhouse = "Ks Qs Kh Qh Kd Qd Kc Qc"
    assert meld_total(hand_counts(roundhouse), SPADES, DD) == 24
    assert meld_total(hand_counts(roundhouse + " As Ts Js"), SPADES, DD) == 36
    assert meld_total(hand_counts(roundhouse), SPADES, SD) == 240


def test_single_deck_table() -> None:
    """002's table: eight aces 1000, double pinochle 300, dix 10, run 150."""
    assert meld_total(hand_counts("As As Ah Ah Ad Ad Ac Ac"), SPADES, SD) == 1000
    assert meld_total(hand_counts("Qs Qs Jd Jd"), HEARTS, SD) == 300
    assert meld_total(hand_counts("9h 9h"), HEARTS, SD) == 20
    assert meld_total(hand_counts("9h"), SPADES, SD) == 0
    assert meld_total(hand_counts("Ad Td Kd Qd Jd 9d"), DIAMONDS, SD) == 160
    assert meld_total(hand_counts("Ad Td Kd Qd Jd Ad Td Kd Qd Jd"), DIAMONDS, SD) == 300
    double_run_1500 = load_rules("single-deck", {"double_run": "1500"})
    assert (
        meld_total(hand_counts("Ad Td Kd Qd Jd Ad Td Kd Qd Jd"), DIAMONDS, double_run_1500) == 1500
    )


def test_options_change_values() -> None:
    assert (
        meld_total(hand_counts("Ah Th Kh Qh Jh"), HEARTS, load_rules("double-deck", {"run": 15}))
        == 15
    )
    assert (
        meld_total(
            hand_counts("Qs Qh Qd Qc"), HEARTS, load_rules("double-deck", {"queens_around": 8})
        )
        == 8
    )
    comments = load_rules("double-deck", {"pinochle_scale": "comments"})
    assert meld_total(hand_counts("Qs Qs Qs Jd Jd Jd"), HEARTS, comments) == 90


def test_meld_cards_are_those_of_the_meld() -> None:
    result = meld(hand_counts(EXAMPLE_88), HEARTS, DD)
    pinochle = next(i for i in result.items if i.id == "pinochle")
    assert sorted(pinochle.cards) == sorted(parse_cards("Qs Jd"))
    assert [i.type for i in result.items] == ["I", "I", "I", "II", "III"]


def test_marriage_and_aces_predicates() -> None:
    assert has_marriage(hand_counts("Kd Qd"), DIAMONDS)
    assert not has_marriage(hand_counts("Kd Qh"), DIAMONDS)
    assert has_aces_around(hand_counts("As Ah Ad Ac"))


@given(rulesets.flatmap(lambda r: st.tuples(st.just(r), hands(r), suits, st.randoms())))
def test_meld_is_independent_of_card_order(case) -> None:  # type: ignore[no-untyped-def]
    rules, hand, trump, rnd = case
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert meld(to_counts(hand), trump, rules) == meld(to_counts(shuffled), trump, rules)


@given(rulesets.flatmap(lambda r: st.tuples(st.just(r), hands(r), suits)))
def test_itemised_total_equals_fast_total_and_uses_held_cards(case) -> None:  # type: ignore[no-untyped-def]
    rules, hand, trump = case
    counts = to_counts(hand)
    result = meld(counts, trump, rules)
    assert result.total == meld_total(counts, trump, rules)
    by_type: dict[str, list[int]] = {}
    for item in result.items:
        # Single-deck run_royal=both reads 002 without types: the run's own K-Q marries too.
        both = rules.run_royal == "both" and item.id == "royal_marriage"
        by_type.setdefault("royal" if both else item.type, []).extend(item.cards)
    for cards in by_type.values():  # within one type no card is used twice (MELD-TYPES)
        used = to_counts(cards)
        assert all(used[k] <= counts[k] for k in range(24))
