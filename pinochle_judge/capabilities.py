"""How the suite speaks to an engine under the capabilities it declares in ``initialize``
(spec/protocol.md, "Capabilities"): the forced bid made implicitly, meld reported as totals only.

The cases are written in one model (the forced seat calls its bid; meld is itemised). For an
engine declaring the other model, requests are rewritten into it and answers back, here and only
here, so every case, step, report and the diagnosis judge both models with the same expectations.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from specdata import load_variant, option_text

from . import methods
from .compare import TotalsOnly
from .methods import Shape

CAPABILITIES: dict[str, tuple[str, ...]] = {
    "forced_bid": ("explicit", "implicit"),
    "meld": ("items", "totals"),
    "points": ("given", "none"),
    "scale": ("ones", "tens"),
}
"""Each capability and its values, the default (what the cases are written in) first."""

FORCED_AT = 3
"""The index of the forced call: after three passes the fourth to speak is forced."""


@dataclass(frozen=True)
class Capabilities:
    """The models an engine declared (``initialize`` result ``capabilities``)."""

    forced_bid: str = "explicit"
    """``implicit``: three passes with no bid complete the auction, the fourth to speak holding
    the minimum contract; the forced seat makes no call."""
    meld: str = "items"
    """``totals``: the ``meld`` answer's ``total`` is right, its ``melds`` list is not given."""
    points: str = "given"
    """``none``: ``play_tricks`` answers give the tricks (leader, cards, winner) but no card
    points: an engine with trick play and no counting is still judged on its tricks."""
    scale: str = "ones"
    """``tens``: the engine keeps every bid, meld, card-point and score figure in whole tens (as
    many single-deck engines do): it is asked only questions whose figures, asked and expected,
    are multiples of ten (``off_tens``); the others are skipped."""

    @classmethod
    def declared(cls, info: Mapping[str, Any] | None) -> Capabilities:
        """The capabilities of an ``initialize`` result; unknown names or values are the default
        (the result schema refuses them before this when results are checked)."""
        raw = (info or {}).get("capabilities")
        found = {}
        if isinstance(raw, Mapping):
            for name, values in CAPABILITIES.items():
                if raw.get(name) in values:
                    found[name] = str(raw[name])
        return cls(**found)

    @cached_property
    def is_default(self) -> bool:
        """Whether the engine speaks the model the cases are written in (asked at every call,
        worked out once)."""
        return self == Capabilities()


# --- the forced bid ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Forced:
    """Who is forced after three passes with no bid, and to what."""

    first: int
    """Seat of the first caller relative to the dealer (0 the dealer, 1 the dealer's left)."""
    amount: int

    def seat(self, dealer: int) -> int:
        """The fourth seat to speak, the one that is forced."""
        return (dealer + self.first + FORCED_AT) % 4


def forced(variant: str, options: Mapping[str, Any]) -> Forced | None:
    """The forced call of a variant under ``options`` (AUCTION-DEALER-FORCED); None where nobody
    can be forced (no such rule, or a dealer who must open: AUCTION-DEALER-OPENS)."""
    try:
        data = load_variant(variant)
    except KeyError:
        return None
    known = {
        name: text
        for name, value in options.items()
        if name in data.options and (text := option_text(value)) in data.options[name].choices
    }
    auction = data.rules_under(known)["auction"]
    if auction.get("all_pass") != "last-forced" or auction.get("dealer_opens") is not None:
        return None
    first = 1 if auction.get("first_bidder") == "left-of-dealer" else 0
    return Forced(first, int(auction["minimum"]))


class Skip(Exception):
    """The case cannot be put to this engine: it asks something its declared model never has."""


FIGURES = frozenset(
    {
        "contract",
        "meld",
        "tricks",
        "scores",
        "total",
        "points",
        "card_points",
        "delta",
        "team_meld",
        "min_bid",
        "bid",
    }
)
"""The fields that hold point figures (bids, meld, card points, scores): what a tens-scale engine
(``scale: tens``) keeps in whole tens. ``tricks`` is a figure where it is a list of numbers
(``score_hand``'s card points), not where it lists tricks."""

TENS_SKIP = (
    "engine keeps its figures in tens (scale=tens): this case asks or expects {figure}, "
    "which is not a multiple of ten"
)


