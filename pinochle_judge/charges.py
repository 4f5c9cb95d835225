"""Charging one failure to the rule that decided the first point where the answers part.

The reference engine's trace of the request sent (``pinochle_adapters.reference.decisions``:
every point of its answer with the rule that decided it) is walked in the order the answer was
decided: each call or action, the auction's result, each seat's meld, each trick's leader, cards,
winner and points, the outcome, each scoring step. The first point where the engine's answer
leaves the expectation judged is charged to the rules of that point's decision. A charge is
data (``Where``: method, hand, index, seat, trick, team, point, field); it is worded only when
shown (``at``, ``detail``). Both the suite (``report``) and the fuzzer charge through ``charge``.

Rules are named only where the trace reaches them: a rule the reference never used in deciding
the request, or one the variant lacks, is never charged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from specdata import RULE_ID

from . import methods, wording
from .compare import TotalsOnly, compare_at
from .diagnosis import KEPT, Charge, applies, charge_case, precedes
from .methods import Shape
from .verdicts import ChargeKind, Where

Decision = Mapping[str, Any]
"""One point of the reference's answer with its deciding rule (JSON, see the module doc)."""

ACTION_POINTS = ("call", "play", "trump", "passing", "decision", "refused")
"""The decisions that judge one action (or call): accepted (value true) or refused."""

MELD_POINTS = ("meld item", "meld kept")
SCORE_POINTS = ("made", "delta", "scores", "game_winner")
POINTS = ("card_points", "last trick")


def house_changed(
    method: str, hand_worked: Mapping[str, object], judged: Mapping[str, object]
) -> list[str]:
    """What the house options changed in a derived case's answer, as lines (the hand-worked
    fields the derived expectation replaced; ``wording.house_changed``)."""
    return wording.house_changed(method, hand_worked, judged)


def rules_of(d: Decision) -> tuple[str, ...]:
    """The deciding rule of a decision, then those sharing it."""
    return (str(d["rule"]), *(str(r) for r in d.get("also") or ()))


REVEALED_BY: dict[str, frozenset[str]] = {
    point: frozenset(keys)
    for points, keys in (
        (MELD_POINTS, ("meld", "team_meld", "melds", "total", "delta", "scores", "hands")),
        (
            ("trick winner", "card_points", "last trick"),
            ("tricks", "tricks_won", "card_points", "winner", "points", "delta", "scores", "hands"),
        ),
        (("made", "delta"), ("made", "delta", "scores", "hands")),
        (("scores",), ("scores", "hands")),
        (("game_winner",), ("game_winner", "hands", "next_dealer")),
    )
    for point in points
}
"""The expectation's fields that would show a wrong decision at each point (a point not
listed shows in any answer: an action's verdict, the auction's fields)."""


def coverage(decisions: Iterable[Decision], judged: Iterable[str] | None = None) -> set[str]:
    """Every rule the reference used in deciding an answer that the expectation ``judged``
    (its fields; None: all) would show: what a passing answer clears. A meld the rules keep from
    counting (a near miss) is its own element (``KEPT``): an engine that counts a near miss
    fails on those hands only, however often the meld itself passes."""
    keys = None if judged is None else set(judged)
    return {
        r + (KEPT if d["point"] == "meld kept" else "")
        for d in decisions
        if keys is None or not keys.isdisjoint(REVEALED_BY.get(str(d["point"]), keys))
        for r in rules_of(d)
    }


@dataclass(frozen=True)
class _Found:
    rules: tuple[str, ...]
    where: Where
    detail: str
    ambiguous: bool = False
    kept: tuple[str, ...] = ()


