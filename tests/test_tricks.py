"""Trick play (PLAY-*, TRICK-*, POINTS-*): hand-worked cases and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_engine.cards import HEARTS, SPADES, card_code, hand_counts, parse_cards
from reference_engine.tricks import beats, card_points, legal_plays, trick_winner
from reference_engine.variants import load_rules
from tests.strategies import default_rulesets, rulesets, split_into_tricks, trick_situations

DD = load_rules("double-deck")
POST = load_rules("double-deck", {"trick_rules": "post-1945"})


def plays(hand: str, trick: str, trump: int = HEARTS, rules=DD) -> str:  # type: ignore[no-untyped-def]
    return " ".join(
        card_code(c) for c in legal_plays(hand_counts(hand), parse_cards(trick), trump, rules)
    )


@pytest.mark.parametrize(
    ("hand", "trick", "expected", "rule"),
    [
        ("As Ks Jd Ah", "", "As Ks Ah Jd", "PLAY-LEAD"),
        ("As Ks Js Ah", "Qs", "As Ks", "PLAY-CRAWL"),  # beat the queen if you can
        ("Ks Js Ah", "Ts", "Ks Js", "PLAY-FOLLOW"),  # cannot beat: any spade
        ("As Qs", "As", "As Qs", "PLAY-CRAWL"),  # an identical ace cannot beat: any spade
        ("As Qs", "Ks As", "As Qs", "PLAY-CRAWL"),  # the winning card is the later ace
        ("As Qs Ah", "Ks Th", "As Qs", "PLAY-TRUMPED-TRICK"),  # trumped: any spade
        ("Ah Jh Ad", "Ks", "Ah Jh", "PLAY-TRUMP-VOID"),  # void: trump
        ("Ah Jh Ad", "Ks Kh", "Ah", "PLAY-OVERTRUMP"),  # void: over-trump if you can
        ("Jh Jh Ad", "Ks Kh", "Jh", "PLAY-OVERTRUMP"),  # cannot over-trump: any trump
        ("Ad Kc", "Ks Kh", "Ad Kc", "PLAY-DISCARD"),  # void of both: anything
        ("Ah Kh Qh", "Th", "Ah", "PLAY-CRAWL"),  # trump led: beat it
    ],
)
def test_pre_1945_obligations(hand: str, trick: str, expected: str, rule: str) -> None:
    assert plays(hand, trick) == expected, rule


@pytest.mark.parametrize(
    ("hand", "trick", "expected"),
    [
        ("As Ks Js Ah", "Qs", "As Ks Js"),  # plain suit led: any spade
        ("Ah Jh Ad", "Ks Kh", "Ah Jh"),  # void: any trump, no over-trump duty
        ("Ah Kh Qh", "Th", "Ah"),  # trump led: must beat
    ],
)
def test_post_1945_obligations(hand: str, trick: str, expected: str) -> None:
    assert plays(hand, trick, rules=POST) == expected


BEAT_LED = load_rules("online", {"trumped_trick": "beat-led"})


@pytest.mark.parametrize(
    ("hand", "trick", "expected"),
    [
        ("As Qs Ah", "Ks Th", "As"),  # trumped, yet the king must be topped
        ("Qs 9s Ah", "Ks Th", "Qs 9s"),  # nothing tops it: any spade
        ("As Ks", "Qs Ts Th", "As"),  # top the highest spade played, not the led one
        ("As Ts", "As Th", "As Ts"),  # an identical ace does not top the first
        ("Ah Kh Ad", "Ks Th", "Ah"),  # void: over-trump as by default
    ],
)
def test_online_trumped_trick_beat_led(hand: str, trick: str, expected: str) -> None:
    """trumped_trick=beat-led (ERRATA-ONLINE-MUST-WIN); post-1945 it changes nothing."""
    assert plays(hand, trick, rules=BEAT_LED) == expected
    post = load_rules("online", {"trumped_trick": "beat-led", "trick_rules": "post-1945"})
    assert plays("As Qs Ah", "Ks Th", rules=post) == "As Qs"


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        ("Ks As Ts Qs", HEARTS, 1),
        ("As As As As", HEARTS, 0),  # the first of identical cards wins
        ("Ks As As Qs", HEARTS, 1),
        ("As Jh Ah Jh", HEARTS, 2),  # highest trump
        ("Qs Ad Ac Ah", SPADES, 0),  # off-suit cards never win
        ("Jh Jh", HEARTS, 0),
    ],
)
def test_trick_winner(trick: str, trump: int, winner: int) -> None:
    assert trick_winner(parse_cards(trick), trump) == winner


def test_card_points_double_deck() -> None:
    """POINTS-COUNTERS: A, T, K one point each; POINTS-LAST-TRICK: 2; POINTS-TOTAL: 50."""
    assert card_points(parse_cards("As Ts Ks Qs"), DD) == 3
    assert card_points(parse_cards("Qs Js Qh Jh"), DD, last_trick=True) == 2
    assert DD.total_card_points == 50
    assert load_rules("single-deck").total_card_points == 250
    assert load_rules("online").total_card_points == 250


@given(rulesets.flatmap(lambda r: st.tuples(st.just(r), trick_situations(r))))
def test_legal_plays_are_a_nonempty_subset_of_the_hand(case) -> None:  # type: ignore[no-untyped-def]
    rules, (hand, trick, trump) = case
    legal = legal_plays(hand, trick, trump, rules)
    assert legal
    assert all(hand[c] > 0 for c in legal)
    assert len(set(legal)) == len(legal)


@given(
    default_rulesets.flatmap(lambda r: st.tuples(st.just(r), st.permutations(list(r.deck_cards)))),
    st.integers(0, 3),
)
def test_winner_is_beaten_by_no_card_of_the_trick(case, trump) -> None:  # type: ignore[no-untyped-def]
    _, cards = case
    trick = list(cards[:4])
    w = trick_winner(trick, trump)
    assert not any(beats(c, trick[w], trump) for i, c in enumerate(trick) if i > w)
    assert not any(
        beats(trick[w], c, trump) is False and beats(c, trick[w], trump) for c in trick[:w]
    )


@given(
    default_rulesets.flatmap(lambda r: st.tuples(st.just(r), st.permutations(list(r.deck_cards))))
)
def test_all_tricks_add_up_to_the_variant_total(case) -> None:  # type: ignore[no-untyped-def]
    rules, cards = case
    tricks = split_into_tricks(list(cards))
    total = sum(
        card_points(t, rules, last_trick=i == len(tricks) - 1) for i, t in enumerate(tricks)
    )
    assert total == rules.total_card_points
