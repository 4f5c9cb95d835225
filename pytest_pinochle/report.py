"""Outcomes of the suite's items, the per-rule summary and the diagnosis, as a reporter object.

A wrong answer fails; an engine that misbehaves (``EngineError``) errors, in a table case and in
a scenario alike; a skip says why. A failure counts against the one rule its item tests; the
diagnosis (``diagnosis``) names the rules most likely wrong, and the JSON names the engine.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Generator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pinochle_adapters.client import EngineError
from pinochle_judge import charges, wording
from pinochle_judge.cases import request_line
from pinochle_judge.counts import LEGEND
from pinochle_judge.diagnosis import Charge, Outcome
from pinochle_judge.engines import REFERENCE_SHOWN
from pinochle_judge.house_rules import DERIVED, HOUSE_SKIP
from pinochle_judge.reach import ReachEntry
from pinochle_judge.tally import JUDGED, SEVERITY, Tally, trace
from specdata import suite_version
from specdata.files import write_atomic

from .driver import SITUATION_KEY, RuleMismatch, Situation
from .session import STATE_KEY, state_of
from .tables import EXPECTATION_PROPERTY, HOUSE_PROPERTY, CaseFailed, CaseItem
from .tags import (
    FIXED_ATTR,
    KNOWN_ENTRY_ATTR,
    RULE_PROPERTY,
    USES_PROPERTY,
    is_suite_item,
    options_of,
    variant_of,
)

ENGINE_ERROR = "engine_error"
"""User property of a report whose failure was the engine's, not a wrong answer."""
REPORT_FORMAT = 4
"""2: cases carry ``rule`` (tested) and ``uses``; ``engine`` is an object; ``diagnosis`` added.
3: ``suite`` (name, version) and ``time``; cases carry variant, options, method, the request
line to replay them and, when not passing, the failure text.
4: ``totals`` and ``rules`` count the engine's declared variants and methods with hand-worked
expectations only; ``derived`` counts the cases judged on the reference engine's answer under
the engine's house rules, ``undeclared`` the items of variants or methods it does not declare;
cases carry ``expectation`` and ``undeclared``; later, optional: ``complete``, ``exit_status`` and
``selection`` (a report without ``complete`` is of a run that completed)."""
COMPLETED = (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED)
"""Exit statuses of a run that went through its whole selection (unless stopped early: -x)."""
DETAIL_ATTR = "pinochle_case"
"""Attribute of a suite item's call (or skip) report: a dict of its variant, options, method,
request line and the fields judged. An attribute, not a user property: it travels with the report
to xdist's controller as it is (no JSON to write and parse again), and a JUnit file, which shows
user properties, leaves it out. Its values are text, a mapping of text and a tuple of text: once
a full collection has seen such a dict, the garbage collector no longer walks it (nor did it the
JSON text this once was)."""
REACH_ATTR = "pinochle_reach"
"""Attribute of a judged table case's call report: its ``ReachEntry`` record and how it was
re-based (``CaseItem.reach``), as ``DETAIL_ATTR`` travels."""
MESSAGE_LIMIT = 4000
"""Longest failure text kept per case in the JSON report (characters)."""
NOTHING_JUDGED = wording.NOTHING_JUDGED
CHARGE_PROPERTY = "charge"
"""User property of a failed item's report: where its answer first differs, and the rules named."""
CRASHED = "???"
"""The phase (``when``) of pytest-xdist's report of an item whose worker crashed."""


def outcome_of(report: pytest.TestReport) -> str:
    """The one decision: a wrong answer in the call phase fails; anything else that goes wrong
    (the engine misbehaving, a setup or teardown fault) errors."""
    if getattr(report, FIXED_ATTR, False):
        return "passed"  # a listed known failure that passes: it fails the run, not the rule
    known = report.skipped and hasattr(report, "wasxfail")  # failed as --known-failures lists
    if report.failed or known:
        engine_error = any(key == ENGINE_ERROR for key, _ in report.user_properties)
        return "failed" if report.when == "call" and not engine_error else "errored"
    return "skipped" if report.skipped else "passed"


def property_of(report: pytest.TestReport, key: str) -> object:
    """A user property of a report (None when absent)."""
    for k, value in report.user_properties:
        if k == key:
            return value
    return None


def _from_json(raw: object) -> object:
    """A user property written as JSON text (so JUnit XML shows JSON, not a Python repr)."""
    return json.loads(raw) if isinstance(raw, str) else raw


