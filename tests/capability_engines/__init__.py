"""Conformant engines that use the other model where the spec admits two (spec/protocol.md,
"Capabilities"): the reference engine rewrapped, each declaring the capability it uses.

``python -m tests.capability_engines NAME`` serves one; ``--undeclared`` serves it without the
declaration (the suite must then fail it: the capability, not luck, is what makes it pass).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from pinochle_adapters import sdk
from pinochle_adapters.reference import ReferenceEngine
from pinochle_judge.capabilities import FIGURES, off_tens
from reference_engine import auction, cards
from reference_engine import tricks as tricks_rules
from reference_engine.errors import IllegalAction
from reference_engine.variants import load_rules
from specdata.vocabulary import METHODS

Params = dict[str, Any]
FORCED_AT = 3
"""After three passes with no bid, the fourth to speak is forced (AUCTION-DEALER-FORCED)."""


def forced_after_three_passes(
    params: Params, seats: Sequence[int | None]
) -> tuple[int, int] | None:
    """``(seat, amount)`` when the first three calls, all passes by ``seats`` (None: the seat
    whose turn it is), leave the next seat forced under AUCTION-DEALER-FORCED; else None."""
    rules = load_rules(params["variant"], params.get("options") or {})
    state = auction.start(rules, params["dealer"])
    try:
        for seat in seats[:FORCED_AT]:
            turn = state.next_seat if seat is None else seat
            assert turn is not None
            state = auction.apply_call(state, rules, turn, None)
    except IllegalAction:
        return None
    forced = auction.forced_bid(state, rules)
    if forced is None or forced[0] != "AUCTION-DEALER-FORCED" or state.next_seat is None:
        return None
    return state.next_seat, forced[1]


def _unshift(refusal: Any) -> Any:
    """A refusal of the list with the forced bid put in, indexed into the list as given."""
    index = refusal.get("index") if isinstance(refusal, dict) else None
    if isinstance(index, int) and index > FORCED_AT:
        return {**refusal, "index": index - 1}
    return refusal


def _claim_seat(action: str) -> int | None:
    return int(action[5]) if action.startswith("seat ") else None


def _leading_passes(actions: Sequence[str]) -> list[int | None] | None:
    head = actions[:FORCED_AT]
    if len(head) < FORCED_AT or any(a.split(": ")[-1] != "pass" for a in head):
        return None
    return [_claim_seat(a) for a in head]


class ImplicitForcedBid(ReferenceEngine):
    """Three passes with no bid complete the auction, the fourth to speak holding the minimum
    contract by itself: that seat makes no call (capability ``forced_bid: implicit``)."""

    name = "capability-implicit-forced-bid"
    capabilities = {"forced_bid": "implicit"}  # noqa: RUF012 (a declaration, never changed)

    def auction(self, params: Params) -> Any:
        calls = params["calls"]
        if len(calls) < FORCED_AT or not all(c.get("pass") for c in calls[:FORCED_AT]):
            return super().auction(params)
        forced = forced_after_three_passes(params, [c["seat"] for c in calls])
        if forced is None:
            return super().auction(params)
        seat, amount = forced
        made = [*calls[:FORCED_AT], {"seat": seat, "bid": amount}, *calls[FORCED_AT:]]
        answer = dict(super().auction({**params, "calls": made}))
        answer["violation"] = _unshift(answer["violation"])
        return answer

    def _made(self, params: Params, actions: list[str]) -> list[str]:
        passes = _leading_passes(actions)
        forced = forced_after_three_passes(params, passes) if passes is not None else None
        if forced is None:
            return actions
        return [*actions[:FORCED_AT], f"bid {forced[1]}", *actions[FORCED_AT:]]

    def play_hand(self, params: Params) -> Any:
        made = self._made(params, list(params["actions"]))
        if len(made) == len(params["actions"]):
            return super().play_hand(params)
        answer = dict(super().play_hand({**params, "actions": made}))
        answer["first_illegal"] = _unshift(answer["first_illegal"])
        return answer

    def play_game(self, params: Params) -> Any:
        lists = [
            self._made({**params, "dealer": (params["dealer"] + number) % 4}, list(actions))
            for number, actions in enumerate(params["actions"])
        ]
        made = [len(m) != len(a) for m, a in zip(lists, params["actions"], strict=True)]
        answer: dict[str, Any] = copy.deepcopy(
            dict(super().play_game({**params, "actions": lists}))
        )
        first = answer.get("first_illegal")
        if isinstance(first, dict) and first.get("hand") is not None and made[first["hand"]]:
            answer["first_illegal"] = _unshift(first)
        hands: list[dict[str, Any]] = answer.get("hands") or []
        for number, hand in enumerate(hands):
            if number < len(made) and made[number]:
                hand["first_illegal"] = _unshift(hand.get("first_illegal"))
        return answer


class MeldTotals(ReferenceEngine):
    """Meld reported as a total only, no items (capability ``meld: totals``): the way engines
    that group meld otherwise than the protocol's items answer without recomputing them."""

    name = "capability-meld-totals"
    capabilities = {"meld": "totals"}  # noqa: RUF012 (a declaration, never changed)

    def meld(self, params: Params) -> Any:
        return {"total": super().meld(params)["total"], "melds": []}


