"""The auction: who may call, which bids are legal, and who wins the contract (AUCTION-*).

An immutable ``AuctionState`` and pure functions over it; a call is a bid (an int) or a pass
(``None``). Every number comes from ``rules.auction``; the semantics are the spec's errata.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import IllegalAction
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


def start(rules: Rules, dealer: int) -> AuctionState:
    """A new auction (AUCTION-FIRST-BIDDER): double-deck starts left of the dealer, the
    48-card variants with the dealer."""
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
    high bid of at most that much (an opening bid is not a raise); where it sets ``maximum``
    (double-deck ``max_bid=target``), no bid above it.
    """
    a = rules.auction
    if bid % a.unit or (a.maximum is not None and bid > a.maximum):
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
    if a.maximum is not None:
        parts.append(f"no bid may exceed {a.maximum}")
    return "; ".join(parts)


def _on_steps_from(bid: int, rules: Rules) -> int:
    """The smallest bid at or above ``bid`` that keeps to the units of AUCTION-STEP."""
    a = rules.auction
    bid = -(-bid // a.unit) * a.unit
    if a.unit_above is not None and bid > a.unit_above[0]:
        step = math.lcm(a.unit, a.unit_above[1])
        bid = -(-bid // step) * step
    return bid


def min_bid(state: AuctionState, rules: Rules) -> int | None:
    """The smallest bid the next seat may make (the forced amount when forced); ``None`` when
    the auction is complete or no bid is open (a raise limit below the unit, or the high bid
    already at the ``maximum``)."""
    if state.complete:
        return None
    forced = forced_bid(state, rules)
    if forced is not None:
        return forced[1]
    a = rules.auction
    high = state.high_bid
    bid = _on_steps_from(a.minimum if high is None else max(high + 1, a.minimum), rules)
    if a.max_raise is not None and high is not None and bid - high > a.max_raise:
        return None
    if a.maximum is not None and bid > a.maximum:
        return None
    return bid


def can_pass(state: AuctionState, rules: Rules) -> bool:
    """Whether the next seat may pass: not when forced to bid, nor after the auction ends."""
    return not state.complete and forced_bid(state, rules) is None


def legal_bid_ranges(state: AuctionState, rules: Rules) -> list[range]:
    """Every legal bid of the next seat up to ``rules.bid_ceiling``, as ascending ranges.

    The rules set no largest bid, but no side can make a contract above the ceiling (all card
    points plus twice the most meld a hand can hold), so the list stops there; ``apply_call``
    still accepts any legal bid. Worked out from the steps, never by trying each number.
    """
    low = min_bid(state, rules)
    if low is None:
        return []
    if forced_bid(state, rules) is not None:
        return [range(low, low + 1)]
    a = rules.auction
    top = rules.bid_ceiling
    if a.max_raise is not None and state.high_bid is not None:
        top = min(top, state.high_bid + a.max_raise)
    if a.maximum is not None:
        top = min(top, a.maximum)
    if a.unit_above is None:
        return [range(low, top + 1, a.unit)]
    threshold, unit_above = a.unit_above
    step_above = math.lcm(a.unit, unit_above)
    if low > threshold:
        return [range(low, top + 1, step_above)]
    return [
        range(low, min(threshold, top) + 1, a.unit),
        range(_on_steps_from(threshold + 1, rules), top + 1, step_above),
    ]


def legal_bids(state: AuctionState, rules: Rules) -> list[int]:
    """Every legal bid of the next seat up to ``rules.bid_ceiling``, ascending
    (``legal_bid_ranges``)."""
    return [bid for r in legal_bid_ranges(state, rules) for bid in r]


def legal_calls(state: AuctionState, rules: Rules) -> list[Call]:
    """The calls open to the next seat in canonical order: ``None`` (pass) if allowed, then
    every legal bid ascending (``legal_bids``). Empty when the auction is complete
    (AUCTION-END)."""
    if state.complete:
        return []
    calls: list[Call] = [PASS] if can_pass(state, rules) else []
    calls.extend(legal_bids(state, rules))
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
    if len(passed) == 4 or (
        high_bid is not None
        and len(passed) == 3
        and (rules.auction.end == "three-passes" or forced is not None)
    ):
        # AUCTION-END: three passes and a bid end it; with four-passes the high bidder has a
        # last call and the auction ends on their pass; a forced bid ends it at once. Four
        # passes end any auction (with no bid only where nobody is forced, never in the spec).
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
