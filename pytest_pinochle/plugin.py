"""The plugin's entry point (``pytest11``): options, the engine fixture, table collection, marks
and the reporter. Inert in pytest runs that are not the suite: it only acts on the suite's items."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Generator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import specdata
from pinochle_adapters.client import EngineError, UnsupportedReply
from pinochle_adapters.processes import Interrupts
from pinochle_judge.cases import TABLES_DIR
from pinochle_judge.engines import REFERENCE_SHOWN, ModelledEngine
from specdata import FEATURES_DIR
from specdata.files import output_problem
from specdata.rules import load_catalogue

from . import tags
from .driver import SITUATION_KEY, RuleMismatch, Situation
from .report import Reporter, run_complete
from .session import end_run, start_run, state_of
from .tables import CaseItem, TableFile

__all__ = ["engine", "situation"]
"""The plugin's public surface: its command-line options (``pytest_addoption``, ``pytest
--help``) and the ``engine`` and ``situation`` fixtures; the hooks are pytest's to call."""

pytest_plugins = ("pytest_pinochle.known_failures",)
"""Parts that are plugins of their own, registered with this one."""


SECONDS_OPTIONS = ("--engine-timeout", "--startup-timeout", "--run-timeout")
"""The options giving seconds (``seconds``)."""


def seconds(option: str) -> Callable[[str], float]:
    """The ``type=`` of an option giving seconds: a finite number above zero. A bad value is a
    usage error of one line naming the option and the value (argparse's own error would reach
    the user as pytest's usage text, several lines)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value > 0):
            raise pytest.UsageError(f"{option} {text}: give a number of seconds above 0")
        return value

    return parse


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pinochle", "Pinochle conformance suite")
    group.addoption(
        "--pinochle",
        action="store_true",
        help="run the packaged conformance suite (no test paths needed, any directory)",
    )
    group.addoption(
        "--engine",
        default=None,
        metavar="COMMAND",
        help="engine under test: a shell command speaking the protocol "
        "(default: the reference engine, in-process)",
    )
    group.addoption(
        "--engine-server",
        default=None,
        metavar="MODULE:FACTORY",
        help="engine under test served in this process, no subprocess: FACTORY() in MODULE "
        "returns a server with handle_line (pinochle_adapters.sdk.Server(engine)); its answers "
        "are checked as a subprocess's",
    )
    group.addoption(
        "--engine-timeout",
        type=seconds("--engine-timeout"),
        default=5.0,
        metavar="SECONDS",
        help="seconds an engine may take to answer one call (default 5)",
    )
    group.addoption(
        "--startup-timeout",
        type=seconds("--startup-timeout"),
        default=None,
        metavar="SECONDS",
        help="seconds an engine may take to start and answer initialize, at first and after "
        "every restart (default: 30, or --engine-timeout if longer)",
    )
    group.addoption(
        "--run-timeout",
        type=seconds("--run-timeout"),
        default=None,
        metavar="SECONDS",
        help="seconds the whole run may take: once spent, the engine's calls error at once and "
        "the run stops as interrupted (its report marked complete: false); default no limit",
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
        "--log-traffic",
        metavar="FILE",
        default=None,
        help="write every request and reply line to FILE ('> ' request, '< ' reply; "
        "FILE.<worker> under xdist), once the run completes (a run cut short leaves FILE as it "
        "was and its lines in FILE.partial)",
    )
    group.addoption(
        "--no-derived",
        dest="derived",
        action="store_false",
        help="skip, rather than judge against the reference engine's answer (labelled derived "
        "and counted apart), the cases whose hand-worked answer the engine's declared house "
        "rules change",
    )
    group.addoption(
        "--conformance-report",
        metavar="PATH",
        default=None,
        help="write every case's outcome and the per-rule counts as JSON to PATH (a run cut "
        "short writes it marked complete: false); written whole, so a link at PATH is replaced "
        "by the file, never written through",
    )


def engine_command(value: str | None) -> str | None:
    """The ``--engine`` command, or None for the reference engine; a usage error when empty."""
    if value is None or value.strip() == "reference":
        return None
    if not value.strip():
        # An unset variable in CI (--engine "$ENGINE") must not quietly test the reference engine.
        raise pytest.UsageError(
            "--engine is empty: give the command that starts the engine under test, "
            "or leave --engine out to test the reference engine"
        )
    return value


def pytest_configure(config: pytest.Config) -> None:
    for line in (*tags.MARKERS, *tags.example_marker_lines(load_catalogue())):
        config.addinivalue_line("markers", line)
    tags.check_variant_option(config.getoption("variant") or [])
    for option in ("conformance_report", "log_traffic"):
        # Checked before the first case: a missing folder must not cost the whole run.
        path = config.getoption(option)
        problem = path and output_problem(path, "--" + option.replace("_", "-"))
        if problem:
            raise pytest.UsageError(problem)
    try:
        # A broken variant file is the suite's fault, never the engine's: one line, usage exit.
        specdata.check_variants()
    except specdata.DataFileError as err:
        raise pytest.UsageError(str(err)) from None
    start_run(
        config,
        engine_command(config.getoption("engine")),
        timeout=config.getoption("engine_timeout"),
        validate=config.getoption("validate_protocol"),
        traffic_path=config.getoption("log_traffic"),
    )
    server = config.getoption("engine_server")
    if server is not None and config.getoption("engine") is not None:
        raise pytest.UsageError("give --engine or --engine-server, not both")
    state_of(config).server = server
    state_of(config).derived = config.getoption("derived")
    state_of(config).startup_timeout = config.getoption("startup_timeout")
    budget = config.getoption("run_timeout")
    if budget is not None:
        state_of(config).budget = budget
        state_of(config).deadline = time.monotonic() + budget
        # Registered only then: a run without a budget has no check to make before each item.
        config.pluginmanager.register(RunBudget(config), "pinochle-run-budget")
    config.pluginmanager.register(Reporter(config), "pinochle-reporter")
    if any(config.getoption(name) not in (None, False) for name in PINOCHLE_RUN_OPTIONS):
        catch_interrupts(config)


class RunBudget:
    """``--run-timeout``: once the run's budget is spent, the run stops after the current item."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> None:
        state = state_of(self.config)
        if state.deadline is not None and time.monotonic() >= state.deadline:
            budget = f"{state.budget:g}"
            item.session.shouldstop = f"--run-timeout: the run's budget of {budget} s is spent"


