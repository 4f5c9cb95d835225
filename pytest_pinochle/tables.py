"""Scenario tables as pytest items: each ``Case`` of a table (``pinochle_judge.cases``) is one
test item, asked of the engine and judged in its call phase.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from pinochle_adapters.client import EngineError
from pinochle_judge import wording
from pinochle_judge.capabilities import Skip, expectation
from pinochle_judge.cases import Case, CaseError, load_table, request_line
from pinochle_judge.compare import Mismatch, compare
from pinochle_judge.house_rules import DERIVED, SKIP, Plan
from pinochle_judge.reach import ReachEntry, written_for_other_values

from .session import state_of

# --- test items -------------------------------------------------------------------------------

_STORE_KEY = pytest.StashKey[Path | None]()
TABLE_STORE = "pinochle-tables"
"""The folder of pytest's cache where checked tables are kept between runs (``load_table``)."""


def _table_store(config: pytest.Config) -> Path | None:
    """The run's folder of checked tables in pytest's cache; None when the cache is off or its
    folder cannot be made (every table is then checked as it loads)."""
    if _STORE_KEY not in config.stash:
        cache = getattr(config, "cache", None)
        try:
            config.stash[_STORE_KEY] = None if cache is None else cache.mkdir(TABLE_STORE)
        except OSError:
            config.stash[_STORE_KEY] = None
    return config.stash[_STORE_KEY]