def charge(
    method: str,
    params: Mapping[str, Any],
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
    rule: str,
    uses: Sequence[str] = (),
    detail: str = "",
) -> Charge:
    """The charge of a failed case: at the first point where the engine's answer leaves the
    expectation judged, the rules that decided that point (``decisions``: the reference's trace
    of the params sent); where the trace places nothing, ``diagnosis.charge_case``."""
    variant = str(params.get("variant") or "")
    found: _Found | None = None
    finder = FINDERS[methods.method(method).shape]
    if decisions and finder is not None:
        try:
            found = finder(method, params, expect, answer, decisions)
        except (KeyError, TypeError, ValueError, IndexError):  # an answer of an unforeseen shape
            found = None
    if found is None:
        fallback = charge_case(method, dict(params), dict(expect), dict(answer), rule, uses, detail)
        kept = tuple(r for r in fallback.rules if applies(r, variant)) or fallback.rules
        return Charge(
            kept,
            fallback.at,
            fallback.detail,
            fallback.where,
            fallback.ambiguous,
            kind=fallback.kind,
        )
    named = tuple(
        r for r in dict.fromkeys(found.rules) if applies(r, variant) and RULE_ID.fullmatch(r)
    )
    return Charge(
        named or (rule,),
        wording.charge_at(found.where),
        found.detail,
        found.where,
        found.ambiguous and len(named) > 1,
        tuple(r for r in found.kept if r in named),
        kind=kind_of(found.where),
    )


def kind_of(where: Where) -> ChargeKind:
    """What a traced place is (``verdicts.ChargeKind``), from its data: a call, a field or the
    meld total of a case asking one question; a point of a hand (a game's included): an action,
    a trick, a seat's or a team's meld, a field of a played answer. (``wording.charge_at`` words
    the same places; ``tests/test_charge_kinds.py`` keeps the two in step.)"""
    shape = methods.method(where.method).shape
    if where.hand is not None:
        return "point"
    if where.index is not None and where.field in ("call", "action"):
        return "call" if where.field == "call" and shape != "tricks" else "point"
    if where.trick is not None or (where.seat is not None and where.field == "meld"):
        return "point"
    if where.field == "team_meld" or shape in methods.PLAYED_SHAPES:
        return "point"
    return "meld total" if shape == "meld" else "field"


Finder = Callable[
    [str, Mapping[str, Any], Mapping[str, Any], Mapping[str, Any], Sequence[Decision]],
    _Found | None,
]
"""Where a failed answer of one shape first differs, walking the reference's trace: from the
method, the params, the expectation, the answer and the trace."""


def _played(
    method: str,
    params: Mapping[str, Any],
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
    totals: bool = False,
) -> _Found | None:
    actions = [str(a) for a in params.get("actions") or params.get("plays") or []]
    return _hand(method, expect, answer, decisions, actions, None, totals)


def _winner(
    method: str,
    params: Mapping[str, Any],
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
) -> _Found | None:
    return _one(method, "winner", expect, answer, decisions[0])


def _score(
    method: str,
    params: Mapping[str, Any],
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
) -> _Found | None:
    return _scoring(method, expect, answer, decisions, None)


def _same(method: str, key: str, want: object, got: object) -> bool:
    return not compare_at(method, key, want, got)


def _one(
    method: str, key: str, expect: Mapping[str, Any], answer: Mapping[str, Any], d: Decision
) -> _Found | None:
    if key not in expect or _same(method, key, expect[key], answer.get(key)):
        return None
    shown = wording.charge_differs(expect[key], answer.get(key), quoted=True)
    return _Found(rules_of(d), Where(method, str(d["point"]), key), shown)


# --- questions asked one at a time -------------------------------------------------------------


def _legal_plays(
    method: str,
    params: Mapping[str, Any],
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
) -> _Found | None:
    """Extra or missing cards: the obligation that decided the plays; an extra card of another
    suit while the hand holds the suit led breaks PLAY-FOLLOW (void, a non-trump while holding
    trumps: PLAY-TRUMP-VOID) whatever else applied."""
    want, got = expect.get("cards"), answer.get("cards")
    if "cards" not in expect or _same(method, "cards", want, got):
        return None
    d = decisions[0]
    rules = rules_of(d)
    trick, hand = list(params.get("trick") or []), list(params.get("hand") or [])
    extra = [c for c in (got or []) if c not in (want or [])] if isinstance(got, list) else []
    if trick and extra:
        led, trump = str(trick[0])[-1], str(params.get("trump"))
        holds_led = any(str(c)[-1] == led for c in hand)
        holds_trump = any(str(c)[-1] == trump for c in hand)
        if holds_led and any(str(c)[-1] != led for c in extra):
            rules = ("PLAY-FOLLOW", *rules)
        elif not holds_led and holds_trump and any(str(c)[-1] != trump for c in extra):
            rules = ("PLAY-TRUMP-VOID", *rules)
    shown = wording.charge_differs(want, got)
    return _Found(rules, Where(method, "legal_plays", "cards"), shown)


