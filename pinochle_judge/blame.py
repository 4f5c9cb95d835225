"""The one field-to-rule blame table: which rules decide each field of an answer, likeliest first,
and the first field of a whole hand that differs, in play order. The diagnosis and the fuzzer
both charge a differing answer through it.

Pure data over answers (never the rules themselves): a table lookup, with the few fields whose
rule depends on the values (a trick's winner, the outcome, card points, a meld total) decided by
the small functions below.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from specdata.vocabulary import MELD_RULES

from . import methods, wording
from .methods import HAND_FIELDS as HAND_FIELDS
from .methods import FieldBlame
from .verdicts import Where

MELD_ITEM_RULE = {**MELD_RULES, "tens_around": "MELD-TENS-AROUND"}
"""The rule that decides each meld item of the protocol (``specdata.vocabulary``), and the rule
that tens around score nothing, charged when an engine reports them."""

HAND_ORDER = (
    "bidder",
    "contract",
    "trump",
    "meld",
    "aces_around",
    "team_meld",
    "outcome",
    "tricks",
    "tricks_won",
    "card_points",
    "delta",
    "scores",
    "game_winner",
)
"""The fields of a hand in play order: the first that differs is the hand's divergence (a
``no_marriage`` outcome comes right after the trump, before meld: ``hand_divergence``)."""


def field_blame(method: str, name: str) -> FieldBlame:
    """The blame of field ``name`` of ``method``'s answer, from the method's record; raises
    ``methods.UnknownMethod`` or ``methods.UnknownField`` for one no record knows."""
    return methods.method(method).field(name)


HAND_METHOD = "play_hand"
"""The method whose answer a hand's fields are (``Blame.where``), in a game's hands too."""


@dataclass(frozen=True)
class Blame:
    """Where an answer first differs (as data) and the rules charged for it, likeliest first."""

    where: Where
    """The hand's field, with its seat (a seat's meld) or trick (0-based) where it has one."""
    rules: tuple[str, ...]
    detail: str = ""

    @property
    def at(self) -> str:
        """The place in words (``seat 2 meld``, ``trick 3 winner``): shown, never read back."""
        return wording.blame_at(self.where)


def _field(key: str, seat: int | None = None) -> Where:
    """The place of field ``key`` of a hand (``seat``: a seat's meld)."""
    return Where(HAND_METHOD, key, key, seat=seat)


def _trick(number: int, part: str) -> Where:
    """The place of one part (``leader``, ``cards``, ``winner``) of trick ``number`` (1-based)."""
    return Where(HAND_METHOD, f"trick {part}", part, trick=number - 1)


def trick_rules(trick: Mapping[str, Any]) -> tuple[str, ...]:
    """TRICK-IDENTICAL when the expected winning card has a twin in the trick, else TRICK-WINNER."""
    cards = list(trick.get("cards") or [])
    leader, winner = trick.get("leader"), trick.get("winner")
    if isinstance(leader, int) and isinstance(winner, int) and cards:
        position = (winner - leader) % 4
        if position < len(cards) and cards.count(cards[position]) > 1:
            return ("TRICK-IDENTICAL", "TRICK-WINNER")
    return ("TRICK-WINNER", "TRICK-IDENTICAL")


def outcome_rules(expected: Any, answered: Any, own: Sequence[str] = ()) -> tuple[str, ...]:
    """The rules behind two different outcomes of a hand: the rule of each special ending."""
    forced = "SCORE-FORCED-THROW-IN" if "SCORE-FORCED-THROW-IN" in own else "SCORE-THROW-IN"
    by_outcome = {
        "no_marriage": "TRUMP-NO-MARRIAGE",
        "meld_short": "MELD-SHORT-BIDDER",
        "thrown_in": forced,
    }
    pair = sorted({str(expected), str(answered)})
    found = tuple(by_outcome[o] for o in pair if o in by_outcome) or ("SCORE-THROW-IN",)
    if "TRUMP-NO-MARRIAGE" in found:
        # The hand ends because no suit is a legal trump (TRUMP-MARRIAGE): an engine that plays
        # on may lack the ending or allow a suit without a marriage.
        found = (*found, "TRUMP-MARRIAGE")
    return found


def points_rules(expected: Sequence[Any], answered: Any) -> tuple[str, ...]:
    """Card points wrong for one side only point at the last trick's bonus first."""
    got = answered if isinstance(answered, list) else [None, None]
    one_side = sum(w != g for w, g in zip(expected, got, strict=False)) == 1
    if one_side:
        return ("POINTS-LAST-TRICK", "POINTS-COUNTERS")
    return ("POINTS-COUNTERS", "POINTS-LAST-TRICK")


def meld_rules(ids: Iterable[Any]) -> tuple[str, ...]:
    """The rules of the meld items reported wrong (missing or unexpected), in their order."""
    return tuple(dict.fromkeys(MELD_ITEM_RULE[str(i)] for i in ids if str(i) in MELD_ITEM_RULE))


def total_rules(items: Sequence[Mapping[str, Any]], want: int, got: int) -> tuple[str, ...]:
    """The rules behind a meld total that differs while its items do not show: an item worth
    exactly the difference is likeliest (counted though it should not be, or left out), then
    the other items' rules."""
    known = [m for m in items if m.get("id") in MELD_ITEM_RULE]
    exact = [MELD_ITEM_RULE[str(m["id"])] for m in known if m.get("points") == abs(got - want)]
    others = [MELD_ITEM_RULE[str(m["id"])] for m in known]
    return tuple(dict.fromkeys([*exact, *others]))


def hand_divergence(
    expect: Mapping[str, Any], answer: Mapping[str, Any], own: Sequence[str] = ()
) -> Blame | None:
    """The first field of a hand's state (after the actions' verdicts) that differs, in play
    order, with the rules the table charges for it (a case's ``own`` rules of the field's family
    first)."""

    def differs(key: str) -> bool:
        return key in expect and expect[key] != answer.get(key)

    def shown(key: str) -> str:
        return wording.charge_differs(expect[key], answer.get(key))

    def blame(key: str) -> tuple[str, ...]:
        return HAND_FIELDS[key].charged(own)

    no_marriage = "no_marriage" in (expect.get("outcome"), answer.get("outcome"))
    for key in HAND_ORDER:
        if key == "meld":
            # The outcome is decided in play order too: no marriage right after the auction,
            # the meld short and the throw-in only once meld is known.
            if differs("outcome") and no_marriage:
                want, got = expect["outcome"], answer.get("outcome")
                return Blame(
                    _field("outcome"),
                    outcome_rules(want, got, own),
                    wording.charge_differs(want, got),
                )
            want, got = expect.get("meld"), answer.get("meld")
            if isinstance(want, list) and isinstance(got, list):
                for seat, (w, g) in enumerate(zip(want, got, strict=False)):
                    if w != g:
                        return Blame(
                            _field("meld", seat=seat), blame("meld"), wording.charge_differs(w, g)
                        )
            continue
        if key == "tricks":
            found = trick_divergence(expect, answer, own)
            if found is not None:
                return found
            continue
        if not differs(key):
            continue
        if key == "outcome":
            return Blame(_field(key), outcome_rules(expect[key], answer.get(key), own), shown(key))
        if key == "card_points" and isinstance(expect[key], list):
            return Blame(_field(key), points_rules(expect[key], answer.get(key)), shown(key))
        if key in ("delta", "scores") and _set(expect):
            # The bidders lost their contract: the set decides their score first.
            set_first = ("SCORE-SET", *blame(key))
            return Blame(_field(key), tuple(dict.fromkeys(set_first)), shown(key))
        return Blame(_field(key), blame(key), shown(key))
    return None


def _set(expect: Mapping[str, Any]) -> bool:
    """Whether the expected hand was played and set (the bidders' delta is negative)."""
    bidder, delta = expect.get("bidder"), expect.get("delta")
    if expect.get("outcome") != "played" or not isinstance(bidder, int):
        return False
    return isinstance(delta, list) and len(delta) == 2 and delta[bidder % 2] < 0


def trick_divergence(
    expect: Mapping[str, Any], answer: Mapping[str, Any], own: Sequence[str] = ()
) -> Blame | None:
    """The first trick whose leader, cards or winner differ (``own``: a case's rules)."""
    want_tricks = expect.get("tricks")
    if not isinstance(want_tricks, list):
        if "tricks" in expect and want_tricks != answer.get("tricks"):
            # None expected (no trick is played) against some tricks: the case's own rule.
            rules = (*own[:1], *HAND_FIELDS["tricks"].rules)
            return Blame(
                _field("tricks"), tuple(dict.fromkeys(rules)), wording.charge_expected(want_tricks)
            )
        return None
    got_tricks = answer.get("tricks")
    got_list = got_tricks if isinstance(got_tricks, list) else []
    for number, want in enumerate(want_tricks, start=1):
        got = got_list[number - 1] if number - 1 < len(got_list) else {}
        got = got if isinstance(got, Mapping) else {}
        if want.get("leader") != got.get("leader"):
            rules = ("PLAY-LEAD",) if number == 1 else HAND_FIELDS["trick leader"].rules
            return Blame(_trick(number, "leader"), rules, wording.charge_leader(want.get("leader")))
        if want.get("cards") != got.get("cards"):
            rules = HAND_FIELDS["trick cards"].rules
            return Blame(_trick(number, "cards"), rules, wording.charge_engine(got.get("cards")))
        if want.get("winner") != got.get("winner"):
            return Blame(
                _trick(number, "winner"),
                trick_rules(want),
                wording.charge_trick_winner(
                    want.get("cards") or [], want.get("winner"), got.get("winner")
                ),
            )
    if len(got_list) > len(want_tricks):
        return Blame(
            _field("tricks"), HAND_FIELDS["tricks"].rules, wording.charge_trick_count(len(got_list))
        )
    return None


TRUMPED_TRICK = "PLAY-TRUMPED-TRICK"
"""The rule that lets any card of the suit led follow once the trick has been trumped."""
_CLAIM = re.compile(r"^seat \d: ")


def follows_a_trumped_trick(actions: Sequence[str], where: int) -> bool:
    """Whether action ``where`` of a whole hand plays a card of the suit led into a trick
    already trumped, read from the actions alone (the trump named, the plays since the last
    complete trick): such a card refused is PLAY-TRUMPED-TRICK misread, whatever rule the
    refusal names."""
    words = [_CLAIM.sub("", str(a)).split(" ") for a in actions[: where + 1]]
    trump = next((w[1][-1] for w in words if w[0] == "trump" and len(w) > 1), None)
    plays = [w[1] for w in words if w[0] == "play" and len(w) > 1]
    if trump is None or not plays or words[-1][0] != "play":
        return False
    card, before = plays[-1], plays[:-1]
    trick = before[len(before) - len(before) % 4 :]
    if not trick or card[-1] != trick[0][-1] or trick[0][-1] == trump:
        return False
    return any(c[-1] == trump for c in trick[1:])
