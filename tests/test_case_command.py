"""Reproduce one case: every failure and error ends with the exact request line, and
``run_case`` runs one table case or scenario alone, printing request, reply, expectation and
comparison."""

from __future__ import annotations

import io
import json
import sys

import pytest

from pinochle_adapters.client import load_server
from pinochle_judge.cases import load_cases, request_line
from pinochle_tools.case import FAILED, PASSED, SKIPPED, USAGE, run_case

from .suite_runs import ROOT, run_suite, start_suite

MUTANT = f"{sys.executable} -m tests.mutants no_last_trick"
GARBAGE = f"{sys.executable} {ROOT / 'tests' / 'broken_engines' / 'garbage.py'}"
STARTER = f"{sys.executable} {ROOT / 'pinochle_cli' / 'starters' / 'python' / 'my_engine.py'}"
"""Declares two methods, not ``meld``."""
WHOLE_DECK = (
    "features/test_card_points.py::test_the_whole_double_deck_with_the_last_trick_is_worth_50"
)


CARD_POINTS = ("features/test_card_points.py", "features/tables/card-points-double-deck.yaml")


def prefetch() -> None:
    """Start the child run at once (tests/conftest.py)."""
    start_suite(MUTANT, paths=CARD_POINTS)


def run(case_id: str, engine: str | None = None) -> tuple[int, str]:
    out = io.StringIO()
    return run_case(case_id, engine, out), out.getvalue()


def lines_of(text: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


def test_a_passing_table_case_prints_request_reply_expectation_and_verdict() -> None:
    status, text = run("dd-pts-last-trick")
    assert status == PASSED, text
    shown = lines_of(text)
    case = next(c for c in load_cases() if c.id == "dd-pts-last-trick")
    request = json.loads(shown["request"])
    assert isinstance(request.pop("id"), int)  # the id it was sent with: replayable as it is
    assert request == {
        "jsonrpc": "2.0",
        "method": "card_points",
        "params": {"variant": "double-deck", "options": {}, "cards": case.params["cards"]}
        | {"last_trick": True},
    }
    assert json.loads(shown["reply"])["result"] == {"points": 5}
    # As Ts Ks: 3 counters, one point each; 2 for the last trick (POINTS-LAST-TRICK).
    assert json.loads(shown["expected"]) == {"points": 5}
    assert shown["comparison"] == "passed"


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the mutants are run as ``python -m tests.mutants``


@pytest.mark.slow
@pytest.mark.usefixtures("at_root")
def test_a_wrong_answer_shows_the_mismatch_and_fails() -> None:
    status, text = run("dd-pts-last-trick", MUTANT)
    assert status == FAILED, text
    assert json.loads(lines_of(text)["reply"])["result"] == {"points": 3}
    assert "comparison: failed\n  - points: expected 5, got 3" in text
    assert "why: 3 in counters plus 2 for the last trick." in text


@pytest.mark.slow
@pytest.mark.usefixtures("at_root")
def test_a_scenario_runs_by_its_node_id() -> None:
    status, text = run(WHOLE_DECK, MUTANT)
    assert status == FAILED, text
    shown = lines_of(text)
    assert json.loads(shown["expected"]) == {"points": 50}
    assert json.loads(shown["reply"])["result"] == {"points": 48}
    assert run(WHOLE_DECK)[0] == PASSED


def test_an_unknown_case_names_close_ones() -> None:
    status, text = run("dd-pts-last-trik")
    assert status == USAGE
    assert "no case ID 'dd-pts-last-trik'; did you mean dd-pts-last-trick" in text


@pytest.mark.slow
def test_an_engine_error_is_shown_and_fails() -> None:
    status, text = run("dd-pts-last-trick", GARBAGE)
    assert status == FAILED, text
    assert "engine error:" in text and "request: {" in text


@pytest.mark.slow
def test_every_failure_and_error_ends_with_its_request_line() -> None:
    """Table cases (repr_failure) and scenarios (the reporter) alike: the line is the report's
    ``request``, so it can be pasted into the engine as it is."""
    runs = run_suite(MUTANT, paths=CARD_POINTS)
    failed = {n: o for n, o in runs.outcomes.items() if o["outcome"] in ("failed", "errored")}
    kinds = {("::test_" in n) for n in failed}
    assert kinds == {True, False}, runs.tail()  # scenarios and table cases both failed
    for node, outcome in failed.items():
        message: str = outcome["message"]
        assert message.rstrip().endswith(f"request: {outcome['request']}"), (node, message)
    table = failed["features/tables/card-points-double-deck.yaml::dd-pts-last-trick"]
    case = next(c for c in load_cases() if c.id == "dd-pts-last-trick")
    sent = json.loads(table["request"])
    assert sent["params"] == case.request and sent["method"] == case.method
    assert isinstance(sent["id"], int) and sent["id"] > 1  # the id it was sent with
    # The line replays into an SDK engine as it is: an answer with that id, not -32600.
    server = load_server("pinochle_adapters.reference:server")
    reply = json.loads(server.handle_line(table["request"]))
    assert reply.get("id") == sent["id"] and "result" in reply, table["request"]
    # A case not sent shows the line it would send, replayable too (id 1).
    assert json.loads(request_line(case.method, case.request))["id"] == 1


@pytest.mark.slow
def test_a_skipped_case_has_its_own_status() -> None:
    """A script reading the status never takes a case the engine was not asked for a pass."""
    status, text = run("dd-meld-run-single", STARTER)
    assert status == SKIPPED, text
    assert SKIPPED not in (PASSED, FAILED, USAGE)
    assert "skipped: " in text and "meld" in lines_of(text)["skipped"]
