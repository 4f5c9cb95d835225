"""Actions (actions.py): the int form and the canonical text are one-to-one, and sort alike."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_engine import actions
from reference_engine.cards import NUM_KINDS, card_code, hand_counts
from reference_engine.errors import PinochleError

cards = st.integers(0, NUM_KINDS - 1)
any_action = st.one_of(
    st.builds(actions.play, cards),
    st.builds(actions.trump, st.integers(0, 3)),
    st.builds(actions.bid, st.integers(0, 10**6)),
    st.builds(actions.give, st.lists(cards, max_size=8)),
    st.sampled_from([actions.PASS_ACTION, actions.PLAY_ON_ACTION, actions.THROW_IN_ACTION]),
)


@given(any_action)
def test_text_parses_back_to_the_action(action: actions.Action) -> None:
    assert actions.parse(actions.text(action)) == action


@pytest.mark.parametrize(
    ("words", "canonical"),
    [
        ("bid 55", "bid 55"),
        ("bid  055", "bid 55"),
        ("pass", "pass"),
        ("trump H", "trump h"),
        ("trump ♥", "trump h"),
        ("give Th As Th", "give As Th Th"),
        ("throw-in", "throw-in"),
        ("play-on", "play-on"),
        ("play 10h", "play Th"),
    ],
)
def test_parse_accepts_the_grammar_and_text_is_canonical(words: str, canonical: str) -> None:
    assert actions.text(actions.parse(words)) == canonical


@pytest.mark.parametrize(
    "words", ["", "dance", "bid", "bid fifty", "trump x", "play Zz", "play ah"]
)
def test_malformed_actions_are_named(words: str) -> None:
    with pytest.raises(PinochleError, match="bad action"):
        actions.parse(words)


def test_kinds_sort_in_canonical_order() -> None:
    """Pass before bids, bids ascending; play-on before throw-in; cards in canonical order."""
    assert actions.PASS_ACTION < actions.bid(0) < actions.bid(50) < actions.bid(51)
    assert actions.PLAY_ON_ACTION < actions.THROW_IN_ACTION
    assert [card_code(actions.argument(actions.play(c))) for c in (0, 6, 23)] == ["As", "Ah", "9c"]
    assert actions.kind(actions.give([3, 1])) == actions.GIVE


@given(st.lists(cards, min_size=3, max_size=3), st.lists(cards, min_size=3, max_size=3))
def test_gives_sort_as_their_sorted_cards(a: list[int], b: list[int]) -> None:
    assert (actions.give(a) < actions.give(b)) == (sorted(a) < sorted(b))
    assert actions.given_cards(actions.give(a)) == tuple(sorted(a))


def test_gives_lists_every_distinct_set_once_in_order() -> None:
    counts = hand_counts("As As Ts Kd Kd 9c")
    listed = actions.gives(counts, 3)
    words = [actions.text(g) for g in listed]
    assert words[:3] == ["give As As Ts", "give As As Kd", "give As As 9c"]
    assert words[-1] == "give Kd Kd 9c"
    # Multisets of 3 from {As:2, Ts:1, Kd:2, 9c:1}: worked by hand, 10.
    assert len(listed) == len(set(listed)) == 10
    assert listed == sorted(listed)


def test_a_give_of_too_many_copies_is_malformed() -> None:
    with pytest.raises(PinochleError, match="255"):
        actions.give([0] * 256)
