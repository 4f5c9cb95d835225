"""The auction (AUCTION-*): hand-worked call sequences per variant, legal and illegal."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_adapters.reference import ReferenceEngine
from reference_engine import auction
from reference_engine.errors import IllegalAction
from reference_engine.variants import Rules, load_rules

DD = load_rules("double-deck")
SD = load_rules("single-deck")
ONLINE = load_rules("online")
SD_FOUR = load_rules("single-deck", {"auction_end": "four-passes"})
SD_LEFT = load_rules("single-deck", {"first_bidder": "left-of-dealer"})
SD_ANY = load_rules("single-deck", {"bid_step": "any"})
DD_CAP = load_rules("double-deck", {"max_bid": "target"})


def calls(*items: tuple[int, int | None]) -> list[dict[str, Any]]:
    """Protocol calls from (seat, bid or None for pass)."""
    return [{"seat": s, "pass": True} if b is None else {"seat": s, "bid": b} for s, b in items]


def run(rules: Rules, dealer: int, *items: tuple[int, int | None]) -> auction.AuctionState:
    state = auction.start(rules, dealer)
    for seat, call in items:
        state = auction.apply_call(state, rules, seat, call)
    return state


def summary(rules: Rules, dealer: int, items: list[dict[str, Any]]) -> dict[str, Any]:
    """The protocol ``auction`` answer (shaped by the reference adapter)."""
    params = {"variant": rules.variant, "options": dict(rules.options), "dealer": dealer}
    return dict(ReferenceEngine().auction({**params, "calls": items}))


def violation(rules: Rules, dealer: int, *items: tuple[int, int | None]) -> str:
    state = auction.start(rules, dealer)
    for seat, call in items:
        try:
            state = auction.apply_call(state, rules, seat, call)
        except IllegalAction as err:
            return err.rule
    raise AssertionError(f"every call was legal: {items}")


# --- AUCTION-FIRST-BIDDER, AUCTION-TURN ------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "dealer", "first"), [(DD, 0, 1), (DD, 3, 0), (SD, 2, 2), (ONLINE, 1, 1)]
)
def test_first_bidder(rules: Rules, dealer: int, first: int) -> None:
    """dd: left of the dealer; sd and online: the dealer."""
    assert auction.start(rules, dealer).next_seat == first


def test_out_of_turn_is_auction_turn() -> None:
    assert violation(DD, 0, (2, 50)) == "AUCTION-TURN"
    assert violation(DD, 0, (1, 50), (3, 55)) == "AUCTION-TURN"


def test_turn_skips_passed_seats() -> None:
    state = run(DD, 0, (1, 50), (2, None), (3, 51), (0, None))
    assert state.next_seat == 1
    state = auction.apply_call(state, DD, 1, 55)
    assert state.next_seat == 3  # 2 and 0 passed


# --- AUCTION-OPENING-MIN, AUCTION-HIGHER, AUCTION-STEP ---------------------------------------


def test_dd_bids() -> None:
    """dd: minimum 50, by ones to 60, then multiples of 5; jumps allowed."""
    assert violation(DD, 0, (1, 49)) == "AUCTION-OPENING-MIN"
    assert violation(DD, 0, (1, 61)) == "AUCTION-STEP"
    assert violation(DD, 0, (1, 64)) == "AUCTION-STEP"
    assert violation(DD, 0, (1, 50), (2, 50)) == "AUCTION-HIGHER"
    assert violation(DD, 0, (1, 55), (2, 53)) == "AUCTION-HIGHER"
    state = run(DD, 0, (1, 50), (2, 60), (3, 65), (0, 100))
    assert state.high_bid == 100 and state.high_bidder == 0


def test_precedence_below_minimum_before_higher() -> None:
    """A bid under the minimum and under the high bid: AUCTION-OPENING-MIN."""
    assert violation(DD, 0, (1, 55), (2, 45)) == "AUCTION-OPENING-MIN"
    # Not above the high bid and off the step: AUCTION-HIGHER comes first.
    assert violation(DD, 0, (1, 70), (2, 63)) == "AUCTION-HIGHER"


def test_sd_bids_in_tens() -> None:
    assert violation(SD, 0, (0, 150), (1, 155)) == "AUCTION-STEP"
    assert violation(SD, 0, (0, 150), (1, 140)) == "AUCTION-OPENING-MIN"
    state = run(SD, 0, (0, 150), (1, 300))
    assert state.high_bid == 300


def test_online_raise_limit() -> None:
    """online: opening any multiple of 10 from 250; raises of 10 to 50."""
    state = run(ONLINE, 0, (0, 400))  # an opening bid is not a raise
    assert state.high_bid == 400
    for raise_ in (10, 20, 30, 40, 50):
        assert run(ONLINE, 0, (0, 250), (1, 250 + raise_)).high_bid == 250 + raise_
    assert violation(ONLINE, 0, (0, 250), (1, 310)) == "AUCTION-STEP"
    assert violation(ONLINE, 0, (0, 250), (1, 255)) == "AUCTION-STEP"
    assert violation(ONLINE, 0, (0, 240)) == "AUCTION-OPENING-MIN"


# --- AUCTION-PASS-FINAL, AUCTION-END ---------------------------------------------------------


def test_pass_is_final() -> None:
    state = run(DD, 0, (1, 50), (2, None), (3, 55), (0, 60), (1, 65))
    with pytest.raises(IllegalAction) as err:
        auction.apply_call(state, DD, 2, 70)
    assert err.value.rule == "AUCTION-PASS-FINAL"
    assert "seat 2 passed earlier and cannot bid 70" in str(err.value)


def test_pass_final_is_reported_before_turn() -> None:
    """Seat 2 passed and calls when seat 3 is next: PASS-FINAL, not TURN."""
    assert violation(DD, 0, (1, 50), (2, None), (2, 55)) == "AUCTION-PASS-FINAL"


def test_three_passes_end_the_auction() -> None:
    state = run(DD, 0, (1, 50), (2, 51), (3, None), (0, None), (1, None))
    assert state.complete and state.winner == 2 and state.contract == 51
    with pytest.raises(IllegalAction) as err:
        auction.apply_call(state, DD, 2, 60)
    assert err.value.rule == "AUCTION-END"
    assert auction.legal_calls(state, DD) == []


def test_call_after_end_is_auction_end_even_for_passed_seat() -> None:
    assert violation(DD, 0, (1, 50), (2, None), (3, None), (0, None), (2, 55)) == "AUCTION-END"


# --- AUCTION-DEALER-FORCED, AUCTION-DEALER-OPENS ---------------------------------------------


def test_dd_dealer_forced_to_fifty() -> None:
    answer = summary(DD, 0, calls((1, None), (2, None), (3, None)))
    assert answer["next_seat"] == 0 and answer["min_bid"] == 50 and answer["can_pass"] is False
    assert violation(DD, 0, (1, None), (2, None), (3, None), (0, None)) == "AUCTION-DEALER-FORCED"
    assert violation(DD, 0, (1, None), (2, None), (3, None), (0, 55)) == "AUCTION-DEALER-FORCED"
    state = run(DD, 0, (1, None), (2, None), (3, None), (0, 50))
    assert state.complete and state.winner == 0 and state.contract == 50


def test_online_forced_seat_is_dealers_right() -> None:
    """online: the dealer speaks first, so the fourth speaker is on the dealer's right."""
    answer = summary(ONLINE, 1, calls((1, None), (2, None), (3, None)))
    assert answer["next_seat"] == 0 and answer["min_bid"] == 250 and answer["can_pass"] is False
    assert violation(ONLINE, 1, (1, None), (2, None), (3, None), (0, 260)) == (
        "AUCTION-DEALER-FORCED"
    )
    assert run(ONLINE, 1, (1, None), (2, None), (3, None), (0, 250)).winner == 0


