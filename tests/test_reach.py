"""Cases re-based to the house reach their rules (spec/protocol.md, "House rules", "Reach"): under
each house declaration of ``tests/house_engines`` and under ``pass_cards=3``,
``first_bidder=left-of-dealer`` and ``target=1000`` each alone, at least 90% of the whole-hand
cases play to where their hand-worked versions end, and every rule with judged cases (not
switched off by the options) is reached by one. Planned in-process, no engine is started."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest

from pinochle_adapters.protocol import METHODS
from pinochle_judge.cases import Case, load_cases
from pinochle_judge.engines import Reference
from pinochle_judge.house_rules import SKIP, HouseRules
from pinochle_judge.reach import Reach, ReachEntry, reach, written_for_other_values
from pinochle_judge.rebase import WHOLE_HANDS, moved_scores, stop_point
from specdata.house import refusable, rules_off
from tests.house_engines import HOUSES

ALONE = {
    "sd-pass-cards-3": ("single-deck", {"pass_cards": "3"}),
    "ol-pass-cards-3": ("online", {"pass_cards": "3"}),
    "sd-left-of-dealer": ("single-deck", {"first_bidder": "left-of-dealer"}),
    "ol-target-1000": ("online", {"target": "1000"}),
    "dd-target-1000": ("double-deck", {"target": "1000"}),
}
"""The three options that change the course of a deal, each declared alone (single-deck's
default target is 1000: that one is declared in online and double-deck)."""
DECLARATIONS = {
    **{name: (h.variant, h.options, h.whole_hands) for name, h in HOUSES.items()},
    **{name: (variant, options, False) for name, (variant, options) in ALONE.items()},
}


@pytest.fixture(scope="module")
def reference() -> Iterator[Reference]:
    ref = Reference()
    yield ref
    ref.close()


def planned(
    reference: Reference, variant: str, options: Mapping[str, str], whole_hands: bool
) -> tuple[Reach, list[Case]]:
    """The reach of every table case of ``variant`` planned for an engine declaring ``options``
    (single values) and every method (or whole hands only), and the cases that stop short."""
    methods = list(WHOLE_HANDS) if whole_hands else list(METHODS)
    info = {"variants": [{"id": variant, "options": {k: [v] for k, v in options.items()}}]}
    rules = HouseRules({**info, "methods": methods}, reference, derived=True)
    entries, short = [], []
    for case in load_cases():
        if case.variant != variant:
            continue
        plan = rules.plan_case(
            case.method, case.variant, case.options, case.params, case.expect, case.rule
        )
        if plan.kind == SKIP:
            continue
        own = written_for_other_values(variant, plan.needed)
        sent = {str(k): str(v) for k, v in (plan.params.get("options") or {}).items()}
        entries.append(ReachEntry(case.rule, variant, case.method, plan.reached, own, sent))
        if not plan.reached and not own:
            short.append(case)
    return reach(entries), short


@pytest.mark.parametrize("name", list(DECLARATIONS))
def test_whole_hands_reach_their_end_and_every_rule_is_reached(
    name: str, reference: Reference
) -> None:
    variant, options, whole_hands = DECLARATIONS[name]
    found, short = planned(reference, variant, options, whole_hands)
    whole = found.whole_hands
    assert whole["judged"] >= 20, whole
    assert whole["reached"] >= 0.9 * whole["judged"], (whole, [c.id for c in short])
    assert not found.unreached, (found.unreached, [c.id for c in short])
    # A rule the options switch off is never owed a case, and is not listed as unreached.
    assert not set(found.off) & set(found.unreached)
    assert set(found.off) <= rules_off(variant, options)


def test_a_case_as_sent_that_stops_short_is_played_the_houses_way(reference: Reference) -> None:
    # sd-hand-made-passing gives four cards; under pass_cards=3 the give as written is refused.
    case = next(c for c in load_cases() if c.id == "sd-hand-made-passing")
    info = {
        "variants": [{"id": "single-deck", "options": {"pass_cards": ["3"]}}],
        "methods": ["play_hand"],
    }
    plan = HouseRules(info, reference, derived=True).plan_case(
        case.method, case.variant, case.options, case.params, case.expect, case.rule
    )
    assert plan.reached and plan.expect is not None
    assert plan.expect["complete"] is True and plan.expect["first_illegal"] is None
    gives = [a for a in plan.params["actions"] if a.startswith("give ")]
    assert gives == ["give Qs Ad Ad", "give Kh Ad Ad"], gives
    assert any("give 3 of the case's 4 cards" in c for c in plan.rebased)
    assert "the deal played the house's way" in plan.reason


def test_the_auction_is_reseated_to_the_houses_first_bidder(reference: Reference) -> None:
    case = next(c for c in load_cases() if c.id == "sd-hand-made-passing")
    info = {
        "variants": [{"id": "single-deck", "options": {"first_bidder": ["left-of-dealer"]}}],
        "methods": ["play_hand"],
    }
    plan = HouseRules(info, reference, derived=True).plan_case(
        case.method, case.variant, case.options, case.params, case.expect, case.rule
    )
    # The dealer moves one seat to the right: the same seats make the same calls.
    assert plan.params["dealer"] == (case.params["dealer"] - 1) % 4  # type: ignore[operator]
    assert plan.params["actions"][:8] == case.params["actions"][:8]  # type: ignore[index]
    assert plan.reached


def test_scores_keep_their_margin_to_the_target_and_their_side_of_bid_to_win() -> None:
    assert moved_scores([300, 1060], -500, None, None) == [-200, 560]
    # Double-deck 500 -> 1000 with bid-to-win at 400: 480 keeps its margin, 0 stays under 400.
    assert moved_scores([480, 0], 500, 400, 400) == [980, 399]


def test_the_stop_point_of_a_game_end_case_is_the_winner_and_of_others_where_it_stops() -> None:
    ended = {"complete": True, "outcome": "played", "first_illegal": None, "game_winner": 1}
    going = {**ended, "game_winner": None}
    assert stop_point("play_hand", ended, rule="GAME-TARGET") != stop_point(
        "play_hand", going, rule="GAME-TARGET"
    )
    assert stop_point("play_hand", ended, rule="PLAY-CRAWL") == stop_point(
        "play_hand", going, rule="PLAY-CRAWL"
    )
    refused = {"complete": False, "first_illegal": {"index": 8, "rule": "PASS-CARDS"}}
    assert stop_point("play_hand", refused) != stop_point("play_hand", going)


def test_no_case_asks_refusable_figures_under_its_own_options() -> None:
    # ERRATA-SCORE-HAND-INPUTS: "the conformance cases never send them".
    for case in load_cases():
        if case.method == "score_hand":
            assert refusable(case.variant, case.options, case.params) is None, case.id


@pytest.mark.parametrize(
    ("variant", "options", "scores", "item"),
    [
        ("single-deck", {}, [1000, 0], "5"),
        ("online", {"rounds": "3"}, [1600, 0], None),
        ("double-deck", {}, [560, 420], None),  # past the target under bid-to-win: allowed
        ("double-deck", {"bid_to_win": "off"}, [560, 420], "5"),
        ("double-deck", {"target": "350"}, [360, 0], "5"),
        ("single-deck", {"negative_loss": "-1000"}, [-1000, 0], "5"),
    ],
)
def test_a_side_past_the_target_is_refusable_where_the_game_cannot_reach_it(
    variant: str, options: dict[str, str], scores: list[int], item: str | None
) -> None:
    figures = {
        "bidder_team": 1,
        "contract": 250 if variant != "double-deck" else 60,
        "outcome": "played",
        "meld": [20, 100],
        "tricks": [50, 200] if variant != "double-deck" else [25, 25],
        "tricks_won": [3, 9] if variant != "double-deck" else [10, 10],
        "scores": scores,
        "hand": 1,
    }
    found = refusable(variant, options, figures)
    assert (found or "")[:1] == (item or ""), found
