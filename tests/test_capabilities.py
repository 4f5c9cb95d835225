"""Both models the spec admits are judged conformant (spec/protocol.md, "Capabilities"): an
engine declaring ``forced_bid: implicit`` or ``meld: totals`` passes the whole suite, and the
same engine without the declaration fails it on the rules concerned."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from pinochle_adapters import protocol
from pinochle_fuzz.campaign import Target, generate
from pinochle_fuzz.choices import RandomChoices
from pinochle_fuzz.questions import refusable
from pinochle_judge.capabilities import (
    Capabilities,
    Forced,
    Skip,
    expectation,
    forced,
    off_tens,
    translate,
)
from pinochle_judge.compare import TotalsOnly, compare
from reference_engine.variants import load_rules
from tests.capability_engines import server
from tests.suite_runs import SuiteRun, run_suite, start_suite

IMPLICIT = Capabilities(forced_bid="implicit")
TOTALS = Capabilities(meld="totals")


def passes(*seats: int) -> list[dict[str, Any]]:
    return [{"seat": s, "pass": True} for s in seats]


# --- declarations --------------------------------------------------------------------------------


def test_the_declared_capabilities_are_read_from_initialize() -> None:
    info = server("implicit-forced-bid").info()
    assert protocol.check_result("initialize", info) is None
    assert Capabilities.declared(info) == IMPLICIT
    assert Capabilities.declared(server("meld-totals").info()) == TOTALS
    assert Capabilities.declared(server("meld-totals", declared=False).info()).is_default


def test_an_unknown_capability_value_fails_the_initialize_schema() -> None:
    info = {**server("meld-totals").info(), "capabilities": {"meld": "grouped"}}
    assert protocol.check_result("initialize", info) is not None


def test_the_forced_seat_and_amount_come_from_the_variant() -> None:
    # Double-deck: left of the dealer opens, so the dealer is fourth; online: the dealer opens,
    # so the dealer's right is fourth (AUCTION-DEALER-FORCED, ERRATA-ONLINE-ALL-PASS).
    assert forced("double-deck", {}) == Forced(1, 50)
    assert forced("double-deck", {}).seat(2) == 2  # type: ignore[union-attr]
    assert forced("online", {}) == Forced(0, 250)
    assert forced("online", {}).seat(0) == 3  # type: ignore[union-attr]
    assert forced("single-deck", {}) is None  # the dealer opens at 150: nobody is forced


# --- the forced bid, implicit --------------------------------------------------------------------


def test_the_forced_bid_is_dropped_and_later_refusals_indexed_back() -> None:
    calls = [*passes(1, 2, 3), {"seat": 0, "bid": 50}, {"seat": 0, "bid": 55}]
    params = {"variant": "double-deck", "options": {}, "dealer": 0, "calls": calls}
    t = translate("auction", params, IMPLICIT)
    assert t.params["calls"] == [*passes(1, 2, 3), {"seat": 0, "bid": 55}]
    refused = {"legal": False, "violation": {"rule": "AUCTION-END", "message": "", "index": 3}}
    assert t.answer(refused)["violation"]["index"] == 4
    assert params["calls"] == calls  # the case's own request is not changed


def test_three_passes_read_back_as_the_forced_seat_to_call() -> None:
    params = {"variant": "online", "options": {}, "dealer": 2, "calls": passes(2, 3, 0)}
    t = translate("auction", params, IMPLICIT)
    done = {"legal": True, "violation": None, "complete": True, "next_seat": None, "winner": 1}
    answer = t.answer({**done, "contract": 250, "min_bid": None, "can_pass": False})
    assert answer["complete"] is False and answer["next_seat"] == 1
    assert (answer["min_bid"], answer["can_pass"], answer["winner"]) == (250, False, None)
    # A wrong seat or amount is read back too: it fails the case on the field it is in.
    wrong = t.answer({**done, "winner": 3, "contract": 240, "min_bid": None, "can_pass": False})
    assert (wrong["complete"], wrong["next_seat"], wrong["min_bid"]) == (False, 3, 240)
    # An auction completed with nobody holding a contract is left as answered.
    nobody = t.answer({**done, "winner": None, "contract": None, "min_bid": None})
    assert nobody["complete"] is True


@pytest.mark.parametrize(
    "call", [{"seat": 0, "pass": True}, {"seat": 0, "bid": 55}, {"seat": 1, "bid": 50}]
)
def test_a_forced_call_other_than_the_minimum_has_no_counterpart(call: dict[str, Any]) -> None:
    params = {
        "variant": "double-deck",
        "options": {},
        "dealer": 0,
        "calls": [*passes(1, 2, 3), call],
    }
    with pytest.raises(Skip, match="forced_bid=implicit"):
        translate("auction", params, IMPLICIT)


def test_hand_actions_lose_the_forced_bid_and_keep_the_rest() -> None:
    actions = ["pass", "pass", "seat 3: pass", "seat 0: bid 50", "trump h", "play Ah"]
    params = {"variant": "double-deck", "options": {}, "dealer": 0, "actions": actions}
    t = translate("play_hand", params, IMPLICIT)
    assert t.params["actions"] == ["pass", "pass", "seat 3: pass", "trump h", "play Ah"]
    answer = t.answer({"first_illegal": {"index": 4, "rule": "PLAY-TURN", "message": ""}})
    assert answer["first_illegal"]["index"] == 5
    before = t.answer({"first_illegal": {"index": 1, "rule": "AUCTION-TURN", "message": ""}})
    assert before["first_illegal"]["index"] == 1
    with pytest.raises(Skip):
        translate("play_hand", {**params, "actions": ["pass"] * 3 + ["seat 1: bid 50"]}, IMPLICIT)


def test_a_game_drops_the_forced_bid_of_each_hand_with_its_own_dealer() -> None:
    # Hand 1 is dealt by seat 1, so seat 1 is the forced dealer there.
    lists = [["bid 50", "pass"], ["pass", "pass", "pass", "seat 1: bid 50", "trump s"]]
    params = {"variant": "double-deck", "options": {}, "dealer": 0, "actions": lists}
    t = translate("play_game", params, IMPLICIT)
    assert t.params["actions"] == [["bid 50", "pass"], ["pass", "pass", "pass", "trump s"]]
    answer = t.answer(
        {
            "first_illegal": {"hand": 1, "index": 3, "rule": "TRUMP-CALL", "message": ""},
            "hands": [{"first_illegal": None}, {"first_illegal": {"index": 3}}],
        }
    )
    assert answer["first_illegal"]["index"] == 4
    assert [h["first_illegal"] for h in answer["hands"]] == [None, {"index": 4}]


def test_the_skip_is_an_exception_of_the_model_not_of_the_engine_nor_of_pytest() -> None:
    """The judgement raises its own Skip; the plugin turns it into pytest's skip."""
    assert issubclass(Skip, Exception)
    assert not issubclass(Skip, pytest.skip.Exception)


