"""Running the conformance suite in child processes against engines, with each item's outcome.

Used by the tests that judge the suite itself (wrong engines, the Node example, the two engine
paths). Outcomes come from the suite's own ``--conformance-report``, keyed by node id. The runs
are made by a few long-lived child processes (``_Batcher``, ``tests.suite_batch``)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

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
    folder: Path | None = None
    """Where the run's files are (``{batch}`` in its arguments), until the session ends."""

    def items(self, outcome: str) -> set[str]:
        """Node ids of the items with this outcome."""
        return {node for node, o in self.outcomes.items() if o["outcome"] == outcome}

    def rules_of(self, nodes: set[str]) -> set[str]:
        """The rule ID each of the given items tests (its uses are not counted)."""
        return {self.outcomes[node]["rule"] for node in nodes}

    def tail(self, lines: int = 40) -> str:
        """The last lines of the child's output, for assertion messages."""
        return "\n".join(self.output.splitlines()[-lines:])


AT_ONCE = ThreadPoolExecutor(thread_name_prefix="suite-work")
"""Other slow set-up started in the background (the wheel)."""
_started: dict[tuple[Any, ...], Future[Any]] = {}
_pending: list[tuple[_Spec, Future[SuiteRun]]] = []
_deferring = 0
_lock = threading.Lock()
BASE_ARGS: tuple[str, ...] = ("-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist")
BASE_ARGS += ("-p", "no:unraisableexception")
"""Every child run's options. pytest's unraisable-exception plugin is left out: at the end of
every run it collects the garbage of the whole batch process several times over (a quarter of a
batch's time), and it changes no outcome."""


@dataclass(frozen=True)
class _Spec:
    """One child run as ``tests.suite_batch`` makes it."""

    name: str
    command: str | None
    args: tuple[str, ...]
    mutant: str | None = None

    @property
    def report(self) -> str:
        """The run's report file: the last ``--conformance-report`` given wins."""
        args = list(self.args)
        return args[len(args) - 1 - args[::-1].index("--conformance-report") + 1]


def started(key: tuple[Any, ...], work: Callable[[], Any]) -> Future[Any]:
    """The work ``key``, started in the background on first asking; the same future after."""
    with _lock:
        if key not in _started:
            _started[key] = AT_ONCE.submit(work)
        return _started[key]


def stop_started() -> None:
    """At the session's end: work not begun is dropped, and the batch processes are stopped
    (runs nobody waits for any more are not finished)."""
    AT_ONCE.shutdown(wait=False, cancel_futures=True)
    for batcher in _BATCHERS:
        batcher.close()


@contextlib.contextmanager
def batched() -> Iterator[None]:
    """Child runs started inside the block are sent together when it ends, spread over the
    batch processes (``_Batcher``), in the order started."""
    global _deferring
    with _lock:
        _deferring += 1
    try:
        yield
    finally:
        with _lock:
            _deferring -= 1
        _dispatch()


def _enqueue(key: tuple[Any, ...], spec: _Spec) -> Future[SuiteRun]:
    with _lock:
        if key not in _started:
            future: Future[SuiteRun] = Future()
            _started[key] = future
            _pending.append((spec, future))
    _dispatch()
    return _started[key]


DONE = "suite_batch: done "
"""What the batch process prints when a run has ended (and its files are written)."""
OUT = "{batch}"
"""In a run's arguments, the batch's output folder (``tests.suite_batch`` puts it in)."""


