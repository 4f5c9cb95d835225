"""Outcomes of the suite's items and the per-rule summary, as a reporter object on the config.

A wrong answer fails; an engine that misbehaves (``EngineError``) errors, in a table case and in
a scenario alike; a skip says why. The reporter prints the per-rule table and writes the JSON.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from pinochle_adapters.client import EngineError

from .driver import RuleMismatch
from .tables import CaseItem
from .tags import RULES_PROPERTY, is_suite_item

ENGINE_ERROR = "engine_error"
"""User property of a report whose failure was the engine's, not a wrong answer."""
SEVERITY = {"passed": 0, "skipped": 1, "failed": 2, "errored": 3}
"""Outcomes from best to worst; an item counts once, by its worst report."""
STATUSES = ("passed", "failed", "errored", "skipped")
REPORT_FORMAT = 1


def outcome_of(report: pytest.TestReport) -> str:
    """The one decision: a wrong answer in the call phase fails; anything else that goes wrong
    (the engine misbehaving, a setup or teardown fault) errors."""
    if report.failed:
        engine_error = any(key == ENGINE_ERROR for key, _ in report.user_properties)
        return "failed" if report.when == "call" and not engine_error else "errored"
    return "skipped" if report.skipped else "passed"


def rules_reported(report: pytest.TestReport) -> tuple[str, ...]:
    """The rule IDs a suite item's report carries (empty for any other test)."""
    for key, value in report.user_properties:
        if key == RULES_PROPERTY and isinstance(value, list | tuple):
            return tuple(str(v) for v in value)
    return ()


def _title(item: pytest.Item) -> str:
    # pytest-bdd names the scenario "<feature>: <scenario>" in the test function's docstring.
    title = getattr(getattr(item, "function", None), "__doc__", None) or item.nodeid
    return str(title).replace(f"{item.config.rootpath}/", "")


class Reporter:
    """Collects each suite item's worst outcome; prints the per-rule summary and writes the JSON.

    One object per pytest config (registered as a plugin), so two runs in one process never
    share outcomes.
    """

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.outcomes: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.skips: dict[str, str] = {}

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        """Flag an engine fault as an error; show a scenario's fault without step frames."""
        report = yield
        if call.excinfo is None or not is_suite_item(item):
            return report
        if call.excinfo.errisinstance(EngineError):
            report.user_properties.append((ENGINE_ERROR, True))
            if not isinstance(item, CaseItem):  # a table case words it in repr_failure
                report.longrepr = f"engine error in {_title(item)}\n{call.excinfo.value}"
        elif call.excinfo.errisinstance(RuleMismatch):
            report.longrepr = f"wrong answer in {_title(item)}\n{call.excinfo.value}"
        return report

    def pytest_report_teststatus(
        self, report: pytest.TestReport, config: pytest.Config
    ) -> tuple[str, str, str] | None:
        """Count an engine fault in the call phase as an error, not a wrong answer."""
        if report.when == "call" and report.failed and outcome_of(report) == "errored":
            return "error", "E", "ERROR"
        return None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        rules = rules_reported(report)
        if not rules:
            return  # not a suite item
        status = outcome_of(report)
        old = self.outcomes.get(report.nodeid, ("passed", rules))[0]
        if SEVERITY[status] >= SEVERITY[old]:
            self.outcomes[report.nodeid] = (status, rules)
        if status == "skipped" and isinstance(report.longrepr, tuple):
            self.skips[report.nodeid] = str(report.longrepr[2]).removeprefix("Skipped: ")

    def per_rule(self) -> dict[str, dict[str, int]]:
        """Rule ID -> outcome -> number of items testing it."""
        counts: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(STATUSES, 0))
        for status, rules in self.outcomes.values():
            for rule in rules:
                counts[rule][status] += 1
        return dict(counts)

    def totals(self) -> dict[str, int]:
        """Outcome -> number of items."""
        out = dict.fromkeys(STATUSES, 0)
        for status, _ in self.outcomes.values():
            out[status] += 1
        return out

    def document(self) -> dict[str, Any]:
        """The ``--conformance-report`` JSON: every case's outcome, rules and skip reason."""
        per_rule = self.per_rule()
        cases: dict[str, dict[str, Any]] = {}
        for node, (status, rules) in sorted(self.outcomes.items()):
            cases[node] = {"outcome": status, "rules": list(rules)}
            if node in self.skips:
                cases[node]["skip"] = self.skips[node]
        return {
            "format": REPORT_FORMAT,
            "engine": self.config.getoption("engine") or "reference",
            "variants": self.config.getoption("variant") or "all",
            "totals": self.totals(),
            "rules": {r: per_rule[r] for r in sorted(per_rule)},
            "cases": cases,
        }

    def pytest_terminal_summary(self, terminalreporter: Any, config: pytest.Config) -> None:
        if hasattr(config, "workerinput") or not self.outcomes:
            return
        per_rule = self.per_rule()
        totals = self.totals()
        bad = sorted(r for r, c in per_rule.items() if c["failed"] or c["errored"] or c["skipped"])
        tr = terminalreporter
        tr.write_sep("=", "conformance by rule")
        if bad:
            width = max(len(r) for r in bad)
            tr.write_line(f"{'rule':<{width}}  failed  errored  skipped  passed")
            for rule in bad:
                c = per_rule[rule]
                tr.write_line(
                    f"{rule:<{width}}  {c['failed']:>6}  {c['errored']:>7}  {c['skipped']:>7}  "
                    f"{c['passed']:>6}"
                )
        path = config.getoption("conformance_report")
        if path:
            text = json.dumps(self.document(), indent=1) + "\n"
            Path(path).write_text(text, encoding="utf-8")
        tr.write_line(
            f"total: {sum(totals.values())} cases and scenarios, {totals['passed']} passed, "
            f"{totals['failed']} failed, {totals['errored']} errored, {totals['skipped']} skipped; "
            f"{len(per_rule)} rules exercised, {len(bad)} with a case not passing"
        )
