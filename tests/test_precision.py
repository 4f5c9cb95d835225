"""The rule an engine really breaks, named first: every charge is made against what was sent and
judged, at the first point where the engine's answer and the reference's part (the reference's
trace), and the diagnosis weighs the passing answers too.

Engines built like real ones: house options with a planted bug, whole hands only, meld totals
only, one and two planted bugs (tests/house_engines, tests/whole_hand_engines, tests/mutants);
each with its first suspect asserted. The charging of single answers is proved on the reference's
own trace, without a child run.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

import pytest

from pinochle_adapters.reference import decisions
from pinochle_judge import charges
from pinochle_judge.compare import TotalsOnly
from pinochle_judge.diagnosis import Outcome, diagnose
from tests.suite_runs import SuiteRun, python_engine, start_suite
from tests.test_whole_hand_reach import whole_hand_paths

SD_LEFT = {"first_bidder": "left-of-dealer"}


def charged(method: str, params: dict[str, Any], expect: dict[str, Any], answer: dict[str, Any]):  # type: ignore[no-untyped-def]
    return charges.charge(method, params, expect, answer, decisions(method, params), "CASE-RULE")


# --- single answers, charged on the reference's trace --------------------------------------------


def test_a_derived_auction_is_charged_at_the_field_that_differs_not_at_the_first_bidder() -> None:
    """Under the engine's own first_bidder=left-of-dealer, the dealer's call 0 is refused by both;
    the only difference is the least bid (the engine's 250): AUCTION-OPENING-MIN, never
    AUCTION-FIRST-BIDDER (what the hand-worked request would have blamed)."""
    params = {
        "variant": "single-deck",
        "options": SD_LEFT,
        "dealer": 0,
        "calls": [{"seat": 0, "bid": 150}, {"seat": 1, "bid": 160}],
    }
    # Cut to the hand-worked fields, as a derived expectation is: no violation stated.
    expect = {"legal": False, "complete": False, "next_seat": 1, "min_bid": 150}
    answer = {**expect, "min_bid": 250, "violation": {"rule": "AUCTION-TURN", "index": 0}}
    charge = charged("auction", params, expect, answer)
    assert charge.rules[0] == "AUCTION-OPENING-MIN" and charge.at == "field min_bid"
    assert "AUCTION-FIRST-BIDDER" not in charge.rules


def test_play_tricks_is_charged_at_the_first_play_refused() -> None:
    """An engine that never clears the trick refuses the second trick's lead as out of turn:
    charged at that play to the turn order (PLAY-TURN), then the winner's lead (PLAY-LEAD), not
    to the obligation the case tests."""
    params = {
        "variant": "single-deck",
        "options": {},
        "trump": "h",
        "leader": 0,
        "hands": [["As", "Kd"], ["Ts", "Qd"], ["Ah", "Jd"], ["9s", "9d"]],
        "plays": ["As", "Ts", "Ah", "9s", "Jd", "9d", "Kd", "Qd"],
    }
    answer = {
        "legal": False,
        "first_illegal": {"index": 4, "rule": "PLAY-TURN"},
        "tricks": [{"leader": 0, "cards": ["As", "Ts", "Ah", "9s"], "winner": 2}],
    }
    expect = {"legal": True, "first_illegal": None}
    charge = charged("play_tricks", params, expect, answer)
    assert charge.rules[:2] == ("PLAY-TURN", "PLAY-LEAD") and charge.at.startswith("play 4")
    assert charge.where is not None and charge.where.index == 4


@pytest.mark.parametrize(
    ("hand", "trick", "engine", "first"),
    [
        (["Ks", "Qd", "Ah"], ["Qs"], ["Ks", "Qd"], "PLAY-FOLLOW"),  # another suit while holding it
        (["Ks", "Js", "Ah"], ["Qs"], ["Ks", "Js"], "PLAY-CRAWL"),  # a spade that does not beat
        (["As", "Js", "Ah"], ["Ks", "Th"], ["As"], "PLAY-TRUMPED-TRICK"),  # trumped: any spade
    ],
)
def test_legal_plays_are_charged_to_the_obligation_that_decides_them(
    hand: list[str], trick: list[str], engine: list[str], first: str
) -> None:
    params = {"variant": "double-deck", "options": {}, "trump": "h", "hand": hand, "trick": trick}
    expect = {"cards": decisions("legal_plays", params)[0]["value"]}
    charge = charged("legal_plays", params, expect, {"cards": engine})
    assert charge.rules[0] == first, charge


def test_card_points_short_by_the_bonus_name_the_last_trick_else_the_counters() -> None:
    params = {"variant": "double-deck", "options": {}, "cards": ["Ah", "Th"], "last_trick": True}
    assert charged("card_points", params, {"points": 4}, {"points": 2}).rules[0] == (
        "POINTS-LAST-TRICK"
    )
    assert charged("card_points", params, {"points": 4}, {"points": 3}).rules[0] == (
        "POINTS-COUNTERS"
    )


def test_a_meld_total_names_the_meld_of_that_hand_never_one_it_lacks() -> None:
    """Totals only: the hand holds a royal marriage (40) and a pinochle (40) in single-deck; 40
    more than the reference names a meld the hand holds or nearly holds, never the dix of a hand
    without nines, and the two alike are named alike."""
    params = {
        "variant": "single-deck",
        "options": {},
        "trump": "h",
        "hand": ["Kh", "Qh", "Qs", "Jd", "Ac", "Tc", "Kc", "Qc", "Jc", "Ad", "As", "Ts"],
    }
    items = [
        {"id": m["value"]["id"], "count": m["value"]["count"], "points": m["value"]["points"]}
        for m in decisions("meld", params)
        if m["point"] == "meld item"
    ]
    worth = sum(i["points"] for i in items)
    charge = charged("meld", params, {"melds": items}, {"melds": TotalsOnly(worth + 40)})
    assert "MELD-DIX" not in charge.rules
    assert {"MELD-ROYAL-MARRIAGE", "MELD-PINOCHLE"} <= set(charge.rules)


def test_passing_answers_clear_a_rule_they_exercise() -> None:
    """Two failures name the same two rules alike; the passing answers' traces exercise one of
    them often: the other comes first (Ochiai over the trace spectrum)."""
    from pinochle_judge.diagnosis import Charge

    alike = Charge(("MELD-RUN", "MELD-DIX"), "seat 0 meld", "", None, True, kind="point")
    outcomes = [
        Outcome("f1", "failed", "SCORE-MADE", (), alike),
        Outcome("f2", "failed", "SCORE-MADE", (), alike),
        *(
            Outcome(f"p{n}", "passed", "PLAY-FOLLOW", (), covers=frozenset({"MELD-RUN"}))
            for n in range(6)
        ),
    ]
    assert [s["rule"] for s in diagnose(outcomes)][:1] == ["MELD-DIX"]


# --- engines built like real ones: child runs, batched -------------------------------------------

WHOLE_HAND_METHODS_BUGS = [
    # (engine, variant, rule first): whole hands only, so meld shows as per-seat totals.
    ("dix-ignored", "single-deck", "MELD-DIX"),
    ("marriage-in-trump", "double-deck", "MELD-MARRIAGE"),
    ("arounds-missing-suit", "double-deck", "MELD-AROUNDS"),
    ("tens-count-nothing", "double-deck", "POINTS-COUNTERS"),
]
TWO_BUGS_WHOLE_HANDS = [
    # Pairs whose bugs show in different hands (a bug every failing hand of which parts earlier
    # at the other bug is masked by it: a hand is charged where it first parts).
    ("trump-void-discard+no-last-trick", "double-deck", {"PLAY-TRUMP-VOID", "POINTS-LAST-TRICK"}),
    ("no-overtrump+meld-minimum-ignored", "double-deck", {"PLAY-OVERTRUMP", "MELD-MINIMUM"}),
]
HOUSE_RUNS = [
    # (house, bug, variant, rule first, an innocent rule the hand-worked charge used to name)
    ("dd-post-1945", "no-last-trick", "double-deck", "POINTS-LAST-TRICK", "MELD-DIX"),
    ("sd-left-opens", "sd-opponents-without-trick", "single-deck", "SCORE-OPPONENTS-TRICK", None),
]
CASCADE_RUN = ("sd-left-opens", "sd-opening-250+sd-opponents-without-trick", "single-deck")
"""An engine whose off-step bid is refused as below its own opening minimum (250), so every
failure of the step rule is one of the minimum's, with a second deviation of its own."""
HOUSE_TABLES = ("card-points", "scoring", "hands", "reach", "tricks", "auction")
"""The tables the house runs ask (their bugs' rules and the whole hands they spoil)."""


def _whole_hands(name: str, variant: str) -> Future[SuiteRun]:
    command = python_engine("tests.whole_hand_engines", name)
    return start_suite(command, [variant], paths=whole_hand_paths(variant))


def _house(house: str, bug: str, variant: str) -> Future[SuiteRun]:
    command = python_engine("tests.house_engines", house, bug)
    paths = [f"features/tables/{table}-{variant}.yaml" for table in HOUSE_TABLES]
    return start_suite(command, [variant], paths=paths)


def prefetch() -> None:
    """Start every run this module waits for (tests/conftest.py)."""
    for name, variant, _ in WHOLE_HAND_METHODS_BUGS:
        _whole_hands(name, variant)
    for name, variant, _ in TWO_BUGS_WHOLE_HANDS:
        _whole_hands(name, variant)
    for house, bug, variant, _, _ in HOUSE_RUNS:
        _house(house, bug, variant)
    _cascade_run()


def _cascade_run() -> Future[SuiteRun]:
    house, bug, variant = CASCADE_RUN
    command = python_engine("tests.house_engines", house, bug)
    tables = ("auction-single-deck", "auction-house-rules", "scoring-single-deck")
    return start_suite(command, [variant], paths=[f"features/tables/{t}.yaml" for t in tables])


def _suspects(run: SuiteRun) -> list[str]:
    """The ranked suspects, likeliest first (a rule explained by them is not one)."""
    assert run.returncode == 1, run.tail()
    return [entry["rule"] for entry in run.diagnosis if not entry.get("explained_by")]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "variant", "rule"), WHOLE_HAND_METHODS_BUGS)