PINOCHLE_RUN_OPTIONS = ("pinochle", "engine", "engine_server", "conformance_report", "log_traffic")
"""Options that make a pytest session a run of the suite from its start (otherwise it is one
once the suite's items are collected)."""


def catch_interrupts(config: pytest.Config) -> None:
    """For a run of the suite: SIGTERM (a CI timeout) ends it as Ctrl-C does, engines stopped and
    files left whole, and every interrupt is recorded (``run_complete``); undone at the end.
    A pytest session that is not a run of the suite keeps its signal handlers."""
    state = state_of(config)
    if state.interrupts is None:
        state.interrupts = Interrupts().install()
        config.add_cleanup(state.interrupts.restore)


TRAFFIC_OUTPUT = "pinochle_traffic"
"""Key of an xdist worker's output: the traffic log it left, if its share of the run completed."""
ENGINE_OUTPUT = "pinochle_engine"
"""Key of an xdist worker's output: the engine's name and version (the controller starts none)."""


def pytest_sessionfinish(session: pytest.Session) -> None:
    complete = run_complete(session)
    end_run(session.config, complete=complete)
    output = getattr(session.config, "workeroutput", None)  # an xdist worker's, to its controller
    kept = state_of(session.config).traffic_kept
    if output is not None and kept is not None and kept[1]:
        output[TRAFFIC_OUTPUT] = str(kept[0])
    named = state_of(session.config).engine_name
    if output is not None and named:
        output[ENGINE_OUTPUT] = named


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook, on the controller
def pytest_testnodedown(node: Any, error: object) -> None:
    """Note the traffic log of a worker that completed its share (see ``RunState.close``), and
    the engine's name and version for the report."""
    output = getattr(node, "workeroutput", {})
    state = state_of(node.config)
    kept = output.get(TRAFFIC_OUTPUT)
    if error is None and isinstance(kept, str):
        state.worker_traffic.append(Path(kept))
    named = output.get(ENGINE_OUTPUT)
    if state.engine_name is None and isinstance(named, dict):
        state.engine_name = named


def pytest_unconfigure(config: pytest.Config) -> None:
    end_run(config)


@pytest.fixture(scope="session")
def engine(pytestconfig: pytest.Config) -> ModelledEngine:
    """The engine under test (``--engine``), shared by the whole session."""
    return state_of(pytestconfig).engine()


@pytest.fixture
def situation(engine: ModelledEngine, request: pytest.FixtureRequest) -> Situation:
    """What the scenario's Given steps set up; When steps ask the engine, Then steps check.

    Kept on the item too, so that a failure can be placed by the diagnosis."""
    found = Situation(engine=engine, variant=tags.variant_of(request.node))
    request.node.stash[SITUATION_KEY] = found
    return found


@cache
def _tables_dir() -> Path:
    return TABLES_DIR.resolve()


@cache
def _features_dir() -> Path:
    return FEATURES_DIR.resolve()


