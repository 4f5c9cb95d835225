"""``pinochle test --engine A --engine B ...``: one run of the suite per engine, side by side.

Each engine runs in its own ``pinochle test`` child (as many at once as there are cores), writing
its JSON report and its output into the runs folder (``--runs-dir``, required: nothing is
written where the user did not say); then one site compares them all, and
``--conformance-report FILE`` gets one combined report of them all. The exit status is the worst
engine's (the highest: 0 green, 1 failures, 4 an engine cannot start).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePath

from specdata.files import write_atomic
from specdata.text import escaped

PER_ENGINE_OUTPUTS = (
    "--write-known-failures",
    "--log-traffic",
    "--junitxml",
    "--junit-xml",
    "--log-file",
    "--report-log",
    "--html",
    "--json-report-file",
)
"""Options naming a file one run writes: with several engines each run gets its own file,
``NAME.ENGINE.SUFFIX`` beside the one given (one file for all, the last run would win)."""
RUNS_MANIFEST = ".pinochle-runs.json"
"""The runs folder's list of the files the last run wrote there: removed before the next run
starts, so no earlier run's report passes for this one's, whatever its engines were called."""
INTERPRETER = re.compile(
    r"(python|pypy|node|nodejs|deno|bun|java|ruby|perl|php|sh|bash|dotnet|Rscript|julia|lua"
    r"|env|uv|uvx|npx)[0-9.]*(\.exe)?"
)
"""Programs that run the engine named after them: left out of its file stem."""
SOURCES = frozenset(
    (".py", ".js", ".mjs", ".cjs", ".ts", ".jar", ".exe", ".rb", ".pl", ".php", ".sh", ".lua")
)
"""Extensions of a program file, dropped from the stem (``e.jar`` -> ``e``)."""
STEM_LIMIT = 48
"""The longest file stem an engine's command gives (a long command is cut, then numbered)."""
PR_SET_PDEATHSIG = 1
"""prctl(2) option: the signal a process gets when the parent that started it dies."""
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
    for name, value in each_option(args, names):
        if name is None:
            rest.append(value)
        else:
            found[name].append(value)
    return found, rest


def each_option(args: Sequence[str], names: Sequence[str]) -> Iterator[tuple[str | None, str]]:
    """``args`` in order: each of the options ``names`` (``--name X`` or ``--name=X``) as its
    name and value, every other argument as None and itself."""
    items = iter(args)
    for arg in items:
        name = next((n for n in names if arg == n or arg.startswith(f"{n}=")), None)
        if name is None:
            yield None, arg
        else:
            yield name, arg.split("=", 1)[1] if "=" in arg else next(items, "")


def run_engines(engines: Sequence[str | None], pytest_args: Sequence[str], out: Path) -> int:
    """Run the suite against each engine (None: the reference engine), build the site in
    ``out/site``; the worst status. With ``--conformance-report FILE``, FILE is one combined
    report of every engine's run. Every report and log is this run's: those an earlier run left
    under the same names are removed before any engine starts."""
    # Here: ``pinochle test`` imports late.
    import pytest

    from pinochle_adapters.processes import interrupt_on_sigterm
    from pinochle_tools.site import SiteFolderError, build_site, clear_site
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
    stems = engine_stems(engines)
    reports = [out / f"{stem}.json" for stem in stems]
    logs = [out / f"{stem}.log" for stem in stems]
    try:
        for stale in [*earlier_runs(out), *reports, *logs]:
            # The suite's own names in its runs folder: an earlier run's report must not pass
            # for this one's (a link is removed, never followed); nor its site.
            stale.unlink(missing_ok=True)
        write_atomic(
            out / RUNS_MANIFEST,
            json.dumps({"files": [p.name for p in [*reports, *logs]]}, indent=1) + "\n",
        )
        clear_site(out / "site")
    except OSError as e:
        print(
            f"pinochle test: --runs-dir {out}: cannot remove {e.filename} ({e.strerror})",
            file=sys.stderr,
        )
        return CANNOT_RUN
    runs_args = [per_engine(rest, len(engines) > 1, stem) for stem in stems]
    if len(engines) > 1:
        for name, path in _renamed(rest):
            each = ", ".join(f"{path.stem}.{stem}{path.suffix}" for stem in stems)
            print(f"{name} {path}: one file per engine: {each}")
    restore = interrupt_on_sigterm()
    try:
        statuses = _run_all(engines, runs_args, reports, logs)
    finally:
        restore()
    worst = max(s or 0 for s in statuses)
    written = [r for r in reports if r.exists()]
    missing = [
        {"command": shown(engines[n]), "exit_status": statuses[n] or 0, "output": str(logs[n])}
        for n, report in enumerate(reports)
        if not report.exists()
    ]
    for entry in missing:
        print(f"{escaped(str(entry['command']))}: no report (see {entry['output']})")
    if combined is not None:
        write_combined(combined, written, worst, missing)
        print(f"wrote {combined} ({len(written)} engines)")
    if written:
        try:
            build_site(written, out / "site")
        except SiteFolderError as e:
            print(f"pinochle test: {e}", file=sys.stderr)
            return max(worst, CANNOT_RUN)
        print(f"wrote {out / 'site' / 'index.html'} ({len(written)} engines)")
    return worst


def shown(engine: str | None) -> str:
    """An engine's command as the runs name it (the reference engine: ``reference``)."""
    return "reference" if engine is None else engine