def _card_points(
    method: str,
    params: Mapping[str, Any],
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
) -> _Found | None:
    want, got = expect.get("points"), answer.get("points")
    if "points" not in expect or _same(method, "points", want, got):
        return None
    rules = _points_rules(decisions, want, got)
    where = Where(method, "card_points", "points")
    return _Found(rules, where, wording.charge_differs(want, got))


def _meld(
    method: str,
    params: Mapping[str, Any],
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
) -> _Found | None:
    """A meld reported as totals only: the items the reference found (and the meld it keeps
    from counting) share the charge; which one it is, the passing answers decide (diagnosis).
    Items reported one by one are charged by ``diagnosis.meld_divergence``."""
    got = answer.get("melds")
    if not isinstance(got, TotalsOnly):
        return None
    want = expect.get("melds")
    items = [w for w in want if isinstance(w, Mapping)] if isinstance(want, list) else []
    worth = got.worth(items)
    if worth == got.total:
        return None
    rules = _meld_rules(decisions, worth, got.total)
    shown = wording.charge_melds_worth(worth, got.total)
    return _Found(rules, Where(method, "meld", "total"), shown, ambiguous=True)


def _meld_rules(decisions: Iterable[Decision], want: object, got: object) -> tuple[str, ...]:
    """The rules of the meld the reference found in one hand: what it counted, and, where the
    engine counted more, what it kept from counting (first, then)."""
    counted = [d for d in decisions if d["point"] == "meld item"]
    kept = [d for d in decisions if d["point"] == "meld kept"]
    more = isinstance(want, int) and isinstance(got, int) and got > want
    chosen = [*(kept if more else ()), *counted, *(() if more else kept)]
    found = [r for d in chosen for r in rules_of(d)]
    return tuple(dict.fromkeys(found)) or ("MELD-TYPES",)


def _explaining(decisions: Iterable[Decision], want: object, got: object) -> str | None:
    """The one meld of this hand whose worth is exactly the difference: a near miss the rules
    keep from counting where the engine counted more, an item the reference counted where it
    counted less. None when no meld, or more than one, is worth it."""
    if not isinstance(want, int) or not isinstance(got, int) or want == got:
        return None
    point = "meld kept" if got > want else "meld item"
    worth = [
        str(d["rule"])
        for d in decisions
        if d["point"] == point
        and isinstance(d.get("value"), Mapping)
        and d["value"].get("points") == abs(got - want)
    ]
    return worth[0] if len(set(worth)) == 1 else None


def _scoring(
    method: str,
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
    hand: int | None,
) -> _Found | None:
    """The first scoring step that differs, in the order a hand is scored."""
    for d in decisions:
        point = d["point"]
        if point not in SCORE_POINTS:
            continue
        key = point
        if key not in expect:
            continue
        want, got = expect[key], answer.get(key)
        team = d.get("team")
        if point == "delta" and isinstance(want, list) and isinstance(got, list) and team in (0, 1):
            if len(got) == len(want) and _same(method, "x", want[team], got[team]):
                continue
            want, got = want[team], got[team] if len(got) > team else None
        elif _same(method, key, want, got):
            continue
        where = Where(method, point, key, hand=hand, team=team)
        rules = (*_unplaced_points(decisions, want, got), *rules_of(d))
        return _Found(rules, where, wording.charge_differs(want, got, quoted=True))
    return None


def _unplaced_points(decisions: Sequence[Decision], want: object, got: object) -> tuple[str, ...]:
    """A score that differs by exactly the last trick's bonus, for the team that took it, where
    the card points were not judged (an expectation without them): the bonus comes first."""
    bonus = next((d for d in decisions if d["point"] == "last trick"), None)
    if bonus is None or not bonus.get("value"):
        return ()
    gap = _gap(want, got) if isinstance(want, list) else None
    if isinstance(want, int) and isinstance(got, int):
        gap = got - want
    return rules_of(bonus) if gap is not None and abs(gap) == bonus["value"] else ()


# --- the auction -------------------------------------------------------------------------------