def test_a_bug_seen_through_whole_hands_only_is_named_first(
    name: str, variant: str, rule: str
) -> None:
    suspects = _suspects(_whole_hands(name, variant).result())
    assert suspects[:1] == [rule], f"{name} breaks {rule}; suspects {suspects[:5]}"


@pytest.mark.slow
@pytest.mark.parametrize(("name", "variant", "rules"), TWO_BUGS_WHOLE_HANDS)
def test_two_bugs_through_whole_hands_are_the_first_two_suspects(
    name: str, variant: str, rules: set[str]
) -> None:
    suspects = _suspects(_whole_hands(name, variant).result())
    assert set(suspects[:2]) == rules, suspects[:5]


@pytest.mark.slow
@pytest.mark.parametrize(("house", "bug", "variant", "rule", "innocent"), HOUSE_RUNS)
def test_a_bug_under_house_options_is_named_first_and_no_innocent_rule_among_three(
    house: str, bug: str, variant: str, rule: str, innocent: str | None
) -> None:
    run = _house(house, bug, variant).result()
    suspects = _suspects(run)
    assert suspects[:1] == [rule], suspects[:5]
    if innocent is not None:
        assert innocent not in suspects, suspects
    for case in run.outcomes.values():
        # Every charge names a rule of the variant judged.
        charge = case.get("charge")
        assert (
            charge is None
            or not charge["rule"].startswith("MELD-MINIMUM")
            or (variant == "double-deck")
        )


