"""Hand scoring and game end (SCORE-*, GAME-*): figures worked by hand from the decided rules."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pinochle_adapters.client import EngineError
from pinochle_adapters.reference import ReferenceEngine
from reference_engine import scoring
from reference_engine.variants import Rules, load_rules
from tests.suite_runs import reference_in_process

DD = load_rules("double-deck")
SD = load_rules("single-deck")
ONLINE = load_rules("online")


def score(rules: Rules, **kw: Any) -> dict[str, Any]:
    """The protocol ``score_hand`` answer (the figures checked and shaped by the adapter)."""
    return dict(ReferenceEngine().score_hand({**score_params(rules), **kw}))


def test_score_hand_is_the_rule_behind_the_answer() -> None:
    """The adapter only shapes scoring.score_hand: the same figures, as lists."""
    result = scoring.score_hand(DD, 1, 60, "played", (30, 10), (20, 30), (8, 12), (100, 200))
    answer = score(DD, bidder_team=1, meld=[30, 10], tricks=[20, 30], tricks_won=[8, 12])
    assert answer == {
        "made": False,
        "delta": [50, -60],
        "scores": [50, -60],
        "game_winner": None,
    }
    assert result.delta == (50, -60) and result.scores == (150, 140) and not result.made


# --- SCORE-MADE, SCORE-SET, MELD-MINIMUM, SCORE-TRICK-MINIMUM (double-deck) ------------------


def test_dd_made() -> None:
    """Bidders: meld 30 + tricks 32 = 62 >= 60, made, +62. Opponents: meld 10 is under the
    minimum 20 (scores 0) and tricks 18 are under 20: 0."""
    answer = score(DD, meld=[30, 10], tricks=[32, 18], tricks_won=[12, 8])
    assert answer == {"made": True, "delta": [62, 0], "scores": [62, 0], "game_winner": None}


def test_dd_exact_contract_is_made() -> None:
    answer = score(DD, contract=55, meld=[30, 0], tricks=[25, 25])
    assert answer["made"] is True and answer["delta"] == [55, 25]


def test_dd_set() -> None:
    """Bidders 20 + 25 = 45 < 60: set, -60. Opponents 24 meld + 25 tricks = 49."""
    answer = score(DD, meld=[20, 24], tricks=[25, 25], scores=[100, 50])
    assert answer == {"made": False, "delta": [-60, 49], "scores": [40, 99], "game_winner": None}


def test_dd_trick_minimum_sets_bidders_whatever_their_meld() -> None:
    """Bidders meld 100 + tricks 19 = 119 >= 60 but tricks under 20: set."""
    answer = score(DD, meld=[100, 0], tricks=[19, 31], tricks_won=[5, 15])
    assert answer["made"] is False and answer["delta"] == [-60, 31]
    made = score(DD, meld=[100, 0], tricks=[20, 30], tricks_won=[5, 15])
    assert made["made"] is True and made["delta"] == [120, 30]


def test_dd_meld_under_minimum_does_not_count_for_bidders() -> None:
    """Bidders meld 19 (under 20: 0) + tricks 45 = 45 < 50: set."""
    answer = score(DD, contract=50, meld=[19, 0], tricks=[45, 5], tricks_won=[18, 2])
    assert answer["made"] is False and answer["delta"] == [-50, 0]


# --- SCORE-OPPONENTS-TRICK (single-deck), online ---------------------------------------------


def test_sd_opponents_without_a_trick_score_nothing() -> None:
    """Team 1 bid 200: meld 50 + 250 = 300 made. Team 0 took no trick: its 100 meld is lost."""
    answer = score(
        SD,
        bidder_team=1,
        contract=200,
        meld=[100, 50],
        tricks=[0, 250],
        tricks_won=[0, 12],
    )
    assert answer == {"made": True, "delta": [0, 300], "scores": [0, 300], "game_winner": None}


def test_sd_opponents_with_one_trick_score_meld_and_tricks() -> None:
    answer = score(
        SD, bidder_team=1, contract=200, meld=[100, 50], tricks=[0, 250], tricks_won=[1, 11]
    )
    assert answer["delta"] == [100, 300]


def test_online_opponents_score_without_a_trick() -> None:
    answer = score(
        ONLINE, bidder_team=1, contract=250, meld=[60, 40], tricks=[0, 250], tricks_won=[0, 12]
    )
    assert answer["delta"] == [60, 290]


# --- SCORE-THROW-IN, MELD-SHORT-BIDDER, TRUMP-NO-MARRIAGE ------------------------------------


def test_throw_in() -> None:
    """Bidders lose the contract; opponents score counted meld (no trick condition)."""
    answer = score(DD, outcome="thrown_in", meld=[40, 30], tricks=[0, 0], tricks_won=[0, 0])
    assert answer == {"made": False, "delta": [-60, 30], "scores": [-60, 30], "game_winner": None}
    under = score(DD, outcome="thrown_in", meld=[40, 19], tricks=[0, 0], tricks_won=[0, 0])
    assert under["delta"] == [-60, 0]


def test_meld_short() -> None:
    answer = score(DD, contract=52, outcome="meld_short", meld=[12, 26], tricks=[0, 0])
    assert answer["delta"] == [-52, 26] and answer["made"] is False


def test_no_marriage() -> None:
    answer = score(DD, bidder_team=1, contract=50, outcome="no_marriage", meld=[0, 0])
    assert answer["delta"] == [0, -50]


# --- game end --------------------------------------------------------------------------------


def test_target_reached_by_one_team() -> None:
    answer = score(DD, meld=[40, 0], tricks=[30, 20], scores=[440, 100])
    assert answer["scores"] == [510, 120] and answer["game_winner"] == 0
    not_yet = score(DD, meld=[40, 0], tricks=[30, 20], scores=[429, 100])
    assert not_yet["scores"] == [499, 120] and not_yet["game_winner"] is None


def test_bid_to_win_at_400_inclusive() -> None:
    """Both at 400 or more before the hand: only the bidders can win. Opponents (team 1) reach
    500 with 24 + 26 = 50 but bidders are set: no winner."""
    answer = score(DD, meld=[20, 24], tricks=[24, 26], scores=[400, 450])
    assert answer["scores"] == [340, 500] and answer["game_winner"] is None
    # With one team at 399 bid-to-win is not in effect: team 1 reaches 500 and wins.
    answer = score(DD, meld=[20, 24], tricks=[24, 26], scores=[399, 450])
    assert answer["game_winner"] == 1


def test_bid_to_win_option_over_400_and_off() -> None:
    over = load_rules("double-deck", {"bid_to_win": "over-400"})
    assert score(over, meld=[20, 24], tricks=[24, 26], scores=[400, 450])["game_winner"] == 1
    off = load_rules("double-deck", {"bid_to_win": "off"})
    assert score(off, meld=[20, 24], tricks=[24, 26], scores=[420, 450])["game_winner"] == 1


def test_both_reach_500_bidders_win() -> None:
    """dd from 390/390 (bid-to-win not in effect): bidders (team 1) meld 90 + tricks 25 = 115
    -> 505; opponents 30 + 25 = 55 -> 445. With opponents' meld 100 both pass 500: bidders."""
    answer = score(DD, bidder_team=1, meld=[30, 90], tricks=[25, 25], scores=[390, 390])
    assert answer["scores"] == [445, 505] and answer["game_winner"] == 1
    both = score(DD, bidder_team=1, meld=[100, 90], tricks=[25, 25], scores=[390, 390])
    assert both["scores"] == [515, 505] and both["game_winner"] == 1


