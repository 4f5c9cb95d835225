"""``-m "rule(id='TYPO')"`` selects nothing; the run warns that no rule has that ID and names the
close ones, instead of a silent "all deselected"."""

from __future__ import annotations

import pytest

from pytest_pinochle.tags import unknown_rule_ids
from specdata.rules import load_catalogue

from .suite_runs import pytest_in_process


def test_a_mistyped_id_names_the_close_ones() -> None:
    (line,) = unknown_rule_ids("rule(id='PLAY-CRAWLL')", load_catalogue())
    assert "no rule has the ID 'PLAY-CRAWLL'" in line
    assert "did you mean PLAY-CRAWL" in line


def test_a_lowercase_id_names_its_rule_first() -> None:
    (line,) = unknown_rule_ids('uses(id="meld-run")', load_catalogue())
    assert line.startswith("-m uses(id='meld-run'): no rule has the ID 'meld-run'")
    assert "did you mean MELD-RUN or " in line


def test_known_ids_and_other_marks_pass_quietly() -> None:
    expression = "rule(id='PLAY-CRAWL') and not uses( id = \"MELD-RUN\" ) and negative"
    assert unknown_rule_ids(expression, load_catalogue()) == []


def test_each_unknown_id_is_named_once_per_term() -> None:
    found = unknown_rule_ids(
        "rule(id='NOPE-A') or rule(id='MELD-RUN') or uses(id='x')", ["MELD-RUN"]
    )
    assert [line.split(":")[0] for line in found] == ["-m rule(id='NOPE-A')", "-m uses(id='x')"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("expression", "warned"),
    [
        ("rule(id='PLAY-CRAWLL')", True),
        ("rule(id='play-crawl')", True),
        ("rule(id='PLAY-CRAWL')", False),
    ],
)
def test_the_suite_run_warns(expression: str, warned: bool) -> None:
    status, output = pytest_in_process(
        ["features/", "-q", "-p", "no:cacheprovider", "-m", expression]
    )
    # Before: "1393 deselected", exit 5, and no word about the ID.
    said = "UnknownRuleWarning" in output and "did you mean PLAY-CRAWL" in output
    assert said == warned, output[-3000:]
    assert status == (5 if warned else 0)
