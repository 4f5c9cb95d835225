"""Whole hands (hand.py, game.py): hand-built deals whose every figure is worked out from the rules.

Figures are read from the protocol ``play_hand`` answer (shaped by the reference adapter) or from
the hand state itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from pinochle_adapters.reference import ReferenceEngine
from reference_engine import bots, game, hand, text
from reference_engine.actions import text as action_text
from reference_engine.cards import hand_counts, parse_card, parse_cards
from reference_engine.errors import IllegalAction, PinochleError
from reference_engine.game import Game, check_hands
from reference_engine.hand import HandState, Phase, play_violation
from reference_engine.variants import Rules, load_rules

DD = load_rules("double-deck")
SD = load_rules("single-deck")
ONLINE = load_rules("online")
ONLINE_NO_PASS = load_rules("online", {"pass_cards": "0"})


def suit_cards(suit: str) -> list[str]:
    return [r + suit for r in "ATKQJ9" for _ in range(2)]


# sd: each seat holds one whole suit.
SD_SUITED = [suit_cards("s"), suit_cards("h"), suit_cards("d"), suit_cards("c")]

# dd: seat 1 holds only Kh Qh as a marriage; its team's meld is 4 (MELD-SHORT-BIDDER).
DD_SHORT = [
    "Ks Ks Ks Ks Kh Kh Kh Kd Kd Kd Kd Kc Kc Kc Kc Ac Ac Ac Ac Jc",
    "Kh Qh Ts Ts Ts Ts Th Th Th Th Td Td Td Td Tc Tc Tc Tc Js Js",
    "Qs Qs Qs Qs Qh Qh Qh Qd Qd Qd Qd Qc Qc Qc Qc Jd Jd Jd Jd Jc",
    "As As As As Ah Ah Ah Ah Ad Ad Ad Ad Js Js Jh Jh Jh Jh Jc Jc",
]
# The same with seat 1's Kh Qh swapped for seat 3's Js Js: seat 1 holds no marriage.
DD_NO_MARRIAGE = [
    DD_SHORT[0],
    "Js Js Ts Ts Ts Ts Th Th Th Th Td Td Td Td Tc Tc Tc Tc Js Js",
    DD_SHORT[2],
    "As As As As Ah Ah Ah Ah Ad Ad Ad Ad Kh Qh Jh Jh Jh Jh Jc Jc",
]
# online: team 0 (seats 0, 2) holds no meld with spades trump; seat 1 double queens around.
ONLINE_HANDS = [
    "As As Ts Ts Ah Ah Th Th Ad Ad Td Td",
    "Qs Qs Qh Qh Qd Qd Qc Qc 9s 9s 9h 9h",
    "Ks Ks Kh Kh Kd Kd Js Js Jh Jh Jd Jd",
    "9d 9d 9c 9c Ac Ac Tc Tc Kc Kc Jc Jc",
]


def suited_plays() -> list[str]:
    """Seat 0 leads its spades from the top; the others discard the same rank of their suit."""
    plays = []
    for rank in "ATKQJ9":
        for _ in range(2):
            plays += [f"play {rank}{suit}" for suit in "shdc"]
    return plays


def replay(rules: Rules, hands: Sequence[str | Sequence[str]], actions: list[str]) -> HandState:
    """The hand after ``actions`` (all legal) from these hands, dealer 0."""
    state, illegal = hand.replay(HandState(rules, 0, check_hands(rules, hands)), actions)
    assert illegal is None, illegal
    return state


def play_hand(
    rules: Rules,
    dealer: int,
    scores: list[int],
    hands: Sequence[str | Sequence[str]],
    actions: list[Any],
    **extra: Any,
) -> dict[str, Any]:
    """The protocol ``play_hand`` answer."""
    params = {"variant": rules.variant, "options": dict(rules.options), "dealer": dealer}
    hands = [h.split() if isinstance(h, str) else list(h) for h in hands]
    params.update(scores=scores, hands=hands, actions=actions, **extra)
    return dict(ReferenceEngine().play_hand(params))


def apply(state: HandState, action: str, seat: int | None = None) -> HandState:
    state.apply_text(action, seat)
    return state


def legal_actions(state: HandState) -> list[str]:
    return [action_text(a) for a in state.legal_actions()]


# --- a whole single-deck hand ------------------------------------------------------------------


def test_sd_whole_hand_worked_by_hand() -> None:
    """Dealer 0 opens 150 (AUCTION-DEALER-OPENS), all pass: seat 0 bids 150, trump spades.

    Meld with spades trump: seat 0 two runs (double run 300) + two dix (20) = 320; seats 1-3
    two marriages each (40). Team meld 360 / 80. Seat 0 leads trumps and nobody else holds a
    trump or spade, so seat 0 takes all 12 tricks: 240 counters + 10 last trick = 250. Bidders
    360 + 250 = 610 >= 150: made. Opponents won no trick: 0 (SCORE-OPPONENTS-TRICK).
    """
    actions = ["bid 150", "pass", "pass", "pass", "trump s"]
    actions += ["give Ad Ad Td Td", "give Ad Ad Td Td", *suited_plays()]
    answer = play_hand(SD, 0, [0, 0], SD_SUITED, actions)
    assert answer["legal"] is True and answer["first_illegal"] is None
    assert answer["complete"] is True
    assert (answer["bidder"], answer["contract"], answer["trump"]) == (0, 150, "s")
    assert answer["outcome"] == "played"
    assert answer["meld"] == [320, 40, 40, 40]
    assert answer["team_meld"] == [360, 80]
    assert answer["aces_around"] == []
    assert len(answer["tricks"]) == 12
    assert all(t["leader"] == 0 and t["winner"] == 0 for t in answer["tricks"])
    assert answer["tricks"][0]["cards"] == ["As", "Ah", "Ad", "Ac"]
    assert answer["card_points"] == [250, 0]
    assert answer["tricks_won"] == [12, 0]
    assert answer["delta"] == [610, 0]
    assert answer["scores"] == [610, 0]
    assert answer["game_winner"] is None


def test_sd_passing_moves_cards_both_ways() -> None:
    """PASS-CARDS: partner (seat 2) gives four, then the bidder gives four back."""
    state = replay(SD, SD_SUITED, ["bid 150", "pass", "pass", "pass", "trump s"])
    assert state.phase is Phase.PASSING and state.current_seat() == 2
    # Distinct 4-card sets from A T K Q J 9 of diamonds, two of each: 15 + 60 + 15 = 90.
    assert len(legal_actions(state)) == 90
    state = apply(state, "give Ad Td Kd Qd")
    assert state.current_seat() == 0
    assert state.hands[0] == hand_counts([*suit_cards("s"), "Ad", "Td", "Kd", "Qd"])
    state = apply(state, "give Kd 9s 9s Js")
    assert state.hands[0] == hand_counts(
        ["As", "As", "Ts", "Ts", "Ks", "Ks", "Qs", "Qs", "Js", "Ad", "Td", "Qd"]
    )
    # Seat 2 kept Ad Td Kd Qd Jd Jd 9d 9d and received Kd 9s 9s Js.
    assert state.hands[2] == hand_counts("Ad Td Kd Kd Qd Jd Jd 9d 9d 9s 9s Js")
    assert state.phase is Phase.PLAY and state.current_seat() == 0


@pytest.mark.parametrize(
    ("action", "seat", "rule", "words"),
    [
        ("give Ad Td Kd", None, "PASS-CARDS", "exactly 4"),
        ("give Ad Ad Ad Td", None, "PASS-CARDS", "not held"),
        ("give As As Ts Ts", 0, "PASS-CARDS", "seat 2's turn"),
        # An action of another phase breaks the rule of its own kind.
        ("play Ad", None, "PLAY-TURN", "only in trick play"),
        ("trump h", None, "TRUMP-CALL", "already spades"),
        ("bid 160", None, "AUCTION-END", "the auction is over"),
        ("throw-in", None, "SCORE-THROW-IN", "no throw-in"),
    ],
)
def test_passing_errors(action: str, seat: int | None, rule: str, words: str) -> None:
    state = replay(SD, SD_SUITED, ["bid 150", "pass", "pass", "pass", "trump s"])
    with pytest.raises(IllegalAction) as err:
        apply(state, action, seat=seat)
    assert err.value.rule == rule and words in str(err.value)


# --- double-deck: meld short, no marriage, trump marriage ------------------------------------


def test_dd_meld_short() -> None:
    """Seat 1 bids 50; trump h (its only marriage). Meld: seat 0 kings around x3 = 120; seat 1
    royal marriage 4; seat 2 queens around x3 90 + four pinochles 90 = 180; seat 3 nothing.
    Bidders' 4 < 20: the hand ends (MELD-SHORT-BIDDER): team 1 -50, team 0 +300."""
    answer = play_hand(DD, 0, [100, 100], DD_SHORT, ["bid 50", "pass", "pass", "pass", "trump h"])
    assert answer["legal"] and answer["complete"]
    assert answer["outcome"] == "meld_short"
    assert answer["meld"] == [120, 4, 180, 0]
    assert answer["team_meld"] == [300, 4]
    assert answer["tricks"] is None
    assert answer["delta"] == [300, -50]
    assert answer["scores"] == [400, 50]


