"""pinochle_judge.cases: a table becomes checked cases, card lists normalised once."""

from __future__ import annotations

from pathlib import Path

import pytest

from pinochle_judge.cases import CaseError, load_cases, load_table
from pinochle_judge.notation import CardFieldError, with_card_codes


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
def test_card_fields_are_normalised(text: str | list[str], cards: list[str]) -> None:
    assert with_card_codes("meld", "params", {"hand": text, "trump": "h"}) == {
        "hand": cards,
        "trump": "h",
    }


def test_card_fields_come_from_the_schema() -> None:
    """``hand`` is a card list for meld but a hand number for score_hand."""
    assert with_card_codes("score_hand", "params", {"hand": 3}) == {"hand": 3}
    assert with_card_codes("play_hand", "params", {"hands": ["AsKs", "Ah"]}) == {
        "hands": [["As", "Ks"], ["Ah"]]
    }
    assert with_card_codes("play_hand", "result", {"tricks": [{"cards": "Kc Jc"}]}) == {
        "tricks": [{"cards": ["Kc", "Jc"]}]
    }


@pytest.mark.parametrize(("text", "token"), [("Ah Xh", "Xh"), ("AhTz", "Tz"), ("ah", "ah")])
def test_a_bad_card_is_named_with_its_path(text: str, token: str) -> None:
    with pytest.raises(CardFieldError, match=f"bad card code '{token}'") as info:
        with_card_codes("legal_plays", "params", {"trick": [], "hand": text})
    assert info.value.trail == ["hand"]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


TABLE = """\
area: meld
method: meld
variant: double-deck
options: {trick_rules: post-1945, target: 1000}
cases:
  - id: one
    rules: [MELD-RUN]
    options: {run: 15, queens_around: 8}
    input:
      trump: h
      hand: AhThKhQhJh
    expect: {total: 15}
    why: a run.
  - id: two
    rules: [MELD-RUN, MELD-MARRIAGE]
    negative: true
    variant: online
    options: {extra_trump_kq: off}
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
    assert one.options == {
        "trick_rules": "post-1945",
        "target": "1000",
        "run": "15",
        "queens_around": "8",
    }
    assert two.options == {"trick_rules": "post-1945", "target": "1000", "extra_trump_kq": "off"}
    assert one.params == {"trump": "h", "hand": ["Ah", "Th", "Kh", "Qh", "Jh"]}
    assert one.request["variant"] == "double-deck" and one.rules == ("MELD-RUN",)
    assert (one.negative, one.why) == (False, "a run.")
    assert (two.line, two.variant, two.negative, two.params["hand"]) == (
        14,
        "online",
        True,
        ["Ah", "Th"],
    )


def test_expected_cards_are_normalised_when_the_table_loads(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "h.yaml",
        "area: hands\nmethod: play_hand\nvariant: double-deck\ncases:\n"
        "  - id: h\n    rules: [PLAY-TURN]\n    input:\n      hand: 3\n      dealer: 0\n"
        "      scores: [0, 0]\n      hands: [AsKs, Ah, Ad, Ac]\n      actions: []\n"
        "    expect: {tricks: [{leader: 1, cards: 10h Ah, winner: 1}]}\n",
    )
    (case,) = load_table(path)
    assert case.params["hands"] == [["As", "Ks"], ["Ah"], ["Ad"], ["Ac"]]
    assert case.params["hand"] == 3
    assert case.expect == {"tricks": [{"leader": 1, "cards": ["Th", "Ah"], "winner": 1}]}


def test_a_bad_card_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", TABLE.replace("hand: AhThKhQhJh", "hand: AhThKhQhJx"))
    with pytest.raises(CaseError, match=r"bad\.yaml:11: input hand: bad card code 'Jx'"):
        load_table(path)


def test_a_bad_card_in_expect_names_file_and_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "bad.yaml",
        "area: play\nmethod: legal_plays\nvariant: double-deck\ncases:\n"
        "  - id: lead\n    rules: [PLAY-LEAD]\n"
        "    input: {trump: h, hand: AhKh, trick: []}\n"
        "    expect:\n"
        "      cards: Ah Zz\n",
    )
    with pytest.raises(CaseError, match=r"bad\.yaml:9: expect cards: bad card code 'Zz'"):
        load_table(path)


def test_duplicate_ids_name_both_places(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", TABLE)
    b = write(tmp_path, "b.yaml", TABLE.replace("id: one", "id: three"))
    with pytest.raises(CaseError, match=r"duplicate case id 'two': .*a\.yaml:14 and .*b\.yaml:14"):
        load_cases([a, b])


def test_default_paths_load_the_suite() -> None:
    cases = load_cases()
    assert len({c.id for c in cases}) == len(cases) > 1000
    assert {c.file.split("/")[0] for c in cases} == {"features"}