def _auction(
    method: str,
    params: Mapping[str, Any],
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
) -> _Found | None:
    calls = list(params.get("calls") or [])
    want = _expected_refusal(expect, "violation", decisions)
    got = _refusal(answer.get("violation"))
    turns = {d["index"]: d for d in decisions if d["point"] == "turn"}
    last_turn = next((d for d in reversed(decisions) if d["point"] == "turn"), None)
    for d in decisions:
        if d["point"] != "call":
            continue
        shown = _call_text(calls, d["index"])
        found = _action_verdict(method, "call", d, want, got, turns, shown)
        if found is not None:
            return found
        if want[0] == d["index"] or got[0] == d["index"]:
            break
    for d in decisions:
        point = str(d["point"])
        keys = {"turn": ("next_seat",), "min_bid": ("min_bid",), "can_pass": ("can_pass",),
                "contract": ("complete", "winner", "contract")}.get(point, ())  # fmt: skip
        if point == "turn" and d is not last_turn:
            continue  # next_seat is the seat to call after the calls judged
        for key in keys:
            if key in expect and not _same(method, key, expect[key], answer.get(key)):
                shown = wording.charge_differs(expect[key], answer.get(key), quoted=True)
                return _Found(rules_of(d), Where(method, point, key), shown)
    return None


def _call_text(calls: Sequence[Any], index: int) -> str:
    if not 0 <= index < len(calls) or not isinstance(calls[index], Mapping):
        return ""
    c = calls[index]
    said = "pass" if c.get("pass") else f"bid {c.get('bid')}"
    return f"seat {c.get('seat')}: {said}"


def _expected_refusal(
    expect: Mapping[str, Any], key: str, decisions: Sequence[Decision]
) -> tuple[int | None, str]:
    """The refusal the expectation states, or where it states none (a derived expectation cut
    to the hand-worked fields, an answer judged on other fields), the reference's own."""
    stated = expect.get(key)
    if isinstance(stated, Mapping) and isinstance(stated.get("index"), int):
        return _refusal(stated)
    if key in expect and stated is None:
        return None, ""
    for d in decisions:
        if d["point"] in ACTION_POINTS and d["value"] is False and d.get("index") is not None:
            return int(d["index"]), str(d["rule"])
    return None, ""


def _refusal(value: object) -> tuple[int | None, str]:
    """Where a refusal stops (its index; None for none, -1 for the deal) and its rule."""
    if not isinstance(value, Mapping):
        return None, ""
    index = value.get("index")
    return (int(index) if isinstance(index, int) else -1), str(value.get("rule") or "")


def _action_verdict(
    method: str,
    field: str,
    d: Decision,
    want: tuple[int | None, str],
    got: tuple[int | None, str],
    turns: Mapping[int, Decision],
    shown: str,
    hand: int | None = None,
) -> _Found | None:
    """One action's verdict against the engine's: refused by one side only, or refused under
    another rule. An engine refusing an action the rules allow is charged to the rule that
    allows it (its turn's rule when it claims the turn is another seat's), then its own."""
    i = d["index"]
    where = Where(method, str(d["point"]), field, hand, i, d.get("seat"), shown=shown)
    engine_refused, expected_refused = got[0] == i, want[0] == i
    if engine_refused and not expected_refused:
        said = got[1]
        turn = turns.get(i)
        if said == "AUCTION-DEALER-OPENS":
            turn = turns.get(0, turn)  # the dealer's duty binds the first call only
        # Out of turn, a passed seat's, or the dealer's opening duty at a later call: the seats
        # call in another order than the rules'.
        turned = said == "AUCTION-TURN" or said == "AUCTION-PASS-FINAL"
        turned = turned or (said == "AUCTION-DEALER-OPENS" and i > 0 and d["point"] == "call")
        if said == "PLAY-TURN" and d["point"] == "play":
            # A card the rules let this seat play, refused as out of turn or not held: the
            # engine's turn order (or hands) left the rules' at or before this play.
            own: tuple[str, ...] = ("PLAY-TURN", "PLAY-LEAD")
        elif turned and turn is not None:
            own = (*rules_of(turn), "AUCTION-TURN")
        elif said in rules_of(d):
            # The engine names one of the rules that allow the action: it misreads that one.
            own = (said, *rules_of(d))
        else:
            own = rules_of(d)
        return _Found((*own, said), where, wording.charge_refused(said))
    if expected_refused and not engine_refused:
        opening = turns.get(0) if i == 0 else None
        if want[1] == "AUCTION-TURN" and opening is not None:
            # The first call accepted from a seat the rules do not start with: the first bidder.
            return _Found((*rules_of(opening), "AUCTION-TURN"), where, wording.CHARGE_ACCEPTED)
        return _Found(rules_of(d), where, wording.CHARGE_ACCEPTED)
    if expected_refused and engine_refused and want[1] != got[1]:
        detail = wording.charge_other_rule(got[1], want[1])
        turn = turns.get(i)
        if got[1] in ("AUCTION-TURN", "AUCTION-PASS-FINAL") and turn is not None:
            # The engine holds another seat to be calling: the order of calls is what differs.
            return _Found((*rules_of(turn), got[1], *rules_of(d)), where, detail)
        if precedes(got[1], want[1]):
            # The engine stopped at a rule checked before the expected one: its reason is what
            # differs (the expected rule was never reached).
            return _Found((got[1], *rules_of(d)), where, detail)
        return _Found((*rules_of(d), got[1]), where, detail)
    return None


