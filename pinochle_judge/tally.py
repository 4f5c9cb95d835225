"""One run's verdicts, item by item, and everything the report and the summary count from them.

A ``Tally`` holds what each suite item came to (its worst outcome, rule, uses and charge), why it
was skipped, what its report said of the case, where it stands in reach, and which items were
judged on a derived expectation or under the house's options. From these it counts per rule and
in total (``counts``), the rules most likely wrong (``diagnosis``), the reach of the judged cases
(``reach``) and each case's entry of the JSON report. Plain data, no pytest: the plugin's
reporter is a Tally filled from pytest's reports (``pytest_pinochle.report``).
"""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from . import charges, diagnosis
from .counts import Count
from .diagnosis import Outcome
from .engines import trace_of
from .house_rules import DERIVED, is_undeclared
from .reach import Reach, ReachEntry, reach
from .verdicts import SuspectEntry

SEVERITY = {"passed": 0, "skipped": 1, "failed": 2, "errored": 3}
"""Outcomes from best to worst; an item counts once, by its worst report."""
STATUSES = ("passed", "failed", "errored", "skipped")
UNSUPPORTED_SKIP = "engine does not support this "
"""How the skip reason of a case the engine answered "unsupported" (-32001) begins."""
JUDGED = "judged"
"""The detail that lists the expectation's fields an item was judged on (for the diagnosis's
spectrum; not written to the report)."""


def trace(method: str, params: Mapping[str, object]) -> list[dict[str, Any]]:
    """The reference's trace of the question sent (empty when it cannot say)."""
    try:
        return trace_of(method, dict(params))
    except Exception:  # the trace only sharpens a charge: without it the charge stands
        return []


def covers(request: object, judged: object = None) -> frozenset[str]:
    """The rules the reference used in deciding a request line's question (its trace), of the
    points the expectation's fields ``judged`` show (all, when not known)."""
    try:
        message = json.loads(str(request))
        fields = [str(k) for k in judged] if isinstance(judged, list | tuple) else None
        return frozenset(charges.coverage(trace(message["method"], message["params"]), fields))
    except (ValueError, TypeError, KeyError):
        return frozenset()


