"""The reference engine's trace: every answer it gives, with the rule that decided it."""

from __future__ import annotations

import random

import pytest

from reference_engine import bots, trace
from reference_engine.cards import HEARTS, SPADES, hand_counts, parse_cards
from reference_engine.hand import HandState, replay
from reference_engine.variants import load_rules

DD = load_rules("double-deck")
SD = load_rules("single-deck")
POST = load_rules("double-deck", {"trick_rules": "post-1945"})


@pytest.mark.parametrize(
    ("hand", "trick", "rules", "rule"),
    [
        ("As Ks Jd Ah", "", DD, "PLAY-LEAD"),
        ("As Ks Js Ah", "Qs", DD, "PLAY-CRAWL"),
        ("Ks Js Ah", "Ts", DD, "PLAY-FOLLOW"),
        ("As Qs", "As", DD, "PLAY-CRAWL"),  # an identical ace cannot beat
        ("As Qs Ah", "Ks Th", DD, "PLAY-TRUMPED-TRICK"),
        ("Ah Jh Ad", "Ks", DD, "PLAY-TRUMP-VOID"),
        ("Ah Jh Ad", "Ks Kh", DD, "PLAY-OVERTRUMP"),
        ("Ad Kc", "Ks Kh", DD, "PLAY-DISCARD"),
        ("Ah Kh Qh", "Th", DD, "PLAY-CRAWL"),  # trump led
        ("As Ks Js Ah", "Qs", POST, "PLAY-POST-1945"),  # the lifted duty would have bound
        ("Ah Jh Ad", "Ks Kh", POST, "PLAY-POST-1945"),
        ("Ah Kh Qh", "Th", POST, "PLAY-CRAWL"),  # trump led: the duty holds
    ],
)
def test_legal_plays_name_their_obligation(hand: str, trick: str, rules, rule: str) -> None:  # type: ignore[no-untyped-def]
    decided = trace.legal_plays(hand_counts(hand), parse_cards(trick), HEARTS, rules)
    assert decided.rule == rule
    assert decided.point == "legal_plays"


def test_a_refused_card_names_the_rule_it_breaks() -> None:
    d = trace.play(hand_counts("As Ks Js Ah"), parse_cards("Qs"), HEARTS, DD, parse_cards("Js")[0])
    assert (d.rule, d.value) == ("PLAY-CRAWL", False)
    d = trace.play(hand_counts("As Ah"), parse_cards("Qs"), HEARTS, DD, parse_cards("Ah")[0])
    assert (d.rule, d.value) == ("PLAY-FOLLOW", False)
    d = trace.play(hand_counts("As"), parse_cards("Qs"), HEARTS, DD, parse_cards("Kd")[0])
    assert (d.rule, d.value) == ("PLAY-TURN", False)


@pytest.mark.parametrize(
    ("trick", "trump", "winner", "rule"),
    [
        ("Ks As Ts Qs", HEARTS, 1, "TRICK-WINNER"),
        ("As As As As", HEARTS, 0, "TRICK-IDENTICAL"),
        ("Qs Ad Ac Ah", SPADES, 0, "TRICK-WINNER"),
    ],
)
def test_trick_winner(trick: str, trump: int, winner: int, rule: str) -> None:
    d = trace.trick_winner(parse_cards(trick), trump)
    assert (d.value, d.rule) == (winner, rule)


def test_meld_items_and_what_is_kept_from_counting() -> None:
    # Hearts trump: a run (its own K-Q is no royal marriage), a plain marriage in spades, tens
    # around (worth nothing).
    hand = hand_counts("Ah Th Kh Qh Jh Ks Qs Ts Td Tc")
    found = trace.meld_items(hand, HEARTS, DD, seat=2)
    items = {(d.rule, d.value["id"]) for d in found if d.point == "meld item"}  # type: ignore[index]
    assert items == {("MELD-RUN", "run"), ("MELD-MARRIAGE", "marriage")}
    kept = {d.rule for d in found if d.point == "meld kept"}
    assert kept == {"MELD-ROYAL-MARRIAGE", "MELD-MARRIAGE", "MELD-TENS-AROUND"}
    assert all(d.seat == 2 for d in found)


def test_scoring_steps() -> None:
    # Single-deck: opponents who took no trick score nothing (SCORE-OPPONENTS-TRICK).
    found = trace.score_hand(SD, 0, 300, "played", [100, 60], [250, 0], [12, 0], [0, 0])
    by_point = {(d.point, d.team): d for d in found}
    assert by_point["made", 0].rule == "SCORE-MADE"
    assert (by_point["delta", 1].rule, by_point["delta", 1].value) == ("SCORE-OPPONENTS-TRICK", 0)
    assert by_point["game_winner", None].rule == "GAME-TARGET"
    # Double-deck: bidders under 20 in tricks are set whatever their meld.
    found = trace.score_hand(DD, 1, 60, "played", [30, 90], [40, 10], [10, 10], [0, 0])
    made = next(d for d in found if d.point == "made")
    assert (made.rule, made.value) == ("SCORE-TRICK-MINIMUM", False)
    # Both sides reach the target.
    found = trace.score_hand(DD, 0, 60, "played", [30, 30], [30, 20], [10, 10], [480, 480])
    assert found[-1].rule == "GAME-BID-TO-WIN"


