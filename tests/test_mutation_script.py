"""tests/mutation.py reads docs/mutation.md's judgements: named unit tests and stale names."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import mutation

PAGE = """# Mutation testing

## Scores

| `reference_engine.meld.x_meld__mutmut_1` | not judged here, above the judged table |

## Judged survivors

| mutant | | why |
|---|---|---|
| `reference_engine.meld.x_meld__mutmut_4` | O | (`tests/test_meld.py::test_a`, `tests/t.py`) |
| `reference_engine.meld.x_meld__mutmut_5` | E | `ACE == 0` |
| `reference_engine.tricks.x_legal_plays__mutmut_34` | E | equivalent |
| `reference_engine.hand.x_replay__mutmut_2` | E | one seat per action |
"""


@pytest.fixture
def page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    judged = tmp_path / "mutation.md"
    judged.write_text(PAGE, "utf-8")
    monkeypatch.setattr(mutation, "JUDGED", judged)


@pytest.mark.usefixtures("page")
def test_judged_names_are_those_below_the_judged_heading() -> None:
    assert mutation.judged() == {
        "reference_engine.meld.x_meld__mutmut_4",
        "reference_engine.meld.x_meld__mutmut_5",
        "reference_engine.tricks.x_legal_plays__mutmut_34",
        "reference_engine.hand.x_replay__mutmut_2",
    }


@pytest.mark.usefixtures("page")
def test_a_row_naming_unit_tests_gives_them_to_its_mutant() -> None:
    assert mutation.unit_tests() == {
        "reference_engine.meld.x_meld__mutmut_4": ["tests/test_meld.py::test_a", "tests/t.py"]
    }


@pytest.mark.usefixtures("page")
def test_a_judged_name_killed_or_gone_is_stale_only_in_a_module_run() -> None:
    found = {
        "meld": {"reference_engine.meld.x_meld__mutmut_4": "survived"},  # _5: no longer made
        "tricks": {"reference_engine.tricks.x_legal_plays__mutmut_34": "killed"},
        "hand": {"reference_engine.hand.x_replay__mutmut_2": "not checked"},
    }
    assert mutation.stale(found, ["meld", "tricks", "hand"]) == [
        "reference_engine.meld.x_meld__mutmut_5",
        "reference_engine.tricks.x_legal_plays__mutmut_34",
    ]
    assert mutation.stale(found, ["hand"]) == []
