"""adapters.cases: card-list normalisation, table loading errors, and the comparison rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.cases import CaseError, compare, load_cases, load_table, parse_card_list


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("Ah Th Kh", ["Ah", "Th", "Kh"]),
        ("Ah, Th,Kh", ["Ah", "Th", "Kh"]),
        ("AhThKhKh QdQd", ["Ah", "Th", "Kh", "Kh", "Qd", "Qd"]),
        ("10h A♥ 9♣", ["Th", "Ah", "9c"]),
        (["Ah", "Ts"], ["Ah", "Ts"]),
        ("", []),
    ],
)
def test_card_lists_are_normalised(text: str | list[str], cards: list[str]) -> None:
    assert parse_card_list(text) == cards


@pytest.mark.parametrize(("text", "token"), [("Ah Xh", "Xh"), ("AhTz", "Tz"), ("ah", "ah")])
def test_a_bad_token_is_named(text: str, token: str) -> None:
    with pytest.raises(CaseError, match=f"t.yaml:7: bad card '{token}'"):
        parse_card_list(text, "t.yaml:7")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


TABLE = """\
area: meld
method: meld
variant: double-deck
options: {run: 15, flag: off}
cases:
  - id: one
    rules: [MELD-RUN]
    options: {queens_around: 8}
    input:
      trump: h
      hand: AhThKhQhJh
    expect: {total: 15}
    why: a run.
  - id: two
    rules: [MELD-RUN, MELD-MARRIAGE]
    negative: true
    variant: online
    input: {trump: s, hand: [Ah, Th]}
    expect: {total: 0}