def test_auction_trace() -> None:
    # Single-deck: the dealer opens at 150; seat 1 then bids 160 and seat 2 bids 165 (steps).
    found, state = trace.auction_trace(SD, 0, [(0, 150), (1, 160), (2, 165)])
    assert [d.rule for d in found[:2]] == ["AUCTION-FIRST-BIDDER", "AUCTION-DEALER-OPENS"]
    refused = next(d for d in found if d.value is False)
    assert (refused.rule, refused.index) == ("AUCTION-STEP", 2)
    assert state.high_bid == 160
    assert [d.point for d in found[-3:]] == ["turn", "min_bid", "can_pass"]  # before the refusal
    found, _ = trace.auction_trace(SD, 0, [(0, 150), (1, None)])
    assert found[-2:][0].point == "min_bid" and found[-2].rule == "AUCTION-HIGHER"
    found, _ = trace.auction_trace(SD, 0, [(1, 150)])
    call = next(d for d in found if d.point == "call")
    assert (call.rule, call.value) == ("AUCTION-TURN", False)
    assert (found[-1].point, found[-1].rule) == ("can_pass", "AUCTION-DEALER-OPENS")


@pytest.mark.parametrize("variant", ["double-deck", "single-deck", "online"])
def test_a_traced_hand_is_the_hand_played(variant: str) -> None:
    """Tracing replays the same hand: the same score, one verdict per action, one winner and
    one counters decision per trick, and every decision names a rule of the spec's form."""
    rules = load_rules(variant)
    for seed in range(4):
        played = bots.playout(rules, random.Random(seed), bots.simple)
        again = HandState(rules, played.dealer, played.deal, played.scores_before, played.number)
        found = trace.hand_trace(again, [a for _, a in played.actions])
        assert again.score == played.score
        verdicts = [d for d in found if d.index is not None and d.point not in _PER_TRICK]
        assert sorted({d.index for d in verdicts}) == list(range(len(played.actions)))
        winners = [d for d in found if d.point == "trick winner"]
        assert [d.value for d in winners] == [t.winner for t in played.tricks]
        assert sum(d.point == "card_points" for d in found) == len(played.tricks)
        assert all(d.rule.count("-") >= 1 and d.rule.isupper() for d in found)


_PER_TRICK = ("trick winner", "card_points", "last trick", "contract")


def test_a_hand_trace_stops_at_the_refused_action() -> None:
    played = bots.playout(DD, random.Random(3), bots.simple)
    again = HandState(DD, played.dealer, played.deal)
    seat, first_call = played.actions[0]
    twice, seats = [first_call, first_call], [seat, seat]  # the same seat calls again
    found = trace.hand_trace(again, twice, seats)
    assert found[-1].value is False and found[-1].index == 1
    _, illegal = replay(HandState(DD, played.dealer, played.deal), twice, seats)
    assert illegal is not None and found[-1].rule == illegal.rule


def test_play_tricks_and_game_traces() -> None:
    hands = [hand_counts(h) for h in ("As Kd", "Ts Qd", "Ah Jd", "9s 9d")]
    found = trace.tricks_trace(SD, HEARTS, 0, hands, parse_cards("As Ts Ah 9s"))
    assert [d.rule for d in found if d.point == "play"] == [
        "PLAY-LEAD",
        "PLAY-FOLLOW",
        "PLAY-TRUMP-VOID",
        "PLAY-TRUMPED-TRICK",
    ]
    assert [d.value for d in found if d.point == "trick winner"] == [2]


def test_the_reference_server_traces_protocol_params() -> None:
    """``pinochle_adapters.reference.decisions``: the trace of the params an engine was sent,
    as JSON objects; params it cannot read give none."""
    from pinochle_adapters.reference import decisions

    params = {
        "variant": "single-deck",
        "options": {},
        "trump": "h",
        "leader": 0,
        "hands": [["As", "Kd"], ["Ts", "Qd"], ["Ah", "Jd"], ["9s", "9d"]],
        "plays": ["As", "Ts", "Ah", "9s", "Kd", "Qd"],
    }
    found = decisions("play_tricks", params)
    assert [d["rule"] for d in found if d["point"] == "play"][:2] == ["PLAY-LEAD", "PLAY-FOLLOW"]
    # Seat 2 won the trick and leads: Kd is not in its hand.
    assert found[-1] == {
        "rule": "PLAY-TURN",
        "point": "play",
        "value": False,
        "index": 4,
        "seat": 2,
    }
    legal = decisions("legal_plays", {**params, "hand": ["Ks", "Js", "Ah"], "trick": ["Qs"]})
    assert legal == [
        {"rule": "PLAY-CRAWL", "point": "legal_plays", "value": ["Ks"], "also": ["PLAY-FOLLOW"]}
    ]
    assert decisions("meld", {"variant": "nope", "options": {}}) == []