def test_actions_of_another_phase_break_their_own_rule() -> None:
    """Trump named during the auction: TRUMP-CALL; a bid after it: AUCTION-END."""
    early = play_hand(DD, 0, [0, 0], DD_SHORT, ["bid 50", "trump h"])
    assert early["first_illegal"]["rule"] == "TRUMP-CALL"
    late = play_hand(DD, 0, [0, 0], DD_SHORT, ["bid 50", "pass", "pass", "pass", "bid 55"])
    assert late["first_illegal"]["rule"] == "AUCTION-END"
    assert late["bidder"] == 1 and late["contract"] == 50
    none = load_rules("double-deck", {"throw_in": "none"})
    hands = dd_enough_meld()
    state = replay(none, hands, ["bid 50", "pass", "pass", "pass", "trump h"])
    assert state.phase is Phase.PLAY
    with pytest.raises(IllegalAction) as err:
        apply(state, "throw-in")
    assert err.value.rule == "SCORE-THROW-IN"


def test_dd_trump_needs_marriage() -> None:
    answer = play_hand(DD, 0, [0, 0], DD_SHORT, ["bid 50", "pass", "pass", "pass", "trump s"])
    assert answer["legal"] is False
    assert answer["first_illegal"]["index"] == 4
    assert answer["first_illegal"]["rule"] == "TRUMP-MARRIAGE"
    assert answer["bidder"] == 1 and answer["trump"] is None and answer["complete"] is False


