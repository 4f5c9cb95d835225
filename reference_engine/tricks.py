"""Trick play: which cards a hand may play to a trick, who wins it, and what it is worth (PLAY-*).

Obligations come in two families chosen by the variant: ``pre-1945`` (the crawl: beat the winning
card whenever you can) and ``post-1945`` (beating is required only when trumps are led).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import compress

from .cards import NUM_KINDS, NUM_RANKS, Card
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
    suit = card // NUM_RANKS
    if suit == winning // NUM_RANKS:
        return card < winning  # within a suit a lower kind is a higher rank
    return suit == trump


def legal_plays(hand: Sequence[int], trick: Sequence[Card], trump: int, rules: Rules) -> list[Card]:
    """The distinct card kinds this hand may play to the trick, in canonical order.

    PLAY-LEAD: any card may lead. PLAY-FOLLOW: follow the suit led if you can; pre-1945
    (PLAY-CRAWL) with a card that beats the winning card if you hold one, unless the trick is
    already trumped (PLAY-TRUMPED-TRICK; option beat-led: still beat the suit led's highest card
    if you can). PLAY-TRUMP-VOID: void in the suit led, play a trump,
    beating the highest trump if you can (PLAY-OVERTRUMP). PLAY-DISCARD: void in both, any card.
    PLAY-POST-1945: under post-1945 rules beating is required only when trumps were led.
    """
    if not trick:
        return list(compress(_KINDS, hand))
    led = trick[0] // NUM_RANKS
    winning = trick[trick_winner(trick, trump)] if len(trick) > 1 else trick[0]
    crawl = rules.obligations == "pre-1945"
    follow = list(compress(_SUIT_KINDS[led], hand[led * NUM_RANKS : led * NUM_RANKS + NUM_RANKS]))
    if follow:
        if winning // NUM_RANKS == trump and led != trump:
            # Trumped already: no card of the suit led can win, so any of it may follow; online
            # trumped_trick=beat-led still asks for one above the suit led's highest card.
            if crawl and rules.trumped_trick == "beat-led":
                top = min(c for c in trick if c // NUM_RANKS == led)
                higher = [c for c in follow if c < top]
                if higher:
                    return higher
            return follow
        if crawl or led == trump:
            # The winning card is of the suit led here; a lower kind of one suit ranks higher.
            higher = [c for c in follow if c < winning]
            if higher:
                return higher
        return follow
    base = trump * NUM_RANKS
    trumps = list(compress(_SUIT_KINDS[trump], hand[base : base + NUM_RANKS]))
    if trumps:
        if winning // NUM_RANKS == trump and crawl:
            higher = [c for c in trumps if c < winning]
            if higher:
                return higher
        return trumps
    return list(compress(_KINDS, hand))


_KINDS = range(NUM_KINDS)
_SUIT_KINDS = tuple(range(s * NUM_RANKS, s * NUM_RANKS + NUM_RANKS) for s in range(4))


def card_points(cards: Iterable[Card], rules: Rules, last_trick: bool = False) -> int:
    """Points of a set of cards won in tricks, plus the last-trick bonus if it includes it.

    POINTS-COUNTERS gives each rank's value from the variant; POINTS-LAST-TRICK the bonus.
    """
    total = sum(map(rules.points_by_kind.__getitem__, cards))
    return total + (rules.last_trick if last_trick else 0)
