"""The scenario tables: each loads and checks; a broken one is reported by file:line, and an input
that is not valid for its method (a typo) is a data error, never sent to an engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from pinochle_judge.cases import CaseError, load_table, table_paths

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
        # Issue 12: each of these loaded silently and reached the engine (or was last-wins).
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