def test_dd_no_marriage_ends_hand_after_auction() -> None:
    answer = play_hand(DD, 0, [0, 0], DD_NO_MARRIAGE, ["bid 50", "pass", "pass", "pass"])
    assert answer["complete"] and answer["outcome"] == "no_marriage"
    assert answer["trump"] is None and answer["meld"] is None
    assert answer["delta"] == [0, -50]
    extra = play_hand(DD, 0, [0, 0], DD_NO_MARRIAGE, ["bid 50", "pass", "pass", "pass", "trump h"])
    assert extra["first_illegal"]["rule"] == "TRUMP-NO-MARRIAGE"


def dd_enough_meld() -> list[list[str]]:
    """DD_SHORT with seat 1's Js Js swapped for seat 3's Ah Jh (seat 1: a run in hearts) and
    seat 3's Jc Jc swapped for seat 2's Qs Jd (seat 3: a pinochle)."""
    hands = [h.split() for h in DD_SHORT]
    for seat, out, into in [(1, ["Js", "Js"], ["Ah", "Jh"]), (3, ["Ah", "Jh"], ["Js", "Js"])]:
        for card in out:
            hands[seat].remove(card)
        hands[seat] += into
    for seat, out, into in [(3, ["Jc", "Jc"], ["Qs", "Jd"]), (2, ["Qs", "Jd"], ["Jc", "Jc"])]:
        for card in out:
            hands[seat].remove(card)
        hands[seat] += into
    return hands