"""


def test_a_table_becomes_cases(tmp_path: Path) -> None:
    one, two = load_table(write(tmp_path, "t.yaml", TABLE))
    assert (one.id, one.line, one.area, one.method, one.variant) == (
        "one",
        6,
        "meld",
        "meld",
        "double-deck",
    )
    assert one.options == {"run": "15", "flag": "off", "queens_around": "8"}
    assert one.params == {"trump": "h", "hand": ["Ah", "Th", "Kh", "Qh", "Jh"]}
    assert one.request["variant"] == "double-deck" and one.rules == ("MELD-RUN",)
    assert (one.negative, one.why) == (False, "a run.")
    assert (two.line, two.variant, two.negative, two.params["hand"]) == (
        14,
        "online",
        True,
        ["Ah", "Th"],
    )


def test_hands_and_hand_numbers(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "h.yaml",
        "area: scoring\nmethod: play_hand\nvariant: double-deck\ncases:\n"
        "  - id: h\n    rules: [PLAY-TURN]\n    input:\n      hand: 3\n"
        "      hands: [AsKs, Ah, Ad, Ac]\n    expect: {legal: true}\n",
    )
    (case,) = load_table(path)
    assert case.params == {"hand": 3, "hands": [["As", "Ks"], ["Ah"], ["Ad"], ["Ac"]]}


def test_a_bad_card_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", TABLE.replace("hand: AhThKhQhJh", "hand: AhThKhQhJx"))
    with pytest.raises(CaseError, match=r"bad\.yaml:11: input hand: bad card 'Jx'"):
        load_table(path)


def test_duplicate_ids_name_both_places(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", TABLE)
    b = write(tmp_path, "b.yaml", TABLE.replace("id: one", "id: three"))
    with pytest.raises(CaseError, match=r"duplicate case id 'two': .*a\.yaml:14 and .*b\.yaml:14"):
        load_cases([a, b])


def test_default_paths_load_the_suite() -> None:
    cases = load_cases()
    assert len({c.id for c in cases}) == len(cases)


@pytest.mark.parametrize(
    ("method", "expect", "actual", "problems"),
    [
        ("meld", {"total": 4}, {"total": 4, "extra": 1}, []),
        ("meld", {"total": 4}, {"total": 5}, ["total: expected 4, got 5"]),
        ("meld", {"total": 4}, {}, ["total: expected 4, missing from the answer"]),
        ("auction", {"legal": False}, {"legal": 0}, ["legal: expected False, got 0"]),
        ("deal", {"hands": ["AhKh", "Qs"]}, {"hands": [["Kh", "Ah"], ["Qs"]]}, []),
        ("deal", {"hands": ["AhAh"]}, {"hands": [["Ah"]]}, ["hands[0]: missing Ah"]),
        ("legal_plays", {"cards": "Ah Kh"}, {"cards": ["Kh", "Ah", "Ah"]}, []),
        ("legal_plays", {"cards": "Ah"}, {"cards": ["Kh"]}, ["cards: missing Ah; unexpected Kh"]),
        ("legal_plays", {"cards": []}, {"cards": []}, []),
        (
            "auction",
            {"violation": {"rule": "AUCTION-STEP"}},
            {"violation": {"rule": "AUCTION-STEP", "message": "fives"}},
            [],
        ),
        (
            "auction",
            {"violation": {"rule": "AUCTION-STEP"}},
            {"violation": {"rule": "AUCTION-HIGHER", "message": "x"}},
            ["violation.rule: expected 'AUCTION-STEP', got 'AUCTION-HIGHER'"],
        ),
        (
            "auction",
            {"violation": None},
            {"violation": {"rule": "X-Y"}},
            ["violation: expected None"],
        ),
        (
            "play_hand",
            {"first_illegal": {"index": 7, "rule": "PLAY-TURN"}},
            {"first_illegal": {"index": 6, "rule": "PLAY-TURN", "message": "m"}},
            ["first_illegal.index: expected 7, got 6"],
        ),
        (
            "play_hand",
            {"tricks": [{"leader": 0, "cards": "As Ah", "winner": 0}]},
            {"tricks": [{"leader": 0, "cards": ["Ah", "As"], "winner": 0}]},
            [],
        ),
        (
            "play_hand",
            {"tricks": [{"cards": "As Ah", "winner": 0}]},
            {"tricks": [{"leader": 0, "cards": ["Ah", "As"], "winner": 0}]},
            ["tricks[0].leader: not expected"],
        ),
        (
            "score_hand",
            {"delta": [10, 0]},
            {"delta": [0, 10]},
            ["delta[0]: expected 10, got 0", "delta[1]: expected 0, got 10"],
        ),
    ],
)
def test_compare(method: str, expect: dict, actual: dict, problems: list[str]) -> None:
    got = compare(method, expect, actual)
    assert len(got) == len(problems) or (problems == [] and got == [])
    for want, found in zip(problems, got, strict=False):
        assert found.startswith(want), (want, got)


RUN = {"id": "run", "type": "I", "count": 1, "points": 16, "cards": [], "suit": "h"}
MARRIAGE_S = {"id": "marriage", "type": "I", "count": 1, "points": 2, "suit": "s"}
MARRIAGE_D = {"id": "marriage", "type": "I", "count": 1, "points": 2, "suit": "d"}


@pytest.mark.parametrize(
    ("expected", "actual", "problem"),
    [
        ([{"id": "run", "count": 1, "points": 16}], [RUN], None),
        ([{"id": "run", "count": 1, "points": 16, "suit": "h"}], [RUN], None),
        ([{"id": "run", "count": 1, "points": 16, "suit": "s"}], [RUN], "missing run x1 = 16 (s)"),
        ([{"id": "run", "count": 1, "points": 15}], [RUN], "missing run x1 = 15"),
        ([], [RUN], "unexpected run x1 = 16 (h)"),
        (
            [
                {"id": "marriage", "count": 1, "points": 2},
                {"id": "marriage", "count": 1, "points": 2, "suit": "s"},
            ],
            [MARRIAGE_S, MARRIAGE_D],
            None,
        ),
        (
            [{"id": "marriage", "count": 1, "points": 2}] * 2,
            [MARRIAGE_S],
            "missing marriage x1 = 2",
        ),
    ],
)
def test_melds_compare_as_a_complete_multiset(
    expected: list[dict], actual: list[dict], problem: str | None
) -> None:
    got = compare("meld", {"melds": expected}, {"melds": actual})
    if problem is None:
        assert got == []
    else:
        assert len(got) == 1 and problem in got[0]
