"""The one count of a run: what the terminal summary, the JSON report, the report site and the
badge all say, counted the same way from the same parts.

A run's cases fall in three parts. **Judged**: asked and compared, each passed, failed or
errored, on the hand-worked expectation or on a **derived** one (the reference engine's answer
under the engine's house rules, where those change the hand-worked answer); both are judged and
both are shown. **Skipped**: of a variant and method the engine declares, but not judged (a case
its house rules change under ``--no-derived``, an "unsupported" answer, a model with no call
for it). **Not counted**: of a variant or method the engine does not declare. The JSON report
carries the parts (``totals``: hand-worked and skipped, ``derived``, ``undeclared``); ``Count``
adds them up the one way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

JUDGED = ("passed", "failed", "errored")
"""The outcomes of a judged case."""

LEGEND = (
    "counted alike in the terminal summary, the JSON report, the site and the badge: "
    "judged = hand-worked + derived cases, each passed, failed or errored; skipped (declared, "
    "not judged) apart; "
    "undeclared variants and methods not counted; pytest's own line counts every item"
)
"""The one legend of the count, wherever it is shown."""


def _judged(counts: Mapping[str, Any] | None) -> dict[str, int]:
    return {s: int((counts or {}).get(s, 0)) for s in JUDGED}


@dataclass(frozen=True)
class Count:
    """One run's cases by part and outcome."""

    hand_worked: Mapping[str, int]
    """Hand-worked cases judged: outcome -> number."""
    derived: Mapping[str, int]
    """Derived cases judged: outcome -> number."""
    skipped: int = 0
    """Declared but not judged."""
    not_counted: int = 0
    """Of variants or methods the engine does not declare."""

    @classmethod
    def of(
        cls,
        totals: Mapping[str, Any],
        derived: Mapping[str, Any] | None = None,
        undeclared: int = 0,
    ) -> Count:
        """From a report's parts: ``totals`` (hand-worked outcomes and the skipped), ``derived``,
        ``undeclared``."""
        skipped = int(totals.get("skipped", 0))
        return cls(_judged(totals), _judged(derived), skipped, int(undeclared))

    @classmethod
    def of_report(cls, report: Mapping[str, Any]) -> Count:
        """The count of a ``--conformance-report`` document."""
        return cls.of(report.get("totals", {}), report.get("derived"), report.get("undeclared", 0))

    def outcome(self, status: str) -> int:
        """Judged cases with this outcome, hand-worked and derived."""
        return self.hand_worked[status] + self.derived[status]

    @property
    def passed(self) -> int:
        return self.outcome("passed")

    @property
    def failed(self) -> int:
        return self.outcome("failed")

    @property
    def errored(self) -> int:
        return self.outcome("errored")

    @property
    def judged(self) -> int:
        return sum(self.outcome(s) for s in JUDGED)

    @property
    def judged_hand_worked(self) -> int:
        return sum(self.hand_worked.values())

    @property
    def judged_derived(self) -> int:
        return sum(self.derived.values())

    @property
    def clean(self) -> bool:
        """Nothing failed and nothing errored, and something was judged: green, whatever was
        skipped."""
        return self.judged > 0 and self.failed == 0 and self.errored == 0

    @property
    def ratio(self) -> float:
        """Passed of judged (0 when nothing was judged)."""
        return self.passed / self.judged if self.judged else 0.0

    def __add__(self, other: Count) -> Count:
        return Count(
            {s: self.hand_worked[s] + other.hand_worked[s] for s in JUDGED},
            {s: self.derived[s] + other.derived[s] for s in JUDGED},
            self.skipped + other.skipped,
            self.not_counted + other.not_counted,
        )


EMPTY = Count(dict.fromkeys(JUDGED, 0), dict.fromkeys(JUDGED, 0))
"""No case: the start of a sum."""