# --- whole hands, tricks and games -------------------------------------------------------------


def _hand(
    method: str,
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
    actions: Sequence[str],
    hand: int | None,
    totals: bool = False,
) -> _Found | None:
    """The first point of a hand (or of its last tricks) where the answers part (``totals``:
    and then the tricks' totals, for the last tricks of a hand, which end in no scoring)."""
    want = _expected_refusal(expect, "first_illegal", decisions)
    got = _refusal(answer.get("first_illegal"))
    # A call of a whole hand refused as out of turn (or as a passed seat's): the seats called
    # in another order from the start, whichever call shows it.
    opening = next((d for d in decisions if d["point"] == "turn"), None)
    first_turn = {} if opening is None else {int(got[0]): opening} if got[0] is not None else {}
    meld_done = False
    for d in decisions:
        point = d["point"]
        if point in ACTION_POINTS and d.get("index") is not None:
            i = int(d["index"])
            text = actions[i] if i < len(actions) else ""
            found = _action_verdict(method, "action", d, want, got, first_turn, text, hand)
            if found is not None:
                return found
            if i in (want[0], got[0]):
                return None
        elif point == "contract":
            for key in ("bidder", "contract"):
                if key in expect and not _same(method, key, expect[key], answer.get(key)):
                    shown = wording.charge_differs(expect[key], answer.get(key))
                    return _Found(rules_of(d), Where(method, "contract", key, hand=hand), shown)
        elif point in MELD_POINTS and not meld_done:
            meld_done = True
            found = _seat_meld(method, expect, answer, decisions, hand)
            if found is not None:
                return found
        elif point == "trick winner":
            found = _trick(method, expect, answer, decisions, d, hand)
            if found is not None:
                return found
        elif point == "outcome" and "outcome" in expect:
            if not _same(method, "outcome", expect["outcome"], answer.get("outcome")):
                shown = wording.charge_differs(expect["outcome"], answer.get("outcome"))
                return _Found(rules_of(d), Where(method, "outcome", "outcome", hand=hand), shown)
        elif point == "made":
            found = _totals(method, expect, answer, decisions, hand)
            if found is not None:
                return found
            return _scoring(method, expect, answer, decisions, hand)
    if totals:
        return _totals(method, expect, answer, decisions, hand)
    return None


def _seat_meld(
    method: str,
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
    hand: int | None,
) -> _Found | None:
    """Each seat's meld total, then the teams': a seat's difference is charged to the rules of
    the meld the reference found in (or kept from) that seat's hand, alike (which one, the
    passing hands decide). Where the expectation states no seat's meld, the reference's own
    totals (its trace) are what the engine's are compared with: the hand parts there first."""
    mine = {
        s: [d for d in decisions if d["point"] in MELD_POINTS and d.get("seat") == s]
        for s in range(4)
    }
    want = expect.get("meld") if "meld" in expect else [_worth(mine[s]) for s in range(4)]
    got = answer.get("meld")
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got) == 4:
        for seat, (w, g) in enumerate(zip(want, got, strict=True)):
            if w != g:
                return _meld_found(
                    method, mine[seat], w, g, Where(method, "meld", "meld", hand, seat=seat)
                )
    elif "meld" in expect and not _same(method, "meld", want, got):
        where = Where(method, "meld", "meld", hand=hand)
        return _Found(("MELD-TYPES",), where, wording.charge_differs(want, got))
    want_team, got_team = expect.get("team_meld"), answer.get("team_meld")
    if "team_meld" in expect and not _same(method, "team_meld", want_team, got_team):
        where = Where(method, "meld", "team_meld", hand=hand)
        gap = _gap(want_team, got_team)
        if gap is not None and isinstance(want_team, list) and isinstance(got_team, list):
            team = next(t for t in (0, 1) if want_team[t] != got_team[t])
            return _meld_found(
                method, [*mine[team], *mine[team + 2]], want_team[team], got_team[team], where
            )
        shown = wording.charge_differs(want_team, got_team)
        return _Found(("MELD-ONE-HAND", "MELD-MINIMUM"), where, shown)
    key = "aces_around"
    if key in expect and not _same(method, key, expect[key], answer.get(key)):
        where = Where(method, key, key, hand=hand)
        shown = wording.charge_differs(expect[key], answer.get(key))
        return _Found(("MELD-ACES-DECLARED",), where, shown)
    return None


