"""Mutant: of two identical cards the later one wins the trick."""

from reference_engine.cards import Card, rank_of, suit_of

from . import Mutant


def beats(card: Card, winning: Card, trump: int) -> bool:
    """As ``tricks.beats``, but an identical card played later takes the lead."""
    if suit_of(card) == suit_of(winning):
        return rank_of(card) <= rank_of(winning)  # the misreading: <= instead of <
    return suit_of(card) == trump


MUTANT = Mutant(
    name="last-identical-wins",
    misreading="of identical cards the one played last wins",
    caught_by="TRICK-IDENTICAL",
    variants=("double-deck",),
    patches={"reference_engine.tricks.beats": beats},
)
