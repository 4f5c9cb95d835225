"""The one count (pinochle_judge.counts): judged = hand-worked + derived, skipped and not counted
apart; clean (green) when nothing failed or errored, whatever was skipped."""

from __future__ import annotations

from pinochle_judge.counts import EMPTY, Count

REPORT = {
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
