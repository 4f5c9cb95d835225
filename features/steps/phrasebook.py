"""One pytest-bdd step definition per keyword, holding every phrase of that keyword.

pytest-bdd finds the definition of each step by walking every fixture name of the session (each
step definition is one) and asking pytest which of them the item sees: with a definition per
phrase, that walk was most of a scenario's cost. A ``Phrasebook`` is one definition whose parser
holds the phrases (each still its own function, pattern and docstring, written as before with
``@then(parsers.re(...))``) and whose step function calls the one phrase that matches.

A phrase is looked up by pytest-bdd's own parsers (``parsers.re`` matches the whole step, a plain
string is the exact step), first declared first: no two phrases of a keyword may match one step,
which ``tests/test_wording.py`` checks over every step of the suite.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Literal

import pytest_bdd
from pytest_bdd import parsers

from pytest_pinochle.driver import Situation

Phrase = Callable[..., None]
"""A step function: the situation first, then the arguments its pattern names."""

_DECORATORS = {"given": pytest_bdd.given, "when": pytest_bdd.when, "then": pytest_bdd.then}


class Phrasebook(parsers.StepParser):
    """The phrases of one keyword as one pytest-bdd step definition in the module that makes it.

    Used as the keyword's decorator: ``then = Phrasebook("then")`` then ``@then(pattern)``.
    """

    def __init__(self, keyword: Literal["given", "when", "then"]) -> None:
        super().__init__(f"{keyword} phrases")
        self.keyword = keyword
        self.phrases: list[tuple[parsers.StepParser, Phrase, str | None]] = []
        """(pattern, function, the step argument it takes: "docstring", "datatable" or None), in
        declaration order."""
        self._last: tuple[str, tuple[parsers.StepParser, Phrase, str | None] | None] = ("", None)
        # stacklevel 2: the step definition's fixture goes to the module making this book.
        _DECORATORS[keyword](self, stacklevel=2)(_speak)

    def __call__(self, pattern: str | parsers.StepParser) -> Callable[[Phrase], Phrase]:
        """Declare a phrase: ``pattern`` (a pytest-bdd parser, or the exact step text)."""
        parser = pattern if isinstance(pattern, parsers.StepParser) else parsers.string(pattern)

        def declare(function: Phrase) -> Phrase:
            takes = inspect.signature(function).parameters
            extra = next((name for name in _STEP_ARGUMENTS if name in takes), None)
            self.phrases.append((parser, function, extra))
            return function

        return declare

    def matching(self, step: str) -> list[Phrase]:
        """Every phrase that reads ``step`` (one, in a well-made book)."""
        return [function for parser, function, _ in self.phrases if parser.is_matching(step)]

    def _find(self, step: str) -> tuple[parsers.StepParser, Phrase, str | None] | None:
        # pytest-bdd asks is_matching, then parse_arguments, of the same step in a row.
        if self._last[0] != step or self._last[1] is None:
            found = next((p for p in self.phrases if p[0].is_matching(step)), None)
            self._last = (step, found)
        return self._last[1]

    def is_matching(self, name: str) -> bool:
        return self._find(name) is not None

    def parse_arguments(self, name: str) -> dict[str, Any] | None:
        found = self._find(name)
        if found is None:
            return None
        parser, function, extra = found
        args = parser.parse_arguments(name) or {}
        return {"phrase": function, "args": args, "extra": extra}


_STEP_ARGUMENTS = ("docstring", "datatable")
"""What pytest-bdd gives a step besides its text: the block under it, quoted or a table."""


def _speak(
    situation: Situation,
    phrase: Phrase,
    args: dict[str, Any],
    extra: str | None,
    docstring: str | None = None,
    datatable: list[list[str]] | None = None,
) -> None:
    """The step function of every book: the matched phrase, with its arguments (and the step's
    docstring or data table, for a phrase that takes one)."""
    if extra == "docstring":
        phrase(situation, **args, docstring=docstring)
    elif extra == "datatable":
        phrase(situation, **args, datatable=datatable)
    else:
        phrase(situation, **args)


# pytest-bdd reads the step function's signature twice a step; computed once, it is kept here.
_speak.__signature__ = inspect.signature(_speak)  # type: ignore[attr-defined]
