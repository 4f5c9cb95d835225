"""Judging engines that declare their house rules honestly.

Fast: every option's ``methods`` holds (no other method's answer changes under any of its
values), and the decision of one case under house options. Slow (child suite runs): reference
engines declaring the house rules real engines play have at least 85% of their variant's cases
judged, fail nothing when clean, and name a planted bug's rule first.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import pytest

from pinochle_adapters.client import ErrorReply, load_server, open_in_process
from pinochle_adapters.sdk import Server
from pinochle_judge.cases import load_cases
from pinochle_judge.compare import compare
from pinochle_judge.engines import REFERENCE_SERVER, ModelledEngine, Reference
from pinochle_judge.house_rules import (
    DERIVED,
    HAND_WORKED,
    SKIP,
    HouseRules,
    derived_expectation,
    is_undeclared,
    played_options,
    skip_reason,
)
from pinochle_judge.wording import NOTHING_JUDGED
from specdata import option_choices, option_defaults, option_methods, variant_ids
from tests import mutants
from tests.house_engines import HOUSES, House
from tests.suite_runs import SuiteRun, python_engine, run_suite, start_suite

CASES = load_cases()


@pytest.fixture(scope="module")
def reference() -> Any:
    ref = Reference()
    yield ref
    ref.close()


@pytest.mark.parametrize("variant", variant_ids())
def test_every_option_names_the_methods_it_can_change(variant: str, reference: Reference) -> None:
    """Under every value of every option, each case of a method outside the option's
    ``methods`` keeps its hand-worked answer: what lets such cases run unasked."""
    scope = option_methods(variant)
    choices = option_choices(variant)
    assert set(scope) == set(choices), "every option names its methods"
    wrong = []
    for case in (c for c in CASES if c.variant == variant):
        for name, values in choices.items():
            if case.method in scope[name]:
                continue
            for value in values:
                if case.options.get(name, option_defaults(variant)[name]) == value:
                    continue
                options = {**case.options, name: value}
                answer = reference(case.method, {**case.request, "options": options})
                if compare(case.method, case.expect, answer):
                    wrong.append(f"{case.id} under {name}={value}")
    assert not wrong


def _info(variant: str, options: dict[str, list[str]], methods: list[str]) -> dict[str, Any]:
    return {"variants": [{"id": variant, "options": options}], "methods": methods}


def test_played_options_send_the_engines_values() -> None:
    declared = {"pinochle_scale": ["comments"], "run": ["16", "15"]}
    sent, house, needed, unplayable = played_options(declared, "double-deck", {"run": "15"})
    assert sent == {"pinochle_scale": "comments", "run": "15"}
    assert house == {"pinochle_scale": "comments"} and needed == {"pinochle_scale": "table"}
    assert not unplayable
    # An option the engine does not declare is played at the default, and not sent.
    sent, house, needed, _ = played_options({}, "double-deck", {"queens_around": "8"})
    assert sent == {} and house == {"queens_around": "6"} and needed == {"queens_around": "8"}


def _case(case_id: str) -> Any:
    return next(c for c in CASES if c.id == case_id)


@pytest.mark.parametrize("derived", [True, False])
def test_a_case_whose_answer_holds_runs_hand_worked(derived: bool, reference: Reference) -> None:
    """A meld without pinochles keeps its answer under pinochle_scale=comments."""
    case = next(
        c
        for c in CASES
        if c.variant == "double-deck"
        and c.method == "meld"
        and not c.options
        and "pinochle" not in str(c.expect)
    )
    rules = HouseRules(
        _info("double-deck", {"pinochle_scale": ["comments"]}, ["meld"]), reference, derived
    )
    plan = rules.plan_case(case.method, case.variant, case.options, case.params, case.expect)
    assert plan.kind == HAND_WORKED and plan.expect == case.expect
    assert plan.params["options"] == {"pinochle_scale": "comments"}


def test_a_case_whose_answer_changes_is_derived_or_skipped(reference: Reference) -> None:
    case = _case("dd-meld-pinochle-triple")
    info = _info("double-deck", {"pinochle_scale": ["comments"]}, ["meld"])
    plan = HouseRules(info, reference, True).plan_case(
        case.method, case.variant, case.options, case.params, case.expect
    )
    assert plan.kind == DERIVED and plan.expect is not None
    assert plan.expect["total"] != case.expect["total"]  # 90 under the comments' scale
    assert "pinochle_scale=comments" in plan.reason and "derived" in plan.reason
    skipped = HouseRules(info, reference, False).plan_case(
        case.method, case.variant, case.options, case.params, case.expect
    )
    assert skipped.kind == SKIP and "engine plays pinochle_scale=comments" in skipped.reason


def test_undeclared_methods_and_variants_are_not_counted(reference: Reference) -> None:
    rules = HouseRules(_info("double-deck", {}, ["meld"]), reference, True)
    case = _case("dd-meld-pinochle-triple")
    assert is_undeclared(rules.plan_case("auction", "double-deck", {}, {}, {}).reason)
    assert is_undeclared(rules.plan_case("meld", "online", {}, case.params, case.expect).reason)


def test_a_derived_expectation_keeps_the_fields_and_keys_the_case_names() -> None:
    expect = {"legal": False, "violation": {"rule": "AUCTION-STEP"}, "melds": [{"id": "x"}]}
    answer = {
        "legal": True,
        "violation": {"rule": "AUCTION-TURN", "index": 2, "message": "free text"},
        "melds": [{"id": "run", "count": 1, "cards": ["As"]}],
        "next_seat": 3,
    }
    assert derived_expectation(expect, answer) == {
        "legal": True,
        "violation": {"rule": "AUCTION-TURN"},
        "melds": [{"id": "run"}],
    }
    # A list the case expects empty keeps the reference's entries whole, but for free text
    # (and, in melds, the cards): a trick's cards are compared.
    tricks = [{"leader": 0, "cards": ["Ks", "9h"], "winner": 1, "message": "x"}]
    assert derived_expectation({"tricks": []}, {"tricks": tricks}) == {
        "tricks": [{"leader": 0, "cards": ["Ks", "9h"], "winner": 1}]
    }
    # A null the case expects where the reference has an object: its free text is left out.
    assert derived_expectation({"violation": None}, answer) == {
        "violation": {"rule": "AUCTION-TURN", "index": 2}
    }


# --- whole suite runs against house-rule engines (child pytest) ---------------------------------


def _counts(run: SuiteRun) -> tuple[int, int, int]:
    """(cases of the variant, judged, failed or errored), from the run's report."""
    cases = [c for c in run.outcomes.values() if not c.get("undeclared")]
    judged = [c for c in cases if c["outcome"] != "skipped"]
    bad = [c for c in judged if c["outcome"] in ("failed", "errored")]
    return len(cases), len(judged), len(bad)