# --- meld as totals ------------------------------------------------------------------------------


def test_meld_totals_compare_the_total_and_the_items_worth() -> None:
    t = translate("meld", {"variant": "double-deck", "options": {}}, TOTALS)
    answer = t.answer({"total": 24, "melds": []})
    assert isinstance(answer["melds"], TotalsOnly)
    items = [
        {"id": "marriage", "count": 1, "points": 2},
        {"id": "pinochle", "count": 1, "points": 22},
    ]
    assert compare("meld", {"total": 24, "melds": items}, answer) == []
    wrong = compare("meld", {"total": 26, "melds": [*items, items[0]]}, answer)
    assert [m.where for m in wrong] == ["total", "melds"]
    # Without the declaration the empty list is judged as items: every expected one is missing.
    assert compare("meld", {"melds": items}, {"total": 24, "melds": []})


# --- the whole suite -----------------------------------------------------------------------------


def engine(name: str, declared: bool) -> str:
    flag = "" if declared else " --undeclared"
    return f"{sys.executable} -m tests.capability_engines {name}{flag}"


NARROWED = {"implicit-forced-bid": "auction", "meld-totals": "meld", "tens-scale": "scor"}
"""Undeclared, each engine runs only the items its capability concerns (``-k``): that those fail
is the point, and the whole suite is run declared."""


def prefetch() -> None:
    """Start the four runs at once (tests/conftest.py)."""
    for name in NARROWED:
        for declared in (True, False):
            start_suite(*_run(name, declared))


VARIANTS = {"tens-scale": ("single-deck",)}
"""The variants an engine's runs are narrowed to (a tens engine is a single-deck engine)."""