def test_dd_throw_in_is_voluntary() -> None:
    """Trump h. Seat 1: run 16; seat 3: pinochle 4; team 1 = 20, enough (MELD-MINIMUM).
    Seat 0: kings around x3 120; seat 2: queens around x3 90 + pinochle x3 60 = 150.
    The bidder may throw in or play on (SCORE-THROW-IN); throwing in: team 1 -50, team 0 +270.
    """
    hands = dd_enough_meld()
    state = replay(DD, hands, ["bid 50", "pass", "pass", "pass", "trump h"])
    assert state.phase is Phase.DECISION and state.current_seat() == 1
    assert state.team_meld == (270, 20)
    assert legal_actions(state) == ["play-on", "throw-in"]
    with pytest.raises(IllegalAction) as err:
        apply(state, "play Ah")
    assert err.value.rule == "PLAY-TURN"
    with pytest.raises(IllegalAction) as err:
        apply(state, "throw-in", seat=3)
    assert err.value.rule == "SCORE-THROW-IN"
    actions = ["bid 50", "pass", "pass", "pass", "trump h", "throw-in"]
    answer = play_hand(DD, 0, [100, 100], hands, actions)
    assert answer["outcome"] == "thrown_in"
    assert answer["meld"] == [120, 16, 150, 4]
    assert answer["delta"] == [270, -50] and answer["scores"] == [370, 50]
    played_on = replay(DD, hands, [*actions[:-1], "play-on"])
    assert played_on.phase is Phase.PLAY and played_on.current_seat() == 1


# --- online: forced throw-in -------------------------------------------------------------------


def test_online_forced_throw_in() -> None:
    """Seat 0 bids 260, trump spades, no passing. Team 0 meld 0: 260 - 0 > 250, so only
    throw-in (SCORE-FORCED-THROW-IN). Seat 1 double queens around 600 + two dix 20 = 620."""
    state = replay(ONLINE_NO_PASS, ONLINE_HANDS, ["bid 260", "pass", "pass", "pass", "trump s"])
    assert state.phase is Phase.DECISION and state.team_meld == (0, 620)
    assert legal_actions(state) == ["throw-in"]
    with pytest.raises(IllegalAction) as err:
        apply(state, "play-on")
    assert err.value.rule == "SCORE-FORCED-THROW-IN"
    answer = play_hand(
        ONLINE_NO_PASS,
        0,
        [0, 0],
        ONLINE_HANDS,
        ["bid 260", "pass", "pass", "pass", "trump s", "throw-in"],
    )
    assert answer["outcome"] == "thrown_in" and answer["delta"] == [-260, 620]


def test_online_contract_250_is_not_forced() -> None:
    """250 - 0 = 250 is not more than 250: the bidder may play on."""
    state = replay(ONLINE_NO_PASS, ONLINE_HANDS, ["bid 250", "pass", "pass", "pass", "trump s"])
    assert legal_actions(state) == ["play-on", "throw-in"]
    state = apply(state, "play-on")
    assert state.phase is Phase.PLAY and state.current_seat() == 0


# --- illegal actions, bad input ---------------------------------------------------------------


def test_illegal_actions_leave_state_unchanged() -> None:
    state = replay(SD, SD_SUITED, ["bid 150", "pass", "pass", "pass", "trump s"])
    state = apply(apply(state, "give Ad Ad Td Td"), "give Ad Ad Td Td")
    state = apply(state, "play As")
    snapshot = state.clone()
    view = text.view(state)
    for action, rule in [
        ("play As", "PLAY-TURN"),  # seat 1 holds no spade
        ("bid 200", "AUCTION-END"),
        ("pass", "AUCTION-END"),
        ("trump h", "TRUMP-CALL"),
        ("give Ah Ah Th Th", "PASS-CARDS"),
        ("throw-in", "SCORE-THROW-IN"),
    ]:
        with pytest.raises(IllegalAction) as err:
            apply(state, action)
        assert err.value.rule == rule
    with pytest.raises(IllegalAction) as err:
        apply(state, "play Ah", seat=2)
    assert err.value.rule == "PLAY-TURN" and "seat 1's turn" in str(err.value)
    assert state == snapshot and text.view(state) == view