@pytest.mark.slow
def test_a_cascade_of_the_first_suspect_is_listed_as_explained_never_among_the_first_three() -> (
    None
):
    """Every off-step bid the engine refuses, it refuses as below its opening minimum: the step
    rule fails only where the minimum does, so it is listed after the ranked suspects as
    explained by the minimum; the deviations of their own (the forced bid the minimum spoils,
    the defenders scoring without a trick) stay ranked."""
    run = _cascade_run().result()
    suspects = _suspects(run)
    assert suspects[:3] == [
        "AUCTION-OPENING-MIN",
        "AUCTION-DEALER-FORCED",
        "SCORE-OPPONENTS-TRICK",
    ], suspects[:5]
    entries = {entry["rule"]: entry for entry in run.diagnosis}
    assert entries["AUCTION-STEP"].get("explained_by") == ["AUCTION-OPENING-MIN"]
    listed = [entry["rule"] for entry in run.diagnosis]
    assert listed.index("AUCTION-STEP") >= len(suspects), listed


def test_the_fuzzer_asks_play_tricks_and_play_game_and_scores_below_zero() -> None:
    """Every declared method is asked, whole tricks and games included, and scores before a hand
    go below zero; the reference answers each question (the generators make valid params)."""
    from pinochle_fuzz import campaign
    from pinochle_fuzz.oracle import reference_answer

    methods = ["play_tricks", "play_game", "score_hand"]
    info = {"variants": [{"id": "single-deck"}, {"id": "double-deck"}], "methods": methods}
    assert set(campaign.declared_methods(info)) == set(methods)
    asked = list(campaign.asked_questions(campaign.targets(info), methods, seed=7, rounds=40))
    for question in asked:
        if question.method != "score_hand":
            assert isinstance(reference_answer(question), dict)
    games = [q for q in asked if q.method == "play_game"]
    assert any(len(q.input["hands"]) > 1 for q in games)
    scores = [s for q in asked if q.method != "play_tricks" for s in q.input["scores"]]
    assert min(scores) < 0


@pytest.mark.parametrize("method", ["play_tricks", "play_game"])
def test_a_reproducer_of_the_new_methods_is_a_table_the_suite_loads(method: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pinochle_fuzz import campaign
    from pinochle_fuzz.cases import write_case
    from pinochle_fuzz.oracle import expectation, reference_answer
    from pinochle_judge.cases import load_table

    info = {"variants": [{"id": "single-deck"}], "methods": [method]}
    question = next(iter(campaign.asked_questions(campaign.targets(info), [method], 3, 1)))
    expect = expectation(method, reference_answer(question))
    found = campaign.Disagreement(question, expect, {}, [], ("PLAY-TURN",))
    path = write_case(found, tmp_path, "engine", 3)
    (case,) = load_table(path)
    assert case.method == method and case.request == question.params