def test_sd_dealer_opens_150() -> None:
    answer = summary(SD, 2, [])
    assert answer["next_seat"] == 2 and answer["min_bid"] == 150 and answer["can_pass"] is False
    assert violation(SD, 2, (2, None)) == "AUCTION-DEALER-OPENS"
    assert violation(SD, 2, (2, 160)) == "AUCTION-DEALER-OPENS"
    assert violation(SD, 2, (2, 140)) == "AUCTION-DEALER-OPENS"
    state = run(SD, 2, (2, 150), (3, None), (0, None), (1, None))
    assert state.complete and state.winner == 2 and state.contract == 150


def test_sd_four_passes_gives_high_bidder_last_call() -> None:
    state = run(SD_FOUR, 0, (0, 150), (1, 160), (2, None), (3, None), (0, None))
    assert not state.complete and state.next_seat == 1
    assert auction.min_bid(state, SD_FOUR) == 170 and auction.can_pass(state, SD_FOUR)
    state = auction.apply_call(state, SD_FOUR, 1, 200)
    assert not state.complete and state.next_seat == 1
    state = auction.apply_call(state, SD_FOUR, 1, None)
    assert state.complete and state.winner == 1 and state.contract == 200


# --- summary, legal calls, bad input ---------------------------------------------------------


