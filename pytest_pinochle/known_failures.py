"""Known failures (``--known-failures FILE``): listed cases run as strict expected failures, so an
engine's CI can be green while it fixes them; ``--write-known-failures FILE`` writes the list.

A case entry is strict per case: a listed case that passes fails the run ("fixed: remove it from
FILE"). A rule entry covers the cases testing or using the rule that fail (each an expected
failure); those that pass simply pass. It is strict as a whole: when none of its cases that ran
fails, the run fails with one "fixed: remove it" line. An ID the suite does not have is a usage
error naming the file and line. A known failure still counts as failed in the per-rule view and
the diagnosis (marked known); a listed case that passes counts as passed.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from pinochle_judge import wording
from pinochle_judge.cases import load_cases
from specdata import DataFileError, load_yaml_node, rule_ids, variant_ids
from specdata.files import output_problem, write_atomic

from .report import run_complete
from .tables import CaseItem
from .tags import FIXED_ATTR, KNOWN_ENTRY_ATTR, is_suite_item, rule_of, uses_of, variant_of

SCHEMA = "known-failures.schema.json"
FORMAT = 1
REASON_LIMIT = 200
"""Longest reason ``--write-known-failures`` copies from a failure's first line (characters)."""
HEADER = """\
# Known failures of an engine: pytest --known-failures FILE runs each listed case as a strict
# expected failure (a listed case that passes fails the run: remove it from this file).
# An entry names a case (a table case ID, or a scenario's node ID) or a rule (every case testing
# or using it), optionally a variant, with a reason and an optional link.
# Schema: spec/schema/known-failures.schema.json.
"""


@dataclass(frozen=True)
class Entry:
    """One listed known failure, with the line of the file it is on."""

    line: int
    reason: str
    case: str | None = None
    """A table case's ID, or a scenario's node ID (it holds ``::``)."""
    rule: str | None = None
    variant: str | None = None
    link: str | None = None

    @property
    def what(self) -> str:
        """The entry in words: ``case dd-pts-last-trick`` or ``rule PLAY-CRAWL in online``."""
        name = f"case {self.case}" if self.case is not None else f"rule {self.rule}"
        return name + (f" in {self.variant}" if self.variant else "")

    def as_dict(self) -> dict[str, str]:
        """The entry as the report and ``--write-known-failures`` carry it."""
        out: dict[str, str] = {}
        if self.case is not None:
            out["case"] = self.case
        if self.rule is not None:
            out["rule"] = self.rule
        if self.variant is not None:
            out["variant"] = self.variant
        out["reason"] = self.reason
        if self.link is not None:
            out["link"] = self.link
        return out


def load(path: Path) -> list[Entry]:
    """The entries of a known-failures file; DataFileError naming file and line when it is not
    valid YAML, fails the schema, or names a rule ID or variant the spec does not have."""
    data, node = load_yaml_node(path, SCHEMA)
    items = _child(node, "known_failures")
    entries = []
    known_variants = set(variant_ids())
    for i, raw in enumerate(data["known_failures"]):
        at = items.value[i] if isinstance(items, yaml.SequenceNode) else None
        line = int(at.start_mark.line) + 1 if at is not None else 0
        entry = Entry(
            line,
            str(raw["reason"]),
            raw.get("case"),
            raw.get("rule"),
            raw.get("variant"),
            raw.get("link"),
        )
        if entry.rule is not None and entry.rule not in rule_ids():
            raise DataFileError(f"{path}:{line}: no rule has the ID {entry.rule!r}")
        if entry.variant is not None and entry.variant not in known_variants:
            raise DataFileError(
                f"{path}:{line}: unknown variant {entry.variant!r}; known variants are "
                + ", ".join(sorted(known_variants))
            )
        entries.append(entry)
    return entries