def off_tens(value: Any, key: str = "") -> str | None:
    """The first figure of a request or an answer that is not a multiple of ten (``name
    value``), or None: what an engine declaring ``scale: tens`` cannot express. Bids in
    actions (``bid 155``) count as figures too."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return f"{key} {value}" if key in FIGURES and value % 10 else None
    if isinstance(value, str):
        match = re.match(r"^(?:seat \d: )?bid (\d+)$", value)
        return f"bid {match[1]}" if match and int(match[1]) % 10 else None
    if isinstance(value, Mapping):
        for name, item in value.items():
            found = off_tens(item, str(name))
            if found is not None:
                return found
        return None
    if isinstance(value, (list, tuple)):
        for item in value:
            found = off_tens(item, key)
            if found is not None:
                return found
    return None


IMPLICIT_SKIP = (
    "engine makes the forced bid implicitly (forced_bid=implicit): after three passes the "
    "auction is complete, so the forced seat's own call ({call}) is never made"
)

_CLAIM = re.compile(r"^seat (\d): (.*)$")


def _unclaimed(action: object) -> tuple[int | None, str]:
    text = str(action)
    match = _CLAIM.match(text)
    return (int(match[1]), match[2]) if match else (None, text)


def drop_forced_call(calls: Sequence[Mapping[str, Any]], rule: Forced, dealer: int) -> bool | None:
    """Whether ``calls`` (auction) hold the forced call at FORCED_AT: True to drop it, None when
    they stop right before it (three passes), False when the forced state is never reached.

    Raises Skip when the forced seat's call is anything else (a pass, another amount, another
    seat's call): the implicit model has no such call to judge.
    """
    if len(calls) < FORCED_AT or not all(c.get("pass") for c in calls[:FORCED_AT]):
        return False
    if len(calls) == FORCED_AT:
        return None
    call = calls[FORCED_AT]
    if call.get("seat") == rule.seat(dealer) and call.get("bid") == rule.amount:
        return True
    shown = "pass" if call.get("pass") else f"bid {call.get('bid')}"
    raise Skip(IMPLICIT_SKIP.format(call=f"seat {call.get('seat')} {shown}"))


def drop_forced_action(actions: Sequence[object], rule: Forced, dealer: int) -> bool:
    """Whether the actions of a hand hold the forced bid at FORCED_AT (to be dropped).

    Raises Skip when the actions stop after three passes or go on with anything but the forced
    bid (by the forced seat when claimed).
    """
    head = [_unclaimed(a) for a in actions[: FORCED_AT + 1]]
    if len(head) < FORCED_AT or any(words != "pass" for _, words in head[:FORCED_AT]):
        return False
    if len(head) == FORCED_AT:
        raise Skip(IMPLICIT_SKIP.format(call="the hand's actions stop before it"))
    claim, words = head[FORCED_AT]
    if words == f"bid {rule.amount}" and claim in (None, rule.seat(dealer)):
        return True
    raise Skip(IMPLICIT_SKIP.format(call=str(actions[FORCED_AT])))


def _shifted(refusal: Any, dropped: bool) -> Any:
    """A refusal of the shortened list, indexed back into the list the case gave."""
    if not dropped or not isinstance(refusal, dict):
        return refusal
    index = refusal.get("index")
    if isinstance(index, int) and not isinstance(index, bool) and index >= FORCED_AT:
        return {**refusal, "index": index + 1}
    return refusal


AUCTION_IN: dict[Shape, Literal["calls", "actions", "hands"] | None] = {
    "one": None,
    "meld": None,
    "legal_plays": None,
    "winner": None,
    "points": None,
    "auction": "calls",
    "score": None,
    "tricks": None,
    "hand": "actions",
    "game": "hands",
}
"""Where a request of each shape (``methods.Shape``) holds an auction's calls, which an engine
declaring ``forced_bid: implicit`` is sent without the forced bid: its ``calls``, a hand's
``actions``, each hand's ``actions`` of a game; None: no auction."""


