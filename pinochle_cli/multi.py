"""``pinochle test --engine A --engine B ...``: one run of the suite per engine, side by side.

Each engine runs in its own ``pinochle test`` child (as many at once as there are cores), writing
its JSON report and its output into the runs folder (``--runs-dir``, required: nothing is
written where the user did not say); then one site compares them all, and
``--conformance-report FILE`` gets one combined report of them all. The exit status is the worst
engine's (the highest: 0 green, 1 failures, 4 an engine cannot start).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

NO_RUNS_DIR = (
    "several engines: name the folder for their runs (each engine's report and output, the site "
    "comparing them) with --runs-dir DIR"
)
"""Why several engines without ``--runs-dir`` do not run: nothing is written where the user did
not say."""
CANNOT_RUN = 4
"""pytest's exit status for a run that cannot start (``pytest.ExitCode.USAGE_ERROR``)."""


def split_engines(args: Sequence[str]) -> tuple[list[str], list[str], str | None]:
    """The engines given (``--engine X`` or ``--engine=X``, in order), the other arguments, and
    ``--runs-dir``'s value (None when not given)."""
    found, rest = take_options(args, ("--engine", "--runs-dir"))
    runs_dirs = found["--runs-dir"]
    return found["--engine"], rest, runs_dirs[-1] if runs_dirs else None


def take_options(
    args: Sequence[str], names: Sequence[str]
) -> tuple[dict[str, list[str]], list[str]]:
    """The values of the options ``names`` (``--name X`` or ``--name=X``, in order) and the other
    arguments."""
    found: dict[str, list[str]] = {name: [] for name in names}
    rest: list[str] = []
    items = iter(args)
    for arg in items:
        name = next((n for n in names if arg == n or arg.startswith(f"{n}=")), None)
        if name is None:
            rest.append(arg)
        else:
            found[name].append(arg.split("=", 1)[1] if "=" in arg else next(items, ""))
    return found, rest


def run_engines(engines: Sequence[str], pytest_args: Sequence[str], out: Path) -> int:
    """Run the suite against each engine, build the site in ``out/site``; the worst status.
    With ``--conformance-report FILE``, FILE is one combined report of every engine's run."""
    # Here: ``pinochle test`` imports late.
    import pytest

    from pinochle_adapters.processes import interrupt_on_sigterm
    from pinochle_tools.site import build_site
    from pinochle_tools.site.reports import write_combined
    from pytest_pinochle.plugin import SECONDS_OPTIONS, seconds
    from specdata.files import folder_problem, output_problem

    timed, _ = take_options(pytest_args, SECONDS_OPTIONS)
    for option, values in timed.items():
        try:
            for value in values:  # one line now, not one per engine's run
                seconds(option)(value)
        except pytest.UsageError as e:
            print(f"pinochle test: {e}", file=sys.stderr)
            return CANNOT_RUN
    found, rest = take_options(pytest_args, ("--conformance-report",))
    combined = Path(found["--conformance-report"][-1]) if found["--conformance-report"] else None
    problem = combined is not None and output_problem(combined, "--conformance-report")
    if problem:
        print(f"pinochle test: {problem}", file=sys.stderr)
        return CANNOT_RUN
    problem = folder_problem(out, "--runs-dir")
    if problem:
        print(f"pinochle test: {problem}", file=sys.stderr)
        return CANNOT_RUN
    try:
        out.mkdir(exist_ok=True)
    except OSError as e:
        problem = f"--runs-dir {out}: cannot make the folder ({e.strerror})"
        print(f"pinochle test: {problem}", file=sys.stderr)
        return CANNOT_RUN
    reports = [out / f"engine-{n}.json" for n in range(1, len(engines) + 1)]
    logs = [out / f"engine-{n}.log" for n in range(1, len(engines) + 1)]
    restore = interrupt_on_sigterm()
    try:
        statuses = _run_all(engines, rest, reports, logs)
    finally:
        restore()
    worst = max(s or 0 for s in statuses)
    written = [r for r in reports if r.exists()]
    missing = [
        {"command": engines[n], "exit_status": statuses[n] or 0, "output": str(logs[n])}
        for n, report in enumerate(reports)
        if not report.exists()
    ]
    for entry in missing:
        print(f"{entry['command']}: no report (see {entry['output']})")
    if combined is not None:
        write_combined(combined, written, worst, missing)
        print(f"wrote {combined} ({len(written)} engines)")
    if written:
        build_site(written, out / "site")
        print(f"wrote {out / 'site' / 'index.html'} ({len(written)} engines)")
    return worst


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
                    # Killed by signal N (a negative code): 128 + N as a shell says, never green.
                    code = child.returncode
                    statuses[n] = code if code >= 0 else 128 - code
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
