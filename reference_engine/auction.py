"""The auction: who may call, which bids are legal, and who wins the contract (AUCTION-*).

An immutable ``AuctionState`` and pure functions over it; a call is a bid (an int) or a pass
(``None``). Every number comes from ``rules.auction``; the semantics are the spec's errata.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import IllegalAction, PinochleError
from .variants import Rules

Call = int | None
"""A call: a bid (an int) or a pass (``None``)."""

PASS: Call = None
"""The pass call."""


@dataclass(frozen=True)
class AuctionState:
    """An auction in progress or complete.

    ``calls`` is every call so far as ``(seat, bid or None)``; ``passed`` the seats that passed
    (a pass is final, AUCTION-PASS-FINAL); ``high_bid``/``high_bidder`` the current high bid;
    ``next_seat`` the seat to call (``None`` when complete).
    """

    dealer: int
    calls: tuple[tuple[int, Call], ...]
    passed: frozenset[int]
    high_bid: int | None
    high_bidder: int | None
    next_seat: int | None
    dealer_spoken: bool

    @property
    def complete(self) -> bool:
        """Whether the auction has ended (AUCTION-END)."""
        return self.next_seat is None

    @property
    def winner(self) -> int | None:
        """The seat that won the contract, once complete."""
        return self.high_bidder if self.complete else None

    @property
    def contract(self) -> int | None:
        """The winning bid, once complete."""
        return self.high_bid if self.complete else None


def _check_seat(seat: object, what: str) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise PinochleError(f"{what} must be a seat number 0-3, got {seat!r}")
    return seat


def start(rules: Rules, dealer: int) -> AuctionState:
    """A new auction (AUCTION-FIRST-BIDDER): double-deck starts left of the dealer, the
    48-card variants with the dealer."""
    _check_seat(dealer, "dealer")
    first = dealer if rules.auction.first_bidder == "dealer" else (dealer + 1) % 4
    return AuctionState(
        dealer=dealer,
        calls=(),
        passed=frozenset(),
        high_bid=None,
        high_bidder=None,
        next_seat=first,
        dealer_spoken=False,
    )


def forced_bid(state: AuctionState, rules: Rules) -> tuple[str, int] | None:
    """``(rule, amount)`` when the next seat must bid exactly ``amount``, else ``None``.

    AUCTION-DEALER-OPENS (single-deck): the dealer's first call is a bid of exactly 150.
    AUCTION-DEALER-FORCED (double-deck, online): when the first three players to speak all
    pass, the fourth must bid exactly the minimum.
    """
    a = rules.auction
    seat = state.next_seat
    if seat is None:
        return None
    if a.dealer_opens is not None and seat == state.dealer and not state.dealer_spoken:
        return ("AUCTION-DEALER-OPENS", a.dealer_opens)
    if a.all_pass == "last-forced" and state.high_bid is None and len(state.passed) == 3:
        return ("AUCTION-DEALER-FORCED", a.minimum)
    return None


def step_ok(bid: int, high: int | None, rules: Rules) -> bool:
    """Whether ``bid`` keeps to the bidding steps (AUCTION-STEP).

    A multiple of ``unit``; where the variant sets ``unit_above`` (double-deck: above 60), only
    multiples of that unit; where it sets ``max_raise`` (online 50), a raise over the current
    high bid of at most that much (an opening bid is not a raise).
    """
    a = rules.auction
    if bid % a.unit:
        return False
    if a.unit_above is not None:
        threshold, unit = a.unit_above
        if bid > threshold and bid % unit:
            return False
    return not (a.max_raise is not None and high is not None and bid - high > a.max_raise)


def bid_violation(state: AuctionState, rules: Rules, bid: int) -> tuple[str, str] | None:
    """``(rule, reason)`` why the next seat may not bid ``bid`` here, or ``None`` if it may.

    Precedence when a bid breaks several rules: a forced call (AUCTION-DEALER-OPENS,
    AUCTION-DEALER-FORCED); below the minimum (AUCTION-OPENING-MIN); not above the high bid
    (AUCTION-HIGHER); then the steps (AUCTION-STEP).
    """
    a = rules.auction
    forced = forced_bid(state, rules)
    if forced is not None:
        rule, amount = forced
        if bid != amount:
            return rule, _forced_reason(state, rule, amount)
        return None
    if bid < a.minimum:
        return "AUCTION-OPENING-MIN", f"the minimum bid is {a.minimum}"
    high = state.high_bid
    if high is not None and bid <= high:
        return "AUCTION-HIGHER", f"a bid must be above the high bid {high}"
    if not step_ok(bid, high, rules):
        return "AUCTION-STEP", _step_reason(high, rules)
    return None


def _forced_reason(state: AuctionState, rule: str, amount: int) -> str:
    if rule == "AUCTION-DEALER-OPENS":
        return f"the dealer must open the auction with a bid of {amount}"
    return f"the first three players passed, so seat {state.next_seat} must bid {amount}"


def _step_reason(high: int | None, rules: Rules) -> str:
    a = rules.auction
    parts = [f"bids go up in {a.unit}s" if a.unit > 1 else "bids go up in ones"]
    if a.unit_above is not None:
        parts = [f"above {a.unit_above[0]} bids go up in {a.unit_above[1]}s"]
    if a.max_raise is not None and high is not None:
        parts.append(f"a raise over {high} is at most {a.max_raise}")
    return "; ".join(parts)


def min_bid(state: AuctionState, rules: Rules) -> int | None:
    """The smallest bid the next seat may make (the forced amount when forced); ``None`` when
    the auction is complete."""
    if state.complete:
        return None
    forced = forced_bid(state, rules)
    if forced is not None:
        return forced[1]
    bid = rules.auction.minimum if state.high_bid is None else state.high_bid + 1
    while bid_violation(state, rules, bid) is not None:
        bid += 1
    return bid


def can_pass(state: AuctionState, rules: Rules) -> bool:
    """Whether the next seat may pass: not when forced to bid, nor after the auction ends."""
    return not state.complete and forced_bid(state, rules) is None


def legal_bids(state: AuctionState, rules: Rules, limit: int = 10) -> list[int]:
    """The ``limit`` smallest legal bids of the next seat, ascending.

    Bids have no upper bound, so any window is finite; ``bid_violation`` decides any bid.
    """
    low = min_bid(state, rules)
    if low is None:
        return []
    if forced_bid(state, rules) is not None:
        return [low]
    a = rules.auction
    cap = None if a.max_raise is None or state.high_bid is None else state.high_bid + a.max_raise
    bids: list[int] = []
    bid = low
    while len(bids) < limit and (cap is None or bid <= cap):
        if bid_violation(state, rules, bid) is None:
            bids.append(bid)
        bid += 1
    return bids


def legal_calls(state: AuctionState, rules: Rules, limit: int = 10) -> list[Call]:
    """The calls open to the next seat: ``None`` (pass) if allowed, then the ``limit`` smallest
    legal bids. Empty when the auction is complete (AUCTION-END)."""
    if state.complete:
        return []
    calls: list[Call] = [PASS] if can_pass(state, rules) else []
    calls.extend(legal_bids(state, rules, limit))
    return calls


def describe_call(call: Call) -> str:
    """A call as text: ``pass`` or ``bid 55``."""
    return "pass" if call is None else f"bid {call}"


def apply_call(state: AuctionState, rules: Rules, seat: int, call: Call) -> AuctionState:
    """The auction after ``seat`` makes ``call``; raises IllegalAction naming the rule broken.

    AUCTION-END: no call after the auction is complete. AUCTION-PASS-FINAL: a seat that passed
    makes no further call (checked before the turn, since a passed seat is never next).
    AUCTION-TURN: only the next seat clockwise (passed seats skipped) calls. Then the bid rules
    of ``bid_violation``. The state passed in is never changed.
    """
    _check_seat(seat, "seat")
    if call is not None and (isinstance(call, bool) or not isinstance(call, int)):
        raise PinochleError(f"a bid must be an integer, got {call!r}")
    what = describe_call(call)
    if state.complete:
        raise IllegalAction(
            "AUCTION-END",
            f"seat {seat} cannot {what}: the auction is over "
            f"(seat {state.high_bidder} won at {state.high_bid})",
        )
    if seat in state.passed:
        raise IllegalAction("AUCTION-PASS-FINAL", f"seat {seat} passed earlier and cannot {what}")
    if seat != state.next_seat:
        raise IllegalAction(
            "AUCTION-TURN", f"seat {seat} cannot {what}: it is seat {state.next_seat}'s turn"
        )
    forced = forced_bid(state, rules)
    if call is None:
        if forced is not None:
            rule, amount = forced
            raise IllegalAction(
                rule, f"seat {seat} cannot pass: {_forced_reason(state, rule, amount)}"
            )
        return _advance(state, rules, seat, call)
    violation = bid_violation(state, rules, call)
    if violation is not None:
        rule, reason = violation
        raise IllegalAction(rule, f"seat {seat} cannot bid {call}: {reason}")
    return _advance(state, rules, seat, call)


def _advance(state: AuctionState, rules: Rules, seat: int, call: Call) -> AuctionState:
    forced = forced_bid(state, rules)
    passed = state.passed | {seat} if call is None else state.passed
    high_bid, high_bidder = (state.high_bid, state.high_bidder) if call is None else (call, seat)
    dealer_spoken = state.dealer_spoken or seat == state.dealer
    next_seat: int | None
    if high_bid is not None and (
        len(passed) == 4
        or (len(passed) == 3 and (rules.auction.end == "three-passes" or forced is not None))
    ):
        # AUCTION-END: three passes and a bid end it; with four-passes the high bidder has a
        # last call and the auction ends on their pass; a forced bid ends it at once.
        next_seat = None
    else:
        next_seat = next(s % 4 for s in range(seat + 1, seat + 5) if s % 4 not in passed)
    return AuctionState(
        dealer=state.dealer,
        calls=(*state.calls, (seat, call)),
        passed=frozenset(passed),
        high_bid=high_bid,
        high_bidder=high_bidder,
        next_seat=next_seat,
        dealer_spoken=dealer_spoken,
    )


def parse_call(call: object, index: int | None = None) -> tuple[int, Call]:
    """A protocol call ``{seat, bid}`` or ``{seat, pass: true}`` as ``(seat, bid or None)``.

    Raises PinochleError naming the call when it is malformed.
    """
    where = f"call {index}" if index is not None else "call"
    if not isinstance(call, Mapping):
        raise PinochleError(
            f"{where} must be an object {{seat, bid}} or {{seat, pass: true}}, got {call!r}"
        )
    unknown = set(call) - {"seat", "bid", "pass"}
    if unknown:
        raise PinochleError(f"{where} {dict(call)!r} has unknown keys {sorted(map(str, unknown))}")
    if "seat" not in call:
        raise PinochleError(f"{where} {dict(call)!r} has no seat")
    seat = _check_seat(call["seat"], f"{where}: seat")
    has_bid, has_pass = "bid" in call, "pass" in call
    if has_bid and has_pass:
        raise PinochleError(f"{where} {dict(call)!r} has both bid and pass; give one")
    if has_pass:
        if call["pass"] is not True:
            raise PinochleError(f"{where} {dict(call)!r}: pass must be true")
        return seat, None
    if not has_bid:
        raise PinochleError(f"{where} {dict(call)!r} has neither bid nor pass")
    bid = call["bid"]
    if isinstance(bid, bool) or not isinstance(bid, int):
        raise PinochleError(f"{where} {dict(call)!r}: bid must be an integer, got {bid!r}")
    return seat, bid


def summary(rules: Rules, dealer: int, calls: Sequence[Any]) -> dict[str, Any]:
    """The protocol ``auction`` answer for a sequence of calls.

    ``{legal, violation, complete, next_seat, winner, contract, min_bid, can_pass}``; replay
    stops at the first illegal call and the other fields describe the auction before it.
    """
    _check_seat(dealer, "dealer")
    if isinstance(calls, (str, bytes)) or not isinstance(calls, Sequence):
        raise PinochleError(f"calls must be a list of calls, got {calls!r}")
    parsed = [parse_call(c, i) for i, c in enumerate(calls)]
    state = start(rules, dealer)
    violation: dict[str, str] | None = None
    for seat, call in parsed:
        try:
            state = apply_call(state, rules, seat, call)
        except IllegalAction as err:
            violation = {"rule": err.rule, "message": str(err)}
            break
    return {
        "legal": violation is None,
        "violation": violation,
        "complete": state.complete,
        "next_seat": state.next_seat,
        "winner": state.winner,
        "contract": state.contract,
        "min_bid": min_bid(state, rules),
        "can_pass": can_pass(state, rules),
    }