def _worth(items: Iterable[Decision]) -> int:
    """What the meld items the reference found add up to."""
    return sum(int(d["value"]["points"]) for d in items if d["point"] == "meld item")


def _meld_found(
    method: str, items: Sequence[Decision], want: object, got: object, where: Where
) -> _Found:
    rules = (*_meld_rules(items, want, got), "MELD-TYPES")
    counted = {r for d in items if d["point"] == "meld item" for r in rules_of(d)}
    kept = [r for d in items if d["point"] == "meld kept" for r in rules_of(d)]
    near = tuple(r for r in dict.fromkeys(kept) if r not in counted)
    shown = wording.charge_differs(want, got)
    explained = _explaining(items, want, got)
    if explained is not None:
        # One meld of this hand is worth exactly the difference: it singles itself out.
        return _Found((explained, *rules), where, shown, kept=near)
    return _Found(rules, where, shown, ambiguous=True, kept=near)


def _trick(
    method: str,
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
    d: Decision,
    hand: int | None,
) -> _Found | None:
    k = int(d["index"])
    want_tricks, got_tricks = expect.get("tricks"), answer.get("tricks")
    if not isinstance(want_tricks, list) or k >= len(want_tricks):
        return None
    want = want_tricks[k]
    got = got_tricks[k] if isinstance(got_tricks, list) and k < len(got_tricks) else None
    if not isinstance(want, Mapping):
        return None
    if not isinstance(got, Mapping):
        where = Where(method, "trick", "tricks", hand=hand, trick=k)
        return _Found(("PLAY-TURN",), where, wording.charge_trick_count(k))
    # The plays of the trick were judged one by one already: a trick that differs in leader or
    # cards has another seat to play, or another card.
    checks = (
        ("leader", ("PLAY-LEAD",) if k == 0 else ("TRICK-WINNER", "PLAY-LEAD")),
        ("cards", ("PLAY-TURN",)),
        ("winner", rules_of(d)),
    )
    for key, rules in checks:
        if key in want and not _same(method, f"tricks[].{key}", want[key], got.get(key)):
            where = Where(method, f"trick {key}", key, hand=hand, trick=k)
            return _Found(rules, where, wording.charge_differs(want[key], got.get(key)))
    if "points" in want and want["points"] != got.get("points"):
        mine = [
            x
            for x in decisions
            if x.get("index") == k and x["point"] in ("card_points", "last trick")
        ]
        rules = _points_rules(mine, want["points"], got.get("points"))
        where = Where(method, "trick points", "points", hand=hand, trick=k)
        return _Found(rules, where, wording.charge_differs(want["points"], got.get("points")))
    return None


def _points_rules(mine: Sequence[Decision], want: object, got: object) -> tuple[str, ...]:
    bonus = next((x for x in mine if x["point"] == "last trick"), None)
    counters = tuple(r for x in mine if x["point"] == "card_points" for r in rules_of(x))
    exact = isinstance(want, int) and isinstance(got, int) and abs(want - got)
    if bonus is not None and exact == bonus["value"]:
        return (*rules_of(bonus), *counters)
    return (*(counters or ("POINTS-COUNTERS",)), *(rules_of(bonus) if bonus else ()))