def test_summary_stops_at_first_illegal_call() -> None:
    answer = summary(DD, 0, calls((1, 50), (2, 61), (3, 70)))
    assert answer == {
        "legal": False,
        "violation": {
            "rule": "AUCTION-STEP",
            "message": answer["violation"]["message"],
            "index": 1,  # the refused call: (2, 61)
        },
        "complete": False,
        "next_seat": 2,
        "winner": None,
        "contract": None,
        "min_bid": 51,
        "can_pass": True,
    }
    assert "seat 2" in answer["violation"]["message"] and "61" in answer["violation"]["message"]


def test_summary_min_bid_after_sixty() -> None:
    assert summary(DD, 0, calls((1, 60)))["min_bid"] == 65
    assert summary(DD, 0, calls((1, 59)))["min_bid"] == 60
    assert summary(SD, 0, calls((0, 150)))["min_bid"] == 160


def test_legal_calls_are_every_bid_up_to_the_ceiling() -> None:
    """Pass first, then every legal bid ascending; online raises stop at 50 over the high bid."""
    state = run(ONLINE, 0, (0, 250))
    assert auction.legal_calls(state, ONLINE) == [None, 260, 270, 280, 290, 300]
    dd = auction.legal_calls(run(DD, 0, (1, 58)), DD)
    assert dd[:6] == [None, 59, 60, 65, 70, 75]
    assert dd[-1] == DD.bid_ceiling - DD.bid_ceiling % 5
    assert len(dd) == 1 + 2 + (DD.bid_ceiling - 60) // 5
    forced = run(DD, 0, (1, None), (2, None), (3, None))
    assert auction.legal_calls(forced, DD) == [50]
    assert auction.legal_calls(auction.start(SD, 0), SD) == [150]


# --- house-rule options (ERRATA-AUCTION-HOUSE-RULES) -----------------------------------------


def test_sd_left_of_dealer_opens_freely_and_dealer_is_forced_last() -> None:
    """first_bidder=left-of-dealer: seat left of the dealer calls first and may pass; three
    passes force the dealer to 150 (AUCTION-DEALER-FORCED), never AUCTION-DEALER-OPENS."""
    answer = summary(SD_LEFT, 2, [])
    assert answer["next_seat"] == 3 and answer["min_bid"] == 150 and answer["can_pass"] is True
    assert violation(SD_LEFT, 2, (2, 150)) == "AUCTION-TURN"
    assert violation(SD_LEFT, 2, (3, 140)) == "AUCTION-OPENING-MIN"
    assert run(SD_LEFT, 2, (3, 200)).next_seat == 0
    assert violation(SD_LEFT, 2, (3, None), (0, None), (1, None), (2, None)) == (
        "AUCTION-DEALER-FORCED"
    )
    assert violation(SD_LEFT, 2, (3, None), (0, None), (1, None), (2, 160)) == (
        "AUCTION-DEALER-FORCED"
    )
    state = run(SD_LEFT, 2, (3, None), (0, None), (1, None), (2, 150))
    assert state.complete and state.winner == 2 and state.contract == 150
    state = run(SD_LEFT, 2, (3, 150), (0, None), (1, None), (2, None))
    assert state.complete and state.winner == 3 and state.contract == 150