class Translation:
    """One request rewritten into the engine's model, and how to read its answer back."""

    def __init__(self, method: str, params: dict[str, Any], capabilities: Capabilities) -> None:
        self.method = method
        self.params = params
        self.capabilities = capabilities
        self.shape = methods.method(method).shape
        self._dropped: list[bool] = []
        self._pending = False
        """Whether the auction stops right before the forced call (three passes)."""
        if capabilities.scale == "tens" and (figure := off_tens(params)) is not None:
            raise Skip(TENS_SKIP.format(figure=figure))
        if capabilities.forced_bid == "implicit":
            self._implicit_forced_bid()

    def _implicit_forced_bid(self) -> None:
        params = self.params
        rule = forced(str(params.get("variant")), params.get("options") or {})
        where = AUCTION_IN[self.shape]
        if rule is None or where is None:
            return
        if where == "calls":
            dealer = int(params["dealer"])
            drop = drop_forced_call(params["calls"], rule, dealer)
            if drop is None:
                self._pending = True
            elif drop:
                calls = list(params["calls"])
                del calls[FORCED_AT]
                self.params = {**params, "calls": calls}
            self._dropped = [bool(drop)]
        elif where == "actions":
            drop = drop_forced_action(params["actions"], rule, int(params["dealer"]))
            if drop:
                actions = list(params["actions"])
                del actions[FORCED_AT]
                self.params = {**params, "actions": actions}
            self._dropped = [drop]
        else:
            # The deal moves clockwise each hand (DEAL-ROTATION), so hand h is dealt by
            # dealer + h.
            lists = []
            for number, actions in enumerate(params["actions"]):
                drop = drop_forced_action(actions, rule, (int(params["dealer"]) + number) % 4)
                lists.append([a for i, a in enumerate(actions) if not (drop and i == FORCED_AT)])
                self._dropped.append(drop)
            self.params = {**params, "actions": lists}

    def answer(self, answer: dict[str, Any]) -> dict[str, Any]:
        """The engine's answer read back into the model the cases are written in."""
        out = dict(answer)
        if self.shape == "meld" and self.capabilities.meld == "totals":
            total = out.get("total")
            out["melds"] = TotalsOnly(total if isinstance(total, int) else None)
        if not self._dropped and not self._pending:
            return out
        where = AUCTION_IN[self.shape]
        if where == "calls":
            out["violation"] = _shifted(out.get("violation"), self._dropped[0])
            if self._pending:
                out = _forced_pending(out)
        elif where == "actions":
            out["first_illegal"] = _shifted(out.get("first_illegal"), self._dropped[0])
        elif where == "hands":
            first = out.get("first_illegal")
            if isinstance(first, dict) and isinstance(first.get("hand"), int):
                hand = first["hand"]
                dropped = 0 <= hand < len(self._dropped) and self._dropped[hand]
                out["first_illegal"] = _shifted(first, dropped)
            hands = out.get("hands")
            if isinstance(hands, list):
                out["hands"] = [
                    {**h, "first_illegal": _shifted(h.get("first_illegal"), dropped)}
                    if isinstance(h, dict)
                    else h
                    for h, dropped in zip(hands, self._dropped + [False] * len(hands), strict=False)
                ]
        return out


def _forced_pending(answer: dict[str, Any]) -> dict[str, Any]:
    """An implicit engine's auction after three passes (complete, a seat holding a contract) as
    the explicit model states it: not complete, that seat to call, forced to bid that contract.

    The engine's own seat and contract are read back, right or wrong, so a wrong one shows as
    the field it is in the explicit model (``min_bid: expected 250, got 240`` for a contract of
    240) and is charged to the forced bid, not hidden behind ``complete``. An answer that
    completes the auction without a seat holding a contract is left as given.
    """
    winner, contract = answer.get("winner"), answer.get("contract")
    done = (
        answer.get("legal") is True
        and answer.get("complete") is True
        and isinstance(winner, int)
        and not isinstance(winner, bool)
        and isinstance(contract, int)
        and not isinstance(contract, bool)
    )
    if not done:
        return answer
    return {
        **answer,
        "complete": False,
        "winner": None,
        "contract": None,
        "next_seat": winner,
        "min_bid": contract,
        "can_pass": False,
    }


POINTS_SKIP = (
    "engine reports no card points in play_tricks (points=none): this case is about the points"
)
POINTLESS: tuple[Shape, ...] = ("tricks",)
"""The shapes (``methods.Shape``) whose answers ``points: none`` lets leave the card points out:
a hand's last tricks (``play_tricks``)."""


def expectation(
    method: str, rule: str, expect: dict[str, Any], capabilities: Capabilities
) -> dict[str, Any]:
    """What a case's answer is judged on in the engine's model: without the card points under
    ``points: none`` (``Skip`` for a case about the points themselves)."""
    if capabilities.scale == "tens" and (figure := off_tens(expect)) is not None:
        raise Skip(TENS_SKIP.format(figure=figure))
    if capabilities.points != "none" or methods.method(method).shape not in POINTLESS:
        return expect
    if rule.startswith("POINTS-"):
        raise Skip(POINTS_SKIP)
    out = {k: v for k, v in expect.items() if k != "card_points"}
    if isinstance(out.get("tricks"), list):
        out["tricks"] = [
            {k: v for k, v in t.items() if k != "points"} if isinstance(t, dict) else t
            for t in out["tricks"]
        ]
    return out


def translate(method: str, params: dict[str, Any], capabilities: Capabilities) -> Translation:
    """The request in the engine's model; raises ``Skip`` for a case it has no call for."""
    return Translation(method, params, capabilities)