def _charge(raw: object) -> Charge | None:
    """The charge a failed report carries (see ``diagnosis``), from its property."""
    found = _from_json(raw)
    return Charge.from_dict(found) if isinstance(found, dict) else None


def uses_property(value: object) -> tuple[str, ...]:
    """The rule IDs of a ``uses`` property (space-separated)."""
    return tuple(str(value or "").split())


def _title(item: pytest.Item) -> str:
    # pytest-bdd names the scenario "<feature>: <scenario>" in the test function's docstring.
    title = getattr(getattr(item, "function", None), "__doc__", None) or item.nodeid
    return str(title).replace(f"{item.config.rootpath}/", "")


def _scenario_charge(item: pytest.Item) -> Charge | None:
    """A failed scenario placed like a table case: what its Then steps expected so far against
    the engine's last answer (a whole hand at its first divergence in play order)."""
    situation = item.stash.get(SITUATION_KEY, None)
    rule = property_of_item(item, RULE_PROPERTY)
    if not isinstance(situation, Situation) or situation.method is None:
        return None
    if not isinstance(rule, str) or not rule:
        return None
    uses = uses_property(property_of_item(item, USES_PROPERTY))
    method, params = situation.method, situation.params
    try:
        return charges.charge(
            method, params, situation.expected, situation.answer, trace(method, params), rule, uses
        )
    except Exception:  # an answer of an unforeseen shape: the verdict stands without it
        return None


def _judged_fields(item: pytest.Item) -> tuple[str, ...] | None:
    """The fields of the expectation an item's answer was judged on."""
    if isinstance(item, CaseItem):
        return tuple(sorted(item.expected))
    situation = item.stash.get(SITUATION_KEY, None)
    expected = getattr(situation, "expected", None)
    return tuple(sorted(expected)) if isinstance(expected, Mapping) else None


def property_of_item(item: pytest.Item, key: str) -> object:
    """A user property of an item (None when absent)."""
    for k, value in item.user_properties:
        if k == key:
            return value
    return None


def _request_line(method: str | None, params: Mapping[str, object] | None) -> str | None:
    """The request as one JSON line (``tables.request_line``), None when nothing was asked."""
    return None if method is None or params is None else request_line(method, params)


def _details(item: pytest.Item) -> dict[str, Any]:
    """What a report says of a case besides its verdict: where it runs and what it asked."""
    if isinstance(item, CaseItem):
        case = item.case
        return {
            "variant": case.variant,
            "options": dict(case.options),
            "method": case.method,
            "request": item.request_shown,
            JUDGED: _judged_fields(item),
        }
    situation = item.stash.get(SITUATION_KEY, None)
    method = getattr(situation, "method", None)
    params = getattr(situation, "params", None)
    sent = getattr(situation, "sent_line", None)
    variant: str | None
    if situation is not None and situation.variant is not None:
        # What the scenario's steps actually set: an Outline's option marks are shared by
        # all its rows, so the marks alone cannot say which row set which value.
        variant, options = situation.variant, dict(situation.options)
    else:
        variant, options = variant_of(item), options_of(item)
    return {
        "variant": variant,
        "options": options,
        "method": method,
        "request": sent or _request_line(method, params),
        JUDGED: _judged_fields(item),
    }