@pytest.mark.parametrize(
    ("hand", "trick", "card", "rule"),
    [
        ("As Ks Js Ah", "Qs", "Js", "PLAY-CRAWL"),
        ("As Ks Js Ah", "Qs", "Ah", "PLAY-FOLLOW"),
        ("As Qs Ah", "Ks Th", "Ah", "PLAY-FOLLOW"),
        ("Ah Jh Ad", "Ks", "Ad", "PLAY-TRUMP-VOID"),
        ("Ah Jh Ad", "Ks Kh", "Jh", "PLAY-OVERTRUMP"),
        ("Ah Kh Qh", "Th", "Kh", "PLAY-CRAWL"),
    ],
)
def test_play_violation_examples_from_the_spec(hand: str, trick: str, card: str, rule: str) -> None:
    """The examples of spec/rules/trick-play.md (trump hearts)."""
    from reference_engine.tricks import legal_plays

    counts, cards = hand_counts(hand), parse_cards(trick)
    assert parse_card(card) not in legal_plays(counts, cards, 1, SD)
    assert play_violation(counts, cards, 1, SD, parse_card(card)) == rule


def test_bad_hands_are_deal_hands() -> None:
    hands = [list(h) for h in SD_SUITED]
    hands[3] = [*hands[3][:-1], "As"]
    answer = play_hand(SD, 0, [0, 0], hands, [])
    assert answer["legal"] is False
    assert answer["first_illegal"]["rule"] == "DEAL-HANDS"
    assert answer["first_illegal"]["index"] is None


@pytest.mark.parametrize("action", ["dance", "bid fifty", "trump x", "play Zz", "give Qq"])
def test_malformed_actions_raise_naming_them(action: str) -> None:
    with pytest.raises(PinochleError) as err:
        hand.replay(HandState(SD, 0, check_hands(SD, SD_SUITED)), ["bid 150", action])
    assert not isinstance(err.value, IllegalAction)
    assert "action 1" in str(err.value)


def test_deal_summary() -> None:
    """Dealer 3 deals from seat 0 in threes: seat 0 gets deck[0:3], seat 1 deck[3:6] ..."""
    deck = [r + s for s in "shdc" for r in "ATKQJ9" for _ in range(2)]
    engine = ReferenceEngine()
    answer = engine.deal({"variant": "single-deck", "options": {}, "dealer": 3, "deck": deck})
    hands = answer["hands"]
    assert answer["legal"] and answer["next_dealer"] == 0 and hands is not None
    assert hands[0][:3] == deck[0:3]
    assert hands[1][:3] == deck[3:6]
    assert hands[3][:3] == deck[9:12]
    assert hands[0][3:6] == deck[12:15]
    bad = engine.deal(
        {"variant": "single-deck", "options": {}, "dealer": 0, "deck": [*deck[:-1], "As"]}
    )
    assert bad["legal"] is False and bad["violation"] is not None
    assert bad["violation"]["rule"] == "DECK-COMPOSITION"
    assert "too many As; missing 9c" in bad["violation"]["message"]


def test_dealer_rotates_and_scores_carry_over() -> None:
    rules = load_rules("double-deck")
    state = Game(rules, seed=11, dealer=2)
    rng = random.Random(0)
    while len(state.history) < 3 and not state.is_terminal():
        state.apply(bots.simple(state.hand, rng))
    dealers = [h.dealer for h in state.history]
    assert dealers == [2, 3, 0][: len(dealers)]
    for before, after in zip(state.history, state.history[1:], strict=False):
        assert before.score is not None
        assert after.scores_before == before.score.scores
    assert state.returns() == (*state.scores, *state.scores)