def engine_stem(engine: str | None) -> str:
    """The file stem an engine's command gives its run: its words (after the program when that
    is an interpreter, ``INTERPRETER``) without options, folders or a program file's extension,
    joined by ``-`` (``python my-engine/my_engine.py`` -> ``my_engine``; ``node
    peers/zstocks.mjs src house`` -> ``zstocks-src-house``), every character but a letter,
    digit, ``.``, ``_`` or ``-`` made ``_``; ``reference`` for the reference engine."""
    if engine is None:
        return "reference"
    try:
        words = shlex.split(engine)
    except ValueError:  # an unbalanced quote: the words as written
        words = engine.split()
    program = PurePath(words[0]).name if words else ""
    after = words[1:] if INTERPRETER.fullmatch(program) else words
    named = [w for w in after if not w.startswith("-")] or words[:1]
    parts = [
        PurePath(w).stem if ("/" in w or "\\" in w or PurePath(w).suffix in SOURCES) else w
        for w in named
    ]
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(p for p in parts if p)).strip("._-")
    return stem[:STEM_LIMIT] or "engine"


def engine_stems(engines: Sequence[str | None]) -> list[str]:
    """Each engine's file stem (``engine_stem``), unique among the run's: a repeated one is
    numbered (``name-2``, ``name-3``) with the first number no other engine's stem has."""
    stems: list[str] = []
    for engine in engines:
        stem, n = engine_stem(engine), 1
        while stem in stems:
            n += 1
            stem = f"{engine_stem(engine)}-{n}"
        stems.append(stem)
    return stems


def earlier_runs(out: Path) -> list[Path]:
    """The files the last run wrote in ``out`` (its ``RUNS_MANIFEST``; none when there is none
    or it is not one): only plain names, so a doctored manifest cannot name a file elsewhere."""
    try:
        listed = json.loads((out / RUNS_MANIFEST).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    if not isinstance(listed, list):
        return []
    return [
        out / name
        for name in listed
        if isinstance(name, str)
        and name == PurePath(name).name
        and name not in ("", ".", "..")
        and name.endswith((".json", ".log"))
    ]


def per_engine(args: Sequence[str], several: bool, stem: str) -> list[str]:
    """The run's arguments for the engine whose file stem is ``stem``: with several engines,
    each file option of PER_ENGINE_OUTPUTS names ``NAME.STEM.SUFFIX`` instead of
    ``NAME.SUFFIX``."""
    if not several:
        return list(args)
    out: list[str] = []
    for name, value in each_option(args, PER_ENGINE_OUTPUTS):
        if name is None:
            out.append(value)
        else:
            path = Path(value)
            out += [name, str(path.with_name(f"{path.stem}.{stem}{path.suffix}"))]
    return out


def _renamed(given: Sequence[str]) -> list[tuple[str, Path]]:
    """The file options given that ``per_engine`` changes, each with its value."""
    found, _ = take_options(given, PER_ENGINE_OUTPUTS)
    return [(name, Path(value)) for name, values in found.items() for value in values]


def _die_with_parent() -> None:
    """In a run's child, before it starts: a SIGTERM when the parent dies (Linux), so a killed
    ``pinochle test`` leaves no run going on (the run ends as interrupted, its engines stopped)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def _run_all(
    engines: Sequence[str | None],
    runs_args: Sequence[Sequence[str]],
    reports: list[Path],
    logs: list[Path],
) -> list[int | None]:
    """One ``pinochle test`` child per engine, as many at once as there are cores; their exit
    statuses. Interrupted (Ctrl-C, SIGTERM), it stops the runs under way with SIGTERM, which
    each ends as an interrupted run (one that had the Ctrl-C too records it as a second
    interrupt), waits for them and lets the interrupt go on."""
    parallel = max(1, min(len(engines), os.cpu_count() or 1))
    statuses: list[int | None] = [None] * len(engines)
    running: dict[int, subprocess.Popen[bytes]] = {}
    waiting = list(range(len(engines)))
    linux = sys.platform.startswith("linux")
    try:
        while waiting or running:
            while waiting and len(running) < parallel:
                n = waiting.pop(0)
                engine = engines[n]
                command = [sys.executable, "-m", "pinochle_cli", "test"]
                command += [] if engine is None else ["--engine", engine]
                command += ["--conformance-report", str(reports[n]), *runs_args[n]]
                # A new file (O_EXCL): never written through a link planted under its name.
                with logs[n].open("xb") as log:
                    running[n] = subprocess.Popen(
                        command,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        preexec_fn=_die_with_parent if linux else None,
                    )
            for n, child in list(running.items()):
                if child.poll() is not None:
                    # Killed by signal N (a negative code): 128 + N as a shell says, never green.
                    code = child.returncode
                    statuses[n] = code if code >= 0 else 128 - code
                    del running[n]
                    print(
                        f"{escaped(shown(engines[n]))} ({reports[n]}): exit {statuses[n]}; "
                        f"{escaped(run_summary(logs[n]))}"
                    )
            time.sleep(0.1)
    except KeyboardInterrupt:
        for child in running.values():
            child.terminate()
        for child in running.values():
            child.wait()
        raise
    return statuses


def run_summary(path: Path) -> str:
    """What a run's output says of it: its ``total:`` line, the one count the report, the site
    and the badge give too; else (a run that judged nothing, or could not start) its last
    non-empty line."""
    from pinochle_judge.wording import TOTAL  # here: ``pinochle test`` imports late

    with path.open("rb") as f:
        f.seek(max(0, f.seek(0, os.SEEK_END) - 65536))  # its end: the summary is there
        text = f.read().decode("utf-8", "replace")
    lines = [line.strip("= ") for line in text.splitlines()]
    total = next((line for line in reversed(lines) if line.startswith(TOTAL)), None)
    return total or next((line for line in reversed(lines) if line), "no output")
