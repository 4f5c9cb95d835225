"""Trick play: which cards a hand may play to a trick, who wins it, and what it is worth (PLAY-*).

Obligations come in two families chosen by the variant: ``pre-1945`` (the crawl: beat the winning
card whenever you can) and ``post-1945`` (beating is required only when trumps are led).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import NUM_KINDS, Card, Counts, rank_of, suit_of
from .variants import Rules


def trick_winner(trick: Sequence[Card], trump: int) -> int:
    """Index of the card that wins (so far) a trick (TRICK-WINNER, TRICK-IDENTICAL).

    The highest trump wins; without trumps, the highest card of the suit led. Of identical
    cards the one played first wins, so a later card must be strictly higher to take over.
    """
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], trump):
            best = i
    return best


def beats(card: Card, winning: Card, trump: int) -> bool:
    """Whether ``card`` played now takes the lead from ``winning`` (an identical card does not)."""
    if suit_of(card) == suit_of(winning):
        return rank_of(card) < rank_of(winning)
    return suit_of(card) == trump


def legal_plays(hand: Counts, trick: Sequence[Card], trump: int, rules: Rules) -> list[Card]:
    """The distinct card kinds this hand may play to the trick, in canonical order.

    PLAY-LEAD: any card may lead. PLAY-FOLLOW: follow the suit led if you can; pre-1945
    (PLAY-CRAWL) with a card that beats the winning card if you hold one, unless the trick is
    already trumped (PLAY-TRUMPED-TRICK). PLAY-TRUMP-VOID: void in the suit led, play a trump,
    beating the highest trump if you can (PLAY-OVERTRUMP). PLAY-DISCARD: void in both, any card.
    PLAY-POST-1945: under post-1945 rules beating is required only when trumps were led.
    """
    held = [c for c in range(NUM_KINDS) if hand[c]]
    if not trick:
        return held
    led = suit_of(trick[0])
    winning = trick[trick_winner(trick, trump)]
    must_beat = rules.obligations == "pre-1945" or led == trump
    follow = [c for c in held if suit_of(c) == led]
    if follow:
        if suit_of(winning) == trump and led != trump:
            return follow  # trumped already: no card of the suit led can win
        if must_beat:
            higher = [c for c in follow if rank_of(c) < rank_of(winning)]
            if higher:
                return higher
        return follow
    trumps = [c for c in held if suit_of(c) == trump]
    if trumps:
        if suit_of(winning) == trump and (rules.obligations == "pre-1945"):
            higher = [c for c in trumps if rank_of(c) < rank_of(winning)]
            if higher:
                return higher
        return trumps
    return held


def card_points(cards: Iterable[Card], rules: Rules, last_trick: bool = False) -> int:
    """Points of a set of cards won in tricks, plus the last-trick bonus if it includes it.

    POINTS-COUNTERS gives each rank's value from the variant; POINTS-LAST-TRICK the bonus.
    """
    points = rules.points_by_kind
    total = sum(points[c] for c in cards)
    return total + (rules.last_trick if last_trick else 0)
