"""Running the conformance suite in a child pytest against an engine, with each item's outcome.

Used by the tests that judge the suite itself (wrong engines, the Node example, the two engine
paths). Outcomes come from the suite's own ``--conformance-report``, keyed by node id.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pinochle_adapters.client import Engine, load_server, open_in_process

ROOT = Path(__file__).resolve().parent.parent
RUN_TIMEOUT = 300
PYTHON = shlex.quote(sys.executable)
"""The running interpreter as an engine command's first word: ``python`` on PATH may be another
Python (the README's commands run from a shell where the virtualenv is not active)."""


def child_environment() -> dict[str, str]:
    """This environment without what an xdist worker running a test exports: a child pytest that
    inherits ``PYTEST_XDIST_WORKER`` takes itself for a worker (its files get a worker's name)."""
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("PYTEST_XDIST_") and k != "PYTEST_CURRENT_TEST"
    }


def python_engine(module: str, *args: str) -> str:
    """The engine command ``<this python> -m MODULE ARGS``, quoted for the shell."""
    return " ".join([PYTHON, "-m", module, *map(shlex.quote, args)])


@dataclass(frozen=True)
class SuiteRun:
    """One run of the conformance suite against an engine: exit status and outcome per item."""

    command: str | None
    returncode: int
    outcomes: dict[str, dict[str, Any]]
    output: str
    diagnosis: list[dict[str, Any]]
    """The report's ``diagnosis``: the rules most likely wrong, most likely first."""

    def items(self, outcome: str) -> set[str]:
        """Node ids of the items with this outcome."""
        return {node for node, o in self.outcomes.items() if o["outcome"] == outcome}

    def rules_of(self, nodes: set[str]) -> set[str]:
        """The rule ID each of the given items tests (its uses are not counted)."""
        return {self.outcomes[node]["rule"] for node in nodes}

    def tail(self, lines: int = 40) -> str:
        """The last lines of the child's output, for assertion messages."""
        return "\n".join(self.output.splitlines()[-lines:])


IN_FLIGHT = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="suite-run")
"""Child runs of the suite go here, one per core: a module's ``prefetch()`` (tests/conftest.py)
starts the runs its tests will wait for, so they proceed while other tests run."""
AT_ONCE = ThreadPoolExecutor(thread_name_prefix="suite-batch")
"""What starts its own processes, one per core (the mutant batches), starts at once, beside."""
_started: dict[tuple[Any, ...], Future[Any]] = {}


def started(
    key: tuple[Any, ...], work: Callable[[], Any], pool: ThreadPoolExecutor = IN_FLIGHT
) -> Future[Any]:
    """The run ``key``, started in the background on first asking; the same future after."""
    if key not in _started:
        _started[key] = pool.submit(work)
    return _started[key]


def stop_started() -> None:
    """Runs not begun yet are dropped (the session ends); those under way finish."""
    for pool in (IN_FLIGHT, AT_ONCE):
        pool.shutdown(wait=False, cancel_futures=True)


def start_suite(
    engine: str | None,
    variants: Sequence[str] = (),
    extra: Sequence[str] = (),
    paths: Sequence[str] = ("features/",),
) -> Future[SuiteRun]:
    """``run_suite`` started in the background (once per session for the same arguments)."""
    key = ("suite", engine, tuple(variants), tuple(extra), tuple(paths))
    return started(key, lambda: _run_suite_now(engine, variants, extra, paths))


def run_suite(
    engine: str | None,
    variants: Sequence[str] = (),
    extra: Sequence[str] = (),
    paths: Sequence[str] = ("features/",),
) -> SuiteRun:
    """Run ``pytest features/`` (or ``paths``) against ``engine`` (None: the in-process
    reference engine); a run with the same arguments is made once per session."""
    run: SuiteRun = start_suite(engine, variants, extra, paths).result()
    return run


def _run_suite_now(
    engine: str | None, variants: Sequence[str], extra: Sequence[str], paths: Sequence[str]
) -> SuiteRun:
    with tempfile.TemporaryDirectory() as tmp:
        report_file = Path(tmp) / "report.json"
        args = [sys.executable, "-m", "pytest", *paths, "-q", "-p", "no:cacheprovider"]
        args += ["-p", "no:randomly", "-p", "no:xdist", "--conformance-report", str(report_file)]
        if engine is not None:
            args += ["--engine", engine]
        for variant in variants:
            args += ["--variant", variant]
        args += list(extra)
        # The last --conformance-report wins (a caller may keep the report: report_runs).
        report_file = Path(args[len(args) - 1 - args[::-1].index("--conformance-report") + 1])
        done = subprocess.run(
            args,
            cwd=ROOT,
            env=child_environment(),
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            check=False,
        )
        report = json.loads(report_file.read_text(encoding="utf-8")) if report_file.exists() else {}
    return SuiteRun(
        engine,
        done.returncode,
        report.get("cases", {}),
        done.stdout + done.stderr,
        report.get("diagnosis", []),
    )


