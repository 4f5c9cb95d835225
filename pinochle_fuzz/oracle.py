"""The reference's answer to a question, shaped as a case's ``expect``, compared with the suite's
one comparison (``pinochle_judge.compare``), and the rule a disagreement most likely concerns.

Messages are not compared (the suite never compares them); meld entries keep the compared keys.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pinochle_adapters.reference import FirstIllegal, ReferenceEngine, hand_answer
from pinochle_judge import methods
from pinochle_judge.blame import (
    HAND_FIELDS,
    TRUMPED_TRICK,
    Blame,
    field_blame,
    follows_a_trumped_trick,
    hand_divergence,
    meld_rules,
    total_rules,
    trick_divergence,
)
from pinochle_judge.compare import MELD_KEYS, Mismatch, TotalsOnly, compare, meld_diff
from pinochle_judge.methods import Shape
from reference_engine.actions import Action, parse_claims
from reference_engine.cards import (
    SUITS,
    card_code,
    from_counts,
    parse_card,
    parse_cards,
    suit_index,
    to_counts,
)
from reference_engine.errors import IllegalAction, PinochleError
from reference_engine.hand import HandState, play_violation
from reference_engine.variants import load_rules
from specdata import RULE_ID

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
    if methods.method(method).shape == "meld":
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


def likely_rules(
    question: Question, expect: Mapping[str, Any], actual: Any, mismatches: Sequence[Mismatch]
) -> tuple[str, ...]:
    """The rules the disagreement is charged to, likeliest first, through the one blame table
    (``pinochle_judge.blame``): the rule of the first action or call refused by one side only,
    else the rules of the first field that differs in the order the method decides it (for two
    refusals of one action under different rules, the hand's earlier divergence if any)."""
    got: Mapping[str, Any] = actual if isinstance(actual, Mapping) else {}
    method, given = question.method, question.input
    shape = methods.method(method).shape
    deferred: str | None = None
    for key in _RULED:
        refused, same_action = _refusal_rule(expect.get(key), got.get(key))
        if shape == "hand" and _engine_refused_a_trumped_follow(given, expect, got):
            refused, same_action = TRUMPED_TRICK, False
        if refused is not None and not same_action:
            earlier = _earlier(question, expect, got)
            if earlier is None:
                return (refused,)
            if earlier.at.startswith("seat "):
                return _seat_meld_rules(question, int(earlier.at.split()[1]), expect, got)
            return earlier.rules
        deferred = deferred or refused
    if deferred and shape != "hand":
        # Two refusals of one action under different rules; a whole hand's state may have
        # left the expected one earlier (its first divergence, found below).
        return (deferred,)
    found = LIKELY[shape](question, expect, got, mismatches)
    return found or ((deferred,) if deferred else field_blame(method, "").rules)


Rules = tuple[str, ...]
Answer = Mapping[str, Any]
Likely = Callable[[Question, Answer, Answer, Sequence[Mismatch]], Rules]
"""The rules a disagreement of one shape concerns, likeliest first, once no action is refused
by one side only: from the question, the expectation, the engine's answer (an object) and the
mismatches; () when nothing places it (the answer's own rules are charged)."""


def _first_field(
    question: Question,
    expect: Mapping[str, Any],
    got: Mapping[str, Any],
    mismatches: Sequence[Mismatch],
) -> Rules:
    """The rules of the first field that differs (the method's record)."""
    first = mismatches[0].where if mismatches else ""
    return field_blame(question.method, first.split(".")[0].split("[")[0]).rules


def _hand_rules(
    question: Question,
    expect: Mapping[str, Any],
    got: Mapping[str, Any],
    mismatches: Sequence[Mismatch],
) -> Rules:
    """The first divergence of a whole hand, in play order (a seat's meld: which meld)."""
    found = hand_divergence(expect, got)
    if found is None:
        return ()
    if found.at.startswith("seat ") and found.at.endswith(" meld"):
        return _seat_meld_rules(question, int(found.at.split()[1]), expect, got)
    return found.rules


def _meld_items_rules(
    question: Question,
    expect: Mapping[str, Any],
    got: Mapping[str, Any],
    mismatches: Sequence[Mismatch],
) -> Rules:
    """The meld items that differ, or reported as totals only, the items worth the difference."""
    melds = got.get("melds")
    if isinstance(melds, TotalsOnly) and isinstance(melds.total, int):
        items = expect.get("melds", [])
        return total_rules(items, int(expect.get("total") or 0), melds.total)
    diff = meld_diff(expect.get("melds", []), melds if isinstance(melds, list) else [])
    return meld_rules([m.get("id") for m in [*diff.missing, *diff.unexpected]])


def _winner_rules(
    question: Question,
    expect: Mapping[str, Any],
    got: Mapping[str, Any],
    mismatches: Sequence[Mismatch],
) -> Rules:
    """A trick with twin cards: which of them wins."""
    trick = question.input["trick"]
    return ("TRICK-IDENTICAL",) if len(set(trick)) < len(trick) else ("TRICK-WINNER",)


def _legal_plays_rules(
    question: Question,
    expect: Mapping[str, Any],
    got: Mapping[str, Any],
    mismatches: Sequence[Mismatch],
) -> Rules:
    return (_play_rule(question, expect, got),)


def _points_rules(
    question: Question,
    expect: Mapping[str, Any],
    got: Mapping[str, Any],
    mismatches: Sequence[Mismatch],
) -> Rules:
    """Card points with the last trick's bonus asked: the bonus."""
    if question.input.get("last_trick"):
        return ("POINTS-LAST-TRICK",)
    return _first_field(question, expect, got, mismatches)


LIKELY: dict[Shape, Likely] = {
    "one": _first_field,
    "meld": _meld_items_rules,
    "legal_plays": _legal_plays_rules,
    "winner": _winner_rules,
    "points": _points_rules,
    "auction": _first_field,
    "score": _first_field,
    "tricks": _first_field,
    "hand": _hand_rules,
    "game": _first_field,
}
"""How ``likely_rules`` finds the rules a disagreement of each shape (``methods.Shape``)
concerns."""


_AFTER_MELD = ("play ", "play-on", "throw-in")
"""Actions of a hand made once meld is shown: the state they are judged in includes it."""
_BEFORE_PLAY = ("bidder", "contract", "trump", "aces around", "team meld")
"""Where a hand can first differ before its meld is shown (and seat melds, ``seat N meld``)."""


def _earlier(question: Question, expect: Mapping[str, Any], got: Mapping[str, Any]) -> Blame | None:
    """Where a whole hand's state already differs before the first action refused by one side
    only: the auction, trump or meld before an action made after meld, or a trick both sides
    completed before it. The refusal follows from that earlier divergence, charged instead."""
    if methods.method(question.method).shape != "hand":
        return None
    first = min(_index(expect.get("first_illegal")), _index(got.get("first_illegal")))
    actions = [str(a).split(": ")[-1] for a in question.input.get("actions") or []]
    if not 0 <= first < len(actions):
        return None
    at = int(first)
    found = hand_divergence(expect, got)
    if found is not None and (found.at in _BEFORE_PLAY or found.at.endswith(" meld")):
        return found if actions[at].startswith(_AFTER_MELD) else None
    want, have = expect.get("tricks"), got.get("tricks")
    if not isinstance(want, list) or not isinstance(have, list):
        return None
    common = min(len(want), len(have))
    found = trick_divergence({"tricks": want[:common]}, {"tricks": have[:common]})
    if found is None:
        return None
    plays = [i for i, a in enumerate(actions) if a.startswith("play ")]
    last = 4 * int(found.at.split()[1]) - 1  # the trick's last card, counted among the plays
    return found if last < len(plays) and plays[last] < at else None


def meld_seat(question: Question, expect: Mapping[str, Any], actual: Any) -> int | None:
    """The seat whose meld total is where a whole hand first differs (no action refused by one
    side only before it), or None."""
    if methods.method(question.method).shape != "hand" or not isinstance(actual, Mapping):
        return None
    for key in _RULED:
        refused, same_action = _refusal_rule(expect.get(key), actual.get(key))
        if refused is not None and not same_action and _earlier(question, expect, actual) is None:
            return None
    found = hand_divergence(expect, actual)
    if found is None or not (found.at.startswith("seat ") and found.at.endswith(" meld")):
        return None
    return int(found.at.split()[1])


def seat_meld_question(question: Question, seat: int) -> Question | None:
    """The ``meld`` question of one seat's hand as it melds in a whole-hand question (after
    passing, with the trump called): asked of an engine that declares ``meld``, its items say
    which meld a wrong total gets wrong."""
    state = _meld_state(question)
    if state is None or state.meld is None or state.trump is None:
        return None
    hand = [card_code(c) for c in from_counts(state.held[seat])]
    given = {"trump": SUITS[state.trump], "hand": hand}
    return Question("meld", question.variant, question.options, given)


def _meld_state(question: Question) -> HandState | None:
    """The reference's hand state of a whole-hand question once meld is shown (None if the
    hand never gets there)."""
    params = question.params
    rules = load_rules(question.variant, question.options)
    counts = [to_counts(parse_cards(h)) for h in params["hands"]]
    scores = (params["scores"][0], params["scores"][1])
    state = HandState(rules, params["dealer"], counts, scores, params.get("hand") or 1)
    try:
        steps, seats = parse_claims(params["actions"])
    except PinochleError:
        return None
    for step, seat in zip(steps, seats, strict=True):
        if state.meld is not None:
            return state
        try:
            state.apply(step, seat)
        except IllegalAction:
            return None
    return state if state.meld is not None else None


def likely_rule(
    question: Question, expect: Mapping[str, Any], actual: Any, mismatches: Sequence[Mismatch]
) -> str:
    """The rule ID the disagreement most likely concerns (the first of ``likely_rules``)."""
    return likely_rules(question, expect, actual, mismatches)[0]


def _index(refusal: Any) -> float:
    if not isinstance(refusal, Mapping):
        return math.inf
    index = refusal.get("index")
    return index if isinstance(index, int) and not isinstance(index, bool) else -1


def _engine_refused_a_trumped_follow(
    given: Mapping[str, Any], expect: Mapping[str, Any], got: Mapping[str, Any]
) -> bool:
    """Whether the engine alone refused a card of the suit led in a trick already trumped
    (``blame.follows_a_trumped_trick``): PLAY-TRUMPED-TRICK, whatever rule it names."""
    e, a = _index(expect.get("first_illegal")), _index(got.get("first_illegal"))
    actions = [str(x) for x in given.get("actions", [])]
    return a < e and 0 <= a < len(actions) and follows_a_trumped_trick(actions, int(a))


def _refusal_rule(expected: Any, answered: Any) -> tuple[str | None, bool]:
    """The rule of the first action (or call) refused by one side only, or under another rule
    (the engine's when it refuses first, the reference's otherwise), and whether both refuse
    that same action."""
    e, a = _index(expected), _index(answered)
    if e == a == math.inf:
        return None, False
    if e == a and expected.get("rule") == answered.get("rule"):
        return None, True  # both refuse the same action under the same rule: no divergence
    first = answered if a < e else expected
    other = expected if first is answered else answered
    for side in (first, other):
        rule = side.get("rule") if isinstance(side, Mapping) else None
        if isinstance(rule, str) and RULE_ID.fullmatch(rule):
            return rule, e == a
    return None, e == a


def _seat_meld_rules(
    question: Question, seat: int, expect: Mapping[str, Any], got: Mapping[str, Any]
) -> tuple[str, ...]:
    """A seat's meld total that differs in a whole hand: the reference's items of that seat
    worth exactly the difference (``total_rules``), then the melds whose table value (or step
    between two multiplicities) is the difference, then every meld rule."""
    want, have = expect["meld"][seat], (got.get("meld") or [None] * 4)[seat]
    rules = HAND_FIELDS["meld"].rules
    if not isinstance(want, int) or not isinstance(have, int) or isinstance(have, bool):
        return rules
    state = _meld_state(question)
    if state is None or state.meld is None:
        return rules
    items = [{"id": m.id, "points": m.points} for m in state.meld[seat].items]
    diff = abs(have - want)
    worth = [
        {"id": name, "points": diff}
        for name, values in state.rules.meld_table.items()
        if any(abs(x - y) == diff for x in (0, *values) for y in (0, *values))
    ]
    exact = total_rules([m for m in items if m["points"] == diff] + worth, want, have)
    return tuple(dict.fromkeys([*exact, *total_rules(items, want, have), *rules]))


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