def test_sd_tie_break_option() -> None:
    """sd, bidders team 0 make 150 + 100 = 250 -> 1050; opponents 60 + 150 = 210 -> 1110."""
    kw = {"contract": 200, "meld": [150, 60], "tricks": [100, 150], "tricks_won": [5, 7]}
    assert score(SD, scores=[800, 900], **kw)["game_winner"] == 0
    higher = load_rules("single-deck", {"tie_break": "higher-score"})
    answer = score(higher, scores=[800, 900], **kw)
    assert answer["scores"] == [1050, 1110] and answer["game_winner"] == 1


def test_sd_negative_loss_option() -> None:
    """negative_loss=-1000 (ERRATA-HOUSE-NEGATIVE-LOSS): bidders set to -1000 or lower lose;
    -990 plays on; the default never ends a game below zero."""
    low = load_rules("single-deck", {"negative_loss": "-1000"})
    kw = {"contract": 200, "meld": [60, 40], "tricks": [120, 130], "tricks_won": [6, 6]}
    assert score(low, scores=[-800, 0], **kw)["scores"] == [-1000, 170]
    assert score(low, scores=[-800, 0], **kw)["game_winner"] == 1
    assert score(SD, scores=[-800, 0], **kw)["game_winner"] is None
    assert score(low, scores=[-790, 0], **kw)["game_winner"] is None
    assert score(low, bidder_team=1, scores=[0, -800], **kw)["game_winner"] == 0  # 40 + 130 < 200
    assert scoring.game_winner(low, 0, [0, 0], [-1500, -1200]) == 1  # the bidders lose first