def suite_nodeid(path: Path) -> str | None:
    """``features/...`` for a file of the suite, wherever it is installed and whatever the
    rootdir: test IDs read as in the repository. None for any other file."""
    try:
        inside = path.resolve().relative_to(_features_dir())
    except ValueError:
        return None
    return "features/" + inside.as_posix()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Each scenario table of the suite is a file of test items; no other YAML is touched."""
    if file_path.suffix in (".yaml", ".yml") and file_path.parent.resolve() == _tables_dir():
        collector: TableFile = TableFile.from_parent(
            parent, path=file_path, nodeid=suite_nodeid(file_path)
        )
        return collector
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(
    module_path: Path, parent: pytest.Collector
) -> pytest.Module | None:
    """The suite's binding modules keep their repository IDs (``features/test_meld.py::...``)."""
    nodeid = suite_nodeid(module_path)
    if nodeid is None:
        return None
    module: pytest.Module = pytest.Module.from_parent(parent, path=module_path, nodeid=nodeid)
    return module


def pytest_load_initial_conftests(
    early_config: pytest.Config, parser: pytest.Parser, args: list[str]
) -> None:
    """``pytest --pinochle`` from any directory: the packaged suite joins the test paths."""
    if getattr(early_config.known_args_namespace, "pinochle", False):
        args.append(str(FEATURES_DIR))


@pytest.hookimpl(tryfirst=True)  # before pytest-bdd's default, which makes a mark of any tag
def pytest_bdd_apply_tag(tag: str, function: Callable[..., Any]) -> bool | None:
    """Rule-ID, variant and ``@option:name=value`` tags become marks (see ``tags``)."""
    return tags.apply_tag(tag, function)


@pytest.hookimpl(tryfirst=True)  # before -m, so marks from Examples blocks are selectable
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    errors = state_of(config).data_errors
    if errors:
        # Broken suite data: one line per table, pytest's usage exit status, no case run.
        raise pytest.UsageError("\n".join(errors))
    tags.select(config, items)


@pytest.hookimpl(tryfirst=True)  # before the terminal asks for the header lines below
def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the engine once the suite's items are known: an engine that cannot start ends the
    run with one error quoting its stderr, instead of one error per case."""
    if session.config.option.collectonly or not any(map(tags.is_suite_item, session.items)):
        return
    catch_interrupts(session.config)
    try:
        state_of(session.config).engine()
    except EngineError as e:
        report = session.config.getoption("conformance_report")
        earlier = ""
        if report and os.path.lexists(report):
            # Nothing is judged, so nothing is written: what is there is not this run's.
            earlier = (
                f"\n--conformance-report {report}: not written; the file there is an earlier run's"
            )
        raise pytest.UsageError(f"the engine under test cannot start:\n{e}{earlier}") from None


def pytest_report_collectionfinish(config: pytest.Config, items: list[pytest.Item]) -> list[str]:
    """The header names the engine under test: its initialize name and version, and the command.
    With ``--engine`` but no case of the suite collected, it says how to run the packaged suite."""
    if not any(map(tags.is_suite_item, items)):
        if config.getoption("engine") is None or config.getoption("pinochle"):
            return []
        return [
            "--engine was given, but no case of the Pinochle suite was collected here: run the "
            "packaged suite with `pytest --pinochle --engine ...` or `pinochle test --engine ...`"
        ]
    state = state_of(config)
    info = state.engine_name or {}
    name = f"{info.get('name', '?')} {info.get('version', '')}".strip()
    return [f"engine under test: {name} ({state.command or REFERENCE_SHOWN})"]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """An engine answering "unsupported" (spec/protocol.md, Capabilities) skips the case."""
    try:
        return (yield)
    except UnsupportedReply as e:
        pytest.skip(e.message)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> pytest.TestReport | None:
    """A scenario's wrong answer or engine fault gets its report without a traceback: the
    reporter words it (report.py, wording.py) and would throw the traceback away, and pytest
    formats one by parsing the source of every frame, about half a second a failure."""
    if (
        call.when != "call"
        or call.excinfo is None
        or isinstance(item, CaseItem)  # a table case words its own failure (repr_failure)
        or not call.excinfo.errisinstance((RuleMismatch, EngineError))
        or not tags.is_suite_item(item)
    ):
        return None
    return pytest.TestReport(
        item.nodeid,
        item.location,
        dict.fromkeys(item.keywords, 1),
        "failed",
        call.excinfo.exconly(),
        call.when,
        [(f"Captured {key} {when}", content) for when, key, content in item._report_sections],
        call.duration,
        call.start,
        call.stop,
        item.user_properties,
    )