class Reporter(Tally):
    """A ``Tally`` filled from pytest's reports of the suite's items; prints the per-rule summary
    and writes the JSON.

    One object per pytest config (registered as a plugin), so two runs in one process never
    share outcomes.
    """

    def __init__(self, config: pytest.Config) -> None:
        super().__init__()
        self.config = config
        self.started = datetime.now(UTC).isoformat(timespec="seconds")
        self.complete = True
        """Whether the run went through its whole selection (not interrupted, not stopped)."""
        self.exit_status = 0
        self.written: str | None = None
        """What became of ``--conformance-report``, in one line for the summary."""
        self.properties: dict[str, list[tuple[str, object]]] = {}
        """Node ID -> the user properties of a suite item's latest report, to name the rule of
        an item whose xdist worker crashed (xdist's report of the crash carries none)."""
        self.unplaced: list[str] = []
        """Items whose worker crashed before any report of theirs came: their rule is unknown,
        so the report cannot count them and is marked partial."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        """Flag an engine fault as an error; show a scenario's fault without step frames."""
        report = yield
        when = report.when
        if when == "teardown" and SITUATION_KEY in item.stash:
            # Reported in full: let go of the scenario's situation (its requests and answers)
            # as pytest lets go of fixture values, so a run keeps none of them.
            del item.stash[SITUATION_KEY]
        if when != "call" and call.excinfo is None and not report.skipped:
            return report  # a setup or teardown that went well: nothing to add
        if not is_suite_item(item):
            return report
        return self._made(item, call, report)

    def _made(
        self, item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport
    ) -> pytest.TestReport:
        """A suite item's report of its call, or of a skip or fault in any phase."""
        details = None
        if report.when == "call" or report.skipped:
            details = _details(item)
            setattr(report, DETAIL_ATTR, details)
            reached = item.reach if isinstance(item, CaseItem) else None
            if reached is not None:
                setattr(report, REACH_ATTR, reached)
        if report.skipped and isinstance(report.longrepr, tuple):
            # pytest folds skips by location: the case's own file (its table or feature module,
            # as its node ID names it), never the line of this package that called pytest.skip
            # nor its install path; no line, so one reason in one file is one line of -rs.
            # (A line of None is what pytest's own skip marks fold on; its annotation says int.)
            where = item.nodeid.split("::", 1)[0]
            report.longrepr = (where, None, report.longrepr[2])  # type: ignore[assignment]
        if call.excinfo is None:
            return report
        if isinstance(item, CaseItem) and call.excinfo.errisinstance(CaseFailed):
            case, answer = item.case, item.answer or {}
            error = call.excinfo.value
            assert isinstance(error, CaseFailed)
            detail = str(error.mismatches[0]) if error.mismatches else ""
            # Charged against what was judged: the params sent (under the engine's options) and
            # the expectation the answer was compared with (derived, where it is).
            sent, judged = item.sent, item.expected
            try:
                traced = trace(case.method, sent)
                charge = charges.charge(
                    case.method, sent, judged, answer, traced, case.rule, case.uses, detail
                )
            except Exception:  # an answer of an unforeseen shape: the verdict stands without it
                charge = Charge((case.rule,), "answer", detail, kind="answer")
            report.user_properties.append((CHARGE_PROPERTY, json.dumps(charge.as_dict())))
        elif call.excinfo.errisinstance(RuleMismatch):
            found = _scenario_charge(item)
            if found is not None:
                report.user_properties.append((CHARGE_PROPERTY, json.dumps(found.as_dict())))
        request = (details or _details(item))["request"]
        if call.excinfo.errisinstance(EngineError):
            report.user_properties.append((ENGINE_ERROR, True))
            if not isinstance(item, CaseItem):  # a table case words it in repr_failure
                report.longrepr = wording.scenario_report(
                    wording.ENGINE_ERROR, _title(item), call.excinfo.value, request
                )
        elif call.excinfo.errisinstance(RuleMismatch):
            report.longrepr = wording.scenario_report(
                wording.WRONG_ANSWER, _title(item), call.excinfo.value, request
            )
        return report

    def pytest_report_teststatus(
        self, report: pytest.TestReport, config: pytest.Config
    ) -> tuple[str, str, str] | None:
        """Count an engine fault in the call phase as an error, not a wrong answer."""
        if report.outcome != "failed":
            return None
        if report.when == "call" and outcome_of(report) == "errored":
            return "error", "E", "ERROR"
        if report.when == CRASHED and property_of(report, RULE_PROPERTY):
            return "error", "E", "ERROR"  # a suite item whose worker crashed: as in the report
        return None

    @pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook, on the controller
    def pytest_handlecrashitem(self, crashitem: str, report: pytest.TestReport) -> None:
        """An item whose xdist worker crashed errors, under the rule its earlier reports named
        (xdist's report of the crash has no properties: it would not count, and the item would
        stay passed by its setup report while the terminal says it failed)."""
        known = self.properties.get(crashitem)
        if known is None:
            self.unplaced.append(crashitem)
            return
        report.user_properties = [(k, v) for k, v in known if k != CHARGE_PROPERTY]

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # One pass, the first of a key winning (as ``property_of``): the pairs reversed, so an
        # earlier pair overwrites a later one.
        props: dict[str, object] = dict(reversed(report.user_properties))
        rule = props.get(RULE_PROPERTY)
        if not isinstance(rule, str):
            return  # not a suite item
        node = report.nodeid
        self.properties[node] = report.user_properties
        passed = report.outcome == "passed"
        if passed and report.when == "teardown" and node in self.outcomes:
            return  # a passing teardown after the call: nothing it carries is new
        status = "passed" if passed else outcome_of(report)
        old = self.outcomes.get(node)
        if old is None or SEVERITY[status] >= SEVERITY[old.status]:
            charge = _charge(props.get(CHARGE_PROPERTY)) if status == "failed" else None
            uses = uses_property(props.get(USES_PROPERTY))
            verdict = (status, rule, uses, charge)
            # A passing call after a passing setup changes nothing: its outcome is kept.
            if old is None or (old.status, old.rule, old.uses, old.charge) != verdict:
                self.outcomes[node] = Outcome(node, *verdict)
        if getattr(report, FIXED_ATTR, False):
            self.fixed.add(node)
        detail = getattr(report, DETAIL_ATTR, None)
        if isinstance(detail, dict):
            self.details[node] = detail
        found = getattr(report, REACH_ATTR, None)
        if isinstance(found, dict):
            self.reach_entries[node] = ReachEntry.from_dict(rule, found)
            if found.get("rebased"):
                self.rebased[node] = [str(x) for x in found["rebased"]]
        if props.get(EXPECTATION_PROPERTY) == DERIVED:
            self.derived.add(node)
        elif props.get(HOUSE_PROPERTY):
            self.held.add(node)
        known = getattr(report, KNOWN_ENTRY_ATTR, None)
        if isinstance(known, dict):
            self.known[node] = known
        if passed:
            return
        if status in ("failed", "errored") and report.longrepr is not None:
            self.messages[node] = report.longreprtext[:MESSAGE_LIMIT]
        if status == "skipped" and isinstance(report.longrepr, tuple):
            self.skips[node] = str(report.longrepr[2]).removeprefix("Skipped: ")

    def engine_info(self) -> dict[str, Any]:
        """The engine under test: its command and, once started, its initialize name and version."""
        state = state_of(self.config)
        shown = f"in-process {state.server}" if state.server else REFERENCE_SHOWN
        info: dict[str, Any] = {"command": state.command or shown}
        info.update(state.engine_name or {})
        return info

    def document(self) -> dict[str, Any]:
        """The ``--conformance-report`` JSON: the engine, every case's outcome, rule and uses, the
        per-rule counts and the diagnosis."""
        per_rule = self.per_rule()
        return {
            "format": REPORT_FORMAT,
            "suite": {"name": "pinochle-spec", "version": suite_version()},
            "time": self.started,
            "engine": self.engine_info(),
            "variants": self.config.getoption("variant") or "all",
            "totals": self.totals(),
            "derived": self.derived_totals(),
            "undeclared": sum(1 for node in self.outcomes if self.undeclared(node)),
            "unsupported": self.unsupported_by_rule(),
            "rules": {r: per_rule[r] for r in sorted(per_rule)},
            "diagnosis": self.diagnosis(),
            "reach": self.reach().as_dict(),
            "cases": self.cases(),
            "complete": self.complete,
            "exit_status": self.exit_status,
            "selection": selection(self.config),
        }

    def pytest_terminal_summary(
        self, terminalreporter: pytest.TerminalReporter, config: pytest.Config
    ) -> None:
        if hasattr(config, "workerinput") or not self.outcomes:
            return
        per_rule = self.per_rule()
        failing = sorted(
            (r for r, c in per_rule.items() if c["failed"] or c["errored"]),
            key=lambda r: (-per_rule[r]["failed"] - per_rule[r]["errored"], r),
        )
        skipped_only = sorted(
            r for r, c in per_rule.items() if r not in failing and c["skipped"] and not c["passed"]
        )
        partly = sorted(
            r for r, c in per_rule.items() if r not in failing and c["skipped"] and c["passed"]
        )
        tr = terminalreporter
        tr.write_sep("=", "conformance by rule")
        known = Counter(self.outcomes[n].rule for n in self.known if n in self.outcomes)
        lines = wording.rule_summary(self.engine_line(), per_rule, failing, known)
        lines += wording.skipped_summary(partly, skipped_only)
        for line in lines:
            tr.write_line(line)
        unsupported = self.unsupported_by_rule()
        if unsupported:
            tr.write_line(wording.unsupported_summary(unsupported))
        found = self.diagnosis()
        if found:
            tr.write_sep("-", "diagnosis: rules most likely wrong")
            for line in wording.suspect_lines(found):
                tr.write_line(line)
        if self.unplaced:
            tr.write_line(unplaced_line(self.unplaced), red=True)
        if self.written is not None:
            tr.write_line(self.written, red=not self.complete or "cannot" in self.written)
        passing = len(per_rule) - len(failing) - len(skipped_only)
        count = self.count()
        fixed = sum(1 for node in self.fixed if node in self.outcomes)
        tr.write_line(
            wording.total_summary(
                count,
                sum(known.values()),
                fixed,
                len(per_rule),
                len(failing),
                passing,
                len(skipped_only),
            )
        )
        for line in wording.part_summaries(count):
            tr.write_line(line)
        changed = sum(1 for r in self.skips.values() if r.startswith(HOUSE_SKIP))
        if self.held or self.derived or changed:
            tr.write_line(wording.house_summary(len(self.held), len(self.derived), changed))
        found_reach = self.reach()
        if found_reach.shown or self.held or self.derived:
            for line in wording.reach_summary(
                found_reach.whole_hands,
                found_reach.other_values,
                found_reach.partly,
                found_reach.unreached,
                found_reach.off,
            ):
                tr.write_line(line)
        if count.not_counted:
            tr.write_line(wording.undeclared_summary(count.not_counted))
        if count.judged_derived or count.skipped or count.not_counted or fixed:
            tr.write_line(f"({LEGEND})")
        if self.nothing_judged():
            tr.write_line(NOTHING_JUDGED, red=True, bold=True)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if hasattr(self.config, "workerinput"):
            return
        if self.nothing_judged() and exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        self.exit_status = int(session.exitstatus)
        self.complete = run_complete(session) and not self.unplaced
        path = self.config.getoption("conformance_report")
        if path and self.outcomes:
            self.write(Path(path), session)

    def write(self, path: Path, session: pytest.Session) -> None:
        """Write the report whole (``write_atomic``): a run cut short writes it marked
        ``complete: false``; a write that fails leaves the earlier file and fails the run."""
        try:
            write_atomic(path, json.dumps(self.document(), indent=1) + "\n")
        except OSError as e:
            self.written = f"--conformance-report {path}: cannot write it: {e.strerror or e}"
            session.exitstatus = pytest.ExitCode.INTERNAL_ERROR
            return
        if self.complete:
            self.written = f"wrote the conformance report to {path}"
        else:
            self.written = (
                f"the run did not complete (exit status {self.exit_status}): the report {path} "
                "is marked partial (complete: false)"
            )

    def engine_line(self) -> str:
        """The engine under test in one line: name, version and command."""
        info = self.engine_info()
        name = f"{info['name']} {info.get('version', '')}".strip() if "name" in info else "?"
        return f"{name} ({info['command']})"


