"""The reference's answer to a question, shaped as a case's ``expect``, compared with the suite's
one comparison (``pytest_pinochle.compare``), and the rule a disagreement most likely concerns.

Messages are not compared (the suite never compares them); meld entries keep the compared keys.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pinochle_adapters.reference import FirstIllegal, ReferenceEngine, hand_answer
from pytest_pinochle.compare import MELD_KEYS, Mismatch, compare, meld_diff
from pytest_pinochle.diagnosis import MELD_ITEM_RULE
from reference_engine.actions import Action
from reference_engine.cards import parse_card, parse_cards, suit_index, to_counts
from reference_engine.errors import IllegalAction
from reference_engine.hand import play_violation
from reference_engine.variants import load_rules

from .questions import PlayedHand, Question

REFERENCE = ReferenceEngine()
"""The reference engine's protocol methods, called directly (no JSON in between)."""


def reference_answer(question: Question) -> dict[str, Any]:
    """The reference's answer (raises ValueError when it refuses the params, e.g. figures that
    cannot come from one hand)."""
    if question.answer is not None:
        return question.answer
    answer: dict[str, Any] = getattr(REFERENCE, question.method)(question.params)
    return answer


def played_answer(played: PlayedHand, extra: Action | None) -> dict[str, Any]:
    """The reference's ``play_hand`` answer for a hand played by the generator (and one illegal
    action after it), read from the state rather than replayed."""
    first_illegal: FirstIllegal | None = None
    if extra is not None:
        try:
            played.state.apply(extra)
        except IllegalAction as err:
            first_illegal = {"index": len(played.actions), "rule": err.rule, "message": str(err)}
        else:  # pragma: no cover - the generator only appends illegal actions
            raise AssertionError("the appended action was legal")
    return dict(hand_answer(played.state, first_illegal))


_RULED = ("violation", "first_illegal")


def expectation(method: str, answer: Mapping[str, Any]) -> dict[str, Any]:
    """The reference's answer as a case's ``expect``: rule without message, meld entries with
    the compared keys only."""
    expect = dict(answer)
    for key in _RULED:
        value = expect.get(key)
        if isinstance(value, dict):
            expect[key] = {k: v for k, v in value.items() if k != "message"}
    if method == "meld":
        expect["melds"] = [{k: m[k] for k in MELD_KEYS if k in m} for m in answer["melds"]]
    return expect


def differences(method: str, expect: Mapping[str, Any], actual: Any) -> list[Mismatch]:
    """How the engine's answer differs from the expectation (the suite's comparison)."""
    if not isinstance(actual, Mapping):
        return [Mismatch("answer", f"expected an object, got {actual!r}")]
    # Identical answers agree under every kind of the comparison; repr tells True from 1 and
    # 1.0 from 1, which == does not. Anything else goes through the suite's comparison.
    if expect == actual and repr(expect) == repr(actual):
        return []
    return compare(method, expect, actual)


_FIELD_RULES = {
    "deal": {"hands": "DEAL-PACKETS", "next_dealer": "DEAL-ROTATION", "": "DECK-COMPOSITION"},
    "auction": {"winner": "AUCTION-END", "complete": "AUCTION-END", "": "AUCTION-STEP"},
    "card_points": {"": "POINTS-COUNTERS"},
    "score_hand": {"game_winner": "GAME-TARGET", "scores": "GAME-TARGET", "": "SCORE-MADE"},
    "play_hand": {
        "bidder": "AUCTION-END",
        "contract": "AUCTION-END",
        "trump": "TRUMP-CALL",
        "meld": "MELD-TYPES",
        "team_meld": "MELD-ONE-HAND",
        "aces_around": "MELD-ACES-DECLARED",
        "tricks": "TRICK-WINNER",
        "card_points": "POINTS-COUNTERS",
        "tricks_won": "TRICK-WINNER",
        "game_winner": "GAME-TARGET",
        "": "SCORE-MADE",
    },
}


def likely_rule(
    question: Question, expect: Mapping[str, Any], actual: Any, mismatches: Sequence[Mismatch]
) -> str:
    """The rule ID the disagreement most likely concerns: the rule either side names for a
    refusal, else what the first differing field decides."""
    for key in _RULED:
        for side in (expect, actual if isinstance(actual, Mapping) else {}):
            value = side.get(key)
            if isinstance(value, Mapping) and isinstance(value.get("rule"), str):
                return str(value["rule"])
    first = mismatches[0].where if mismatches else ""
    field = first.split(".")[0].split("[")[0]
    method, given = question.method, question.input
    if method == "meld":
        got = actual.get("melds") if isinstance(actual, Mapping) else None
        diff = meld_diff(expect.get("melds", []), got if isinstance(got, list) else [])
        ids = [m.get("id") for m in [*diff.missing, *diff.unexpected]]
        return next((MELD_ITEM_RULE[i] for i in ids if i in MELD_ITEM_RULE), "MELD-TYPES")
    if method == "trick_winner":
        trick = given["trick"]
        return "TRICK-IDENTICAL" if len(set(trick)) < len(trick) else "TRICK-WINNER"
    if method == "legal_plays":
        return _play_rule(question, expect, actual)
    if method == "card_points" and given.get("last_trick"):
        return "POINTS-LAST-TRICK"
    if method == "play_hand" and field == "tricks":
        return _trick_rule(expect, actual)
    rules = _FIELD_RULES.get(method, {})
    return rules.get(field, rules.get("", "MELD-TYPES"))


def _play_rule(question: Question, expect: Mapping[str, Any], actual: Any) -> str:
    given = question.input
    if not given["trick"]:
        return "PLAY-LEAD"
    got = actual.get("cards") if isinstance(actual, Mapping) else None
    differ = set(expect["cards"]) ^ set(got if isinstance(got, list) else [])
    hand = parse_cards(given["hand"])
    held = [c for c in sorted(differ) if isinstance(c, str) and c in given["hand"]]
    if not held:
        return "PLAY-FOLLOW"
    rules = load_rules(question.variant, question.options)
    return play_violation(
        to_counts(hand),
        parse_cards(given["trick"]),
        suit_index(given["trump"]),
        rules,
        parse_card(held[0]),
    )


def _trick_rule(expect: Mapping[str, Any], actual: Any) -> str:
    """TRICK-IDENTICAL when the first trick that differs holds copies of its winning card."""
    got = actual.get("tricks") if isinstance(actual, Mapping) else None
    for i, trick in enumerate(expect.get("tricks") or []):
        other = got[i] if isinstance(got, list) and i < len(got) else None
        if other != trick:
            cards = trick["cards"]
            return "TRICK-IDENTICAL" if len(set(cards)) < len(cards) else "TRICK-WINNER"
    return "TRICK-WINNER"