def start_mutants(runs: dict[str, tuple[str, ...]]) -> Future[dict[str, SuiteRun]]:
    """``run_mutants`` started in the background (once per session for the same runs)."""
    return started(("mutants", tuple(sorted(runs.items()))), lambda: run_mutants(runs), AT_ONCE)


def run_mutants(runs: dict[str, tuple[str, ...]]) -> dict[str, SuiteRun]:
    """The suite against each named mutant (``reference``: the control) on its variants (none:
    all), in-process in a few child processes (``tests.suite_batch``), one per core, at once."""
    workers = max(1, min(len(runs), os.cpu_count() or 1))
    batches: list[list[str]] = [[] for _ in range(workers)]
    weights = [0] * workers
    for name, variants in sorted(runs.items(), key=lambda item: -_cost(item[1])):
        lightest = weights.index(min(weights))
        batches[lightest].append(f"{name}={','.join(variants)}")
        weights[lightest] += _cost(variants)
    with tempfile.TemporaryDirectory() as tmp:
        children = [
            subprocess.Popen(
                [sys.executable, "-m", "tests.suite_batch", tmp, *batch],
                cwd=ROOT,
                env=child_environment(),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for batch in batches
        ]
        crashed = "".join(
            child.communicate(timeout=RUN_TIMEOUT * len(runs))[0] for child in children
        )
        return {name: _batch_run(Path(tmp), name, crashed) for name in runs}


def _cost(variants: tuple[str, ...]) -> int:
    """A run's rough cost: the variants it runs (none named: all three)."""
    return len(variants) or 3


def _batch_run(where: Path, name: str, crashed: str) -> SuiteRun:
    """One mutant's run as ``tests.suite_batch`` left it in ``where``."""
    status, report, out = where / f"{name}.status", where / f"{name}.json", where / f"{name}.out"
    document = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    output = out.read_text(encoding="utf-8") if out.exists() else ""
    return SuiteRun(
        f"in-process mutant {name}",
        int(status.read_text(encoding="utf-8")) if status.exists() else -1,
        document.get("cases", {}),
        output + crashed,
        document.get("diagnosis", []),
    )


def python_module(
    module: str, *args: str, cwd: Path = ROOT, timeout: float = RUN_TIMEOUT
) -> subprocess.CompletedProcess[str]:
    """``python -m MODULE ARGS`` in ``cwd`` (default: the repository), its output captured."""
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=cwd,
        env=child_environment(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def run_packaged_suite(
    command: Sequence[str], cwd: Path
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """The packaged suite run from ``cwd`` by ``command`` (``pinochle_cli test`` or ``pytest
    --pinochle``), with its JSON report's cases."""
    report = cwd / "report.json"
    done = python_module(*command, "-q", "--conformance-report", str(report), cwd=cwd)
    cases: dict[str, Any] = (
        json.loads(report.read_text(encoding="utf-8"))["cases"] if report.exists() else {}
    )
    return done, cases


def reference_in_process() -> Engine:
    """The reference server in this process, opened as the suite opens it by default."""
    return open_in_process(load_server("pinochle_adapters.reference:server"), trusted=True)


def assert_caught_first(run: SuiteRun, control: SuiteRun, name: str, rule: str) -> None:
    """The run of wrong engine ``name`` fails (exit 1) on a case of ``rule`` that the control
    passes, and the diagnosis names ``rule`` first. Only cases the control passes count, so a
    case the reference itself fails cannot make a wrong engine look caught."""
    assert run.outcomes, f"no outcomes recorded:\n{run.tail()}"
    assert run.returncode == 1, f"exit {run.returncode}, expected 1 (tests failed):\n{run.tail()}"
    caught = (run.items("failed") | run.items("errored")) & control.items("passed")
    wrong = run.items("failed") & control.items("passed")
    assert caught, f"{name}: every case the reference passes also passes"
    assert rule in run.rules_of(wrong), (
        f"{name} misreads {rule}, but no case of that rule failed; "
        f"failing rules: {sorted(run.rules_of(caught))}"
    )
    suspects = [entry["rule"] for entry in run.diagnosis]
    assert suspects[:1] == [rule], (
        f"{name} misreads {rule}, but the diagnosis suspects {suspects[:5]}"
    )
