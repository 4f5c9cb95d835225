"""The scenario tables (``pinochle_judge.cases``): each loads and checks into cases, card lists
normalised once; a broken one is reported by file:line, and an input that is not valid for its
method (a typo) is a data error, never sent to an engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from pinochle_judge import cases as cases_module
from pinochle_judge.cases import Case, CaseError, load_cases, load_table, table_paths
from pinochle_judge.notation import CardFieldError, with_card_codes

TABLES = table_paths()


@pytest.mark.parametrize("path", TABLES, ids=[p.name for p in TABLES])
def test_table_validates(path: Path) -> None:
    cases = load_table(path)
    assert cases, f"{path.name} has no case"


def test_the_suite_has_tables() -> None:
    assert len(TABLES) > 20


GOOD = """\
area: meld
method: meld
variant: double-deck
cases:
  - id: fixture-case
    rules: [MELD-RUN]
    input:
      trump: h
      hand: AhThKhQhJh
    expect: {total: 16}
"""


@pytest.mark.parametrize(
    ("broken", "where", "message"),
    [
        (GOOD.replace("method: meld", "method: mled"), 2, "is not one of"),
        (GOOD.replace("    rules: [MELD-RUN]\n", "    rules: []\n"), 6, "should be non-empty"),
        (GOOD.replace("    expect: {total: 16}\n", "    expect: {}\n"), 10, "should be non-empty"),
        (GOOD.replace("  - id: fixture-case", "  - id: Fixture_Case"), 5, "does not match"),
        (GOOD.replace("variant: double-deck", "variant: [double-deck"), 4, "not valid YAML"),
        (GOOD + "    colour: red\n", 5, "Additional properties"),
        # The input is checked against the method's params schema when the table loads.
        (GOOD.replace("trump: h", "trmup: h"), 8, "'trmup'; meld takes trump, hand"),
        (GOOD.replace("trump: h", "trump: x"), 8, "params.trump"),
        (GOOD.replace("      hand: AhThKhQhJh\n", ""), 8, "'hand' is a required property"),
        # Each of these is a data error at load, never sent to an engine (nor a last-wins key).
        (GOOD.replace("[MELD-RUN]", "[MELD-RUNS]"), 6, "unknown rule ID 'MELD-RUNS'"),
        (GOOD.replace("[MELD-RUN]", "[MELD-RUN, MELD-DIXX]"), 6, "unknown rule ID 'MELD-DIXX'"),
        (GOOD.replace("      trump: h\n", "      trump: h\n      trump: s\n"), 9, "duplicate key"),
        (GOOD.replace("{total: 16}", "{total: 16, total: 15}"), 10, "duplicate key 'total'"),
        (
            GOOD.replace("{total: 16}", "{totl: 16}"),
            10,
            "unknown field 'totl'; meld answers total, melds",
        ),
        (GOOD.replace("{total: 16}", "{total: '16'}"), 10, "total: '16' is not of type"),
        (GOOD.replace("{total: 16}", "{melds: [{id: run, cards: 5}]}"), 10, "melds[0].cards: 5"),
        (GOOD.replace("{total: 16}", "{melds: [{id: runn}]}"), 10, "melds[0].id: 'runn'"),
        (GOOD.replace("{total: 16}", "{melds: [{id: run, cards: [Ah, Zz]}]}"), 10, "'Zz'"),
        (GOOD.replace("{total: 16}", "{total: &t 16}\n    why: *t"), 11, "alias *t"),
        (GOOD.replace("cases:", "options: {run: 17}\ncases:"), 4, "option run='17' is not valid"),
        (GOOD.replace("cases:", "options: {runs: 15}\ncases:"), 4, "has no option 'runs'"),
        (
            GOOD.replace("    input:", "    variant: online\n    options: {run: 15}\n    input:"),
            8,
            "online has no option 'run'",
        ),
    ],
)
def test_a_broken_table_names_file_and_line(
    tmp_path: Path, broken: str, where: int, message: str
) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(CaseError) as info:
        load_table(path)
    assert f"broken.yaml:{where}" in str(info.value)
    assert message in str(info.value)


def test_the_good_fixture_loads(tmp_path: Path) -> None:
    path = tmp_path / "good.yaml"
    path.write_text(GOOD, encoding="utf-8")
    (case,) = load_table(path)
    assert case.params["hand"] == ["Ah", "Th", "Kh", "Qh", "Jh"]


def test_a_table_rewritten_in_place_is_read_again(tmp_path: Path) -> None:
    """A process keeps the tables it parsed (``load_table``), by content, not by time: the same
    file rewritten at once, at the same size, gives its new cases, or its new fault."""
    path = tmp_path / "good.yaml"
    path.write_text(GOOD, encoding="utf-8")
    assert load_table(path)[0].expect == {"total": 16}
    path.write_text(GOOD.replace("{total: 16}", "{total: 15}"), encoding="utf-8")
    assert load_table(path)[0].expect == {"total": 15}
    path.write_text(GOOD.replace("{total: 16}", "{totl: 16}"), encoding="utf-8")
    with pytest.raises(CaseError, match="unknown field 'totl'"):
        load_table(path)
    path.write_text(GOOD, encoding="utf-8")
    first, again = load_table(path), load_table(path)
    assert first == again and first is not again  # a fresh list each time


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


def _fresh(path: Path, store: Path) -> list[Case]:
    """The cases of ``path`` as a new process loads them (nothing kept in this one)."""
    cases_module._LOADED.clear()
    return load_table(path, store)


def test_a_table_kept_in_the_store_loads_as_the_same_checked_cases(tmp_path: Path) -> None:
    path = tmp_path / "kept.yaml"
    path.write_text(GOOD, encoding="utf-8")
    store = tmp_path / "store"
    store.mkdir()
    first = _fresh(path, store)
    assert len(list(store.iterdir())) == 1
    again = _fresh(path, store)
    assert again == first and [list(c.request) for c in again] == [list(c.request) for c in first]
    assert [c.description for c in again] == [c.description for c in first]


def test_kept_cases_that_differ_in_a_table_wide_field_come_back_each_with_its_own(
    tmp_path: Path,
) -> None:
    """The store keeps a field once only when every case has it alike: a case with another
    variant or description comes back as it went in."""
    path = tmp_path / "kept.yaml"
    path.write_text(GOOD, encoding="utf-8")
    (case,) = load_table(path)
    other = Case(**{**vars(case), "id": "other-case", "variant": "single-deck", "description": "x"})
    kept = [case, other]
    entry = tmp_path / "entry"
    cases_module._store(entry, "digest", kept)
    assert cases_module._stored(entry, "digest") == kept
    assert [c.variant for c in cases_module._stored(entry, "digest") or []] == [
        "double-deck",
        "single-deck",
    ]
    assert cases_module._stored(entry, "another digest") is None


def test_a_changed_spec_or_checking_code_checks_the_table_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "kept.yaml"
    path.write_text(GOOD, encoding="utf-8")
    store = tmp_path / "store"
    store.mkdir()
    first = _fresh(path, store)
    (entry,) = store.iterdir()
    checked: list[Path] = []

    def check(table: Path) -> list[Case]:
        checked.append(table)
        return first

    monkeypatch.setattr(cases_module, "_checks_digest", lambda: "another-spec")
    monkeypatch.setattr(cases_module, "_load_table", check)
    _fresh(path, store)
    assert checked == [path]  # the entry kept under the old digest is not taken
    assert b"-another-spec " in entry.read_bytes().split(b"\n", 1)[0]


def test_a_changed_table_or_a_damaged_entry_is_checked_again(tmp_path: Path) -> None:
    path = tmp_path / "kept.yaml"
    path.write_text(GOOD, encoding="utf-8")
    store = tmp_path / "store"
    store.mkdir()
    _fresh(path, store)
    (entry,) = store.iterdir()
    kept = entry.read_bytes()
    for damaged in (
        kept.replace(b"fixture-case", b"fixture-cose"),  # a text not the one kept
        kept.replace(b"fixture-case", b"other-case"),
        kept[:-1],
        b"x\n[{",
    ):
        entry.write_bytes(damaged)
        assert _fresh(path, store)[0].id == "fixture-case"  # checked again
        assert entry.read_bytes() == kept  # and kept again
    path.write_text(GOOD.replace("fixture-case", "renamed-case"), encoding="utf-8")
    assert _fresh(path, store)[0].id == "renamed-case"
    path.write_text(GOOD.replace("method: meld", "method: meld\nbogus: 1"), encoding="utf-8")
    for _ in range(2):  # a broken table is never kept: its error comes every time
        with pytest.raises(CaseError, match=r"kept\.yaml"):
            _fresh(path, store)
