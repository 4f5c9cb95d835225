"""Every case names its source: its ``why`` or its table's ``description`` cites one of the four
source documents, the way spec/README.md ("Sources") says they are cited.

A source is named by its cite, the three digits its file name starts with (``000`` to ``003``)
standing alone, or by its whole file name (``002_cc22336fdbb8c5f9.txt``). Rule and errata IDs,
spec chapters and other cases do not count: they are this project's words, not its sources.
Comments in a table file do not count either: only the description is data that the suite's
exports and site show.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from specdata import FEATURES_DIR, SPEC_DIR, load_yaml


def _sources() -> list[tuple[str, str]]:
    """(cite, file name) for each row of the Sources table in spec/README.md."""
    text = (SPEC_DIR / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Sources", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `(\d{3})` \| `(\d{3}_[0-9a-f]+\.txt)` \|", section, re.M)


SOURCES = _sources()
_NAMES = "|".join(
    [re.escape(file) for _, file in SOURCES]
    # A cite stands alone: not inside a number (1000, 2001, 0.002) or a word.
    + [rf"(?<![\w.]){cite}(?![\w.])" for cite, _ in SOURCES]
)
NAMES_A_SOURCE = re.compile(_NAMES)


def names_a_source(text: object) -> bool:
    """Whether ``text`` cites one of the sources by its number or its file name."""
    return isinstance(text, str) and NAMES_A_SOURCE.search(text) is not None


def _tables() -> list[Path]:
    return sorted((FEATURES_DIR / "tables").glob("*.yaml"))


def test_the_sources_table_lists_the_four_documents() -> None:
    assert [cite for cite, _ in SOURCES] == ["000", "001", "002", "003"]
    assert all(file.startswith(cite + "_") for cite, file in SOURCES)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('002 "Trick Taking"', True),
        ("(ERRATA-SD-TIE; 000 'Idea of the Game')", True),
        ('002_cc22336fdbb8c5f9.txt, "Scoring The Round"', True),
        ("1000 >= the target, 2001, 0.002, a002", False),
        ("ERRATA-RUN-15, MELD-RUN, spec/rules/meld.md", False),
        ("", False),
        (None, False),
    ],
)
def test_what_counts_as_naming_a_source(text: object, named: bool) -> None:
    assert names_a_source(text) is named


def test_every_case_names_its_source() -> None:
    """A case's ``why`` names a source, or its table's description does."""
    missing = []
    for path in _tables():
        table = load_yaml(path)
        if names_a_source(table.get("description")):
            continue
        missing += [
            f"{path.name}: {case['id']}"
            for case in table["cases"]
            if not names_a_source(case.get("why"))
        ]
    assert not missing, "cases naming no source (000-003) in why or table description:\n" + (
        "\n".join(missing)
    )


def test_the_tables_are_found() -> None:
    assert len(_tables()) > 30
