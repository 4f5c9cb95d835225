"""The engine's states as readable text, with suit symbols: hands, meld and a whole hand state.

For logs, the CLI and error reports; nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import auction
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
