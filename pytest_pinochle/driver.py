"""The driver the steps talk to: what a scenario has set up, the one question its When step asks
the engine, and the checks of its Then steps through the suite's one comparison."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from pinochle_judge import wording
from pinochle_judge.capabilities import Skip
from pinochle_judge.compare import Answer, Mismatch, TotalsOnly, compare, compare_at, meld_diff
from pinochle_judge.engines import ModelledEngine
from pinochle_judge.house_rules import SKIP
from specdata import load_variant


class RuleMismatch(AssertionError):
    """The engine's answer disagrees with the scenario: reported as the message alone."""


def suit_order_deck(variant: str) -> list[str]:
    """The variant's deck sorted: suits s h d c, ranks high to low, copies together."""
    deck = load_variant(variant).rules["deck"]
    return [r + s for s in "shdc" for r in deck["ranks"] for _ in range(deck["copies"])]


@dataclass
class Situation:
    """The rules, the table and the last question put to the engine in one scenario."""

    engine: ModelledEngine
    variant: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    trump: str | None = None
    dealer: int = 0
    scores: list[int] = field(default_factory=lambda: [0, 0])
    hand_number: int | None = None
    hands: dict[int, list[str]] = field(default_factory=dict)
    holder: int | None = None
    """The seat whose hand was named last (the one meld and legal-play questions are about)."""
    bidder_team: int | None = None
    contract: int | None = None
    meld: list[int] = field(default_factory=lambda: [0, 0])
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])
    method: str | None = None
    params: dict[str, object] = field(default_factory=dict)
    sent_line: str | None = None
    """The last question's request line as the engine received it (its id included)."""
    answer: dict[str, object] = field(default_factory=dict)
    expected_melds: list[Answer] = field(default_factory=list)
    """Melds the Then steps have named so far (for "the meld has nothing else")."""
    expected: dict[str, object] = field(default_factory=dict)
    """Every field the Then steps have expected so far, as one expected answer: what the
    diagnosis compares to place a failure (the first divergence in play order)."""

    # --- Given ----------------------------------------------------------------------------------

    def hold(self, seat: int, cards: list[str]) -> None:
        """Seat ``seat`` holds ``cards``; later meld and legal-play questions are about it."""
        self.hands[seat] = cards
        self.holder = seat

    def hand(self) -> list[str]:
        """The hand named last."""
        if self.holder is None:
            raise AssertionError(wording.NO_HAND)
        return self.hands[self.holder]

    # --- When -----------------------------------------------------------------------------------

    def ask(self, method: str, **params: object) -> dict[str, object]:
        """Ask the engine with the scenario's variant and options; skip what it does not play."""
        if self.variant is None:
            raise AssertionError(wording.NO_VARIANT)
        plan = self.engine.house_rules.plan_question(method, self.variant, self.options, params)
        if plan.kind == SKIP:
            pytest.skip(plan.reason)
        self.method = method
        self.expected = {}
        self.params = plan.params
        try:
            self.answer = self.engine.call(method, self.params)
        except Skip as e:  # the engine's declared model has no call for this question
            pytest.skip(str(e))
        finally:
            self.sent_line = self.engine.last_request
        return self.answer

    def deal_sorted(self, put: str | None = None, take: str | None = None) -> None:
        """Ask ``deal`` with the variant's deck in suit order, ``put`` in place of ``take``."""
        if self.variant is None:
            raise AssertionError(wording.NO_VARIANT)
        deck = suit_order_deck(self.variant)
        if put and take:
            deck[deck.index(take)] = put
        self.ask("deal", dealer=self.dealer, deck=deck)

    def score_hand(self, outcome: str) -> None:
        """Ask ``score_hand`` with the contract, meld, tricks and scores given."""
        params: dict[str, object] = {
            "bidder_team": self.bidder_team,
            "contract": self.contract,
            "outcome": outcome,
            "meld": self.meld,
            "tricks": self.tricks,
            "tricks_won": self.tricks_won,
            "scores": self.scores,
        }
        if self.hand_number is not None:
            params["hand"] = self.hand_number
        self.ask("score_hand", **params)

    def play_hand(self, actions: list[str]) -> None:
        """Ask ``play_hand`` with the four hands held, the dealer, the scores and ``actions``."""
        missing = [seat for seat in range(4) if seat not in self.hands]
        if missing:
            raise AssertionError(wording.hands_missing(missing))
        params: dict[str, object] = {
            "dealer": self.dealer,
            "scores": self.scores,
            "hands": [self.hands[seat] for seat in range(4)],
            "actions": actions,
        }
        if self.hand_number is not None:
            params["hand"] = self.hand_number
        self.ask("play_hand", **params)

    # --- Then -----------------------------------------------------------------------------------

    def field(self, key: str) -> object:
        """A field of the last answer; a clear failure if the engine left it out."""
        if key not in self.answer:
            raise RuleMismatch(wording.scenario_failed(wording.no_field(key), self.context()))
        return self.answer[key]

    def mismatches(self, expect: Answer) -> list[Mismatch]:
        """How the last answer differs from ``expect`` (the suite's one comparison)."""
        if self.method is None:
            raise AssertionError(wording.NO_QUESTION)
        self.expected.update(expect)
        return compare(self.method, expect, self.answer)

    def expect(self, expect: Answer, message: str) -> None:
        """Fail with ``message``, the situation and the mismatches unless the answer matches
        ``expect``."""
        __tracebackhide__ = True
        self.check_all(self.mismatches(expect), message)

    def expect_at(self, path: str, expected: object, actual: object, message: str) -> None:
        """Fail with ``message`` unless ``actual`` (found at ``path``) matches ``expected``."""
        __tracebackhide__ = True
        if self.method is None:
            raise AssertionError(wording.NO_QUESTION)
        self.check_all(compare_at(self.method, path, expected, actual), message)

    def expect_meld(self, entry: Answer, message: str) -> None:
        """The answer reports ``entry`` besides the melds already expected."""
        __tracebackhide__ = True
        self.expected_melds.append(entry)
        self.expected["melds"] = list(self.expected_melds)
        melds = self.field("melds")
        if isinstance(melds, TotalsOnly):
            # No items to find: the items named so far cannot be worth more than the total.
            worth = melds.worth(self.expected_melds)
            self.check(
                melds.total is not None and worth <= melds.total,
                wording.melds_named_worth(message, worth, melds.total),
            )
            return
        self.check(not meld_diff(self.expected_melds, items(melds)).missing, message)

    def unexpected_melds(self) -> list[Answer]:
        """Reported melds that no Then step has expected (for an engine reporting totals only:
        the points its total counts beyond the items named, as one entry)."""
        melds = self.field("melds")
        if isinstance(melds, TotalsOnly):
            beyond = (melds.total or 0) - melds.worth(self.expected_melds)
            return [{"id": "unitemised", "count": 1, "points": beyond}] if beyond else []
        return [dict(m) for m in meld_diff(self.expected_melds, items(melds)).unexpected]

    def context(self) -> str:
        """The question and answer in the game's language, for the end of a failure message."""
        return wording.scenario_context(
            self.variant, self.options, self.method, self.params, self.answer
        )

    def check(self, ok: bool, message: str) -> None:
        """Fail with ``message`` and the situation unless ``ok``."""
        __tracebackhide__ = True
        if not ok:
            raise RuleMismatch(wording.scenario_failed(message, self.context()))

    def check_all(self, mismatches: list[Mismatch], message: str) -> None:
        """Fail with ``message``, the situation and ``mismatches`` unless there are none."""
        __tracebackhide__ = True
        if mismatches:
            raise RuleMismatch(wording.scenario_failed(message, self.context(), mismatches))


def items(value: object) -> list[object]:
    """A list of a request or answer (its schema says so; anything else holds no item)."""
    return value if isinstance(value, list) else []


def card_list(value: object) -> list[str]:
    """A card list of a request or answer as codes (anything else holds no card)."""
    return [str(c) for c in items(value)]


SITUATION_KEY = pytest.StashKey[Situation]()
"""Where a scenario's item keeps its Situation (read when its failure is reported)."""
