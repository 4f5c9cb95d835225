"""The engine's states as readable text, with suit symbols: hands, meld and a whole hand state.

For logs, the CLI and error reports; nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import auction
from .actions import GIVE, given_cards, kind
from .actions import text as action_text
from .cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS, card_symbol
from .hand import HandState
from .meld import MeldResult


def show_cards(counts: Sequence[int]) -> str:
    """A hand with suit symbols, grouped by suit."""
    groups = []
    for s in range(4):
        cards = [card_symbol(c) for c in range(s * 6, s * 6 + 6) for _ in range(counts[c])]
        if cards:
            groups.append(" ".join(cards))
    return "  ".join(groups) or "-"


def show_meld(result: MeldResult) -> str:
    """An itemised meld with suit symbols: ``run ♥ 16, pinochle 4 = 20``."""
    if not result.items:
        return "none = 0"
    parts = []
    for item in result.items:
        name = item.id.replace("_", " ")
        if item.suit is not None:
            name += " " + SUIT_SYMBOLS[SUITS[item.suit]]
        if item.count > 1:
            name = f"{item.count}x {name}"
        parts.append(f"{name} {item.points}")
    return ", ".join(parts) + f" = {result.total}"


def view(state: HandState) -> str:
    """A hand state as readable text: hand number, phase, scores, hands, auction, trump, meld
    and the trick in progress."""
    scores = state.scores
    lines = [
        f"{state.rules.variant} hand {state.number}, dealer seat {state.dealer}, "
        f"phase {state.phase.value}, scores {scores[0]}-{scores[1]}"
    ]
    for seat in range(4):
        lines.append(f"  seat {seat}: {show_cards(state.held[seat])}")
    if state.auction.calls:
        calls = ", ".join(f"{s}:{auction.describe_call(c)}" for s, c in state.auction.calls)
        lines.append(f"  auction: {calls}")
    if state.bidder is not None:
        lines.append(f"  bidder seat {state.bidder} at {state.contract}")
    if state.trump is not None:
        lines.append(f"  trump {SUIT_NAMES[SUITS[state.trump]]}")
    if state.meld is not None:
        for seat, m in enumerate(state.meld):
            lines.append(f"  meld seat {seat}: {show_meld(m)}")
    if state.trick:
        lines.append(f"  trick: {' '.join(card_symbol(c) for c in state.trick)}")
    to_act = state.current_seat()
    if to_act is not None:
        lines.append(f"  seat {to_act} to act")
    elif state.score is not None and state.score.game_winner is not None:
        lines.append(f"  game over: team {state.score.game_winner} wins")
    else:
        lines.append(f"  hand over: {state.outcome}")
    return "\n".join(lines)


def hand_log(hand: HandState) -> list[str]:
    """A finished hand as log lines: deal, auction, trump, gives, meld, tricks, score."""
    out: list[str] = []
    out.append("")
    out.append(f"== Hand {hand.number}: dealer seat {hand.dealer} ==")
    for seat, counts in enumerate(hand.deal):
        out.append(f"  seat {seat} (team {seat % 2}): {show_cards(counts)}")
    calls = [(seat, action_text(a)) for seat, a in hand.actions[: len(hand.auction.calls)]]
    out.append("  auction: " + ", ".join(f"seat {s} {a}" for s, a in calls))
    out.append(f"  seat {hand.bidder} wins the auction at {hand.contract}")
    if hand.outcome == "no_marriage":
        out.append(f"  seat {hand.bidder} holds no marriage: cannot name trump, loses the hand")
    if hand.trump is not None:
        suit = SUITS[hand.trump]
        out.append(f"  trump: {SUIT_NAMES[suit]} {SUIT_SYMBOLS[suit]}")
    for seat, action in hand.actions:
        if kind(action) == GIVE:
            cards = " ".join(card_symbol(c) for c in given_cards(action))
            out.append(f"  seat {seat} gives {cards}")
    if hand.meld is not None:
        for seat, result in enumerate(hand.meld):
            out.append(f"  meld seat {seat}: {show_meld(result)}")
        assert hand.team_meld is not None
        out.append(f"  team meld: {hand.team_meld[0]} / {hand.team_meld[1]}")
        if hand.outcome == "meld_short":
            out.append("  the bidding side is short of the meld minimum: the hand ends")
    for seat, action in hand.actions:
        if action_text(action) in ("throw-in", "play-on"):
            out.append(f"  seat {seat}: {action_text(action)}")
    for i, trick in enumerate(hand.tricks, 1):
        cards = " ".join(
            f"{(trick.leader + k) % 4}:{card_symbol(c)}" for k, c in enumerate(trick.cards)
        )
        out.append(f"  trick {i:2}: {cards}  -> seat {trick.winner}")
    if hand.tricks:
        out.append(
            f"  card points: {hand.card_points[0]} / {hand.card_points[1]}; "
            f"tricks {hand.tricks_won[0]} / {hand.tricks_won[1]}"
        )
    score = hand.score
    assert score is not None and hand.outcome is not None
    verdict = "made" if score.made else hand.outcome.replace("_", " ")
    if hand.outcome == "played" and not score.made:
        verdict = "set"
    out.append(
        f"  {verdict}: delta {score.delta[0]:+d} / {score.delta[1]:+d}; "
        f"scores {score.scores[0]} / {score.scores[1]}"
    )
    return out
