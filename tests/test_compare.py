"""The one comparison: each kind of field catches a wrong answer and lets a right one pass."""

from __future__ import annotations

from typing import Any

import pytest

from pinochle_judge.compare import KINDS, compare, compare_at, field_map, meld_diff


def problems(method: str, expect: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    return [str(m) for m in compare(method, expect, actual)]


def test_field_map_names_the_special_fields() -> None:
    assert field_map("legal_plays") == {"cards": "set"}
    assert field_map("deal") == {"hands[]": "multiset", "violation": "given-keys"}
    assert field_map("meld") == {"melds": "melds"}
    assert field_map("play_hand") == {
        "aces_around": "set",
        "first_illegal": "given-keys",
        "tricks[].cards": "sequence",
    }
    used = {
        kind for m in ("deal", "meld", "legal_plays", "play_hand") for kind in field_map(m).values()
    }
    assert used | {"exact"} == set(KINDS)


# --- sequence: a trick's cards in play order ----------------------------------------------------

TRICK = {"leader": 1, "cards": ["Kc", "Jc", "Qc", "Tc"], "winner": 0}


def test_trick_cards_compare_in_play_order() -> None:
    expect = {"tricks": [TRICK]}
    reordered = {"tricks": [{**TRICK, "cards": ["Tc", "Qc", "Jc", "Kc"]}]}
    assert problems("play_hand", expect, {"tricks": [TRICK]}) == []
    assert problems("play_hand", expect, reordered) == [
        "tricks[0].cards: expected Kc Jc Qc Tc in this order, got Tc Qc Jc Kc"
    ]


# --- multiset: a dealt hand ---------------------------------------------------------------------


def test_a_hand_is_a_multiset() -> None:
    expect = {"hands": [["Ah", "Ah", "Kh"], ["Qs"], [], []]}
    assert problems("deal", expect, {"hands": [["Kh", "Ah", "Ah"], ["Qs"], [], []]}) == []
    got = problems("deal", expect, {"hands": [["Kh", "Ah", "Kh"], ["Qs"], [], []]})
    assert len(got) == 1 and got[0].startswith("hands[0]: missing Ah; unexpected Kh")


def test_one_hand_compares_by_its_path() -> None:
    assert compare_at("deal", "hands[]", ["Ah", "Kh"], ["Kh", "Ah"]) == []
    assert compare_at("deal", "hands[]", ["Ah", "Ah"], ["Ah"])


# --- set: legal plays, aces around --------------------------------------------------------------


def test_legal_plays_are_a_set() -> None:
    expect = {"cards": ["Ah", "Kh"]}
    assert problems("legal_plays", expect, {"cards": ["Kh", "Ah"]}) == []
    assert problems("legal_plays", {"cards": []}, {"cards": []}) == []
    got = problems("legal_plays", expect, {"cards": ["Kh", "Qh"]})
    assert len(got) == 1 and got[0].startswith("cards: missing Ah; unexpected Qh")


def test_aces_around_are_a_set_of_seats() -> None:
    assert problems("play_hand", {"aces_around": [0, 2]}, {"aces_around": [2, 0]}) == []
    assert problems("play_hand", {"aces_around": [0, 2]}, {"aces_around": [0]})
    assert problems("play_hand", {"aces_around": []}, {"aces_around": None})


# --- melds --------------------------------------------------------------------------------------

RUN = {"id": "run", "type": "I", "count": 1, "points": 16, "cards": [], "suit": "h"}
MARRIAGE_S = {"id": "marriage", "type": "I", "count": 1, "points": 2, "suit": "s"}
MARRIAGE_D = {"id": "marriage", "type": "I", "count": 1, "points": 2, "suit": "d"}


@pytest.mark.parametrize(
    ("expected", "actual", "problem"),
    [
        ([{"id": "run", "count": 1, "points": 16}], [RUN], None),
        ([{"id": "run", "count": 1, "points": 16, "suit": "h"}], [RUN], None),
        ([{"id": "run", "count": 1, "points": 16, "suit": "s"}], [RUN], "missing run ♠ x1 = 16"),
        ([{"id": "run", "count": 1, "points": 15}], [RUN], "missing run x1 = 15"),
        ([], [RUN], "unexpected run ♥ x1 = 16"),
        (
            # The suited entry is matched first, so the unsuited one takes the other marriage.
            [
                {"id": "marriage", "count": 1, "points": 2},
                {"id": "marriage", "count": 1, "points": 2, "suit": "s"},
            ],
            [MARRIAGE_S, MARRIAGE_D],
            None,
        ),
        ([{"id": "marriage", "count": 1, "points": 2}] * 2, [MARRIAGE_S], "missing marriage x1"),
    ],
)
def test_melds_compare_as_a_complete_multiset(
    expected: list[dict[str, Any]], actual: list[dict[str, Any]], problem: str | None
) -> None:
    got = problems("meld", {"melds": expected}, {"melds": actual})
    if problem is None:
        assert got == []
    else:
        assert len(got) == 1 and problem in got[0], got


def test_meld_diff_keeps_missing_and_unexpected_apart() -> None:
    diff = meld_diff([{"id": "run", "count": 1, "points": 16}], [MARRIAGE_S])
    assert diff.missing == [{"id": "run", "count": 1, "points": 16}]
    assert diff.unexpected == [MARRIAGE_S]


# --- given keys ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "expect", "actual", "problem"),
    [
        (
            "auction",
            {"violation": {"rule": "AUCTION-STEP"}},
            {"violation": {"rule": "AUCTION-STEP", "message": "fives"}},
            None,
        ),
        (
            "auction",
            {"violation": {"rule": "AUCTION-STEP"}},
            {"violation": {"rule": "AUCTION-HIGHER", "message": "x"}},
            "violation.rule: expected 'AUCTION-STEP', got 'AUCTION-HIGHER'",
        ),
        (
            "auction",
            {"violation": None},
            {"violation": {"rule": "X-Y"}},
            "violation: expected None",
        ),
        ("deal", {"violation": {"rule": "DEAL-DECK"}}, {"violation": None}, "violation: expected"),
        (
            "play_hand",
            {"first_illegal": {"index": 7, "rule": "PLAY-TURN"}},
            {"first_illegal": {"index": 6, "rule": "PLAY-TURN", "message": "m"}},
            "first_illegal.index: expected 7, got 6",
        ),
    ],
)
def test_given_keys(
    method: str, expect: dict[str, Any], actual: dict[str, Any], problem: str | None
) -> None:
    got = problems(method, expect, actual)
    if problem is None:
        assert got == []
    else:
        assert len(got) == 1 and got[0].startswith(problem), got


