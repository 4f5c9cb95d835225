"""Which rules an engine most likely gets wrong: each failure is charged to one rule (a whole hand
to the rule of its first divergence in play order), rules whose own cases all pass are cleared.

A case's failure is charged to the rule it tests; a ``play_hand`` case is charged to the rule of
the first point where the engine's hand leaves the expected one: the first action refused or
wrongly accepted, then the auction's result, the outcome, each seat's meld, each trick in order,
card points, scores. Rules are then ranked by the failures charged to them against the passes of
their own cases, so a rule broken everywhere comes before one that fails only now and then.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, get_args

from specdata import AUCTION_PRECEDENCE, RULE_ID

from . import blame, methods, wording
from .blame import MELD_ITEM_RULE
from .compare import Answer, TotalsOnly, compare_at, meld_diff
from .methods import WHOLE_SHAPES, Shape
from .verdicts import ONE_QUESTION, ChargeEntry, ChargeKind, Evidence, OwnCases, SuspectEntry, Where

MELD_ITEMS = "meld items"
"""Where a meld answer differs when its items do (charged to the items' rules)."""
CALL = "call "
"""How a charge of an auction case names its call (``call 0 (seat 1: bid 150)``)."""
HAND = "the hand"
"""Where a whole hand or game differs when no point of divergence is found."""
FIELD = "field "
"""How a charge of a case asking one question names the field that first differs
(``field min_bid``, ``field delta (team 1)``)."""
MELD_TOTAL = "meld total"
ENGINE_ERROR = "engine error"
"""Where an engine error is charged (no answer to place)."""
"""Where a meld answer differs when the engine reports totals only (capability meld: totals)."""
FORCED_PASSES = 3
"""Three passes with no bid: the fourth to speak is forced (AUCTION-DEALER-FORCED)."""
TWENTY = 20
"""The least meld and the least card points a double-deck team scores with (MELD-MINIMUM,
SCORE-TRICK-MINIMUM); a rule of another variant is dropped by the diagnosis (no cases)."""
KEPT = "~kept"
"""How a passing answer's coverage marks a meld kept from counting (``charges.coverage``)."""
EVIDENCE_LIMIT = 3
"""How many failures each suspect quotes as evidence."""


@dataclass(frozen=True)
class Charge:
    """Where one failure points: the rules that may be wrong (most likely first) and why."""

    rules: tuple[str, ...]
    at: str
    """Where the answer first differs (``trick 3 winner``, ``melds``, ``action 8 (play Kc)``)."""
    detail: str
    where: Where | None = None
    """The same place as data, where the trace placed it."""
    ambiguous: bool = False
    """The rules are named alike: the answer singles out none of them (a meld total), so the
    passing answers decide between them (``diagnose``)."""
    kept: tuple[str, ...] = ()
    """The rules named for a meld the rules keep from counting (a near miss the engine may
    count): the passing answers that speak for them are those with the same near miss."""
    kind: ChargeKind = field(kw_only=True)
    """What the place is, as data (``verdicts.ChargeKind``): what the diagnosis reads, never
    ``at``'s words."""

    def as_dict(self) -> ChargeEntry:
        entry = ChargeEntry(
            rule=self.rules[0], also=list(self.rules[1:]), at=self.at, kind=self.kind
        )
        if self.detail:
            entry["detail"] = self.detail
        if self.where is not None:
            entry["where"] = self.where.as_dict()
        if self.ambiguous:
            entry["ambiguous"] = True
        if self.kept:
            entry["kept"] = list(self.kept)
        return entry

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Charge:
        """The charge a report carries (``as_dict``), read back."""
        rules = (str(raw["rule"]), *map(str, raw.get("also", [])))
        place = raw.get("where")
        where = None
        if isinstance(place, Mapping):
            where = Where(**{k: v for k, v in place.items() if k in Where.__dataclass_fields__})
        at = str(raw.get("at", ""))
        kind = raw.get("kind")
        return cls(
            rules,
            at,
            str(raw.get("detail", "")),
            where,
            bool(raw.get("ambiguous", False)),
            tuple(map(str, raw.get("kept", []))),
            kind=kind if kind in CHARGE_KINDS else kind_of_an_older_report(at),
        )


CHARGE_KINDS: frozenset[str] = frozenset(get_args(ChargeKind))


def kind_of_an_older_report(at: str) -> ChargeKind:
    """The kind of a charge read from a report written before charges carried their kind: from
    the words of its place, the one reading of them (every charge built now carries its kind)."""
    if at in ("answer", MELD_ITEMS, MELD_TOTAL):
        return "answer" if at == "answer" else ("meld items" if at == MELD_ITEMS else "meld total")
    if at.startswith(CALL):
        return "call"
    if at.startswith(FIELD):
        return "field"
    return "error" if at == ENGINE_ERROR else "point"


@dataclass(frozen=True)
class Outcome:
    """One item's verdict as the diagnosis sees it."""

    node: str
    status: str
    """passed, failed, errored or skipped."""
    rule: str
    uses: tuple[str, ...] = ()
    charge: Charge | None = None
    covers: frozenset[str] = frozenset()
    """The rules the reference used in deciding the question asked (its trace): a passing
    answer is evidence for each of them (spectrum-based fault localisation)."""


@dataclass
class Suspect:
    """A rule that may be wrong, with what speaks for it."""

    rule: str
    weight: float = 0.0
    direct: bool = False
    """A case that asks about this rule alone (not a whole hand) fails: direct evidence."""
    failed: int = 0
    passed: int = 0
    covered: int = 0
    """Passing answers the rule helped decide (their trace names it), its own cases included."""
    near: int = 0
    """Failures that name the rule for a near miss only (``Charge.kept``)."""
    evidence: list[Evidence] = field(default_factory=list)
    explained_by: list[str] = field(default_factory=list)
    """The suspects ranked before it whose failures are all of its own (a cascade of them):
    listed after the ranked suspects, never among them (``_explainers``)."""

    @property
    def score(self) -> float:
        # Ochiai's ratio without the constant factor: failures charged against the passing
        # answers the rule decided, so a rule that fails 9 answers of 10 outranks one failing 9
        # of 90, and a rule every passing hand exercises is cleared by them.
        passed = max(self.passed, self.covered)
        return self.weight / math.sqrt(self.weight + passed) if self.weight else 0.0

    def as_dict(self) -> SuspectEntry:
        entry = SuspectEntry(
            rule=self.rule,
            score=round(self.score, 3),
            direct=self.direct,
            own_cases=OwnCases(failed=self.failed, passed=self.passed),
            evidence=self.evidence,
        )
        if self.explained_by:
            entry["explained_by"] = list(self.explained_by)
        return entry


# --- charging one failure -----------------------------------------------------------------------


def _unclaimed(action: str) -> str:
    """The action without its protocol claim (``seat 2: trump h`` -> ``trump h``)."""
    head, sep, rest = action.partition(": ")
    return rest if sep and head.startswith("seat ") else action


def _said_rules(said: str, index: int | None, first_call: int | None) -> tuple[str, ...]:
    """The rules behind an engine's refusal of a call the rules accept.

    The first call of the auction belongs to the first bidder (AUCTION-FIRST-BIDDER), and the
    single-deck dealer's opening duty binds that first call only: an engine that refuses the
    first call as out of turn, or a later call as the dealer's opening, started the auction
    with another seat, so that rule comes first.
    """
    own = (said,) if RULE_ID.fullmatch(said) else ()
    if index is None or first_call is None:
        return own
    wrong_start = (said == "AUCTION-TURN" and index == first_call) or (
        said == "AUCTION-DEALER-OPENS" and index > first_call
    )
    return ("AUCTION-FIRST-BIDDER", *own) if wrong_start else own


def precedes(said: str, rule: str) -> bool:
    """Whether the engine's rule is checked before the expected one (auction precedence)."""
    order = {r: i for i, r in enumerate(AUCTION_PRECEDENCE)}
    return said in order and rule in order and order[said] < order[rule]


def _action_rule(action: str) -> str:
    """The rule an action of this kind is refused under (CONTRIBUTING.md, "Engine actions")."""
    kind = _unclaimed(action).split(" ", 1)[0]
    return {
        "bid": "AUCTION-HIGHER",
        "pass": "AUCTION-PASS-FINAL",
        "trump": "TRUMP-CALL",
        "give": "PASS-CARDS",
        "throw-in": "SCORE-THROW-IN",
        "play-on": "SCORE-THROW-IN",
        "play": "PLAY-FOLLOW",
    }.get(kind, "PLAY-TURN")


def _family(
    rules: Sequence[str], prefixes: tuple[str, ...], fallback: Sequence[str]
) -> tuple[str, ...]:
    chosen = [r for r in rules if r.startswith(prefixes)]
    return tuple(dict.fromkeys([*chosen, *fallback]))


def _refusal(
    expected: Answer | None,
    answered: Answer | None,
    actions: Sequence[str],
    by_kind: bool = True,
) -> Charge | None:
    """The first action (or call) refused by one side only, or refused under another rule.

    ``actions`` are the actions or calls in order, the auction's first call first; ``by_kind``
    adds the rule an action of that kind is refused under (whole hands only).
    """

    e, a = _refused_at(expected), _refused_at(answered)
    if e == a == math.inf:
        return None

    def name(i: float) -> str:
        what = "action" if by_kind else CALL.strip()
        if i < 0:
            return "the deal"
        return f"{what} {int(i)} ({actions[int(i)]})" if i < len(actions) else f"{what} {int(i)}"

    def kind_at(i: float) -> ChargeKind:
        return "call" if not by_kind and i >= 0 else "point"

    first_call = 0 if actions else None
    if a < e:  # the engine refused an action the rules allow
        assert answered is not None
        said = str(answered.get("rule") or "")
        where = int(a) if 0 <= a < len(actions) else None
        own = _said_rules(said, where, first_call)
        kind = (_action_rule(actions[where]) if where is not None else "DEAL-HANDS",)
        if by_kind and where is not None and blame.follows_a_trumped_trick(actions, where):
            # A card of the suit led, refused in a trick already trumped: the rule that allows
            # it (any card of the suit once the trick is trumped) is what the engine misreads.
            own = (blame.TRUMPED_TRICK, *own)
        rules = tuple(dict.fromkeys((*own, *(kind if by_kind else ()))))
        return Charge(rules or kind, name(a), wording.charge_refused(said), kind=kind_at(a))
    assert expected is not None
    rule = str(expected.get("rule") or "")
    if e < a:  # the engine accepted an action the rules refuse
        where = int(e) if 0 <= e < len(actions) else None
        return Charge(
            _said_rules(rule, where, first_call) or (rule,),
            name(e),
            wording.CHARGE_ACCEPTED,
            kind=kind_at(e),
        )
    said = str((answered or {}).get("rule") or "")
    if said != rule and RULE_ID.fullmatch(rule):
        where = int(e) if 0 <= e < len(actions) else None
        detail = wording.charge_other_rule(said, rule)
        if precedes(said, rule):
            # The engine stopped at a rule checked before the expected one: the engine's reason
            # is what differs. The expected rule was never reached, so it is not named.
            return Charge(_said_rules(said, where, first_call), name(e), detail, kind=kind_at(e))
        return Charge((rule,), name(e), detail, kind=kind_at(e))
    return None


def _refused_at(refusal: Answer | None) -> float:
    """Where a refusal stops: its action's index, -1 for the deal, infinity for no refusal."""
    if refusal is None:
        return math.inf
    i = refusal.get("index")
    return float(i) if isinstance(i, int | float) else -1


def _object(value: object) -> Answer | None:
    """A JSON object of an answer (``first_illegal``, ``violation``), None for anything else."""
    return value if isinstance(value, Mapping) else None


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def hand_divergence(
    expect: Answer,
    answer: Answer,
    actions: Sequence[str],
    rule: str,
    uses: Sequence[str] = (),
) -> Charge | None:
    """The first point, in play order, where a ``play_hand`` answer leaves the expected one."""
    rules = (rule, *uses)
    deferred = None
    if "first_illegal" in expect or "legal" in expect:
        want, got = _object(expect.get("first_illegal")), _object(answer.get("first_illegal"))
        charge = _refusal(want, got, actions)
        if charge is not None and _refused_at(want) != _refused_at(got):
            return charge
        # Both refuse the same action under different rules: the engine's state may have left
        # the expected one earlier (a meld that ends the hand); that point is charged if found.
        deferred = charge
    found = _state_divergence(expect, answer, rules)
    return found if found is not None else deferred


def _state_divergence(expect: Answer, answer: Answer, rules: Sequence[str]) -> Charge | None:
    """The first divergence of the hand's state, in play order, after the actions' verdicts:
    the field and its rules from the one blame table (``blame.hand_divergence``); a field the
    table does not know is charged to the case's rule."""
    found = blame.hand_divergence(expect, answer, rules)
    if found is not None:
        return Charge(found.rules, found.at, found.detail, kind="point")
    for key in expect:
        if expect[key] != answer.get(key):
            return Charge((rules[0],), key, "", kind="point")
    return None


def charge_case(
    method: str,
    params: Answer,
    expect: Answer,
    answer: Answer,
    rule: str,
    uses: Sequence[str] = (),
    detail: str = "",
) -> Charge:
    """The charge of a failed case: a whole hand's first divergence, an auction's first call
    refused by one side only, the meld items that differ; else the case's own rule."""
    record = methods.method(method)
    place = UNTRACED[record.shape]
    found = None if place is None else place(params, expect, answer, rule, uses)
    if found is not None:
        return found
    # A whole hand or game that differs where no divergence is placed (a scenario's step that
    # checks a field the charge does not see) accuses its rule only as a whole hand does.
    if record.shape in WHOLE_SHAPES:
        return Charge((rule,), HAND, detail, kind="point")
    return Charge((rule,), "answer", detail, kind="answer")


Untraced = Callable[[Answer, Answer, Answer, str, Sequence[str]], Charge | None]
"""Where a failed answer of one shape first differs, without the reference's trace: from the
params, the expectation, the answer, the case's rule and the rules it uses."""


def _untraced_hand(
    params: Answer, expect: Answer, answer: Answer, rule: str, uses: Sequence[str]
) -> Charge | None:
    actions = [str(a) for a in _list(params.get("actions"))]
    return hand_divergence(expect, answer, actions, rule, uses)


def _untraced_auction(
    params: Answer, expect: Answer, answer: Answer, rule: str, uses: Sequence[str]
) -> Charge | None:
    calls = _list(params.get("calls"))
    found = auction_divergence(expect, answer, calls, rule)
    return found or auction_state_divergence(expect, answer, calls, (rule, *uses))


def _untraced_game(
    params: Answer, expect: Answer, answer: Answer, rule: str, uses: Sequence[str]
) -> Charge | None:
    return game_divergence(expect, answer, params, rule, uses)


def _untraced_meld(
    params: Answer, expect: Answer, answer: Answer, rule: str, uses: Sequence[str]
) -> Charge | None:
    return meld_divergence(expect, answer, rule)


def _untraced_score(
    params: Answer, expect: Answer, answer: Answer, rule: str, uses: Sequence[str]
) -> Charge | None:
    return score_divergence(params, expect, answer, (rule, *uses))


UNTRACED: dict[Shape, Untraced | None] = {
    "one": None,
    "meld": _untraced_meld,
    "legal_plays": None,
    "winner": None,
    "points": None,
    "auction": _untraced_auction,
    "score": _untraced_score,
    "tricks": None,
    "hand": _untraced_hand,
    "game": _untraced_game,
}
"""How ``charge_case`` places a failure of each shape (``methods.Shape``) where the reference's
trace places nothing; None: it charges the case's own rule."""


def game_divergence(
    expect: Answer,
    answer: Answer,
    params: Answer,
    rule: str,
    uses: Sequence[str] = (),
) -> Charge | None:
    """The first point where a ``play_game`` answer leaves the expected game: each hand in order
    (its dealer, then as ``hand_divergence`` places it), the step refused, then the game's
    scores, winner and next dealer."""
    lists = [[str(x) for x in _list(a)] for a in _list(params.get("actions"))]
    want_hands, got_hands = expect.get("hands"), answer.get("hands")
    got_hands = got_hands if isinstance(got_hands, list) else []
    if isinstance(want_hands, list):
        for k, want in enumerate(want_hands):
            got = got_hands[k] if k < len(got_hands) and isinstance(got_hands[k], Mapping) else {}
            if not isinstance(want, Mapping):
                continue
            if "dealer" in want and want["dealer"] != got.get("dealer"):
                detail = wording.charge_dealer(want["dealer"], got.get("dealer"))
                return Charge(("DEAL-ROTATION",), f"hand {k + 1} dealer", detail, kind="point")
            actions = lists[k] if k < len(lists) else []
            found = hand_divergence(want, got, actions, rule, uses)
            if found is not None:
                return _in_hand(k, found)
    refused = _game_refusal(expect.get("first_illegal"), answer.get("first_illegal"), lists)
    if refused is not None:
        return refused
    rules = (rule, *uses)

    def differs(key: str) -> bool:
        return key in expect and bool(compare_at("play_game", key, expect[key], answer.get(key)))

    shown = wording.charge_differs
    if differs("scores"):
        found_rules = _family(rules, ("SCORE-", "GAME-"), ["SCORE-MADE", "SCORE-SET"])
        detail = shown(expect["scores"], answer.get("scores"))
        return Charge(found_rules, "scores", detail, kind="point")
    if differs("game_winner"):
        found_rules = _family(rules, ("GAME-",), ["GAME-TARGET"])
        winner = shown(expect["game_winner"], answer.get("game_winner"))
        return Charge(found_rules, "game winner", winner, kind="point")
    if differs("next_dealer"):
        dealer = shown(expect["next_dealer"], answer.get("next_dealer"))
        return Charge(("DEAL-ROTATION", "GAME-TARGET"), "next dealer", dealer, kind="point")
    return None


def _game_refusal(want: object, got: object, lists: Sequence[Sequence[str]]) -> Charge | None:
    """A step of a game refused by one side only, or under another rule: placed in the first
    hand either side refuses, as a hand's refusal is."""

    def hand_of(x: object) -> float:
        hand = x.get("hand") if isinstance(x, Mapping) else None
        return hand if isinstance(hand, int) else math.inf

    first = min(hand_of(want), hand_of(got))
    if first == math.inf:
        return None
    hand = int(first)
    actions = lists[hand] if hand < len(lists) else []
    mine = [x if hand_of(x) == hand else None for x in (want, got)]
    found = _refusal(_object(mine[0]), _object(mine[1]), [str(a) for a in actions])
    return None if found is None else _in_hand(hand, found)


def _in_hand(hand: int, found: Charge) -> Charge:
    """A hand's charge as the game's: the same rules, placed in that hand (0-based)."""
    return Charge(found.rules, f"hand {hand + 1} {found.at}", found.detail, kind="point")


def _call_text(call: object) -> str:
    if not isinstance(call, Mapping):
        return str(call)
    what = "pass" if call.get("pass") else f"bid {call.get('bid')}"
    return f"seat {call.get('seat')}: {what}"


def auction_divergence(
    expect: Answer, answer: Answer, calls: Sequence[object], rule: str
) -> Charge | None:
    """The first call refused by one side only (or under another rule), charged to that call's
    rule rather than the case's: a sequence refused before the call a case tests says nothing
    of that call. A refusal is the last call of a case unless the case says otherwise; an
    expectation that names neither ``legal`` nor ``violation`` (a scenario checking the state
    only) describes the auction after every call, so it holds them all legal."""
    wanted = expect.get("violation")
    if isinstance(wanted, Mapping) and "index" not in wanted:
        wanted = {**wanted, "index": max(len(calls) - 1, 0)}
    got = answer.get("violation")
    if answer.get("legal") is False and not isinstance(got, Mapping):
        return None  # refused without saying where: nothing to place
    if isinstance(got, Mapping) and not isinstance(got.get("index"), int):
        return None
    texts = [_call_text(c) for c in calls]
    return _refusal(
        wanted if isinstance(wanted, Mapping) else None,
        got if isinstance(got, Mapping) else None,
        texts,
        by_kind=False,
    )


def _is_pass(call: object) -> bool:
    return isinstance(call, Mapping) and bool(call.get("pass"))


def _bid(call: object) -> int | None:
    bid = call.get("bid") if isinstance(call, Mapping) else None
    return bid if isinstance(bid, int) and not isinstance(bid, bool) else None


def auction_state_divergence(
    expect: Answer, answer: Answer, calls: Sequence[object], rules: Sequence[str]
) -> Charge | None:
    """The first field of an auction's state that differs, once both sides agree on which call
    (if any) is refused, charged to the rule that decides that field at that point
    (spec/rules/auction.md, "Smallest next bid"): right ``next_seat`` with a wrong ``min_bid`` is
    not the fault of the turn rule a case tests.

    Fields in the order an auction decides them: whether it is complete and who holds which
    contract, who calls next, the least bid, whether a pass is open.
    """
    violation = expect.get("violation")
    index = violation.get("index") if isinstance(violation, Mapping) else None
    if expect.get("legal") is False and isinstance(violation, Mapping) and index is None:
        index = max(len(calls) - 1, 0)  # a refusal is the last call unless the case says
    made = list(calls[:index] if isinstance(index, int) else calls)
    bids = [b for b in map(_bid, made) if b is not None]
    opening = not made
    # Three passes and no bid: the fourth to speak is forced (AUCTION-DEALER-FORCED).
    forced = len(made) >= FORCED_PASSES and all(map(_is_pass, made[:FORCED_PASSES]))
    duty = "AUCTION-DEALER-OPENS" if opening else "AUCTION-DEALER-FORCED"
    bound = opening or forced
    for key in ("complete", "winner", "contract", "next_seat", "min_bid", "can_pass"):
        if key not in expect or _same(expect[key], answer.get(key)):
            continue
        want, got = expect[key], answer.get(key)
        found: tuple[str, ...]
        if key in ("complete", "winner", "contract"):
            # After three passes the forced bid decides the end (and the contract); otherwise
            # the three passes after a bid do.
            found = ("AUCTION-DEALER-FORCED",) if forced else ("AUCTION-END",)
        elif key == "next_seat":
            if opening:
                found = ("AUCTION-FIRST-BIDDER",)
            elif forced and not bids:
                found = ("AUCTION-DEALER-FORCED",)
            else:
                found = _family(rules, ("AUCTION-TURN", "AUCTION-PASS-FINAL"), ["AUCTION-TURN"])
        elif key == "can_pass":
            found = (duty,)
        elif bound and False in (expect.get("can_pass"), answer.get("can_pass")) and not bids:
            found = (duty,)  # the least bid of a seat bound to one amount
        elif not bids:
            found = ("AUCTION-OPENING-MIN",)
        elif isinstance(got, int) and got <= max(bids):
            found = ("AUCTION-HIGHER",)
        else:
            found = ("AUCTION-STEP",)
        detail = wording.charge_differs(want, got, quoted=True)
        return Charge(found, f"{FIELD}{key}", detail, kind="field")
    return None


def _same(want: object, got: object) -> bool:
    return not compare_at("auction", "x", want, got)


@cache
def _rule_variants() -> dict[str, tuple[str, ...]]:
    from specdata.rules import load_catalogue  # the spec's chapters, read once and only if needed

    return {rule.id: rule.variants for rule in load_catalogue().values()}


def applies(rule: str, variant: str) -> bool:
    """Whether ``rule`` is a rule of ``variant`` (an unknown rule or variant: assumed so)."""
    variants = _rule_variants().get(rule)
    return not variants or not variant or variant in variants


def score_divergence(
    params: Answer,
    expect: Answer,
    answer: Answer,
    rules: Sequence[str],
) -> Charge | None:
    """The first field of a scored hand that differs, in the order a hand is scored: made or
    set, each team's delta (the bidders' first), the new scores, the game's winner; each charged
    to the rule deciding it, the case's own first where it is one of those.

    A wrong delta is a scoring fault even in a case testing the game's end (GAME-TARGET).
    """
    bidders = params.get("bidder_team")
    bidders = bidders if bidders in (0, 1) else 0
    outcome = str(params.get("outcome") or "played")
    score_rules = ("SCORE-", "MELD-MINIMUM", "MELD-SHORT-BIDDER", "TRUMP-NO-MARRIAGE")

    def figure(key: str, team: int) -> int | None:
        values = params.get(key)
        if isinstance(values, list) and len(values) == 2 and isinstance(values[team], int):
            return int(values[team])
        return None

    variant = str(params.get("variant") or "")

    def deciding(team: int) -> list[str]:
        """The rules that decide ``team``'s result from its figures, likeliest first: those its
        figures bring into play (in the case's variant), the case's own, the plain ones."""
        by_outcome = {
            "thrown_in": ["SCORE-FORCED-THROW-IN", "SCORE-THROW-IN"],
            "no_marriage": ["TRUMP-NO-MARRIAGE"],
            "meld_short": ["MELD-SHORT-BIDDER"],
        }
        found = []
        if team == bidders:
            found += by_outcome.get(outcome, [])
        elif outcome == "played" and figure("tricks_won", team) == 0:
            found.append("SCORE-OPPONENTS-TRICK")
        tricks, meld = figure("tricks", team), figure("meld", team)
        if outcome == "played" and tricks is not None and tricks < TWENTY:
            found.append("SCORE-TRICK-MINIMUM")
        if meld is not None and meld < TWENTY:
            found.append("MELD-MINIMUM")
        found = [r for r in found if applies(r, variant)]
        plain = ["SCORE-MADE", "SCORE-SET"] if expect.get("made") else ["SCORE-SET", "SCORE-MADE"]
        return [*found, *(r for r in rules if r.startswith(score_rules)), *plain]

    def charge(key: str, found: Sequence[str], detail: str) -> Charge:
        return Charge(tuple(dict.fromkeys(found)), f"{FIELD}{key}", detail, kind="field")

    if "made" in expect and not _same(expect["made"], answer.get("made")):
        detail = wording.charge_differs(expect["made"], answer.get("made"), quoted=True)
        return charge("made", deciding(bidders), detail)
    want, got = expect.get("delta"), answer.get("delta")
    if "delta" in expect and not _same(want, got):
        if isinstance(want, list) and isinstance(got, list) and len(want) == len(got) == 2:
            team = next(t for t in (bidders, 1 - bidders) if not _same(want[t], got[t]))
        else:
            team = bidders
        return charge(f"delta (team {team})", deciding(team), wording.charge_differs(want, got))
    if "scores" in expect and not _same(expect["scores"], answer.get("scores")):
        detail = wording.charge_differs(expect["scores"], answer.get("scores"))
        found = _family(rules, ("GAME-ROUNDS", "GAME-TARGET"), ["GAME-TARGET"])
        return Charge(found, f"{FIELD}scores", detail, kind="field")
    if "game_winner" in expect and not _same(expect["game_winner"], answer.get("game_winner")):
        found = _family(rules, ("GAME-",), ["GAME-TARGET"])
        detail = wording.charge_differs(
            expect["game_winner"], answer.get("game_winner"), quoted=True
        )
        return Charge(found, f"{FIELD}game winner", detail, kind="field")
    return None


def meld_divergence(expect: Answer, answer: Answer, rule: str) -> Charge | None:
    """The meld items reported wrong, each charged to the rule of its item: a run case whose
    run is right but which also reports a royal marriage points at the royal marriage rule."""
    want, got = expect.get("melds"), answer.get("melds")
    if want is None and isinstance(got, list) and not isinstance(got, TotalsOnly):
        return _total_divergence(expect, answer, got, rule)
    if not isinstance(want, list) or not isinstance(got, list):
        return None
    if isinstance(got, TotalsOnly):
        # Meld as totals only: no item is reported, so which one is wrong does not show. The
        # case's own rule and the rules of its expected items are named, the case's first; the
        # charge convicts none of them (see ``_ambiguous``), so a rule whose own cases pass
        # elsewhere is cleared and the charge falls on the others.
        items = [w for w in want if isinstance(w, Mapping)]
        worth = got.worth(items)
        if worth == got.total:
            return None
        named = [MELD_ITEM_RULE[str(m.get("id"))] for m in items if m.get("id") in MELD_ITEM_RULE]
        return Charge(
            tuple(dict.fromkeys([rule, *named])),
            MELD_TOTAL,
            wording.charge_melds_worth(worth, got.total),
            kind="meld total",
        )
    diff = meld_diff([w for w in want if isinstance(w, Mapping)], got)
    wrong = [*diff.missing, *diff.unexpected]
    named = [MELD_ITEM_RULE[str(m.get("id"))] for m in wrong if str(m.get("id")) in MELD_ITEM_RULE]
    if not named:
        return None
    ids = sorted({str(m.get("id")) for m in wrong})
    # The case's own rule first when its own item is wrong; else the items' rules, then its own.
    rules = (rule, *named) if rule in named else (*named, rule)
    detail = wording.charge_meld_items(ids)
    return Charge(tuple(dict.fromkeys(rules)), MELD_ITEMS, detail, kind="meld items")


def _total_divergence(
    expect: Answer, answer: Answer, reported: Sequence[object], rule: str
) -> Charge | None:
    """A meld total checked without its items (a scenario's first Then step): which item is
    wrong does not show, but the engine's items do. One worth exactly the surplus is likeliest
    (a meld counted that should not be), then the case's own rule, then the other items'."""
    want, got = expect.get("total"), answer.get("total")
    if not isinstance(want, int) or not isinstance(got, int) or want == got:
        return None
    items = [m for m in reported if isinstance(m, Mapping) and m.get("id") in MELD_ITEM_RULE]
    surplus = [MELD_ITEM_RULE[str(m["id"])] for m in items if m.get("points") == got - want]
    others = [MELD_ITEM_RULE[str(m["id"])] for m in items]
    return Charge(
        tuple(dict.fromkeys([*surplus, rule, *others])),
        MELD_TOTAL,
        wording.charge_meld_total(want, got),
        kind="meld total",
    )


# --- ranking ------------------------------------------------------------------------------------


def _direct_rule(o: Outcome) -> str | None:
    """The rule a failed case accuses directly: a case that asks one question (not a whole
    hand) accuses its own rule, or the rule of the call or meld item its answer got wrong; any
    answer the reference's trace placed (a point of a whole hand included) accuses the rule
    that decided that point."""
    if o.charge is None or o.charge.kind == "answer":
        return o.rule
    if o.charge.kind in ONE_QUESTION or (o.charge.where is not None and not o.charge.ambiguous):
        return o.charge.rules[0]
    return None


def _ambiguous(charge: Charge) -> bool:
    """A charge naming several rules none of which the answer singles out (a meld total of an
    engine reporting no items): it counts against none of them as a failure of its own."""
    return charge.ambiguous or (charge.kind == "meld total" and len(charge.rules) > 1)


def diagnose(outcomes: Iterable[Outcome]) -> list[SuspectEntry]:
    """The rules likely wrong, likeliest first; rules whose own cases all pass are cleared."""
    items = list(outcomes)
    own_run: Counter[str] = Counter()
    own_passed: Counter[str] = Counter()
    own_failed: Counter[str] = Counter()
    # An engine error says little about a rule (a crash, a refused request): errors are weighed
    # only when nothing failed outright, and never clear or convict a rule's own cases.
    convicting = ("failed",) if any(o.status == "failed" for o in items) else ("failed", "errored")
    for o in items:
        if o.status not in ("passed", *convicting):
            continue
        own_run[o.rule] += 1
        if o.status == "passed":
            own_passed[o.rule] += 1
        elif o.charge is None or (o.rule in o.charge.rules[:1] and not _ambiguous(o.charge)):
            own_failed[o.rule] += 1
    cleared = {r for r in own_run if own_failed[r] == 0 and own_passed[r] > 0}
    suspects: dict[str, Suspect] = defaultdict(lambda: Suspect(""))
    accusations: list[str] = []
    charged: list[tuple[list[str], bool]] = []
    """The open rules each failure names, likeliest first."""
    for o in items:
        if o.status not in convicting:
            continue
        charge = o.charge or Charge((o.rule,), ENGINE_ERROR, "", kind="error")
        named = list(charge.rules)
        if charge.kind == "answer":
            # A wrong answer of a plain case may come from a rule it relies on that fails its own
            # cases too: that rule shares the charge.
            named += [u for u in o.uses if own_failed[u]]
        # Cleared rules drop out; so do rules with no case of their own in this run (a family
        # named by a whole hand, such as the dix in double-deck), unless nothing else is left.
        open_rules = [r for r in dict.fromkeys(named) if r not in cleared]
        if charge.where is not None:
            # Placed by the reference's trace, every rule named decided the point (the variant
            # has it, the hand reached it): own cases or none, cleared or not, the passing
            # answers weigh it (an own case can pass on an answer that does not show the rule).
            live = list(dict.fromkeys(named)) or [o.rule]
        elif _ambiguous(charge):
            live = open_rules or [o.rule]
        else:
            live = [r for r in open_rules if own_run[r]] or open_rules or [o.rule]
        charged.append((live, _ambiguous(charge)))
        for r, share in _shares(live, _ambiguous(charge)).items():
            s = suspects[r]
            s.rule = r
            s.weight += share
            s.near += r in charge.kept
            s.evidence.append(Evidence(case=o.node, **charge.as_dict()))
        accused = _direct_rule(o)
        if accused is not None and _ambiguous(charge):
            accused = live[0]  # the likeliest of the rules it names that is still open
        if accused is not None:
            accusations.append(accused)
    for accused in accusations:
        if accused in suspects:
            suspects[accused].direct = True
    covered: Counter[str] = Counter()
    for o in items:
        if o.status == "passed":
            covered.update(o.covers)
    for r, s in suspects.items():
        # Named mostly for a near miss: the passing answers with that near miss speak for it.
        near = s.near * 2 > len(s.evidence)
        s.failed, s.passed = own_failed[r], own_passed[r]
        s.covered = covered[r + KEPT] if near else covered[r]
        # Evidence that names the rule first, from a case asking one question, is quoted first.
        s.evidence = sorted(
            s.evidence, key=lambda ev: (ev["rule"] != r, ev.get("kind") not in ONE_QUESTION)
        )[:EVIDENCE_LIMIT]
    return [s.as_dict() for s in _explained_order(list(suspects.values()), charged)]


def _shares(live: Sequence[str], alike: bool = False) -> dict[str, float]:
    """How one failure's weight (1) is split among the rules it names: the first named is the
    likeliest, so it takes twice the share of each other one (``alike``: equal shares)."""
    shares = [2.0 if i == 0 and not alike else 1.0 for i in range(len(live))]
    return {r: share / sum(shares) for r, share in zip(live, shares, strict=True)}


def _rank_key(s: Suspect) -> tuple[bool, float, float, str]:
    # A rule convicted by a case of its own that asks about it alone comes before rules only a
    # whole hand points at: a hand's divergence can follow from a state it left unchecked.
    return (not s.direct, -s.score, -s.weight, s.rule)


def _explained_order(
    suspects: list[Suspect], charged: Sequence[tuple[Sequence[str], bool]]
) -> list[Suspect]:
    """Suspects likeliest first, each failure explained once: the best suspect is taken, every
    failure naming it is set aside, and the next is ranked on the failures left.

    An engine wrong in two places fails the cases of both, and each bug's cascade (a meld total
    that a wrong item spoils, a legal play a wrong obligation adds) fails cases of innocent rules
    that name the culprit too. Ranked on all failures at once, a cascade can outweigh the second
    bug; once the first culprit explains its cascade, the second stands out. A suspect's score
    is the one it had when taken (what the suspects before it leave unexplained); suspects whose
    failures are all explained come last, in their own order: first those some failure names
    first (they may be a second bug the culprit masks), then those explained away
    (``Suspect.explained_by``, ``_explainers``).
    """
    left = [(list(live), alike) for live, alike in charged]
    pool = {s.rule: s for s in suspects}
    whole = {s.rule: s.weight for s in suspects}
    order: list[Suspect] = []
    while pool:
        weights: defaultdict[str, float] = defaultdict(float)
        for live, alike in left:
            for r, share in _shares(live, alike).items():
                weights[r] += share
        open_now = [s for r, s in pool.items() if weights[r] > 0]
        if not open_now:
            break
        for s in open_now:
            s.weight = weights[s.rule]
        best = min(open_now, key=_rank_key)
        order.append(best)
        del pool[best.rule]
        left = [(live, alike) for live, alike in left if best.rule not in live]
    for s in pool.values():
        s.weight = whole[s.rule]
    rest = sorted(pool.values(), key=_rank_key)
    explained: list[Suspect] = []
    ranked = {o.rule for o in order}
    while True:  # a cascade of a cascade is explained once its own cause is
        found = [s for s in rest if s not in explained]
        for s in found:
            s.explained_by = _explainers(s.rule, charged, ranked, explained)
        newly = [s for s in found if s.explained_by]
        if not newly:
            break
        explained += newly
    return order + sorted(rest, key=lambda s: bool(s.explained_by))


def _explainers(
    rule: str,
    charged: Sequence[tuple[Sequence[str], bool]],
    ranked: set[str],
    explained: Sequence[Suspect],
) -> list[str]:
    """The ranked suspects that explain every failure naming ``rule`` (empty: not explained).

    Explained away only when each of its failures points at a suspect ranked before it: the
    failure's charge names that suspect first (its likeliest rule), or names first a suspect
    already explained by ranked ones (a cascade of a cascade). A failure naming ``rule`` first,
    or first naming a rule not ranked, keeps it a suspect of its own: a second bug is never set
    aside because a culprit's failures happen to name it too.
    """
    through = {s.rule: s.explained_by for s in explained}
    found: list[str] = []
    for live, _alike in charged:
        if rule not in live:
            continue
        head = live[0]
        if head in ranked:
            found.append(head)
        elif head in through:
            found += through[head]
        else:
            return []
    return list(dict.fromkeys(found))