def unplaced_line(nodes: list[str]) -> str:
    """The summary line of the items ``Reporter.unplaced`` names."""
    return (
        f"{len(nodes)} item(s) crashed their xdist worker before reporting, so the report cannot "
        f"place them under a rule and is marked partial: {', '.join(nodes[:3])}"
        + (" ..." if len(nodes) > 3 else "")
    )


def run_complete(session: pytest.Session) -> bool:
    """Whether a run went through its whole selection: it ended as passed or failed, and was
    neither interrupted (Ctrl-C, SIGTERM, --run-timeout) nor stopped early (-x, --maxfail).

    An interrupt is also read from the run's record of them: a second one arriving while pytest
    handles the first leaves ``session.exitstatus`` as it was (OK) and would pass for complete."""
    state = session.config.stash.get(STATE_KEY, None)
    interrupted = state is not None and state.interrupts is not None and state.interrupts.count
    return (
        session.exitstatus in COMPLETED
        and not interrupted
        and not session.shouldstop
        and not session.shouldfail
    )


def selection(config: pytest.Config) -> dict[str, Any]:
    """What the run was asked to run: its paths, ``-k``, ``-m`` and ``--variant`` (each given)."""
    found: dict[str, Any] = {"paths": [str(a) for a in config.args]}
    if config.option.keyword:
        found["keyword"] = str(config.option.keyword)
    if config.option.markexpr:
        found["markers"] = str(config.option.markexpr)
    if config.getoption("variant"):
        found["variants"] = list(config.getoption("variant"))
    return found