class TableFile(pytest.File):
    """A scenario table: each case is its own test item."""

    def collect(self) -> list[CaseItem]:
        """The table's cases; a broken table gives none and one data error line instead, which
        ends the run as a usage error (the suite's data is at fault, never the engine)."""
        state = state_of(self.config)
        try:
            cases = load_table(self.path, _table_store(self.config))
        except CaseError as err:
            state.data_errors.append(str(err))
            return []
        seen = state.case_ids
        items = []
        for case in cases:
            where = case.where
            first = seen.setdefault(case.id, where)
            if first != where:
                state.data_errors.append(f"duplicate case id {case.id!r}: {first} and {where}")
                return []
            item: CaseItem = CaseItem.from_parent(self, name=case.id, case=case)
            items.append(item)
        return items

    def repr_failure(  # type: ignore[override]
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> str | Any:
        if isinstance(excinfo.value, CaseError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


EXPECTATION_PROPERTY = "expectation"
"""User property of a judged case: ``hand-worked`` or ``derived`` (``house_rules``)."""
HOUSE_PROPERTY = "house_rules"
"""User property of a case judged under options the engine plays in place of the case's."""


class CaseFailed(AssertionError):
    """The engine answered, but not what the rules require."""

    def __init__(self, mismatches: list[Mismatch]) -> None:
        super().__init__("; ".join(map(str, mismatches)))
        self.mismatches = mismatches


@cache  # a mark is an immutable value: one per name and arguments serves every node
def marked(name: str, /, **kwargs: str) -> pytest.MarkDecorator:
    """``pytest.mark.NAME(**kwargs)`` (``pytest.mark.NAME`` without arguments), made once."""
    decorator: pytest.MarkDecorator = getattr(pytest.mark, name)
    return decorator(**kwargs) if kwargs else decorator


@cache  # as ``marked``: one tuple serves every case that tests alike
def _case_marks(
    rule: str, uses: tuple[str, ...], variant: str, negative: bool
) -> tuple[tuple[pytest.Mark, ...], dict[str, pytest.Mark]]:
    """A case's marks, in order, and its keywords (each mark's name to its last mark): what
    ``Node.add_marker`` gives for each of the marks in turn."""
    decorators = [
        marked("rule", id=rule),
        *(marked("uses", id=used) for used in uses),
        marked("variant", id=variant),
        *([marked("negative")] if negative else []),
    ]
    marks = tuple(decorator.mark for decorator in decorators)
    return marks, {mark.name: mark for mark in marks}


class CaseItem(pytest.Item):
    """One table case: the engine is asked and its answer compared, both in the call phase."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.answer: dict[str, object] | None = None
        self.plan: Plan | None = None
        self.sent_line: str | None = None
        """The request line the engine received, byte for byte (None until one was sent)."""
        self.reach: dict[str, object] | None = None
        """Where the case stands (``ReachEntry``: whether it reaches the point where its rule
        decides under the options the engine plays, and how it was re-based): the call report
        carries it (``report.REACH_ATTR``), never the item, whose properties a JUnit file shows."""
        self.modelled: dict[str, object] | None = None
        """The expectation in the engine's declared model (``capabilities.expectation``)."""
        marks, keywords = _case_marks(case.rule, case.uses, case.variant, case.negative)
        self.own_markers.extend(marks)
        self.keywords.update(keywords)

    def teardown(self) -> None:
        """Let go of the answer, plan, expectation and reach once the call is reported (as
        pytest drops a test function's fixture values): a run keeps none of its cases' answers,
        so the garbage collector's walks do not grow with the suite. The line sent is kept for a
        teardown error's report."""
        self.answer = self.plan = self.modelled = self.reach = None

    def runtest(self) -> None:
        engine = state_of(self.config).engine()
        case = self.case
        plan = engine.house_rules.plan_case(
            case.method, case.variant, case.options, case.params, case.expect, case.rule
        )
        self.plan = plan
        if plan.kind == SKIP or plan.expect is None:
            pytest.skip(plan.reason)
        self.reach = {
            **ReachEntry.record(
                case.variant,
                case.method,
                plan.reached,
                written_for_other_values(case.variant, plan.needed),
                {str(k): str(v) for k, v in (plan.params.get("options") or {}).items()},
            ),
            "rebased": tuple(plan.rebased),
        }
        try:
            self.modelled = expectation(case.method, case.rule, plan.expect, engine.capabilities)
            self.user_properties.append((EXPECTATION_PROPERTY, plan.kind))
            if plan.house:
                self.user_properties.append((HOUSE_PROPERTY, plan.house_text))
            try:
                self.answer = engine.call(case.method, plan.params)
            finally:
                self.sent_line = engine.last_request
        except Skip as e:  # the engine's declared model has no call for this case
            pytest.skip(str(e))
        mismatches = compare(case.method, self.expected, self.answer)
        if mismatches:
            raise CaseFailed(mismatches)

    @property
    def sent(self) -> dict[str, object]:
        """The params put to the engine: the case's, under the options the engine plays."""
        return self.plan.params if self.plan is not None else self.case.request

    @property
    def request_shown(self) -> str:
        """The line to replay the case: the one sent, else the one that would be sent."""
        return self.sent_line or request_line(self.case.method, self.sent)

    @property
    def expected(self) -> dict[str, object]:
        """What the answer is judged against: hand-worked, or derived under house rules."""
        if self.modelled is not None:
            return self.modelled
        if self.plan is not None and self.plan.expect is not None:
            return self.plan.expect
        return self.case.expect

    def describe(self, headline: str) -> str:
        """The case in the game's language: rules, question, expected and actual answer."""
        case, plan = self.case, self.plan
        return wording.case_text(
            headline,
            case,
            self.expected,
            self.answer,
            house=plan.house_text if plan is not None and plan.house else "",
            derived=plan.reason if plan is not None and plan.kind == DERIVED else None,
        )

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> str | Any:
        error = excinfo.value
        # The exact line sent (as the JSON report's ``request``): paste it into the engine.
        if isinstance(error, CaseFailed):
            return wording.case_failed(
                self.describe(wording.WRONG_ANSWER), error.mismatches, self.request_shown
            )
        if isinstance(error, EngineError):
            return wording.case_engine_error(
                self.describe(wording.ENGINE_ERROR), error, self.request_shown
            )
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case.line - 1, f"{self.case.method} case {self.case.id}"