class Tally:
    """The verdicts of one run, as its items report them."""

    def __init__(self) -> None:
        self.outcomes: dict[str, Outcome] = {}
        self.skips: dict[str, str] = {}
        self.derived: set[str] = set()
        """Items judged on a derived expectation (``house_rules``), counted apart."""
        self.fixed: set[str] = set()
        """Items a known-failures list names that pass now: they fail the run, not the rule."""
        self.held: set[str] = set()
        """Cases judged hand-worked under options the engine plays in place of the case's."""
        self.known: dict[str, dict[str, str]] = {}
        """Node ID -> the known-failures entry (reason, link) of an item that failed as listed."""
        self.details: dict[str, dict[str, Any]] = {}
        """Node ID -> what its report says of the case besides the verdict (variant, options,
        method, request line, the fields judged)."""
        self.messages: dict[str, str] = {}
        """Node ID -> the failure text of an item that failed or errored."""
        self.reach_entries: dict[str, ReachEntry] = {}
        """Node ID -> where a judged table case stands (``reach``)."""
        self.rebased: dict[str, list[str]] = {}
        """Node ID -> how a derived case's deal was played the house's way."""
        self._diagnosis: list[SuspectEntry] | None = None

    def undeclared(self, node: str) -> bool:
        """Whether an item was skipped because the engine does not declare its variant or
        method: such items are not counted against or for it."""
        return node in self.skips and is_undeclared(self.skips[node])

    def counted(self) -> list[Outcome]:
        """The items of the engine's declared variants and methods, judged (on a hand-worked
        or a derived expectation) or skipped: what the per-rule counts count, as the site's
        cells do (``counts``)."""
        return [o for node, o in self.outcomes.items() if not self.undeclared(node)]

    def per_rule(self) -> dict[str, dict[str, int]]:
        """Rule ID -> outcome -> number of items testing it (the tested rule only; ``counted``)."""
        counts: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(STATUSES, 0))
        for o in self.counted():
            counts[o.rule][o.status] += 1
        return dict(counts)

    def totals(self) -> dict[str, int]:
        """Outcome -> number of items on a hand-worked expectation (``counted`` but the
        derived): the count's hand-worked part, with the skipped."""
        out = dict.fromkeys(STATUSES, 0)
        for o in self.counted():
            if o.node not in self.derived:
                out[o.status] += 1
        return out

    def unsupported_by_rule(self) -> dict[str, int]:
        """Rule ID -> how many of its cases the engine answered "unsupported" (-32001): gaps it
        declared, shown per rule so that a rule an engine breaks cannot hide behind them."""
        counts: dict[str, int] = defaultdict(int)
        for node, reason in self.skips.items():
            if reason.startswith(UNSUPPORTED_SKIP) and node in self.outcomes:
                counts[self.outcomes[node].rule] += 1
        return dict(counts)

    def derived_totals(self) -> dict[str, int]:
        """Outcome -> number of items judged on a derived expectation."""
        out = dict.fromkeys(STATUSES, 0)
        for node in self.derived:
            out[self.outcomes[node].status] += 1
        return out

    def count(self) -> Count:
        """The run's one count (``counts``), as the site and the badge count it."""
        undeclared = sum(1 for node in self.outcomes if self.undeclared(node))
        return Count.of(self.totals(), self.derived_totals(), undeclared)

    def judged(self) -> int:
        """How many items of the declared variants and methods were judged at all."""
        return self.count().judged

    def nothing_judged(self) -> bool:
        """Whether the run asked the engine cases and judged none of them (every case skipped):
        a run that tests nothing must not pass."""
        return bool(self.outcomes) and self.judged() == 0

    def reach(self) -> Reach:
        """How many judged cases of each rule reach the point where it decides (``reach``):
        of the cases of the declared variants and methods that were judged."""
        judged = ("passed", "failed", "errored")
        return reach(
            e
            for node, e in self.reach_entries.items()
            if node in self.outcomes and self.outcomes[node].status in judged
        )

    def diagnosis(self) -> list[SuspectEntry]:
        """The rules most likely wrong, most likely first (see ``diagnosis``); each passing
        answer speaks for the rules the reference used in deciding it."""
        if self._diagnosis is None:
            outcomes = list(self.outcomes.values())
            if any(o.status in ("failed", "errored") for o in outcomes):
                outcomes = [
                    dataclasses.replace(o, covers=self._covers(o.node))
                    if o.status == "passed"
                    else o
                    for o in outcomes
                ]
            self._diagnosis = diagnosis.diagnose(outcomes)
        return self._diagnosis

    def _covers(self, node: str) -> frozenset[str]:
        details = self.details.get(node, {})
        return covers(details.get("request"), details.get(JUDGED))

    def cases(self) -> dict[str, dict[str, Any]]:
        """Node ID -> the report's entry of the case: outcome, rule and uses, what was asked,
        and whatever else its verdict carries (skip, expectation, reach, failure, charge)."""
        cases: dict[str, dict[str, Any]] = {}
        for node, o in sorted(self.outcomes.items()):
            entry: dict[str, Any] = {
                "outcome": o.status,
                "rule": o.rule,
                "uses": list(o.uses),
                "rules": [o.rule, *o.uses],
            }
            detail = self.details.get(node, {})
            entry.update({k: v for k, v in detail.items() if k != JUDGED})
            if node in self.skips:
                entry["skip"] = self.skips[node]
                if self.undeclared(node):
                    entry["undeclared"] = True
            if node in self.derived:
                entry["expectation"] = DERIVED
            reached = self.reach_entries.get(node)
            if reached is not None and not reached.reached and o.status != "skipped":
                entry["reached"] = False
            if node in self.rebased:
                entry["rebased"] = self.rebased[node]
            if node in self.messages and o.status in ("failed", "errored"):
                entry["message"] = self.messages[node]
            if o.charge is not None:
                entry["charge"] = o.charge.as_dict()
            if node in self.known and o.status in ("failed", "errored"):
                entry["known_failure"] = self.known[node]
            cases[node] = entry
        return cases
