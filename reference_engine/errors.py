"""Errors of the reference engine: each names the input, the situation and the rule it breaks."""

from __future__ import annotations


class PinochleError(ValueError):
    """Base of every error the engine raises for bad input."""


class CardError(PinochleError):
    """A card code, hand or deal is malformed (names the bad token)."""


class VariantError(PinochleError):
    """An unknown variant or option, a bad option value, or a variant file failing its schema."""


class IllegalAction(PinochleError):
    """An action the rules forbid in this state; carries the rule ID it breaks.

    The state it was tried on is unchanged.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message
