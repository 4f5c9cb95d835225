"""The Gherkin scenarios as data: each question a scenario's When step asks (method, params) and
the answer its Then steps' text expects, captured by running the scenarios once in a child pytest.

The expectations are the step text's, never the engine's answer: a Then step that disagrees with
the engine is recorded and the scenario goes on, so every later expectation is captured too.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pinochle_judge.cases import shown_path
from pinochle_judge.compare import field_map
from pytest_pinochle.driver import SITUATION_KEY, Situation
from pytest_pinochle.tags import rule_of, uses_of
from specdata import FEATURES_DIR
from specdata.files import write_atomic

OPTION = "--capture-scenarios"
"""The child run's option: where to write the captured records (JSON)."""
SUITE_CONFIG = FEATURES_DIR / "suite.ini"

EACH_LENGTH_STEPS = {"every_seat_dealt": ("hands[]", "size")}
"""Then steps that check a length of every item (no ``expected`` field can say it): step function
-> (path, the step argument giving the length)."""
COMPLETE_MELD_STEPS = frozenset({"meld_nothing_else"})
"""Then steps after which the melds named are the whole meld (the ``melds`` comparison)."""


def _phrase_of(step_func: Any, step_func_args: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The step function and its arguments; for a step of a phrasebook (the suite's steps:
    one pytest-bdd definition per keyword, features/steps/phrasebook.py), the phrase it spoke."""
    phrase, args = step_func_args.get("phrase"), step_func_args.get("args")
    if callable(phrase) and isinstance(args, dict):
        return phrase, args
    return step_func, step_func_args


class CaptureError(RuntimeError):
    """The scenarios could not be captured; the message says which scenario and why."""


@dataclass
class Question:
    """One question a scenario asks and what its Then steps expect of the answer."""

    method: str
    params: dict[str, Any]
    expect: dict[str, Any] = field(default_factory=dict)
    checks: list[dict[str, Any]] = field(default_factory=list)
    melds_complete: bool = False
    disagreements: list[str] = field(default_factory=list)


@dataclass
class ItemCapture:
    """What one scenario item asked and expected, question by question."""

    questions: list[Question] = field(default_factory=list)
    step: Any = None
    recorded: int = 0
    """Calls that recorded an expectation during the current step."""
    problems: list[str] = field(default_factory=list)


class Capture:
    """The child run's plugin: wraps the driver's recording methods and writes the records."""

    def __init__(self, output: Path) -> None:
        self.output = output
        self.items: dict[str, ItemCapture] = {}
        self.current: ItemCapture | None = None
        self.records: list[dict[str, Any]] = []
        self.silent: list[str] = []
        self.problems: list[str] = []
        self.failed: dict[str, str] = {}

    # --- the driver, wrapped -------------------------------------------------------------------

    def install(self) -> None:
        """Wrap the Situation's question and expectation methods (in this child process only)."""
        capture = self

        def wrap(name: str, after: Callable[..., None]) -> None:
            original = getattr(Situation, name)

            def wrapped(situation: Situation, *args: Any, **kwargs: Any) -> Any:
                __tracebackhide__ = True
                result = original(situation, *args, **kwargs)
                after(situation, *args, **kwargs)
                return result

            setattr(Situation, name, wrapped)

        def asked(situation: Situation, *_: Any, **__: Any) -> None:
            if capture.current is not None and situation.method is not None:
                question = Question(situation.method, copy.deepcopy(situation.params))
                capture.current.questions.append(question)

        def recorded(situation: Situation, *_: Any, **__: Any) -> None:
            if capture.current is not None:
                capture.current.recorded += 1

        def at_path(situation: Situation, path: str, expected: Any, *_: Any, **__: Any) -> None:
            if capture.current is not None:
                capture.current.recorded += 1
                capture.at_path(path, expected)

        wrap("ask", asked)
        wrap("mismatches", recorded)
        wrap("expect_meld", recorded)
        wrap("expect_at", at_path)

        def disagreeing(name: str) -> None:
            # The engine's disagreement does not end the scenario: later Then steps still state
            # what they expect, and that (not the answer) is what is exported.
            original = getattr(Situation, name)

            def check(situation: Situation, *args: Any) -> None:
                try:
                    original(situation, *args)
                except AssertionError as e:
                    if capture.current is not None and capture.current.questions:
                        capture.current.questions[-1].disagreements.append(str(e).split("\n")[0])
                    else:
                        raise

            setattr(Situation, name, check)  # a method replaced on the class

        disagreeing("check")
        disagreeing("check_all")

    def question(self) -> Question:
        if self.current is None or not self.current.questions:
            raise CaptureError("a Then step expects something before any question was asked")
        return self.current.questions[-1]

    def at_path(self, path: str, expected: Any) -> None:
        """``expect_at``: one value at a path with one ``[]``, placed by the step's ``seat``."""
        assert self.current is not None
        args = self.current.step[1] if self.current.step else {}
        seat = args.get("seat")
        if path.count("[]") != 1 or seat is None:
            self.current.problems.append(
                f"cannot place the expectation at {path!r} of step {self._step_name()!r}"
            )
            return
        question = self.question()
        kind = field_map(question.method).get(path, "exact")
        at = path.replace("[]", f"[{int(seat)}]")
        question.checks.append({"at": at, "kind": kind, "value": copy.deepcopy(expected)})

    def _step_name(self) -> str:
        step = self.current.step if self.current else None
        return str(step[0].name) if step else "?"

    # --- pytest-bdd hooks -----------------------------------------------------------------------

    def pytest_bdd_before_scenario(self, request: pytest.FixtureRequest) -> None:
        self.current = self.items.setdefault(request.node.nodeid, ItemCapture())

    def pytest_bdd_before_step_call(self, step: Any, step_func_args: dict[str, Any]) -> None:
        if self.current is not None:
            self.current.step = (step, _phrase_of(None, step_func_args)[1])
            self.current.recorded = 0

    def pytest_bdd_after_step(
        self,
        request: pytest.FixtureRequest,
        step: Any,
        step_func: Callable[..., Any],
        step_func_args: dict[str, Any],
    ) -> None:
        current = self.current
        if current is None or step.type != "then":
            return
        situation = request.node.stash.get(SITUATION_KEY, None)
        if isinstance(situation, Situation) and current.questions:
            # Every field the Then steps of this question expect so far (``ask`` starts afresh).
            current.questions[-1].expect = copy.deepcopy(situation.expected)
        step_func, step_func_args = _phrase_of(step_func, step_func_args)
        name = step_func.__name__
        if name in EACH_LENGTH_STEPS:
            path, arg = EACH_LENGTH_STEPS[name]
            value = int(step_func_args[arg])
            self.question().checks.append({"at": path, "kind": "length", "value": value})
        elif name in COMPLETE_MELD_STEPS:
            self.question().melds_complete = True
        elif current.recorded == 0:
            # A Then step whose expectation the export cannot carry would be lost silently.
            current.problems.append(
                f"the Then step {step.name!r} ({name}) records no expectation the export can "
                "carry: record it through Situation.expect/expect_at/expect_meld, or teach "
                "pinochle_tools.scenario_capture its meaning"
            )

    def pytest_bdd_after_scenario(
        self, request: pytest.FixtureRequest, feature: Any, scenario: Any
    ) -> None:
        item = request.node
        captured = self.items.get(item.nodeid, ItemCapture())
        self.current = None
        if captured.problems:
            self.problems.extend(f"{item.nodeid}: {p}" for p in captured.problems)
        self._finish(item, feature, scenario, captured)

    def _finish(
        self, item: pytest.Item, feature: Any, scenario: Any, captured: ItemCapture
    ) -> None:
        if not captured.questions:
            self.silent.append(item.nodeid)
            return
        rule = rule_of(item)
        uses = list(uses_of(item, rule))
        several = len(captured.questions) > 1
        for number, question in enumerate(captured.questions, start=1):
            expect = question.expect
            checks = list(question.checks)
            if "melds" in expect and not question.melds_complete:
                # "the meld includes" without "the meld has nothing else": other melds may be
                # reported, so the named ones are a check, not the (complete) melds comparison.
                checks.append({"at": "melds", "kind": "melds-include", "value": expect["melds"]})
                expect = {k: v for k, v in expect.items() if k != "melds"}
            self.records.append(
                {
                    "id": f"{item.nodeid}#{number}" if several else item.nodeid,
                    "kind": "scenario",
                    "node": item.nodeid,
                    "question": number,
                    "file": shown_path(Path(feature.filename)),
                    "line": int(scenario.line_number),
                    "area": Path(feature.filename).stem,
                    "scenario": str(scenario.name),
                    "rule": rule,
                    "uses": uses,
                    "rules": [rule, *uses],
                    "negative": any(True for _ in item.iter_markers("negative")),
                    # What the question sent (the Given steps), not what the tags announce.
                    "variant": question.params["variant"],
                    "options": dict(question.params["options"]),
                    "method": question.method,
                    "params": question.params,
                    "expect": expect,
                    "checks": checks,
                    "why": str(getattr(scenario, "description", "") or "").strip(),
                    "_disagreements": question.disagreements,
                }
            )

    # --- the run --------------------------------------------------------------------------------

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed and report.nodeid not in self.failed:
            # A scenario that could not run to its end (an engine error, a step error) is not
            # exported in part: its questions are dropped and the failure reported.
            self.failed[report.nodeid] = report.longreprtext.strip()[-2000:]
            self.records = [r for r in self.records if r["node"] != report.nodeid]

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        document = {
            "records": self.records,
            "silent": self.silent,
            "problems": self.problems,
            "failed": self.failed,
        }
        write_atomic(self.output, json.dumps(document))


@dataclass(frozen=True)
class Captured:
    """The scenarios' questions as export records, and where the engine disagreed with them."""

    records: list[dict[str, Any]]
    silent: list[str]
    """Scenario items that asked the engine nothing (nothing to export)."""
    disagreements: dict[str, list[str]]
    """Record ID -> the Then steps whose expectation the engine's answer did not meet."""
    failed: dict[str, str] = field(default_factory=dict)
    """Scenario items that could not run to their end (node ID -> why); none exported."""


def scenario_tests(features: Path = FEATURES_DIR) -> list[Path]:
    """The suite's scenario modules (``test_<area>.py``, one per feature file)."""
    return sorted(features.glob("test_*.py"))


def capture_scenarios(
    engine: str | None = None,
    tests: Sequence[Path | str] | None = None,
    timeout: float = 600.0,
    tolerate_failures: bool = False,
) -> Captured:
    """Run every scenario once in a child pytest (against ``engine``, default the reference) and
    capture its questions and the step text's expectations. Raises CaptureError naming the
    scenario when one cannot be captured (a step error, an expectation the export cannot carry).

    ``tests``: the scenario modules (or node IDs as paths) to run (default: the suite's). The
    child runs in the current directory, where a relative ``engine`` command is meant.
    ``tolerate_failures``: a scenario the engine cannot answer is left out (listed in
    ``failed``) instead of an error.
    """
    with tempfile.TemporaryDirectory(prefix="pinochle-export-") as work:
        output = Path(work) / "scenarios.json"
        command = [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            str(SUITE_CONFIG),
            "--rootdir",
            str(FEATURES_DIR.parent),
            "-p",
            __name__,
            "-p",
            "no:cacheprovider",
            OPTION,
            str(output),
            "-q",
            "--no-header",
            "-o",
            "addopts=",
            *(["--engine", engine] if engine is not None else []),
            *map(str, scenario_tests() if tests is None else tests),
        ]
        env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
        run = subprocess.run(
            command,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if not output.exists():
            tail = (run.stdout + run.stderr).strip()[-3000:]
            raise CaptureError(f"the scenarios could not be run (exit {run.returncode}):\n{tail}")
        document = json.loads(output.read_text(encoding="utf-8"))
    problems: list[str] = document["problems"]
    failed: dict[str, str] = document["failed"]
    if problems or (failed and not tolerate_failures):
        shown = [*problems, *(f"{node}: {text}" for node, text in failed.items())]
        more = len(shown) - 5
        raise CaptureError(
            "some scenarios could not be captured:\n"
            + "\n".join(shown[:5])
            + (f"\n... and {more} more" * (more > 0))
        )
    records = document["records"]
    disagreements = {r["id"]: r.pop("_disagreements") for r in records}
    found = {k: v for k, v in disagreements.items() if v}
    return Captured(records, document["silent"], found, failed)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(OPTION, default=None, help="(internal) write the scenarios' questions here")


def pytest_configure(config: pytest.Config) -> None:
    output = config.getoption(OPTION)
    if output:
        capture = Capture(Path(output))
        capture.install()
        config.pluginmanager.register(capture, "pinochle-scenario-capture")
