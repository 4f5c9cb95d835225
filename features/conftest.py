"""The conformance run: the engine under test, one test item per table case, tags as marks.

``pytest features/`` tests the reference engine; ``--engine "<command>"`` any engine speaking the
protocol. An engine that misbehaves errors its case; a wrong answer fails it.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from adapters.cases import TABLES_DIR, Case, CaseError, compare, load_table
from adapters.client import Engine, EngineError, open_engine
from features.steps.given import *  # noqa: F403  (step definitions are fixtures of this module)
from features.steps.then import *  # noqa: F403
from features.steps.when import *  # noqa: F403
from features.support import words
from features.support.outcome import ENGINE_ERROR, SEVERITY, outcome_of
from features.support.situation import RuleMismatch, Situation

VARIANTS_DIR = Path(__file__).resolve().parent.parent / "spec" / "variants"
RULE_ID = re.compile(r"[A-Z][A-Z0-9]*(-[A-Z0-9]+)+")

_ENGINE = pytest.StashKey[dict[str, Any]]()
_SEEN_IDS = pytest.StashKey[dict[str, str]]()


def known_variants() -> list[str]:
    """Variant ids, from the file names of spec/variants."""
    return sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))


# --- options and engine -------------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pinochle", "Pinochle conformance suite")
    group.addoption(
        "--engine",
        default="reference",
        help='engine under test: "reference" (in-process, default) or a shell command',
    )
    group.addoption(
        "--engine-timeout",
        type=float,
        default=5.0,
        help="seconds an engine may take to answer one call (default 5)",
    )
    group.addoption(
        "--validate-protocol",
        action="store_true",
        help="check every message against the protocol schemas",
    )
    group.addoption(
        "--variant",
        action="append",
        default=[],
        help="run only this variant's cases and scenarios (repeatable)",
    )
    group.addoption(
        "--conformance-report",
        metavar="PATH",
        default=None,
        help="write every case's outcome and the per-rule counts as JSON to PATH",
    )


def pytest_configure(config: pytest.Config) -> None:
    for line in (
        "rule(id): the rule ID a case tests (generated from tags)",
        "variant(id): the variant a case applies to (generated from tags)",
        "negative: the case shows a rule refusing or denying something",
        "option(name, value): an option the scenario sets (from @option:name=value tags)",
    ):
        config.addinivalue_line("markers", line)
    config.stash[_ENGINE] = {}
    config.stash[_SEEN_IDS] = {}
    unknown = set(config.getoption("variant") or []) - set(known_variants())
    if unknown:
        raise pytest.UsageError(
            f"--variant {', '.join(sorted(unknown))}: known variants are "
            + ", ".join(known_variants())
        )


def get_engine(config: pytest.Config) -> Engine:
    """The session's engine, started on first use (each xdist worker starts its own)."""
    slot = config.stash[_ENGINE]
    if "error" in slot:
        raise slot["error"]
    if "engine" not in slot:
        try:
            slot["engine"] = open_engine(
                None
                if config.getoption("engine") in (None, "", "reference")
                else config.getoption("engine"),
                timeout=config.getoption("engine_timeout"),
                validate=config.getoption("validate_protocol"),
            )
        except EngineError as e:
            slot["error"] = e
            raise
    engine: Engine = slot["engine"]
    return engine


def pytest_sessionfinish(session: pytest.Session) -> None:
    engine = session.config.stash.get(_ENGINE, {}).pop("engine", None)
    if engine is not None:
        engine.close()


@pytest.fixture(scope="session")
def engine(pytestconfig: pytest.Config) -> Engine:
    """The engine under test (``--engine``), shared by the whole session."""
    return get_engine(pytestconfig)


@pytest.fixture
def situation(engine: Engine) -> Situation:
    """What the scenario's Given steps set up; When steps ask the engine, Then steps check."""
    return Situation(engine=engine)