def _run(name: str, declared: bool) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The run's engine command, variants and extra options (start_suite's arguments)."""
    extra = () if declared else ("-k", NARROWED[name])
    return engine(name, declared), VARIANTS.get(name, ()), extra


def suite(name: str, declared: bool) -> SuiteRun:
    return run_suite(*_run(name, declared))


def rules_failing(run: SuiteRun) -> set[str]:
    return run.rules_of(run.items("failed") | run.items("errored"))


@pytest.mark.slow
def test_an_engine_making_the_forced_bid_implicitly_passes_the_suite() -> None:
    run = suite("implicit-forced-bid", True)
    assert run.returncode == 0, run.tail()
    forced_cases = {n for n, o in run.outcomes.items() if o["rule"] == "AUCTION-DEALER-FORCED"}
    passed = forced_cases & run.items("passed")
    skipped = forced_cases & run.items("skipped")
    # Three passes and the forced 50/250 are judged; only the forced seat's other calls are not.
    assert len(passed) >= 10, sorted(forced_cases)
    assert skipped, "the refused forced calls have no counterpart in the implicit model"
    assert all("forced_bid=implicit" in run.outcomes[n].get("skip", "") for n in skipped)
    assert run.items("skipped") <= {
        n for n, o in run.outcomes.items() if "forced_bid=implicit" in o.get("skip", "")
    }


@pytest.mark.slow
def test_the_same_engine_undeclared_fails_on_the_forced_bid() -> None:
    run = suite("implicit-forced-bid", False)
    assert run.returncode == 1, run.tail()
    assert "AUCTION-DEALER-FORCED" in rules_failing(run)


@pytest.mark.slow
def test_an_engine_reporting_meld_totals_passes_the_suite() -> None:
    run = suite("meld-totals", True)
    assert run.returncode == 0, run.tail()
    assert not run.items("skipped")


@pytest.mark.slow
def test_the_same_engine_undeclared_fails_on_meld_items() -> None:
    run = suite("meld-totals", False)
    assert run.returncode == 1, run.tail()
    assert {r for r in rules_failing(run) if r.startswith("MELD-")}


# --- figures kept in tens (ERRATA-TENS-SCALE) ---------------------------------------------------

TENS = Capabilities(scale="tens")


def test_a_figure_off_the_tens_is_found_in_requests_answers_and_bids() -> None:
    assert off_tens({"contract": 250, "scores": [120, 990]}) is None
    assert off_tens({"contract": 250, "scores": [120, 995]}) == "scores 995"
    assert off_tens({"actions": ["bid 150", "seat 2: bid 155"]}) == "bid 155"
    assert off_tens({"tricks": [{"leader": 1, "winner": 3, "points": 25}]}) == "points 25"
    # Seats, indexes, tricks won and hand numbers are counts, not figures.
    assert off_tens({"dealer": 3, "tricks_won": [5, 7], "hand": 3, "index": 7}) is None


def test_a_tens_engine_is_never_asked_a_figure_off_the_tens() -> None:
    with pytest.raises(Skip, match="bid 155"):
        translate("auction", {"calls": [{"seat": 0, "bid": 155}]}, TENS)
    with pytest.raises(Skip, match="delta 185"):
        expectation("score_hand", "SCORE-MADE", {"delta": [185, 0]}, TENS)
    asked = {"calls": [{"seat": 0, "bid": 150}]}
    assert translate("auction", asked, TENS).params == asked


def test_the_fuzzer_asks_a_tens_engine_score_figures_in_tens() -> None:
    target = Target("single-deck", {}, {}, tens=True)
    choose = RandomChoices(7)
    asked = [generate("score_hand", target, choose) for _ in range(300)]
    in_tens = [q for q in asked if off_tens(q.params) is None]
    # Nearly every question is moved to the tens; none of them is one the engine may refuse.
    assert len(in_tens) >= 0.9 * len(asked)
    assert all(refusable(load_rules(q.variant, q.options), q.params) is None for q in in_tens)


@pytest.mark.slow
def test_an_engine_keeping_its_figures_in_tens_passes_the_single_deck_suite() -> None:
    run = suite("tens-scale", True)
    assert run.returncode == 0, run.tail()
    skipped = run.items("skipped")
    assert skipped and all("scale=tens" in run.outcomes[n].get("skip", "") for n in skipped)
    assert len(run.items("passed")) > 10 * len(skipped)


@pytest.mark.slow
def test_the_same_engine_undeclared_errs_on_figures_off_the_tens() -> None:
    run = suite("tens-scale", False)
    assert run.returncode == 1, run.tail()
    assert run.items("errored") or run.items("failed")