class _Batcher:
    """A ``tests.suite_batch`` child process that makes the runs it is sent, one after another,
    in-process: the interpreter, the imports and the parsed tables are paid once per process,
    not once per run. Each run's future is set when the process says it is done; a run the
    process did not finish (it died, or a run took over RUN_TIMEOUT: it is killed) gets status
    -1 and the process's last words."""

    def __init__(self) -> None:
        self.where = Path(tempfile.mkdtemp(prefix="pinochle-batch-"))
        self.child = subprocess.Popen(
            [sys.executable, "-m", "tests.suite_batch", str(self.where)],
            cwd=ROOT,
            env=child_environment(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.waiting: dict[str, tuple[_Spec, Future[SuiteRun]]] = {}
        self.lock = threading.Lock()
        self.progress = time.monotonic()
        self.ended = False
        threading.Thread(target=self._read, name="suite-batch-reader", daemon=True).start()
        threading.Thread(target=self._watch, name="suite-batch-watchdog", daemon=True).start()

    @property
    def load(self) -> int:
        """Runs sent and not done."""
        return len(self.waiting)

    def alive(self) -> bool:
        return self.child.poll() is None

    def send(self, spec: _Spec, future: Future[SuiteRun]) -> None:
        with self.lock:
            ended = self.ended
            if not ended:
                if not self.waiting:
                    self.progress = time.monotonic()
                self.waiting[spec.name] = (spec, future)
        if ended:  # it died since it was chosen
            future.set_result(_batch_run(self.where, spec, "the batch process had ended\n"))
            return
        line = json.dumps({"name": spec.name, "args": list(spec.args), "mutant": spec.mutant})
        assert self.child.stdin is not None
        with contextlib.suppress(OSError):  # the process is gone: _read fails the run
            self.child.stdin.write(line + "\n")
            self.child.stdin.flush()

    def _read(self) -> None:
        said: list[str] = []
        assert self.child.stdout is not None
        for line in self.child.stdout:
            name = line.removeprefix(DONE).strip() if line.startswith(DONE) else ""
            with self.lock:
                done = self.waiting.pop(name, None)
                self.progress = time.monotonic()
            if done is None:
                said = [*said[-200:], line]
            else:
                done[1].set_result(_batch_run(self.where, done[0], ""))
        self.child.wait()
        with self.lock:
            left, self.waiting, self.ended = list(self.waiting.values()), {}, True
        for spec, future in left:
            future.set_result(_batch_run(self.where, spec, "".join(said)))

    def _watch(self) -> None:
        while self.alive():
            time.sleep(1)
            with self.lock:
                stuck = self.waiting and time.monotonic() - self.progress > RUN_TIMEOUT
            if stuck:
                self.child.kill()

    def close(self) -> None:
        """No more runs: the process ends after the run under way; killed if it does not."""
        with contextlib.suppress(OSError):
            assert self.child.stdin is not None
            self.child.stdin.close()
        try:
            self.child.wait(timeout=5 if not self.waiting else 0.1)
        except subprocess.TimeoutExpired:
            self.child.kill()
            self.child.wait()
        shutil.rmtree(self.where, ignore_errors=True)


_BATCHERS: list[_Batcher] = []
"""Every batch process of the session (those that died too: their folders are removed at the
end)."""


def _dispatch() -> None:
    """Send the pending runs, each to the batch process with the fewest runs waiting: one per
    core, or one in an xdist worker (the workers already take a core each)."""
    with _lock:
        if _deferring or not _pending:
            return
        runs = list(_pending)
        _pending.clear()
    wanted = 1 if "PYTEST_XDIST_WORKER" in os.environ else max(1, os.cpu_count() or 1)
    for spec, future in runs:
        alive = [b for b in _BATCHERS if b.alive()]
        if len(alive) < wanted:
            alive.append(_Batcher())
            _BATCHERS.append(alive[-1])
        min(alive, key=lambda b: b.load).send(spec, future)


def start_suite(
    engine: str | None,
    variants: Sequence[str] = (),
    extra: Sequence[str] = (),
    paths: Sequence[str] = ("features/",),
) -> Future[SuiteRun]:
    """``run_suite`` started in the background (once per session for the same arguments)."""
    key = ("suite", engine, tuple(variants), tuple(extra), tuple(paths))
    name = f"run{len(_started)}"
    args = [*paths, *BASE_ARGS, "--conformance-report", f"{OUT}/{name}.json"]
    if engine is not None:
        args += ["--engine", engine]
    for variant in variants:
        args += ["--variant", variant]
    return _enqueue(key, _Spec(name, engine, (*args, *extra)))


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


def start_mutants(runs: dict[str, tuple[str, ...]]) -> Future[dict[str, SuiteRun]]:
    """The suite against each named mutant (``reference``: the control) installed in the batch
    process, on its variants (none: all); one future for them all."""
    futures: dict[str, Future[SuiteRun]] = {}
    with batched():
        for name, variants in sorted(runs.items()):
            run = f"{name}-{len(_started)}"
            args = ["features/", *BASE_ARGS, "--conformance-report", f"{OUT}/{run}.json"]
            for variant in variants:
                args += ["--variant", variant]
            spec = _Spec(run, f"in-process mutant {name}", tuple(args), name)
            futures[name] = _enqueue(("mutant", name, tuple(variants)), spec)
    key = ("mutants", tuple(sorted(runs.items())))
    with _lock:
        if key not in _started:
            _started[key] = _gathered(futures)
        return _started[key]


def _gathered(futures: dict[str, Future[SuiteRun]]) -> Future[dict[str, SuiteRun]]:
    """One future for several: set when the last of them is (no thread waits for them)."""
    whole: Future[dict[str, SuiteRun]] = Future()
    lock = threading.Lock()

    def one_done(_: Future[SuiteRun]) -> None:
        with lock:
            if whole.done() or not all(f.done() for f in futures.values()):
                return
            try:
                whole.set_result({name: f.result() for name, f in futures.items()})
            except BaseException as error:
                whole.set_exception(error)

    for future in futures.values():
        future.add_done_callback(one_done)
    return whole


def _batch_run(where: Path, spec: _Spec, crashed: str) -> SuiteRun:
    """One run as ``tests.suite_batch`` left it in ``where``."""
    status, out = where / f"{spec.name}.status", where / f"{spec.name}.out"
    report = Path(spec.report.replace(OUT, str(where), 1))
    document = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    output = out.read_text(encoding="utf-8") if out.exists() else ""
    return SuiteRun(
        spec.command,
        int(status.read_text(encoding="utf-8")) if status.exists() else -1,
        document.get("cases", {}),
        output + crashed,
        document.get("diagnosis", []),
        where,
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


def pytest_in_process(args: Sequence[str]) -> tuple[int, str]:
    """``pytest.main(args)`` in this process, from the repository (no interpreter to start, the
    tables already parsed): its exit status and everything it printed."""
    out = io.StringIO()
    with contextlib.chdir(ROOT), contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = pytest.main([*args, "-p", "no:unraisableexception"])
    return int(status), out.getvalue()


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
