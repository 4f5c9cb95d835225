"""The reference engine as a protocol server: each method maps params onto ``reference_engine``.

``python -m adapters.reference`` (or the console script ``pinochle-reference-adapter``) serves it
on stdin/stdout; the suite's in-process path hands the same request lines to ``server()``.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import reference_engine
from reference_engine import cards, meld, tricks, variants
from reference_engine.variants import Rules

from . import sdk
from .protocol import RULE_METHODS

_BACKING = {
    "deal": "reference_engine.game",
    "meld": "reference_engine.meld",
    "legal_plays": "reference_engine.tricks",
    "trick_winner": "reference_engine.tricks",
    "card_points": "reference_engine.tricks",
    "auction": "reference_engine.auction",
    "score_hand": "reference_engine.scoring",
    "play_hand": "reference_engine.game",
}
"""The engine module each method is built on."""


def _module(name: str) -> Any:
    return importlib.import_module(name)


def _rules(params: dict[str, Any]) -> Rules:
    return variants.load_rules(params["variant"], params.get("options") or {})


def _codes(values: Sequence[int]) -> list[str]:
    return [cards.card_code(c) for c in values]


def _available(module: str) -> bool:
    try:
        _module(module)
    except ImportError:
        return False
    return True


class ReferenceEngine:
    """The reference engine behind the protocol: every variant, every option, every method."""

    name = "pinochle-reference"
    version = reference_engine.__version__

    @property
    def variants(self) -> list[dict[str, Any]]:
        """Every variant in spec/variants with every value of every option."""
        return [
            {
                "id": vid,
                "options": {
                    name: list(opt["choices"])
                    for name, opt in variants.variant_options(vid).items()
                },
            }
            for vid in variants.variant_ids()
        ]

    @property
    def methods(self) -> list[str]:
        """The rule methods whose engine module is present."""
        return [m for m in RULE_METHODS if _available(_BACKING[m])]

    def deal(self, params: dict[str, Any]) -> dict[str, Any]:
        """Deal a given deck (DEAL-*); a deck not the variant's is a DECK-COMPOSITION answer."""
        result: dict[str, Any] = _module("reference_engine.game").deal_summary(
            _rules(params), params["dealer"], params["deck"]
        )
        return result

    def meld(self, params: dict[str, Any]) -> dict[str, Any]:
        """The itemised meld of one hand (MELD-*)."""
        rules = _rules(params)
        trump = cards.suit_index(params["trump"])
        hand = cards.parse_cards(params["hand"])
        cards.check_from_deck(hand, rules.deck_cards, "params.hand")
        found = meld.meld(cards.to_counts(hand), trump, rules)
        items: list[dict[str, Any]] = []
        for item in found.items:
            entry: dict[str, Any] = {
                "id": item.id,
                "type": item.type,
                "count": item.count,
                "points": item.points,
                "cards": _codes(item.cards),
            }
            if item.suit is not None:
                entry["suit"] = cards.SUITS[item.suit]
            items.append(entry)
        return {"total": found.total, "melds": items}

    def legal_plays(self, params: dict[str, Any]) -> dict[str, Any]:
        """The cards a hand may play to a trick (PLAY-*)."""
        rules = _rules(params)
        trump = cards.suit_index(params["trump"])
        trick = cards.parse_cards(params["trick"])
        hand = cards.parse_cards(params["hand"])
        cards.check_from_deck(hand + trick, rules.deck_cards, "params.hand and params.trick")
        allowed = tricks.legal_plays(cards.to_counts(hand), trick, trump, rules)
        return {"cards": _codes(allowed)}

    def trick_winner(self, params: dict[str, Any]) -> dict[str, Any]:
        """Index of the winning card of a trick (TRICK-WINNER, TRICK-IDENTICAL)."""
        rules = _rules(params)  # unknown variants and options are errors here too
        trump = cards.suit_index(params["trump"])
        trick = cards.parse_cards(params["trick"])
        cards.check_from_deck(trick, rules.deck_cards, "params.trick")
        if not trick:
            raise ValueError("params.trick: a trick has at least one card")
        return {"winner": tricks.trick_winner(trick, trump)}

    def card_points(self, params: dict[str, Any]) -> dict[str, Any]:
        """Card points of cards won, with the last-trick bonus (POINTS-*)."""
        rules = _rules(params)
        won = cards.parse_cards(params["cards"])
        cards.check_from_deck(won, rules.deck_cards, "params.cards")
        return {"points": tricks.card_points(won, rules, bool(params.get("last_trick", False)))}

    def auction(self, params: dict[str, Any]) -> dict[str, Any]:
        """Judge a sequence of calls (AUCTION-*)."""
        result: dict[str, Any] = _module("reference_engine.auction").summary(
            _rules(params), params["dealer"], params["calls"]
        )
        return result

    def score_hand(self, params: dict[str, Any]) -> dict[str, Any]:
        """Score one hand and decide the game (SCORE-*, GAME-*)."""
        score = _module("reference_engine.scoring").score_hand(
            _rules(params),
            params["bidder_team"],
            params["contract"],
            params["outcome"],
            params["meld"],
            params["tricks"],
            params["tricks_won"],
            params["scores"],
            hand=params.get("hand"),
        )
        result: dict[str, Any] = score.as_dict()
        return result

    def play_hand(self, params: dict[str, Any]) -> dict[str, Any]:
        """Play a whole hand from given hands and actions."""
        result: dict[str, Any] = _module("reference_engine.game").play_hand(
            _rules(params),
            params["dealer"],
            params["scores"],
            params["hands"],
            params["actions"],
            hand=params.get("hand"),
        )
        return result


def server() -> sdk.Server:
    """A protocol server for the reference engine."""
    return sdk.Server(ReferenceEngine())


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the reference engine on stdin/stdout until shutdown (pinochle-reference-adapter)."""
    del argv  # no options: the protocol says everything
    return server().serve_stdio()


if __name__ == "__main__":
    raise SystemExit(main())