def test_rounds_option() -> None:
    rules = load_rules("online", {"rounds": "3"})
    kw = {"contract": 250, "meld": [100, 0], "tricks": [200, 50], "tricks_won": [10, 2]}
    assert score(rules, hand=2, scores=[2000, 0], **kw)["game_winner"] is None
    assert score(rules, hand=3, scores=[0, 0], **kw)["game_winner"] == 0
    behind = score(rules, hand=3, scores=[-300, 50], **kw)
    assert behind["scores"] == [0, 100] and behind["game_winner"] == 1
    later = score(rules, hand=4, scores=[-250, 100], **kw)
    assert later["scores"] == [50, 150] and later["game_winner"] == 1
    even = score(rules, hand=3, scores=[-300, -50], **kw)
    assert even["scores"] == [0, 0] and even["game_winner"] is None
    with pytest.raises(EngineError, match="hand"):
        reference_in_process().call("score_hand", {**score_params(rules), **kw})


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"bidder_team": 2}, "bidder_team"),
        ({"contract": "60"}, "contract"),
        ({"outcome": "won"}, "outcome"),
        ({"meld": [10]}, "meld"),
        ({"meld": [-1, 0]}, "meld[0]"),
        ({"tricks": [30, 30]}, "add up to 60"),
        ({"tricks_won": [10, 9]}, "tricks_won"),
        ({"tricks": [2, 48], "tricks_won": [0, 20]}, "won no trick"),
        ({"scores": [0, "1"]}, "scores[1]"),
        ({"hand": 0}, "hand"),
    ],
)
def test_bad_input_is_named(change: dict[str, Any], words: str) -> None:
    """Checked by the protocol server (params schema, then the adapter's figure checks)."""
    with pytest.raises(EngineError, match=words.replace("[", r"\[").replace("]", r"\]")):
        reference_in_process().call("score_hand", {**score_params(DD), **change})


def score_params(rules: Rules) -> dict[str, Any]:
    """A made hand of 60 with nothing else happening: cases change the figures they test."""
    return {
        "variant": rules.variant,
        "options": dict(rules.options),
        "bidder_team": 0,
        "contract": 60,
        "outcome": "played",
        "meld": [0, 0],
        "tricks": [25, 25],
        "tricks_won": [10, 10],
        "scores": [0, 0],
    }


@given(
    st.integers(0, 1),
    st.integers(50, 200),
    st.integers(0, 300),
    st.integers(0, 300),
    st.integers(0, 50),
    st.integers(-500, 600),
    st.integers(-500, 600),
)
def test_dd_played_delta_is_total_or_minus_contract(
    bidders: int, contract: int, m0: int, m1: int, t0: int, s0: int, s1: int
) -> None:
    """Made iff counted meld + tricks reaches the contract with tricks >= 20."""
    won = [10, 10] if 0 < t0 < 50 else ([0, 20] if t0 == 0 else [20, 0])
    answer = score(
        DD,
        bidder_team=bidders,
        contract=contract,
        meld=[m0, m1],
        tricks=[t0, 50 - t0],
        tricks_won=won,
        scores=[s0, s1],
    )
    meld = [m0, m1][bidders]
    tricks = [t0, 50 - t0][bidders]
    total = (meld if meld >= 20 else 0) + tricks
    made = tricks >= 20 and total >= contract
    assert answer["made"] is made
    assert answer["delta"][bidders] == (total if made else -contract)
    assert answer["scores"] == [s0 + answer["delta"][0], s1 + answer["delta"][1]]