def _totals(
    method: str,
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
    hand: int | None,
) -> _Found | None:
    """The tricks' totals once every trick agreed: tricks won, then card points."""
    key = "tricks_won"
    if key in expect and not _same(method, key, expect[key], answer.get(key)):
        shown = wording.charge_differs(expect[key], answer.get(key))
        return _Found(("TRICK-WINNER",), Where(method, key, key, hand=hand), shown)
    key = "card_points"
    if key in expect and not _same(method, key, expect[key], answer.get(key)):
        want, got = expect[key], answer.get(key)
        mine = [d for d in decisions if d["point"] in POINTS]
        gap = _gap(want, got)
        rules = _points_rules(mine, 0, gap) if gap is not None else ("POINTS-COUNTERS",)
        return _Found(rules, Where(method, key, key, hand=hand), wording.charge_differs(want, got))
    return None


def _gap(want: object, got: object) -> int | None:
    """The one team's difference when only one team's figure differs."""
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got) == 2:
        gaps = [
            g - w
            for w, g in zip(want, got, strict=True)
            if isinstance(w, int) and isinstance(g, int) and g != w
        ]
        if len(gaps) == 1:
            return gaps[0]
    return None


def _game(
    method: str,
    params: Mapping[str, Any],
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    decisions: Sequence[Decision],
) -> _Found | None:
    """Each hand of a game in order (its dealer, then as a hand; a hand the expectation does not
    list is walked against the reference's trace alone), the hand refused after the game is
    won, then the game's scores, decided by the last hand's scoring."""
    lists = [list(a) if isinstance(a, list) else [] for a in params.get("actions") or []]
    listed, given = expect.get("hands"), answer.get("hands")
    want_hands = listed if isinstance(listed, list) else []
    got_hands = given if isinstance(given, list) else []
    played = sorted({int(d["hand"]) for d in decisions if isinstance(d.get("hand"), int)})
    for k in played:
        want = want_hands[k] if k < len(want_hands) and isinstance(want_hands[k], Mapping) else {}
        got = got_hands[k] if k < len(got_hands) and isinstance(got_hands[k], Mapping) else {}
        mine = [d for d in decisions if d.get("hand") == k]
        dealer = next((d for d in mine if d["point"] == "dealer"), None)
        if dealer is not None and "dealer" in want and got and want["dealer"] != got.get("dealer"):
            shown = wording.charge_dealer(want["dealer"], got.get("dealer"))
            return _Found(rules_of(dealer), Where(method, "dealer", "dealer", hand=k), shown)
        want_h = dict(want)
        if "first_illegal" in expect:
            want_h["first_illegal"] = _in_hand(expect["first_illegal"], k)
        got_h = {**got, "first_illegal": _in_hand(answer.get("first_illegal"), k)}
        actions = [str(a) for a in lists[k]] if k < len(lists) else []
        found = _hand(method, want_h, got_h, mine, actions, k)
        if found is not None:
            return found
    want_refused, got_refused = expect.get("first_illegal"), answer.get("first_illegal")
    refused = [d for d in decisions if d["point"] == "refused" and d.get("index") is None]
    if refused and "first_illegal" in expect and _refusal(want_refused) != _refusal(got_refused):
        d = refused[-1]
        where = Where(method, "refused", "first_illegal", hand=d.get("hand"))
        return _Found(rules_of(d), where, wording.charge_differs(want_refused, got_refused))
    if played:
        last = [d for d in decisions if d.get("hand") == played[-1]]
        return _scoring(method, expect, answer, last, None)
    return None


def _in_hand(refused: object, k: int) -> object:
    """A game's first illegal step as a hand's own, when it is in hand ``k``."""
    if (
        isinstance(refused, Mapping)
        and refused.get("hand") == k
        and refused.get("index") is not None
    ):
        return {"index": refused["index"], "rule": refused.get("rule")}
    return None


FINDERS: dict[Shape, Finder | None] = {
    "one": None,
    "meld": _meld,
    "legal_plays": _legal_plays,
    "winner": _winner,
    "points": _card_points,
    "auction": _auction,
    "score": _score,
    "tricks": partial(_played, totals=True),
    "hand": _played,
    "game": _game,
}
"""Where ``charge`` places a failure of each shape (``methods.Shape``) in the reference's trace;
None: the trace places nothing and ``diagnosis.charge_case`` charges it."""