class NoPoints(ReferenceEngine):
    """Trick play with no counting (capability ``points: none``): ``play_tricks`` gives the
    tricks and how many each side won, no card points."""

    name = "capability-no-points"
    capabilities = {"points": "none"}  # noqa: RUF012 (a declaration, never changed)

    def play_tricks(self, params: Params) -> Any:
        answer = dict(super().play_tricks(params))
        answer.pop("card_points", None)
        answer["tricks"] = [{k: v for k, v in t.items() if k != "points"} for t in answer["tricks"]]
        return answer


class NoPointsTrickNeverCleared(NoPoints):
    """As ``NoPoints``, with the bug a public engine has: a finished trick is never cleared, so
    each later trick is judged with every card played before it (its second trick has five)."""

    name = "capability-no-points-trick-never-cleared"

    def play_tricks(self, params: Params) -> Any:
        answer = super().play_tricks(params)
        trump = cards.suit_index(params["trump"])
        played: list[tuple[int, int]] = []  # (card, seat) of every card since the first lead
        tricks = []
        for trick in answer["tricks"]:
            seats = [(trick["leader"] + i) % 4 for i in range(len(trick["cards"]))]
            played += zip(cards.parse_cards(trick["cards"]), seats, strict=True)
            best = tricks_rules.trick_winner([card for card, _ in played], trump)
            tricks.append({**trick, "winner": played[best][1]})
        return {**answer, "tricks": tricks}


def _in_tens(value: Any, key: str = "") -> Any:
    """An answer as an engine keeping its figures in tens writes it: each figure cut to a ten."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and key in FIGURES:
        return value - value % 10
    if isinstance(value, dict):
        return {k: _in_tens(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_in_tens(v, key) for v in value]
    return value


class TensScale(ReferenceEngine):
    """Keeps every figure in tens (a single-deck engine storing points divided by ten): refuses
    a request holding a figure off the tens, and cuts each figure of its answers to a ten."""

    name = "capability-tens-scale"
    capabilities = {"scale": "tens"}  # noqa: RUF012 (a declaration, never changed)

    def __getattribute__(self, name: str) -> Any:
        found = super().__getattribute__(name)
        if name not in METHODS or not callable(found):
            return found

        def in_tens(params: Params) -> Any:
            figure = off_tens(params)
            if figure is not None:
                raise sdk.InvalidParams(f"{figure}: figures are kept in tens")
            return _in_tens(found(params))

        return in_tens


ENGINES: dict[str, Callable[[], ReferenceEngine]] = {
    "tens-scale": TensScale,
    "implicit-forced-bid": ImplicitForcedBid,
    "meld-totals": MeldTotals,
    "no-points": NoPoints,
    "no-points-trick-never-cleared": NoPointsTrickNeverCleared,
}


def server(name: str, *, declared: bool = True) -> sdk.Server:
    """The server of engine ``name`` (KeyError naming the choices when there is none)."""
    try:
        engine = ENGINES[name]()
    except KeyError:
        raise KeyError(f"no engine {name!r}: choose one of {', '.join(ENGINES)}") from None
    # The SDK puts the engine's ``capabilities`` attribute in its initialize result; an engine
    # that plays the same way without saying so declares none.
    return sdk.Server(engine, capabilities=None if declared else {})