def test_sd_bid_step_any_takes_every_higher_whole_number() -> None:
    assert run(SD_ANY, 0, (0, 150), (1, 151)).high_bid == 151
    assert auction.legal_calls(run(SD_ANY, 0, (0, 150)), SD_ANY)[:4] == [None, 151, 152, 153]
    assert violation(SD_ANY, 0, (0, 150), (1, 150)) == "AUCTION-HIGHER"
    assert violation(SD_ANY, 0, (0, 151)) == "AUCTION-DEALER-OPENS"
    assert violation(SD, 0, (0, 150), (1, 151)) == "AUCTION-STEP"


def test_dd_max_bid_target_caps_bids_at_the_target() -> None:
    """max_bid=target: no bid over the target (AUCTION-STEP); at the cap only passes remain."""
    assert DD_CAP.auction.maximum == 500 and DD.auction.maximum is None
    assert load_rules("double-deck", {"max_bid": "target", "target": 350}).auction.maximum == 350
    assert violation(DD_CAP, 0, (1, 450), (2, 505)) == "AUCTION-STEP"
    assert run(DD, 0, (1, 450), (2, 505)).high_bid == 505
    assert auction.legal_calls(run(DD_CAP, 0, (1, 490)), DD_CAP) == [None, 495, 500]
    at_cap = run(DD_CAP, 0, (1, 500))
    assert auction.legal_calls(at_cap, DD_CAP) == [None]
    assert auction.min_bid(at_cap, DD_CAP) is None
    assert summary(DD_CAP, 0, calls((1, 500)))["min_bid"] is None
    assert run(DD_CAP, 0, (1, 500), (2, None), (3, None), (0, None)).contract == 500


HOUSE = [SD_LEFT, SD_ANY, DD_CAP]


@pytest.mark.parametrize("rules", [DD, SD, ONLINE, SD_FOUR])
def test_bid_ceiling_is_beyond_any_makeable_contract(rules: Rules) -> None:
    """The ceiling is all card points plus twice the deck's meld: more than any side scores."""
    from reference_engine.meld import meld_total

    most = max(meld_total(rules.deck_counts, trump, rules) for trump in range(4))
    assert rules.bid_ceiling >= rules.total_card_points + 2 * most


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([DD, SD, ONLINE, SD_FOUR, *HOUSE]), st.integers(0, 3), st.data())
def test_legal_calls_are_exactly_the_accepted_calls(
    rules: Rules, dealer: int, data: st.DataObject
) -> None:
    """A call up to the ceiling is accepted exactly when ``legal_calls`` lists it (sampled)."""
    state = auction.start(rules, dealer)
    for _ in range(data.draw(st.integers(0, 6))):
        if state.next_seat is None:
            break
        call = data.draw(st.sampled_from(auction.legal_calls(state, rules)))
        state = auction.apply_call(state, rules, state.next_seat, call)
    listed = set(auction.legal_calls(state, rules))
    seat = state.next_seat if state.next_seat is not None else 0
    low, top = rules.auction.minimum, rules.bid_ceiling
    for call in [None, *range(low - 20, low + 400), *range(top - 30, top + 1)]:
        try:
            auction.apply_call(state, rules, seat, call)
        except IllegalAction:
            assert call not in listed
        else:
            assert call in listed
    bids = [c for c in listed if c is not None]
    if bids:  # min_bid may lie above the ceiling, where legal_calls stops
        assert auction.min_bid(state, rules) == min(bids)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([DD, SD, ONLINE, SD_FOUR, *HOUSE]), st.integers(0, 3), st.data())
def test_random_auctions_end_with_the_high_bid(
    rules: Rules, dealer: int, data: st.DataObject
) -> None:
    """Legal calls always succeed; the auction ends with the highest bid made."""
    state = auction.start(rules, dealer)
    highest = None
    for _ in range(60):
        if state.complete:
            break
        options = auction.legal_calls(state, rules)[:4]
        assert options, "an incomplete auction always has a legal call"
        call = data.draw(st.sampled_from(options))
        if call is not None:
            highest = call
        assert state.next_seat is not None
        state = auction.apply_call(state, rules, state.next_seat, call)
    if state.complete:
        assert state.contract == highest