def _house_run(house: House, bug: str | None = None) -> SuiteRun:
    args = [house.name] if bug is None else [house.name, bug]
    return start_suite(python_engine("tests.house_engines", *args), [house.variant]).result()


NOTHING_TABLE = "features/tables/meld-single-deck.yaml"


FULL_HOUSES = {name: h for name, h in HOUSES.items() if not h.whole_hands}


def prefetch() -> None:
    """Start this module's child runs at collection (tests/conftest.py)."""
    for house in FULL_HOUSES.values():
        start_suite(python_engine("tests.house_engines", house.name), [house.variant])
        start_suite(python_engine("tests.house_engines", house.name, house.bug), [house.variant])
    start_suite(python_engine("tests.house_engines", "dd-post-1945"), paths=[NOTHING_TABLE])


@pytest.mark.slow
@pytest.mark.parametrize("house", FULL_HOUSES.values(), ids=list(FULL_HOUSES))
def test_an_honest_house_engine_is_judged_on_its_variant(house: House) -> None:
    clean = _house_run(house)
    total, judged, bad = _counts(clean)
    assert clean.returncode == 0 and bad == 0, clean.tail()
    assert judged >= 0.85 * total, f"{judged} of {total} judged\n{clean.tail()}"
    assert "under the engine's house rules: " in clean.output, clean.tail()
    derived = [c for c in clean.outcomes.values() if c.get("expectation") == "derived"]
    assert bool(derived) == ("derived (not hand-worked" in clean.output)

    buggy = _house_run(house, house.bug)
    assert buggy.returncode == 1, buggy.tail()
    assert buggy.diagnosis, buggy.tail()
    assert buggy.diagnosis[0]["rule"] == mutants.get(house.bug).caught_by, buggy.diagnosis[:3]
    # Each failure's request line is what the engine received: its own options, its id.
    for case in buggy.outcomes.values():
        if case["outcome"] == "failed":
            sent = json.loads(case["request"])
            assert house.options.items() <= sent["params"]["options"].items(), sent
            assert isinstance(sent["id"], int)


