"""The one count (pinochle_judge.counts): judged = hand-worked + derived, skipped and not counted
apart; clean (green) when nothing failed or errored, whatever was skipped; the terminal's total
line, the site's cells and the badge say it alike."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from pinochle_judge import wording
from pinochle_judge.counts import EMPTY, Count
from pinochle_tools.site.report_site import BADGE_COLOURS, Cell, badge_svg
from pinochle_tools.site.reports import EngineRun

REPORT: dict[str, Any] = {
    "totals": {"passed": 290, "failed": 24, "errored": 0, "skipped": 23},
    "derived": {"passed": 114, "failed": 10, "errored": 0, "skipped": 0},
    "undeclared": 1078,
}


def test_a_report_is_counted_judged_hand_worked_plus_derived() -> None:
    count = Count.of_report(REPORT)
    assert (count.judged, count.judged_hand_worked, count.judged_derived) == (438, 314, 124)
    assert (count.passed, count.failed, count.errored) == (404, 34, 0)
    assert (count.skipped, count.not_counted) == (23, 1078)
    assert not count.clean


def test_an_engine_that_fails_nothing_is_clean_whatever_it_skipped() -> None:
    count = Count.of({"passed": 330, "failed": 0, "errored": 0, "skipped": 4})
    assert count.clean and count.ratio == 1.0
    assert not Count.of({"passed": 3, "errored": 1}).clean
    assert not EMPTY.clean, "a run that judged nothing is not green"


def test_an_older_report_without_derived_parts_counts_its_totals() -> None:
    count = Count.of_report({"totals": {"passed": 2, "failed": 1, "errored": 0, "skipped": 5}})
    assert (count.judged, count.judged_derived, count.skipped, count.not_counted) == (3, 0, 5, 0)


def test_counts_add_up_part_by_part() -> None:
    one = Count.of_report(REPORT)
    both = one + one
    assert both.judged == 2 * one.judged and both.skipped == 46 and both.derived["failed"] == 20
    assert EMPTY + one == one


def run_of(report: dict[str, Any], tmp_path: Path) -> EngineRun:
    return EngineRun("e", "e", "e", tmp_path / "r.json", {"complete": True, **report})


def badge(run: EngineRun) -> tuple[str, str]:
    """The badge's words and its colour."""
    svg = ET.fromstring(badge_svg(run))
    rects = [r.attrib["fill"] for r in svg.iter("{http://www.w3.org/2000/svg}rect")]
    return svg.attrib["aria-label"], rects[1]


def test_the_terminal_and_the_badge_say_the_same_count(tmp_path: Path) -> None:
    count = Count.of_report(REPORT)
    line = wording.total_summary(count, 0, 0, 43, 5, 38, 0)
    assert line.startswith(
        "total: 438 cases judged (314 hand-worked, 124 derived), 404 passed, 34 failed, "
        "0 errored; 23 skipped, 1078 not counted; "
    )
    words, colour = badge(run_of(REPORT, tmp_path))
    assert "404/438 passed" in words and colour == BADGE_COLOURS["failed"]


def test_the_count_says_one_case_and_one_rule_in_the_singular() -> None:
    one = Count.of({"passed": 1, "failed": 0, "errored": 0, "skipped": 0}, {}, 0)
    line = wording.total_summary(one, 0, 0, 1, 0, 1, 0)
    assert line.startswith("total: 1 case judged (1 hand-worked, 0 derived), 1 passed")
    assert "; 1 rule tested: 0 with a failure or error, 1 passing" in line
    two = wording.total_summary(one, 0, 0, 2, 0, 2, 0)
    assert "; 2 rules tested:" in two


def test_a_badge_is_green_when_nothing_failed_or_errored_whatever_was_skipped(
    tmp_path: Path,
) -> None:
    clean = {
        "totals": {"passed": 330, "failed": 0, "errored": 0, "skipped": 4},
        "derived": {"passed": 70, "failed": 0, "errored": 0, "skipped": 0},
        "undeclared": 1000,
    }
    words, colour = badge(run_of(clean, tmp_path))
    assert "400/400 passed" in words and colour == BADGE_COLOURS["passed"]
    words, colour = badge(run_of({**clean, "complete": False}, tmp_path))
    assert "partial run" in words and colour != BADGE_COLOURS["passed"]
    errored = {**clean, "derived": {"passed": 69, "failed": 0, "errored": 1}}
    assert badge(run_of(errored, tmp_path))[1] == BADGE_COLOURS["failed"]


def test_a_cell_is_passed_of_judged_with_the_skipped_apart() -> None:
    assert Cell({"passed": 3, "failed": 1, "errored": 0, "skipped": 5}).text == "3/4"
    assert Cell({"passed": 0, "failed": 0, "errored": 0, "skipped": 2}).text == "skipped"
