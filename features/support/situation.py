"""What a Gherkin scenario has set up so far, and the one engine call its When step makes.

Given steps fill a ``Situation``; a When step calls the engine through ``ask``; Then steps read
``answer``. Every message says the situation in the game's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from adapters.client import Engine

from . import words


class RuleMismatch(AssertionError):
    """The engine's answer disagrees with the scenario: reported as the message alone."""


@dataclass
class Situation:
    """The rules, the table and the last question put to the engine in one scenario."""

    engine: Engine
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
    params: dict[str, Any] = field(default_factory=dict)
    answer: dict[str, Any] = field(default_factory=dict)
    claimed: list[dict[str, Any]] = field(default_factory=list)
    """Melds a Then step has already accounted for (for "the meld has nothing else")."""

    def hand(self) -> list[str]:
        """The hand named last."""
        if self.holder is None:
            raise AssertionError('the scenario holds no hand: add "seat <n> holds ..."')
        return self.hands[self.holder]

    def ask(self, method: str, **params: Any) -> dict[str, Any]:
        """Ask the engine with the scenario's variant and options; skip what it does not play."""
        if self.variant is None:
            raise AssertionError(
                "the scenario names no rules: start with 'Given the <variant> rules'"
            )
        reason = self.engine.skip_reason(method, self.variant, self.options)
        if reason:
            pytest.skip(reason)
        self.method = method
        self.params = {"variant": self.variant, "options": dict(self.options), **params}
        self.answer = self.engine.call(method, self.params)
        return self.answer

    def field(self, key: str) -> Any:
        """A field of the last answer; a clear failure if the engine left it out."""
        if key not in self.answer:
            raise AssertionError(f"the engine's answer has no {key!r}{self.context()}")
        return self.answer[key]

    def context(self) -> str:
        """The question and answer in the game's language, for the end of a failure message."""
        lines = [f"\n  rules: {self.variant} ({words.options(self.options)})"]
        if self.method:
            asked = ", ".join(
                f"{k} {words.value(k, v)}"
                for k, v in self.params.items()
                if k not in ("variant", "options")
            )
            lines.append(f"  asked {self.method}: {asked}")
            told = ", ".join(f"{k} {words.value(k, v)}" for k, v in self.answer.items())
            lines.append(f"  engine answered: {told}")
        return "\n".join(lines)

    def check(self, ok: bool, message: str) -> None:
        """Fail with ``message`` and the situation unless ``ok``."""
        __tracebackhide__ = True
        if not ok:
            raise RuleMismatch(message + self.context())