# --- scenario tables ----------------------------------------------------------------------------


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix in (".yaml", ".yml") and file_path.parent == TABLES_DIR:
        collector: TableFile = TableFile.from_parent(parent, path=file_path)
        return collector
    return None


class TableFile(pytest.File):
    """A scenario table: each case is its own test item."""

    def collect(self) -> list[CaseItem]:
        cases = load_table(self.path)
        seen = self.config.stash[_SEEN_IDS]
        items = []
        for case in cases:
            first = seen.setdefault(case.id, case.where)
            if first != case.where:
                raise CaseError(f"duplicate case id {case.id!r}: {first} and {case.where}")
            item: CaseItem = CaseItem.from_parent(self, name=case.id, case=case)
            items.append(item)
        return items

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:
        if isinstance(excinfo.value, CaseError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class CaseFailed(AssertionError):
    """The engine answered, but not what the rules require."""

    def __init__(self, mismatches: list[str]) -> None:
        super().__init__("; ".join(mismatches))
        self.mismatches = mismatches


class CaseItem(pytest.Item):
    """One table case: the engine is asked in setup (so a broken engine errors), checked in call."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.answer: dict[str, Any] | None = None
        for rule in case.rules:
            self.add_marker(pytest.mark.rule(id=rule))
        self.add_marker(pytest.mark.variant(id=case.variant))
        if case.negative:
            self.add_marker(pytest.mark.negative)

    def setup(self) -> None:
        engine = get_engine(self.config)
        case = self.case
        reason = engine.skip_reason(case.method, case.variant, case.options)
        if reason:
            pytest.skip(reason)
        self.answer = engine.call(case.method, case.request)

    def runtest(self) -> None:
        mismatches = compare(self.case.method, self.case.expect, self.answer or {})
        if mismatches:
            raise CaseFailed(mismatches)

    def describe(self, headline: str, answer: dict[str, Any] | None) -> str:
        """The case in the game's language: rules, question, expected and actual answer."""
        case = self.case
        lines = [
            f"{headline} {case.id} ({case.where})",
            f"  rules: {case.variant} ({words.options(case.options)}); tests "
            + ", ".join(case.rules)
            + (" (negative)" if case.negative else ""),
            f"  asked {case.method}:",
        ]
        lines += [f"    {k}: {words.value(k, v)}" for k, v in case.params.items()]
        lines.append("  expected:")
        lines += [f"    {k}: {words.value(k, v)}" for k, v in case.expect.items()]
        if answer is not None:
            lines.append("  engine answered:")
            lines += [f"    {k}: {words.value(k, answer[k])}" for k in case.expect if k in answer]
        if case.why:
            lines.append(f"  why: {case.why}")
        return "\n".join(lines)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseFailed):
            text = self.describe("wrong answer in", self.answer)
            return (
                text
                + "\n  mismatches:\n"
                + "\n".join(f"    - {m}" for m in excinfo.value.mismatches)
            )
        return super().repr_failure(excinfo)

    def _repr_failure_py(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> Any:
        # Setup errors do not go through repr_failure; an engine error is reported the same way.
        if isinstance(excinfo.value, EngineError):
            return self.describe("engine error in", None) + f"\n  engine error: {excinfo.value}"
        return super()._repr_failure_py(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case.line - 1, f"{self.case.method} case {self.case.id}"


# --- tags of the Gherkin features -----------------------------------------------------------------


def pytest_bdd_apply_tag(tag: str, function: Any) -> Any:
    """Rule-ID and variant tags become the same marks as the tables; @option:name=value too."""
    if RULE_ID.fullmatch(tag):
        pytest.mark.rule(id=tag)(function)
        return True
    if tag in known_variants():
        pytest.mark.variant(id=tag)(function)
        return True
    if tag.startswith("option:"):
        name, _, value = tag.removeprefix("option:").partition("=")
        pytest.mark.option(name=name, value=value)(function)
        return True
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    chosen = set(config.getoption("variant") or [])
    keep, drop = [], []
    for item in items:
        rules = tuple(
            sorted({m.kwargs["id"] for m in item.iter_markers("rule") if "id" in m.kwargs})
        )
        if rules:
            item.user_properties.append(("rules", rules))
        variants = {m.kwargs.get("id") for m in item.iter_markers("variant")}
        if chosen and variants and not variants & chosen:
            drop.append(item)
        else:
            keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# --- summary per rule ---------------------------------------------------------------------------


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Report a scenario's wrong answer as its game-language message, without pytest-bdd frames."""
    report = yield
    if call.excinfo is not None and call.excinfo.errisinstance(EngineError):
        # The engine misbehaved inside a step: an errored case, like a table case's setup error.
        title = getattr(getattr(item, "function", None), "__doc__", None) or item.nodeid
        title = title.replace(f"{item.config.rootpath}/", "")
        report.user_properties.append((ENGINE_ERROR, True))
        report.longrepr = f"engine error in {title}\n{call.excinfo.value}"
    elif call.excinfo is not None and call.excinfo.errisinstance(RuleMismatch):
        # pytest-bdd names the scenario "<feature>: <scenario>" in the test function's docstring.
        title = getattr(getattr(item, "function", None), "__doc__", None) or item.nodeid
        title = title.replace(f"{item.config.rootpath}/", "")
        report.longrepr = f"wrong answer in {title}\n{call.excinfo.value}"
    return report


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> Any:
    """Count an engine failure inside a scenario step as an error, not a wrong answer."""
    if report.failed and outcome_of(report) == "errored" and report.when == "call":
        return "error", "E", "ERROR"
    return None


# Worst outcome per test item; this hook has no config argument, and a process runs one session.
_REPORT_OUTCOMES: dict[str, tuple[str, tuple[str, ...]]] = {}
_SKIP_REASONS: dict[str, str] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    rules = next((tuple(v) for k, v in report.user_properties if k == "rules"), ())
    if not rules:
        return
    status = outcome_of(report)
    old = _REPORT_OUTCOMES.get(report.nodeid, ("passed", rules))[0]
    if SEVERITY[status] >= SEVERITY[old]:
        _REPORT_OUTCOMES[report.nodeid] = (status, rules)
    if status == "skipped" and isinstance(report.longrepr, tuple):
        _SKIP_REASONS[report.nodeid] = str(report.longrepr[2]).removeprefix("Skipped: ")


def _write_conformance_report(config: pytest.Config, per_rule: dict[str, dict[str, int]]) -> None:
    """``--conformance-report``: every case's outcome, rules and skip reason, and rule counts."""
    path = config.getoption("conformance_report")
    if not path:
        return
    statuses = ("passed", "failed", "errored", "skipped")
    cases = {}
    for node, (status, rules) in sorted(_REPORT_OUTCOMES.items()):
        cases[node] = {"outcome": status, "rules": list(rules)}
        if node in _SKIP_REASONS:
            cases[node]["skip"] = _SKIP_REASONS[node]
    report = {
        "format": 1,
        "engine": config.getoption("engine"),
        "variants": config.getoption("variant") or "all",
        "totals": {s: sum(1 for st, _ in _REPORT_OUTCOMES.values() if st == s) for s in statuses},
        "rules": {r: {s: per_rule[r][s] for s in statuses} for r in sorted(per_rule)},
        "cases": cases,
    }
    Path(path).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or not _REPORT_OUTCOMES:
        return
    per_rule: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    totals: dict[str, int] = defaultdict(int)
    for status, rules in _REPORT_OUTCOMES.values():
        totals[status] += 1
        for rule in rules:
            per_rule[rule][status] += 1
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
    _write_conformance_report(config, per_rule)
    tr.write_line(
        f"total: {sum(totals.values())} cases and scenarios, {totals['passed']} passed, "
        f"{totals['failed']} failed, {totals['errored']} errored, {totals['skipped']} skipped; "
        f"{len(per_rule)} rules exercised, {len(bad)} with a case not passing"
    )