# --- exact --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "expect", "actual", "want"),
    [
        ("meld", {"total": 4}, {"total": 4, "extra": 1}, []),
        ("meld", {"total": 4}, {"total": 4.0}, []),
        ("meld", {"total": 4}, {"total": 5}, ["total: expected 4, got 5"]),
        ("meld", {"total": 4}, {}, ["total: expected 4, missing from the answer"]),
        ("auction", {"legal": False}, {"legal": 0}, ["legal: expected False, got 0"]),
        ("trick_winner", {"winner": 1}, {"winner": True}, ["winner: expected 1, got True"]),
        # Equal under == yet not the same JSON: a boolean deep inside, a float for an integer.
        (
            "play_hand",
            {"tricks": [{"leader": 0, "cards": ["As"], "winner": 1}]},
            {"tricks": [{"leader": 0, "cards": ["As"], "winner": True}]},
            ["tricks[0].winner: expected 1, got True"],
        ),
        ("score_hand", {"delta": [10, 0]}, {"delta": [10.0, 0]}, []),
        # Items a set cannot hold differ even from themselves.
        ("legal_plays", {"cards": [["As"]]}, {"cards": [["As"]]}, ["cards: expected [['As']]"]),
        (
            "score_hand",
            {"delta": [10, 0]},
            {"delta": [0, 10]},
            ["delta[0]: expected 10, got 0", "delta[1]: expected 0, got 10"],
        ),
        ("score_hand", {"delta": [10, 0]}, {"delta": [10]}, ["delta: expected 2 items"]),
        (
            "play_hand",
            {"tricks": [{"cards": ["As", "Ah"], "winner": 0}]},
            {"tricks": [{"leader": 0, "cards": ["As", "Ah"], "winner": 0}]},
            ["tricks[0].leader: not expected"],
        ),
    ],
)
def test_exact(
    method: str, expect: dict[str, Any], actual: dict[str, Any], want: list[str]
) -> None:
    got = problems(method, expect, actual)
    assert len(got) == len(want), got
    for prefix, found in zip(want, got, strict=True):
        assert found.startswith(prefix), (prefix, got)


def test_meld_cards_compare_as_a_multiset_where_the_case_gives_them() -> None:
    """An expected meld entry that lists its cards is matched on them too."""

    def around(cards: list[str] | None) -> dict[str, Any]:
        entry: dict[str, Any] = {"id": "aces_around", "count": 1, "points": 100}
        if cards is not None:
            entry["cards"] = cards
        return {"melds": [entry]}

    want = around(["As", "Ah", "Ad", "Ac"])
    assert compare("meld", want, around(["Ac", "Ad", "Ah", "As"])) == []
    assert compare("meld", want, around(["As", "As", "Ad", "Ac"]))
    # No cards expected: none compared.
    assert compare("meld", around(None), around(["As", "As", "Ad", "Ac"])) == []