@pytest.mark.parametrize(
    "rules",
    [DD, SD, ONLINE, load_rules("online", {"pass_cards": "3", "rounds": "3"}), ONLINE_NO_PASS],
)
def test_playouts_replay_from_their_canonical_text(rules: Rules) -> None:
    """A playout's actions, written as canonical text and replayed from the deal, give the
    same hand: the text of every action parses back to the action."""
    rng = random.Random(rules.variant)
    outcomes = set()
    for number in range(1, 41):
        policy = bots.simple if number % 2 else bots.uniform
        played = bots.playout(rules, rng, policy, dealer=number % 4, number=number)
        outcomes.add(played.outcome)
        words = [action_text(a) for _, a in played.actions]
        again, illegal = hand.replay(
            HandState(rules, number % 4, played.deal, number=number), words
        )
        assert illegal is None and again == played
        assert again.returns() == (*played.score.delta, *played.score.delta)  # type: ignore[union-attr]
        if played.outcome == "played":
            assert sum(played.card_points) == rules.total_card_points
    assert "played" in outcomes


# --- replay_game: hands in a row -------------------------------------------------------------

NO_KING_FOR_SEAT_1 = [
    "Th Th Th Th Td Td Td Td Tc Tc Tc Tc Ks Ks Ks Ks Kh Kh Kh Kh",
    "As As As As Ah Ah Ah Ah Ad Ad Ad Ad Ac Ac Ac Ac Ts Ts Ts Ts",
    "Kd Kd Kd Kd Kc Kc Kc Kc Qs Qs Qs Qs Qh Qh Qh Qh Qd Qd Qd Qd",
    "Qc Qc Qc Qc Js Js Js Js Jh Jh Jh Jh Jd Jd Jd Jd Jc Jc Jc Jc",
]
"""A double-deck deal in which seat 1 holds no king: its bid ends the hand (no marriage)."""


def test_replay_game_moves_the_deal_and_carries_the_scores() -> None:
    """Seat 1, first to speak only when seat 0 deals, bids 50 without a marriage each hand: the
    bids are legal only if the deal moves clockwise, and each costs team 1 its 50."""
    deals = [NO_KING_FOR_SEAT_1] * 3
    calls = [["pass", "bid 50", "pass", "pass"], ["bid 50", "pass", "pass", "pass"]]
    claims = [[0, 1, 2, 3], [1, 2, 3, 0]]
    played, illegal = game.replay_game(DD, 3, deals[:2], calls, claims, (10, 20))
    assert illegal is None
    assert [h.dealer for h in played] == [3, 0] and [h.number for h in played] == [1, 2]
    assert [h.outcome for h in played] == ["no_marriage", "no_marriage"]
    assert played[-1].scores == (10, -80)
    # Claimed as if seat 3 dealt again: seat 0 is not first to speak in hand 2.
    _, illegal = game.replay_game(DD, 3, deals[:2], calls, [claims[0]] * 2, (10, 20))
    assert illegal is not None and (illegal.hand, illegal.index, illegal.rule) == (
        1,
        0,
        "AUCTION-TURN",
    )


def test_replay_game_refuses_a_hand_after_the_game_and_a_bad_deal() -> None:
    deals = [NO_KING_FOR_SEAT_1] * 2
    calls = [["pass", "bid 50", "pass", "pass"]] * 2
    _, illegal = game.replay_game(DD, 3, deals, calls, None, (500, 0))
    assert illegal is not None and (illegal.hand, illegal.index, illegal.rule) == (
        1,
        None,
        "GAME-TARGET",
    )
    bad = [NO_KING_FOR_SEAT_1[0]] * 4
    played, illegal = game.replay_game(DD, 3, [NO_KING_FOR_SEAT_1, bad], calls, None, (0, 0))
    assert len(played) == 1
    assert illegal is not None and (illegal.hand, illegal.index, illegal.rule) == (
        1,
        None,
        "DEAL-HANDS",
    )


def test_replay_game_malformed_lists_are_errors_not_rules() -> None:
    with pytest.raises(PinochleError, match="one deal and one list of actions per hand"):
        game.replay_game(DD, 0, [NO_KING_FOR_SEAT_1], [[], []])
    with pytest.raises(PinochleError, match="hand 0 is not over"):
        game.replay_game(DD, 0, [NO_KING_FOR_SEAT_1] * 2, [["bid 50"], []])
