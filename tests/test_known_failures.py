"""``--known-failures FILE`` and ``--write-known-failures FILE``, in child pytest runs of one table
against an engine with one planted bug (no last-trick bonus) and against the reference engine.

The bug's cases are known by hand: a double-deck ``card_points`` case fails exactly when its
cards are the last trick (POINTS-LAST-TRICK), since every other count is right.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from pinochle_judge.cases import load_table
from pytest_pinochle.known_failures import load
from specdata import FEATURES_DIR
from tests.suite_runs import ROOT, pytest_in_process, python_engine

pytestmark = pytest.mark.slow  # each test runs the suite against an engine started as a child

BUGGY = python_engine("tests.mutants", "no-last-trick")
TABLE = "features/tables/card-points-double-deck.yaml"
SCENARIO = (
    "features/test_card_points.py::test_the_whole_double_deck_with_the_last_trick_is_worth_50"
)
CASES = load_table(FEATURES_DIR / "tables" / "card-points-double-deck.yaml")
LAST_TRICK_CASES = {c.id for c in CASES if c.params.get("last_trick")}
"""The cases the bug fails: those whose cards are the last trick."""
COVERED = {c.id for c in CASES if "POINTS-LAST-TRICK" in c.rules}
"""The cases a rule entry for POINTS-LAST-TRICK covers: those testing or using the rule."""


@dataclass(frozen=True)
class Run:
    returncode: int
    output: str


def run(
    tmp_path: Path,
    engine: str | None,
    *args: str,
    paths: tuple[str, ...] = (TABLE,),
    workers: int = 0,
) -> Run:
    """The suite's ``paths`` against ``engine`` (None: the reference): in ``workers`` xdist
    workers in a child pytest, or (0) in this process, xdist off."""
    command = [*paths, "-p", "no:cacheprovider"]
    command += ["-n", str(workers)] if workers else ["-p", "no:xdist"]
    command += ["-p", "no:randomly", "-p", "pytest_pinochle.known_failures", "-rfEX"]
    if engine is not None:
        command += ["--engine", engine]
    if not workers:
        return Run(*pytest_in_process([*command, *args]))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *command, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return Run(done.returncode, done.stdout + done.stderr)


def listing(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "known.yaml"
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def test_the_bug_fails_the_last_trick_cases() -> None:
    """The premise of the tests below, worked from the table, not from an engine."""
    assert "dd-pts-last-trick" in LAST_TRICK_CASES
    assert "dd-pts-ace" not in LAST_TRICK_CASES


def test_written_failures_make_the_next_run_green(tmp_path: Path) -> None:
    written = tmp_path / "written.yaml"
    first = run(tmp_path, BUGGY, "--write-known-failures", str(written))
    assert first.returncode == 1, first.output
    entries = load(written)  # the written file passes its own schema
    assert {e.case for e in entries} == LAST_TRICK_CASES
    assert all(e.variant == "double-deck" and e.reason for e in entries)
    # The reason is where the charge places the failure and the mismatch there, in words, e.g.
    # "field points: expected 5, engine 3".
    assert any(re.search(r"\bpoints: expected \d+, engine \d+$", e.reason) for e in entries)
    second = run(tmp_path, BUGGY, "--known-failures", str(written))
    assert second.returncode == 0, second.output
    assert f"{len(LAST_TRICK_CASES)} xfailed" in second.output
    assert " failed" not in second.output.splitlines()[-1]


def test_a_listed_case_that_passes_fails_the_run(tmp_path: Path) -> None:
    path = listing(
        tmp_path,
        """
        format: 1
        known_failures:
          - case: dd-pts-ace
            reason: aces miscounted
            link: https://example.org/issues/1
        """,
    )
    done = run(tmp_path, None, "--known-failures", str(path))
    assert done.returncode == 1, done.output
    assert f"fixed: remove it from {path}:3 (case dd-pts-ace)" in done.output


def test_a_rule_entry_covers_the_cases_testing_or_using_it(tmp_path: Path) -> None:
    path = listing(
        tmp_path,
        """
        format: 1
        known_failures:
          - rule: POINTS-LAST-TRICK
            variant: double-deck
            reason: no last-trick bonus yet
        """,
    )
    buggy = run(tmp_path, BUGGY, "--known-failures", str(path))
    summary = buggy.output.splitlines()[-1]
    assert f"{len(COVERED & LAST_TRICK_CASES)} xfailed" in summary, buggy.output
    # A covered case the bug does not touch just passes: no XPASS line for it.
    assert "xpassed" not in summary and "XPASS" not in buggy.output, buggy.output
    assert f"{len(CASES) - len(LAST_TRICK_CASES)} passed" in summary, buggy.output
    # A failing case that neither tests nor uses the rule is not hidden by the entry.
    uncovered = LAST_TRICK_CASES - COVERED
    assert buggy.returncode == (1 if uncovered else 0), buggy.output
    for case in uncovered:
        assert f"FAILED {TABLE}::{case} " in buggy.output
    # Strict as a whole: fixed, the entry fails the run once, not once per case.
    fixed = run(tmp_path, None, "--known-failures", str(path))
    assert fixed.returncode == 1, fixed.output
    line = f"fixed: remove it from {path}:3 (rule POINTS-LAST-TRICK in double-deck)"
    assert fixed.output.count(line) == 1, fixed.output
    assert "XPASS" not in fixed.output and "xpassed" not in fixed.output.splitlines()[-1]


def test_a_rule_with_known_failures_shows_as_failing_not_skipped(tmp_path: Path) -> None:
    written = tmp_path / "written.yaml"
    run(tmp_path, BUGGY, "--write-known-failures", str(written))
    report = tmp_path / "report.json"
    done = run(
        tmp_path, BUGGY, "--known-failures", str(written), "--conformance-report", str(report)
    )
    assert done.returncode == 0, done.output
    known = len(LAST_TRICK_CASES)
    own = sum(c.rule == "POINTS-LAST-TRICK" for c in CASES if c.id in LAST_TRICK_CASES)
    row = next(x for x in done.output.splitlines() if x.startswith("POINTS-LAST-TRICK "))
    assert row.split()[1] == str(own) and row.endswith(f"({own} known)"), row
    total = next(x for x in done.output.splitlines() if x.startswith("total: "))
    assert f"{known} failed, 0 errored ({known} of them known); 0 skipped" in total, total
    assert "passing, with skipped cases" not in done.output
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["totals"]["failed"] == known and document["totals"]["skipped"] == 0
    assert document["diagnosis"][0]["rule"] == "POINTS-LAST-TRICK"
    listed = [c for c in document["cases"].values() if "known_failure" in c]
    assert len(listed) == known and all(c["outcome"] == "failed" for c in listed)


def test_a_stale_case_entry_counts_the_case_as_passed(tmp_path: Path) -> None:
    """The engine is fixed and the list is stale: the run fails on the list, but the rule is
    not reported as failing."""
    path = listing(
        tmp_path,
        """
        format: 1
        known_failures:
          - case: dd-pts-last-trick
            reason: no last-trick bonus yet
        """,
    )
    done = run(tmp_path, None, "--known-failures", str(path))
    assert done.returncode == 1, done.output
    assert "fixed: remove it from" in done.output
    assert not any(x.startswith("POINTS-LAST-TRICK ") for x in done.output.splitlines())
    # pytest's line says "1 failed"; the count says why, not "0 failed" alone.
    total = next(x for x in done.output.splitlines() if x.startswith("total: "))
    assert " passed (1 of them listed as known failures: fixed, they fail the run" in total


def test_a_rule_entry_of_another_variant_covers_nothing(tmp_path: Path) -> None:
    path = listing(
        tmp_path,
        """
        format: 1
        known_failures:
          - rule: POINTS-LAST-TRICK
            variant: single-deck
            reason: not this table's variant
        """,
    )
    done = run(tmp_path, BUGGY, "--known-failures", str(path))
    assert done.returncode == 1
    assert "xfailed" not in done.output.splitlines()[-1]


def test_a_scenario_is_listed_by_its_node_id(tmp_path: Path) -> None:
    path = listing(
        tmp_path,
        f"""
        format: 1
        known_failures:
          - case: {SCENARIO}
            reason: no last-trick bonus yet
        """,
    )
    done = run(tmp_path, BUGGY, "--known-failures", str(path), paths=(SCENARIO,))
    assert done.returncode == 0, done.output
    assert "1 xfailed" in done.output


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("- case: dd-pts-nope\n    reason: r", "known.yaml:3: no case has the ID 'dd-pts-nope'"),
        (
            f"- case: {SCENARIO}_typo\n    reason: r",
            f"known.yaml:3: no scenario has the node ID '{SCENARIO}_typo'",
        ),
        ("- rule: POINTS-LAST-TRIK\n    reason: r", "known.yaml:3: no rule has the ID"),
        ("- rule: POINTS-LAST-TRICK\n    variant: triple\n    reason: r", "unknown variant"),
        ("- case: dd-pts-ace", "known.yaml:3: "),  # no reason: the schema's fault, with its line
    ],
)
def test_an_entry_naming_nothing_is_a_usage_error(tmp_path: Path, entry: str, message: str) -> None:
    path = tmp_path / "known.yaml"
    path.write_text(f"format: 1\nknown_failures:\n  {entry}\n", encoding="utf-8")
    done = run(tmp_path, None, "--known-failures", str(path), paths=(TABLE, SCENARIO))
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.output
    assert message in done.output
    assert str(path.parent) in done.output  # the file is named


def test_a_case_of_a_table_not_collected_still_exists(tmp_path: Path) -> None:
    """Listing a case of another table is fine when running a subset of the suite."""
    path = listing(
        tmp_path,
        """
        format: 1
        known_failures:
          - case: dd-meld-88-example-hearts
            reason: not in this run
        """,
    )
    assert "dd-meld-88-example-hearts" in {
        c.id for c in load_table(FEATURES_DIR / "tables/meld-double-deck.yaml")
    }
    done = run(tmp_path, None, "--known-failures", str(path))
    assert done.returncode == 0, done.output


def test_known_failures_hold_across_xdist_workers(tmp_path: Path) -> None:
    """The controller tallies the workers' reports: a fixed rule entry still fails the run."""
    path = listing(
        tmp_path,
        """
        format: 1
        known_failures:
          - rule: POINTS-LAST-TRICK
            reason: no last-trick bonus yet
        """,
    )
    fixed = run(tmp_path, None, "--known-failures", str(path), workers=2)
    assert fixed.returncode == 1, fixed.output
    assert f"fixed: remove it from {path}:3 (rule POINTS-LAST-TRICK)" in fixed.output
    written = tmp_path / "written.yaml"
    run(tmp_path, BUGGY, "--write-known-failures", str(written), workers=2)
    assert {e.case for e in load(written)} == LAST_TRICK_CASES
