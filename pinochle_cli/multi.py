"""``pinochle test --engine A --engine B ...``: one run of the suite per engine, side by side.

Each engine runs in its own ``pinochle test`` child (as many at once as there are cores), writing
its JSON report and its output into the runs folder; then one site compares them all. The exit
status is the worst engine's (the highest: 0 green, 1 failures, 4 an engine cannot start).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

RUNS_DIR = "conformance"
"""Where the reports, the outputs and the site go unless ``--runs-dir`` says."""


def split_engines(args: Sequence[str]) -> tuple[list[str], list[str], str | None]:
    """The engines given (``--engine X`` or ``--engine=X``, in order), the other arguments, and
    ``--runs-dir``'s value (None when not given)."""
    engines: list[str] = []
    rest: list[str] = []
    runs_dir: str | None = None
    items = iter(args)
    for arg in items:
        for name in ("--engine", "--runs-dir"):
            if arg == name or arg.startswith(f"{name}="):
                value = arg.split("=", 1)[1] if "=" in arg else next(items, "")
                if name == "--engine":
                    engines.append(value)
                else:
                    runs_dir = value
                break
        else:
            rest.append(arg)
    return engines, rest, runs_dir


def run_engines(engines: Sequence[str], pytest_args: Sequence[str], out: Path) -> int:
    """Run the suite against each engine, build the site in ``out/site``; the worst status."""
    # Here: ``pinochle test`` imports late.
    from pinochle_adapters.processes import interrupt_on_sigterm
    from pytest_pinochle.site import build_site

    if any(
        a == "--conformance-report" or a.startswith("--conformance-report=") for a in pytest_args
    ):
        print(
            "pinochle test: with several --engine, each report goes into --runs-dir "
            f"(default {RUNS_DIR}/); leave out --conformance-report",
            file=sys.stderr,
        )
        return 4
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        problem = f"--runs-dir {out}: cannot make the folder ({e.strerror})"
        print(f"pinochle test: {problem}", file=sys.stderr)
        return 4
    reports = [out / f"engine-{n}.json" for n in range(1, len(engines) + 1)]
    logs = [out / f"engine-{n}.log" for n in range(1, len(engines) + 1)]
    restore = interrupt_on_sigterm()
    try:
        statuses = _run_all(engines, pytest_args, reports, logs)
    finally:
        restore()
    written = [r for r in reports if r.exists()]
    for n, report in enumerate(reports):
        if not report.exists():
            print(f"{engines[n]}: no report (see {logs[n]})")
    if written:
        build_site(written, out / "site")
        print(f"wrote {out / 'site' / 'index.html'} ({len(written)} engines)")
    return max(s or 0 for s in statuses)


def _run_all(
    engines: Sequence[str], pytest_args: Sequence[str], reports: list[Path], logs: list[Path]
) -> list[int | None]:
    """One ``pinochle test`` child per engine, as many at once as there are cores; their exit
    statuses. Interrupted (Ctrl-C, SIGTERM), it stops the runs under way with SIGTERM, which
    each ends as an interrupted run, waits for them and lets the interrupt go on."""
    parallel = max(1, min(len(engines), os.cpu_count() or 1))
    statuses: list[int | None] = [None] * len(engines)
    running: dict[int, subprocess.Popen[bytes]] = {}
    waiting = list(range(len(engines)))
    try:
        while waiting or running:
            while waiting and len(running) < parallel:
                n = waiting.pop(0)
                command = [sys.executable, "-m", "pinochle_cli", "test", "--engine", engines[n]]
                command += ["--conformance-report", str(reports[n]), *pytest_args]
                with logs[n].open("wb") as log:
                    running[n] = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
            for n, child in list(running.items()):
                if child.poll() is not None:
                    statuses[n] = child.returncode
                    del running[n]
                    print(f"{engines[n]}: exit {child.returncode}; {_last_line(logs[n])}")
            time.sleep(0.1)
    except KeyboardInterrupt:
        for child in running.values():
            child.terminate()
        for child in running.values():
            child.wait()
        raise
    return statuses


def _last_line(path: Path) -> str:
    """The last non-empty line of a run's output: pytest's summary line."""
    lines = [line.strip("= ") for line in path.read_text("utf-8", "replace").splitlines()]
    return next((line for line in reversed(lines) if line), "no output")