@pytest.mark.slow
def test_a_run_that_judges_nothing_fails() -> None:
    """The double-deck engine asked only single-deck cases: all skipped, and red."""
    run = run_suite(python_engine("tests.house_engines", "dd-post-1945"), paths=[NOTHING_TABLE])
    assert run.returncode == 1, run.tail()
    assert NOTHING_JUDGED.split(":")[0] in run.output
    assert all(c["outcome"] == "skipped" for c in run.outcomes.values())


@pytest.mark.slow
def test_an_engine_served_in_process_is_judged_like_a_subprocess() -> None:
    """``--engine-server MODULE:FACTORY``: a Python engine in the run's own process, its results
    checked against the schemas as a subprocess's are."""
    table = "features/tables/meld-double-deck.yaml"
    run = run_suite(None, paths=[table], extra=["--engine-server", "tests.mutants:no_server"])
    assert run.returncode == 4 and "has no callable no_server" in run.output, run.tail()
    run = run_suite(
        None, paths=[table], extra=["--engine-server", "pinochle_adapters.reference:server"]
    )
    assert run.returncode == 0 and run.items("passed") == set(run.outcomes), run.tail()
    assert "in-process pinochle_adapters.reference:server" in run.output


# --- which cases are skipped, and which options are sent (moved from the client) -------------


def test_the_reference_declares_every_variant_and_option() -> None:
    with open_in_process(load_server(REFERENCE_SERVER), trusted=True) as engine:
        info = engine.info
    assert skip_reason(info, "meld", "online", {"scoring_method": "classic"}) is None
    assert skip_reason(info, "meld", "double-deck", {"run": 15}) is None
    assert skip_reason(info, "meld", "double-deck", {"run": "17"}) == (
        "engine does not declare option run=17"
    )
    assert skip_reason(info, "meld", "pinochle-for-three", {}) == (
        "engine does not implement pinochle-for-three"
    )


def test_an_engine_that_could_not_start_skips_nothing() -> None:
    """No ``initialize`` answer: its calls are errors, not skips."""
    assert skip_reason(None, "meld", "double-deck", {"run": "17"}) is None
    assert skip_reason(_info("double-deck", {}, []), "meld", "double-deck", {}) == "no method meld"


class LeftOpener:
    """Single-deck only, opening left of the dealer (its house rule); double-deck with no
    options declared."""

    name, version = "left-opener", "1"
    variants: ClassVar[dict[str, dict[str, list[str]]]] = {
        "single-deck": {"first_bidder": ["left-of-dealer"]},
        "double-deck": {},
    }

    def card_points(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"points": 0}

    def meld(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"total": 0, "melds": []}

    def auction(self, params: dict[str, Any]) -> dict[str, Any]:
        raise AssertionError("not asked")


def test_a_house_rule_skips_only_the_methods_its_option_can_change() -> None:
    """An engine that opens left of the dealer (single-deck first_bidder) still runs meld cases;
    only the auction-driven methods that need the default opener are skipped."""
    with open_in_process(Server(LeftOpener())) as engine:
        info = engine.info
    assert skip_reason(info, "meld", "single-deck", {}) is None
    assert skip_reason(info, "auction", "single-deck", {}) == (
        "engine plays first_bidder=left-of-dealer (the case needs first_bidder=dealer)"
    )
    assert skip_reason(info, "auction", "single-deck", {"first_bidder": "left-of-dealer"}) is None


def test_a_default_spelled_out_is_not_sent_to_an_engine_that_declares_no_such_option() -> None:
    """An omitted option means the variant's default: the suite's engine leaves out the options
    the engine does not declare, where the bare client sends them (and the engine refuses)."""
    params = {"variant": "double-deck", "options": {"run": "16"}, "cards": [], "last_trick": False}
    with open_in_process(Server(LeftOpener())) as bare:
        with pytest.raises(ErrorReply, match="-32602"):
            bare.call("card_points", params)
        assert ModelledEngine(bare, reference=lambda m, p: {}).call("card_points", params) == {
            "points": 0
        }
        assert json.loads(bare.last_request or "{}")["params"]["options"] == {}
