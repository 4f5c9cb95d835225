"""One pytest-bdd step definition per keyword, holding every phrase of that keyword.

pytest-bdd finds the definition of each step by walking every fixture name of the session (each
step definition is one) and asking pytest which of them the item sees: with a definition per
phrase, that walk was most of a scenario's cost. A ``Phrasebook`` is one definition whose parser
holds the phrases (each still its own function, pattern and docstring, written as before with
``@then(parsers.re(...))``) and whose step function calls the one phrase that matches.

A phrase is looked up by pytest-bdd's own parsers (``parsers.re`` matches the whole step, a plain
string is the exact step), first declared first: no two phrases of a keyword may match one step,
which ``tests/test_steps.py`` checks over every step of the suite.

A ``Speaker`` runs the suite's scenarios by asking the books directly. pytest-bdd still
collects them (``scenarios()`` in the binding modules: node IDs, marks, Examples), and the
Speaker calls its hooks in the order and with the arguments its runner does, so its reporters,
the scenario export and any plugin listening see no difference. What goes is pytest-bdd's search
for each step's definition: it asks pytest, for every fixture name of the session, which
definitions the item sees, and that was half of what a scenario cost. A scenario with a step no
book reads is left to pytest-bdd's runner, as is any scenario outside the suite's folder;
``-p no:features.steps.phrasebook`` leaves it every scenario (``tests/test_steps.py`` compares
the two runners hook call by hook call).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import pytest
import pytest_bdd
from pytest_bdd import parsers
from pytest_bdd.parser import Scenario, ScenarioTemplate, Step

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


_BDD_SCENARIO = importlib.import_module("pytest_bdd.scenario")
"""pytest-bdd's module (its package's ``scenario`` is the decorator of that name)."""

Found = tuple[parsers.StepParser, Phrase, str | None]
"""A book's reading of one step: the phrase's pattern, its function, the step argument it takes."""


def template_of(function: object) -> ScenarioTemplate | None:
    """The scenario behind a test function pytest-bdd made from a feature file, or None.

    pytest-bdd 9 keeps them in a registry, 8 on the function; another version, or any other
    function, gets None, and pytest-bdd runs its scenario as it always does."""
    registry = getattr(_BDD_SCENARIO, "scenario_wrapper_template_registry", None)
    try:
        found = registry.get(function) if registry is not None else None
    except TypeError:  # not weakly referenceable: not a function pytest-bdd made
        return None
    found = found if found is not None else getattr(function, "__scenario__", None)
    return found if isinstance(found, ScenarioTemplate) else None


class Speaker:
    """A plugin running the scenarios of the suite's feature files through the books.

    Registered by ``features/conftest.py`` under this module's name. It takes a test function
    only when pytest-bdd made it from a feature file in the suite's folder and every step of its
    scenario is a phrase of the book of its keyword; it then does what pytest-bdd's runner does
    for it (the same hooks, in the same order, with the same arguments; the same exceptions) but
    finds each step's phrase in its book instead of among the session's fixtures. So the
    suite's steps always mean the suite's phrases: a step definition of a user's own that would
    also read one of them does not replace it."""

    def __init__(self, *books: Phrasebook) -> None:
        self.books: dict[str, Phrasebook] = {book.keyword: book for book in books}
        self.home = Path(__file__).resolve().parent.parent
        self._homes: dict[Path, bool] = {}
        self.spoken = 0
        """How many scenarios it has run."""

    def _at_home(self, path: Path) -> bool:
        folder = path.parent
        known = self._homes.get(folder)
        if known is None:
            known = self._homes[folder] = folder.resolve() == self.home
        return known

    def read(self, steps: list[Step]) -> list[Found] | None:
        """Each step's phrase, or None if a step is no phrase of its keyword's book."""
        found: list[Found] = []
        for step in steps:
            book = self.books.get(step.type)
            reading = book._find(step.name) if book is not None else None
            if reading is None:
                return None
            found.append(reading)
        return found

    @pytest.hookimpl(tryfirst=True)
    def pytest_pyfunc_call(self, pyfuncitem: pytest.Function) -> bool | None:
        template = template_of(pyfuncitem.obj)
        if template is None or not self._at_home(pyfuncitem.path):
            return None
        funcargs: dict[str, Any] = pyfuncitem.funcargs
        scenario = template.render(funcargs.get("_pytest_bdd_example") or {})
        readings = self.read(scenario.steps)
        if readings is None:
            return None
        self.spoken += 1
        self.speak(funcargs["request"], scenario, readings)
        return True

    @staticmethod
    def speak(request: pytest.FixtureRequest, scenario: Scenario, readings: list[Found]) -> None:
        """pytest-bdd's ``_execute_scenario`` with each step's phrase already found."""
        __tracebackhide__ = True
        hook = request.config.hook
        feature = scenario.feature
        hook.pytest_bdd_before_scenario(request=request, feature=feature, scenario=scenario)
        try:
            situation = None
            for step, (parser, phrase, extra) in zip(scenario.steps, readings, strict=True):
                kw: dict[str, Any] = {
                    "request": request,
                    "feature": feature,
                    "scenario": scenario,
                    "step": step,
                    "step_func": _speak,
                    "step_func_args": {},
                }
                hook.pytest_bdd_before_step(**kw)
                try:
                    # What pytest-bdd gives _speak: the book's parse, the step's block, then
                    # the fixture (the same value at every step of an item).
                    args: dict[str, Any] = {
                        "phrase": phrase,
                        "args": parser.parse_arguments(step.name) or {},
                        "extra": extra,
                    }
                    if step.datatable is not None:
                        args["datatable"] = step.datatable.raw()
                    if step.docstring is not None:
                        args["docstring"] = step.docstring
                    if situation is None:
                        situation = request.getfixturevalue("situation")
                    args["situation"] = situation
                    kw["step_func_args"] = args
                    hook.pytest_bdd_before_step_call(**kw)
                    _speak(**args)
                except (Exception, pytest.fail.Exception) as exception:
                    hook.pytest_bdd_step_error(exception=exception, **kw)
                    raise
                hook.pytest_bdd_after_step(**kw)
        finally:
            hook.pytest_bdd_after_scenario(request=request, feature=feature, scenario=scenario)
