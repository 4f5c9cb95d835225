"""The shared lists every layer names: protocol methods and meld ids, each written once here.

Python code imports them from here; the JSON schemas and the Node example keep their own copies
as files, and ``tests/test_registries.py`` names any copy that has fallen out of step.
"""

from __future__ import annotations

__all__ = ["MELD_RULES", "MELD_TYPES", "METHODS", "RULE_METHODS"]

METHODS = (
    "initialize",
    "deal",
    "meld",
    "legal_plays",
    "trick_winner",
    "card_points",
    "auction",
    "score_hand",
    "play_hand",
    "play_game",
    "play_tricks",
    "shutdown",
)
"""Every method of protocol version 1, in the order spec/protocol.md gives them."""

RULE_METHODS = METHODS[1:-1]
"""The methods that answer a rules question; their params carry ``variant`` and ``options``."""

MELD_TYPES = {
    "run": "I",
    "royal_marriage": "I",
    "marriage": "I",
    "dix": "I",
    "pinochle": "II",
    "aces_around": "III",
    "kings_around": "III",
    "queens_around": "III",
    "jacks_around": "III",
}
"""Every meld id of the protocol with its type (MELD-TYPES), in the order a meld answer lists
them: a card may serve melds of different types but never two melds of the same type."""

MELD_RULES = {
    "run": "MELD-RUN",
    "royal_marriage": "MELD-ROYAL-MARRIAGE",
    "marriage": "MELD-MARRIAGE",
    "dix": "MELD-DIX",
    "pinochle": "MELD-PINOCHLE",
    "aces_around": "MELD-AROUNDS",
    "kings_around": "MELD-AROUNDS",
    "queens_around": "MELD-AROUNDS",
    "jacks_around": "MELD-AROUNDS",
}
"""The rule that decides each meld id (its chapter: spec/rules/meld.md)."""