def _child(node: yaml.Node | None, key: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if k.value == key:
                found: yaml.Node = v
                return found
    return None


def case_key(item: pytest.Item) -> str:
    """How a known-failures file names an item: a table case's ID, else its node ID."""
    return item.case.id if isinstance(item, CaseItem) else item.nodeid


def _node_matches(entry: str, nodeid: str) -> bool:
    # A node ID may be written from the repository's root or from the features folder.
    return nodeid == entry or nodeid.endswith(f"/{entry}")


@dataclass
class _Tally:
    """What happened to the cases one entry covers."""

    ran: int = 0
    failing: int = 0


@dataclass
class _State:
    path: Path | None
    entries: list[Entry]
    write_to: Path | None
    collected: dict[str, str | None] = field(default_factory=dict)
    """Node ID -> case key of every suite item collected (before any deselection)."""
    tallies: dict[int, _Tally] = field(default_factory=dict)
    """Entry line -> what its cases did (the controller's view, across xdist workers)."""
    failures: dict[str, dict[str, str]] = field(default_factory=dict)
    """Node ID -> the entry ``--write-known-failures`` writes for it."""
    fixed: list[Entry] = field(default_factory=list)
    written: str | None = None
    """What became of ``--write-known-failures``, in one line for the summary."""

    def shown(self, entry: Entry) -> str:
        return f"{self.path}:{entry.line}"


_STATE = pytest.StashKey[_State]()
_ENTRY = pytest.StashKey[Entry]()
_KNOWN_ATTR = "pinochle_known_failure"
"""Report attribute (it crosses xdist): the line of the entry that lists the item."""
_CASE_ATTR = "pinochle_failure_entry"
"""Report attribute: the entry ``--write-known-failures`` would write for a failing item."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pinochle", "Pinochle conformance suite")
    group.addoption(
        "--known-failures",
        metavar="FILE",
        default=None,
        help="YAML list of cases and rules the engine is known to fail: they run as strict "
        "expected failures (spec/schema/known-failures.schema.json)",
    )
    group.addoption(
        "--write-known-failures",
        metavar="FILE",
        default=None,
        help="write the run's failing cases to FILE in the --known-failures format, with the "
        "--known-failures entries that did not run or still fail (FILE may be that same file); "
        "written only when the run completes",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Read the file (a usage error naming file and line when it is wrong) and register the
    run's hooks, so two runs in one process never share a list."""
    path = config.getoption("known_failures", None)
    write_to = config.getoption("write_known_failures", None)
    if not path and not write_to:
        return
    problem = write_to and output_problem(write_to, "--write-known-failures")
    if problem:
        raise pytest.UsageError(problem)
    entries: list[Entry] = []
    if path:
        try:
            entries = load(Path(path))
        except DataFileError as e:
            raise pytest.UsageError(f"--known-failures: {e}") from None
    state = _State(Path(path) if path else None, entries, Path(write_to) if write_to else None)
    config.stash[_STATE] = state
    config.pluginmanager.register(KnownFailures(config, state), "pinochle-known-failures")


def _unknown(state: _State) -> list[str]:
    """Entries naming a case the suite does not have, as ``FILE:LINE: ...`` lines."""
    keys = set(state.collected.values())
    files = {node.split("::", 1)[0] for node in state.collected}
    table_ids: set[str] | None = None
    out = []
    for entry in state.entries:
        name = entry.case
        if name is None or name in keys:
            continue
        if "::" in name:
            if any(_node_matches(name, node) for node in state.collected):
                continue
            file = name.split("::", 1)[0]
            if not any(f == file or f.endswith(f"/{file}") for f in files):
                continue  # its file was not collected in this run: nothing to check it against
            out.append(f"{state.shown(entry)}: no scenario has the node ID {name!r}")
            continue
        if table_ids is None:
            # Cases of tables this run did not collect (a subset of the suite) still exist.
            table_ids = {c.id for c in load_cases()}
        if name not in table_ids:
            out.append(f"{state.shown(entry)}: no case has the ID {name!r}")
    return out


def _entry_for(state: _State, item: pytest.Item) -> Entry | None:
    """The entry listing ``item``: a case entry first, else a rule entry (tested or used)."""
    variant = variant_of(item)
    key = case_key(item)
    rule_entry = None
    rules: tuple[str | None, ...] | None = None
    for entry in state.entries:
        if entry.variant is not None and entry.variant != variant:
            continue
        if entry.case is not None:
            if entry.case == key or _node_matches(entry.case, item.nodeid):
                return entry
        elif rule_entry is None:
            if rules is None:  # read once per item, not once per entry
                rule = rule_of(item)
                rules = (rule, *uses_of(item, rule))
            if entry.rule in rules:
                rule_entry = entry
    return rule_entry


def _first_line(report: pytest.TestReport) -> str:
    """A failure in one line (``wording.one_line``): where the charge places it and its detail
    (``points: expected 5, engine 3``), else the first mismatch or fault the failure text
    gives."""
    detail = None
    for key, raw in report.user_properties:
        value = json.loads(raw) if key == "charge" and isinstance(raw, str) else raw
        if key == "charge" and isinstance(value, dict) and value.get("detail"):
            at = value.get("at")
            detail = f"{at}: {value['detail']}" if at else str(value["detail"])
            break
    line = wording.one_line(str(report.longrepr or ""), detail)
    return (line or report.outcome)[:REASON_LIMIT]


def _reason(state: _State, entry: Entry) -> str:
    return wording.known_failure(state.shown(entry), entry.reason)


def fixed_entries(state: _State) -> list[Entry]:
    """Rule entries whose cases all passed (at least one ran); case entries fail on their own."""
    out = []
    for entry in state.entries:
        tally = state.tallies.get(entry.line)
        if entry.rule is not None and tally is not None and tally.ran and not tally.failing:
            out.append(entry)
    return out


def kept_entries(state: _State) -> list[dict[str, str]]:
    """What ``--write-known-failures`` writes after a completed run: the failures seen (each
    under the entry that listed it, else as a new case entry) and the listed entries none of
    whose cases ran (deselected, another variant), so that an update in place loses nothing."""
    unrun = [e.as_dict() for e in state.entries if not _ran(state, e)]
    every = [*unrun, *state.failures.values()]
    return list({(e.get("case"), e.get("rule"), e.get("variant")): e for e in every}.values())


def _ran(state: _State, entry: Entry) -> bool:
    tally = state.tallies.get(entry.line)
    return tally is not None and tally.ran > 0


def write_file(path: Path, entries: Iterable[Mapping[str, str]]) -> None:
    """Write entries in the ``--known-failures`` format, one per case, sorted, whole or not at
    all (``write_atomic``)."""
    unique = {(e.get("case"), e.get("rule"), e.get("variant")): e for e in entries}
    listed = sorted(unique.values(), key=lambda e: (str(e.get("case")), str(e.get("rule"))))
    body = yaml.safe_dump(
        {"format": FORMAT, "known_failures": listed},
        sort_keys=False,
        allow_unicode=True,
        width=100,
    )
    write_atomic(path, HEADER + body)


class KnownFailures:
    """The hooks of one run with ``--known-failures`` or ``--write-known-failures``."""

    def __init__(self, config: pytest.Config, state: _State) -> None:
        self.config = config
        self.state = state

    def pytest_itemcollected(self, item: pytest.Item) -> None:
        if self.state.entries and is_suite_item(item):
            self.state.collected[item.nodeid] = case_key(item)

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        """Refuse entries naming nothing; mark each listed item as an expected failure."""
        state = self.state
        if not state.entries:
            return
        unknown = _unknown(state)
        if unknown:
            raise pytest.UsageError("--known-failures:\n" + "\n".join(unknown))
        for item in items:
            if not is_suite_item(item):
                continue
            entry = _entry_for(state, item)
            if entry is None:
                continue
            if entry.case is not None:
                # A case entry is strict: the case passing means the engine was fixed.
                item.add_marker(pytest.mark.xfail(reason=_reason(state, entry), strict=True))
            # A rule entry marks nothing: its failing cases are made expected failures once
            # they fail (``pytest_runtest_makereport``), its passing cases just pass.
            item.stash[_ENTRY] = entry

    @pytest.hookimpl(wrapper=True, tryfirst=True)  # outermost: sees xfail's verdict
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if not is_suite_item(item):
            return report
        state = self.state
        entry = item.stash.get(_ENTRY, None)
        if entry is not None and entry.rule is not None and report.when == "call" and report.failed:
            report.outcome = "skipped"
            report.wasxfail = _reason(state, entry)
        if entry is not None and (report.when == "call" or not report.passed):
            setattr(report, _KNOWN_ATTR, entry.line)
            if report.failed and str(report.longrepr).startswith("[XPASS(strict)]"):
                setattr(report, FIXED_ATTR, True)
                report.longrepr = wording.fixed_case(state.shown(entry), entry.what, entry.reason)
            if report.skipped and hasattr(report, "wasxfail"):
                known = {"reason": entry.reason}
                if entry.link is not None:
                    known["link"] = entry.link
                setattr(report, KNOWN_ENTRY_ATTR, known)
        failing = report.failed or (report.skipped and hasattr(report, "wasxfail"))
        if failing and state.write_to is not None:
            if entry is not None:
                written = entry.as_dict()  # still failing: keep the entry, its reason and link
            else:
                written = {"case": case_key(item)}
                variant = variant_of(item)
                if variant is not None:
                    written["variant"] = variant
                written["reason"] = _first_line(report)
            setattr(report, _CASE_ATTR, written)
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Tally each entry's cases and keep each failure to write (under xdist the controller
        receives every worker's reports, with their attributes)."""
        state = self.state
        line = getattr(report, _KNOWN_ATTR, None)
        if isinstance(line, int) and report.when == "call":
            tally = state.tallies.setdefault(line, _Tally())
            tally.ran += 1
            tally.failing += int(report.skipped and hasattr(report, "wasxfail"))
        written = getattr(report, _CASE_ATTR, None)
        if isinstance(written, dict):
            state.failures.setdefault(report.nodeid, written)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if hasattr(self.config, "workerinput"):
            return  # an xdist worker: the controller sees every report and decides
        state = self.state
        state.fixed = fixed_entries(state)
        if state.fixed and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        if state.write_to is None:
            return
        if not run_complete(session):
            # A run cut short (Ctrl-C, an engine that cannot start) saw only some failures.
            state.written = (
                f"did not write {state.write_to}: the run did not complete (exit status "
                f"{int(session.exitstatus)}); the file is as it was"
            )
            return
        kept = kept_entries(state)
        try:
            write_file(state.write_to, kept)
        except OSError as e:
            state.written = f"--write-known-failures {state.write_to}: cannot write it: {e}"
            session.exitstatus = pytest.ExitCode.INTERNAL_ERROR
            return
        state.written = f"wrote {len(kept)} known failures to {state.write_to}"

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if hasattr(self.config, "workerinput"):
            return
        state = self.state
        if state.entries:
            expected = sum(t.failing for t in state.tallies.values())
            terminalreporter.write_line(wording.known_failed(expected, state.path))
        for entry in state.fixed:
            ran = state.tallies[entry.line].ran
            terminalreporter.write_line(
                wording.fixed_rule(state.shown(entry), entry.what, ran), red=True
            )
        if state.written is not None:
            terminalreporter.write_line(state.written, red=not state.written.startswith("wrote"))
