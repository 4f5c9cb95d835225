"""Nothing lost when a run is cut short, and every run bounded.

Files are written whole or not at all, and only by a run that completed; output folders are
checked before the first case; misbehaving engines of tests/broken_engines/ cut runs short.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

import specdata
from pinochle_adapters import processes, protocol, reference
from pinochle_adapters.client import (
    MAX_RESTARTS_IN_WINDOW,
    MAX_TIMEOUTS_IN_WINDOW,
    NAME_LIMIT,
    WINDOW,
    Engine,
    EngineError,
    load_server,
    open_engine,
    open_in_process,
)
from pinochle_cli import main as cli_main
from pinochle_tools.site import build_site, load_run
from pinochle_tools.site import reports as site_reports
from pinochle_tools.site.report_site import badge_svg
from pytest_pinochle import known_failures
from pytest_pinochle.report import Reporter
from pytest_pinochle.tags import RULE_PROPERTY, USES_PROPERTY
from specdata.files import output_problem, write_atomic
from tests.suite_runs import PYTHON, ROOT, RUN_TIMEOUT, child_environment

BROKEN = Path(__file__).parent / "broken_engines"

MELD_CASES = "dd-meld-run-single or dd-meld-run-double"
"""A small selection of the suite (two meld cases)."""
LISTED = "format: 1\nknown_failures:\n- {case: dd-meld-run-triple, reason: earlier}\n"
"""A known-failures list of one entry, which a run cut short must leave as it is."""


def broken(script: str, *args: str) -> str:
    """The command line of a broken engine."""
    return " ".join([PYTHON, shlex.quote(str(BROKEN / script)), *map(shlex.quote, args)])


def python_child(
    *args: str, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in the repository, its output captured, in an environment without what an
    xdist worker running this test exports (``suite_runs.child_environment``), plus ``extra``."""
    environ = {**child_environment(), **(extra or {})}
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )


MELD_ITEMS = sorted(
    f"features/tables/{p.name}" for p in (ROOT / "features" / "tables").glob("meld-*")
)
MELD_ITEMS += ["features/test_meld.py"]
"""The meld tables and scenarios: every run below selects meld items (``-k``), so the child
collects only these (an xdist child collects once per worker)."""


def suite(*args: str) -> subprocess.CompletedProcess[str]:
    """A child run of the suite's meld items (quiet, no cache), its output captured."""
    return python_child("-m", "pytest", *MELD_ITEMS, "-q", "-p", "no:cacheprovider", *args)


# --- writing whole or not at all ------------------------------------------------------------------


def test_a_write_that_fails_leaves_the_earlier_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "report.json"
    target.write_text("earlier", encoding="utf-8")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError):
        write_atomic(target, "x" * 100_000)
    assert target.read_text(encoding="utf-8") == "earlier"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_an_output_in_a_missing_folder_is_named_in_one_line(tmp_path: Path) -> None:
    problem = output_problem(tmp_path / "missing" / "r.json", "--conformance-report")
    assert problem is not None and "\n" not in problem and "missing" in problem
    assert output_problem(tmp_path, "--log-traffic") is not None  # a folder, not a file
    assert output_problem(tmp_path / "r.json", "--conformance-report") is None


@pytest.mark.slow
def test_missing_output_folders_are_refused_before_the_first_case(tmp_path: Path) -> None:
    for option in ("--conformance-report", "--write-known-failures", "--log-traffic"):
        done = suite("-k", MELD_CASES, option, str(tmp_path / "missing" / "out"))
        assert done.returncode == 4, done.stdout[-2000:]
        errors = [line for line in done.stderr.splitlines() if line.strip()]
        assert len(errors) == 1 and option in errors[0], done.stderr
        assert "passed" not in done.stdout and "Traceback" not in done.stderr


# --- an interrupted run ---------------------------------------------------------------------------


INTERRUPTED_AFTER_FIVE = (
    "-k",
    "meld",
    "--variant",
    "double-deck",
    "--engine",
    broken("interrupt_run.py", "5"),
)
"""The double-deck meld cases against an engine that sends Ctrl-C after five requests."""
XDIST = ("-n", "2", "--max-worker-restart", "0")
"""Two workers, none started again after the first Ctrl-C (which halves the run's time)."""


@pytest.mark.slow
@pytest.mark.parametrize("workers", [(), XDIST], ids=["serial", "xdist"])
def test_an_interrupted_run_writes_a_partial_report_and_leaves_the_other_files(
    tmp_path: Path, workers: tuple[str, ...]
) -> None:
    """Ctrl-C after five requests (under xdist, each worker's engine interrupts its worker and
    the controller writes the report): the report says the run did not complete, with the exit
    status and what it was asked to run; the known-failures list and the traffic log are as they
    were, the log's lines kept beside it."""
    report, listed, traffic = tmp_path / "r.json", tmp_path / "k.yaml", tmp_path / "t.log"
    listed.write_text(LISTED, encoding="utf-8")
    traffic.write_text("earlier\n", encoding="utf-8")
    done = suite(
        *workers,
        *INTERRUPTED_AFTER_FIVE,
        "--conformance-report",
        str(report),
        "--known-failures",
        str(listed),
        "--write-known-failures",
        str(listed),
        "--log-traffic",
        str(traffic),
    )
    assert done.returncode == 2, done.stdout[-2000:]
    assert "Traceback" not in done.stderr and "INTERNALERROR" not in done.stdout
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["complete"] is False and document["exit_status"] == 2
    assert document["selection"]["keyword"] == "meld"
    assert document["selection"]["variants"] == ["double-deck"]
    assert listed.read_text(encoding="utf-8") == LISTED
    assert traffic.read_text(encoding="utf-8") == "earlier\n"
    assert list(tmp_path.glob("t.log*.partial"))  # t.log.partial, t.log.gw0.partial...
    site = load_run(report)
    assert "partial run" in site.label and 'passed"' not in badge_svg(site)
    assert "#2e7d32" not in badge_svg(site)  # never the green of a passing run


@pytest.mark.slow
def test_interrupts_that_follow_the_first_lose_nothing(tmp_path: Path) -> None:
    """A second and third interrupt 20 ms apart, while pytest handles the first (a Ctrl-C
    pressed twice, the SIGTERM after a Ctrl-C): the run is still interrupted, its report partial,
    the known-failures list (written, not read) and the traffic log as they were."""
    report, listed, traffic = tmp_path / "r.json", tmp_path / "k.yaml", tmp_path / "t.log"
    listed.write_text(LISTED, encoding="utf-8")
    traffic.write_text("earlier\n", encoding="utf-8")
    done = suite(
        "-k",
        "meld",
        "--variant",
        "double-deck",
        "--engine",
        broken("interrupt_run.py", "5", "SIGINT,SIGTERM,SIGINT"),
        "--conformance-report",
        str(report),
        "--write-known-failures",
        str(listed),
        "--log-traffic",
        str(traffic),
    )
    assert done.returncode == 2, done.stdout[-2000:]
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["complete"] is False and document["exit_status"] == 2
    assert listed.read_text(encoding="utf-8") == LISTED
    assert traffic.read_text(encoding="utf-8") == "earlier\n"


@pytest.mark.slow
def test_replacement_workers_of_an_interrupted_run_leave_only_partial_logs(tmp_path: Path) -> None:
    """With xdist's default worker restarts each interrupted worker is replaced, and the new one
    starts its engine before the controller stops it: its log, too, is marked partial."""
    traffic = tmp_path / "t.log"
    traffic.write_text("earlier\n", encoding="utf-8")
    done = suite(
        "-n",
        "2",
        *INTERRUPTED_AFTER_FIVE,
        "--log-traffic",
        str(traffic),
    )
    assert done.returncode == 2, done.stdout[-2000:]
    assert traffic.read_text(encoding="utf-8") == "earlier\n"
    written = sorted(p.name for p in tmp_path.glob("t.log.*"))
    assert any(not name.startswith(("t.log.gw0", "t.log.gw1")) for name in written), written
    assert all(name.endswith(".partial") for name in written), written


CRASHING = "dd-meld-run-single or dd-meld-run-double or dd-meld-run-triple"
"""Three meld cases, the first of which kills the worker running it (kills_its_process)."""


def terminal_counts(output: str) -> dict[str, int]:
    """Outcome -> count, from the last line of a pytest run's output ("2 passed, 1 error in")."""
    last = output.strip().splitlines()[-1]
    counts = {
        word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|errors?|skipped)", last)
    }
    counts["errored"] = counts.pop("errors", 0) + counts.pop("error", 0)
    return {k: counts.get(k, 0) for k in ("passed", "failed", "errored", "skipped")}


@pytest.mark.slow
def test_an_item_whose_worker_crashed_is_counted_as_the_terminal_counts_it(
    tmp_path: Path,
) -> None:
    """An engine served in the worker's process kills it on one case: the report counts that
    case errored under its rule, never passed, and its totals are the terminal's. The run went
    on (a replacement worker), so it completed and the logs of the workers that finished are
    named for a complete run; the report names the engine the workers started."""
    report = tmp_path / "r.json"
    done = suite(
        "-n",
        "2",
        "-k",
        CRASHING,
        "--engine-server",
        "tests.broken_engines.kills_its_process:server",
        "--conformance-report",
        str(report),
        "--log-traffic",
        str(tmp_path / "t.log"),
    )
    assert done.returncode == 1, done.stdout[-2000:]
    document = json.loads(report.read_text(encoding="utf-8"))
    crashed = document["cases"]["features/tables/meld-double-deck.yaml::dd-meld-run-single"]
    assert crashed["outcome"] == "errored" and crashed["rule"] == "MELD-RUN", crashed
    assert document["totals"] == terminal_counts(done.stdout) == document["rules"]["MELD-RUN"]
    assert document["totals"]["errored"] == 1 and document["complete"] is True
    assert document["engine"]["name"] == "pinochle-reference", document["engine"]  # a worker's
    logs = sorted(p.name for p in tmp_path.glob("t.log*"))
    assert logs and not any(name.endswith(".partial") for name in logs), logs


def test_a_crash_report_takes_the_rule_of_the_items_earlier_report(
    pytestconfig: pytest.Config,
) -> None:
    """xdist's report of a crash carries no properties: it takes those of the item's earlier
    report, errors in the report and the terminal alike; an item that crashed before any report
    of its own cannot be placed under a rule and is noted, so the report is marked partial."""
    reporter = Reporter(pytestconfig)
    properties = [(RULE_PROPERTY, "MELD-RUN"), (USES_PROPERTY, "")]
    setup = pytest.TestReport(
        "n", ("f", 0, "n"), {}, "passed", None, "setup", [], 0, 0, 0, properties
    )
    reporter.pytest_runtest_logreport(setup)
    crash = pytest.TestReport("n", ("f", None, "f"), {}, "failed", "crashed", "???")  # type: ignore[arg-type]
    reporter.pytest_handlecrashitem("n", crash)
    reporter.pytest_runtest_logreport(crash)
    assert reporter.outcomes["n"].status == "errored" and reporter.outcomes["n"].rule == "MELD-RUN"
    assert reporter.pytest_report_teststatus(crash, pytestconfig) == ("error", "E", "ERROR")
    unknown = pytest.TestReport("m", ("f", None, "f"), {}, "failed", "crashed", "???")  # type: ignore[arg-type]
    reporter.pytest_handlecrashitem("m", unknown)
    assert reporter.unplaced == ["m"]


@pytest.mark.slow
def test_an_engine_that_cannot_start_leaves_the_known_failures_list(tmp_path: Path) -> None:
    listed = tmp_path / "k.yaml"
    listed.write_text(LISTED, encoding="utf-8")
    done = suite(
        "-k",
        MELD_CASES,
        "--engine",
        broken("crash_at_start.py"),
        "--known-failures",
        str(listed),
        "--write-known-failures",
        str(listed),
    )
    assert done.returncode == 4, done.stdout[-2000:]
    assert listed.read_text(encoding="utf-8") == LISTED


def test_an_update_in_place_keeps_the_entries_that_did_not_run(tmp_path: Path) -> None:
    """``--known-failures k --write-known-failures k`` on part of the suite: the entries whose
    cases did not run stay, a rule entry still failing stays whole, a fixed case goes."""
    listed = tmp_path / "k.yaml"
    listed.write_text(
        "format: 1\nknown_failures:\n"
        "- {case: dd-meld-run-triple, reason: not run}\n"
        "- {case: dd-meld-run-single, reason: fixed}\n"
        "- {rule: MELD-RUN, reason: still failing, link: 'https://x.example/1'}\n",
        encoding="utf-8",
    )
    entries = known_failures.load(listed)
    state = known_failures._State(listed, entries, listed)
    state.tallies[entries[1].line] = known_failures._Tally(ran=1, failing=0)
    state.tallies[entries[2].line] = known_failures._Tally(ran=2, failing=2)
    state.failures["a"] = state.failures["b"] = entries[2].as_dict()
    known_failures.write_file(listed, known_failures.kept_entries(state))
    kept = yaml.safe_load(listed.read_text(encoding="utf-8"))["known_failures"]
    assert sorted(kept, key=str) == [
        {"case": "dd-meld-run-triple", "reason": "not run"},
        {"rule": "MELD-RUN", "reason": "still failing", "link": "https://x.example/1"},
    ]


# --- the engine's own name ------------------------------------------------------------------------


@pytest.mark.parametrize(("length", "character"), [(1_000, "a"), (200_000, "<")])
def test_an_engine_name_is_capped_as_quotes_are(length: int, character: str) -> None:
    with open_engine(broken("long_name.py", str(length), character), timeout=10) as engine:
        named = (engine.info or {})["engine"]
    assert len(named["name"]) <= NAME_LIMIT + 30 and len(named["version"]) <= NAME_LIMIT + 30


def test_a_long_engine_name_gives_a_short_file_name_and_small_pages(tmp_path: Path) -> None:
    """A report written before the cap (or by hand): the site still builds, with file names
    under 255 bytes that differ for two names cut alike, and no page carrying the name whole."""
    reports = []
    for n, name in enumerate(("a" * 300, "a" * 299 + "b", "<" * 200_000)):
        reports.append(tmp_path / f"r{n}.json")
        reports[-1].write_text(json.dumps(report_of(name)), encoding="utf-8")
    build_site(reports, tmp_path / "site")
    engines = sorted(p.name for p in (tmp_path / "site" / "engines").iterdir())
    assert len(engines) == 3 and all(len(name.encode()) < 100 for name in engines)
    biggest = max(p.stat().st_size for p in (tmp_path / "site").rglob("*") if p.is_file())
    assert biggest < 200_000


# --- a bounded run --------------------------------------------------------------------------------

MELD: dict[str, Any] = {
    "variant": "double-deck",
    "options": {},
    "trump": "h",
    "hand": ["Ah", "Th", "Kh", "Qh", "Jh", "Qs"],
}


def outcomes(engine: Engine, calls: int) -> list[str]:
    """The reason of each of ``calls`` meld calls that failed (``ok`` for an answer)."""
    found = []
    for _ in range(calls):
        try:
            engine.call("meld", MELD)
            found.append("ok")
        except EngineError as e:
            found.append(e.reason)
    return found


@pytest.mark.slow  # waits out engine timeouts and restarts
def test_an_engine_hanging_on_every_other_call_is_given_up() -> None:
    with open_engine(broken("hang_every_other.py"), timeout=1.0) as engine:
        seen = outcomes(engine, 2 * WINDOW)
    waited = [r for r in seen if "no reply within" in r]
    assert len(waited) == MAX_TIMEOUTS_IN_WINDOW, seen
    assert "given up after" in seen[-1] and "in its last" in seen[-1]


@pytest.mark.slow  # waits out engine timeouts and restarts
def test_a_broken_reply_stream_is_given_up_after_a_bounded_number_of_restarts() -> None:
    with open_engine(broken("notification.py"), timeout=5.0) as engine:
        seen = outcomes(engine, 2 * WINDOW)
        started = len(engine.exits)
    assert started <= MAX_RESTARTS_IN_WINDOW + 1, seen
    assert "broke the reply stream" in seen[-1]


def test_a_spent_run_budget_errors_every_call_at_once() -> None:
    log = io.StringIO()
    server = load_server("pinochle_adapters.reference:server")
    with open_in_process(server, traffic=log) as engine:
        engine.deadline, engine.budget = time.monotonic(), 60.0
        before = log.getvalue()
        seen = outcomes(engine, 3)
        assert log.getvalue() == before  # nothing was sent
    assert all("--run-timeout" in r for r in seen), seen


class HugeReplies:
    """An in-process engine whose meld answers are schema-invalid and almost 1 MiB long."""

    def handle_line(self, line: str) -> str:
        request = json.loads(line)
        if request["method"] == "initialize":
            return server_line(line)
        melds = [{"id": "run", "points": "many"}] * 30_000
        return json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": {"melds": melds}})


def server_line(line: str) -> str:
    return load_server("pinochle_adapters.reference:server").handle_line(line)


def test_a_huge_invalid_reply_is_worded_on_a_capped_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    worded: list[int] = []
    real = protocol.schema_error

    def measured(instance: Any, name: str, root: str) -> str | None:
        worded.append(len(json.dumps(instance)))
        return real(instance, name, root)

    monkeypatch.setattr(protocol, "schema_error", measured)
    with open_in_process(HugeReplies(), timeout=10) as engine:
        seen = outcomes(engine, 2)
    assert all("fails the protocol schema" in r and "characters" in r for r in seen), seen
    assert worded and max(worded) < 10_000


@pytest.mark.slow
def test_a_run_past_its_budget_stops_as_interrupted(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    done = suite("-k", "meld", "--run-timeout", "0.01", "--conformance-report", str(report))
    assert done.returncode == 2, done.stdout[-2000:]
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["complete"] is False and len(document["cases"]) == 1


# --- no engine outlives the run -------------------------------------------------------------------


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting for its parent does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def gone(pids: Any) -> bool:
    """Whether the processes ``pids()`` names have all ended, looking a bounded number of times
    (a SIGKILL is delivered, not awaited)."""
    for _ in range(200):
        if not any(alive(pid) for pid in pids()):
            return True
        time.sleep(0.05)
    return False


def marked() -> set[int]:
    """Live processes carrying a mark of this process's engines."""
    prefix = f"{processes.MARK_ENV}={processes.MARK}-".encode()
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and any(
                v.startswith(prefix) for v in (entry / "environ").read_bytes().split(b"\0")
            ):
                found.add(int(entry.name))
        except OSError:
            continue
    return {pid for pid in found if alive(pid)}


linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


@linux_only
def test_a_daemon_left_by_the_engine_does_not_outlive_it(tmp_path: Path) -> None:
    pid_file = tmp_path / "daemon.pid"
    with open_engine(broken("daemon_orphan.py", str(pid_file)), timeout=5) as engine:
        engine.call("meld", MELD)
    daemon = int(pid_file.read_text(encoding="utf-8"))
    assert gone(lambda: [daemon])


def environment(pid: int) -> list[bytes]:
    return Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")


@linux_only
def test_an_orphan_that_keeps_changing_its_pid_does_not_outlive_the_engine(
    tmp_path: Path,
) -> None:
    count = tmp_path / "generations"
    with open_engine(broken("hopping_orphan.py", str(count)), timeout=5) as engine:
        engine.call("meld", MELD)
    assert gone(marked)
    generations = count.read_text(encoding="utf-8")
    assert gone(marked) and count.read_text(encoding="utf-8") == generations


@linux_only
@pytest.mark.slow
def test_sigterm_ends_a_run_as_ctrl_c_does(tmp_path: Path) -> None:
    """A CI timeout's SIGTERM: the run ends interrupted, its report marked partial, and an
    engine that ignores shutdown and the end of its input is stopped all the same."""
    report, pid_file = tmp_path / "r.json", tmp_path / "engine.pid"
    engine = broken("interrupt_run.py", "3", "SIGTERM", str(pid_file))
    done = suite("-k", "meld", "--engine", engine, "--conformance-report", str(report))
    assert done.returncode == 2, done.stdout[-2000:]
    assert json.loads(report.read_text(encoding="utf-8"))["complete"] is False
    assert gone(lambda: [int(pid_file.read_text(encoding="utf-8"))])


# --- pinochle report's input and output -----------------------------------------------------------


def report_of(name: str) -> dict[str, Any]:
    """A minimal conformance report of an engine called ``name``."""
    return {
        "format": 4,
        "engine": {"command": "x", "name": name, "version": "1"},
        "variants": "all",
        "totals": {"passed": 0, "failed": 0, "errored": 0, "skipped": 0},
        "rules": {},
        "diagnosis": [],
        "cases": {},
    }


def test_report_refuses_too_deep_and_oversized_input_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    deep, big = tmp_path / "deep.json", tmp_path / "big.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    big.write_text(json.dumps(report_of("big")), encoding="utf-8")
    monkeypatch.setattr(site_reports, "REPORT_LIMIT", 100)
    for path in (deep, big):
        assert cli_main(["report", str(path), "-o", str(tmp_path / "site")]) == 2
        errors = capsys.readouterr().err.strip().splitlines()
        assert len(errors) == 1 and str(path) in errors[0], errors


def test_report_leaves_no_page_of_an_engine_no_longer_reported(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(json.dumps(report_of("alpha")), encoding="utf-8")
    second.write_text(json.dumps(report_of("beta")), encoding="utf-8")
    out = tmp_path / "site"
    build_site([first, second], out)
    build_site([second], out)
    assert sorted(p.name for p in (out / "engines").iterdir()) == ["beta-1.html"]
    assert sorted(p.name for p in (out / "badges").iterdir()) == ["beta-1.svg"]


# --- the reference server's wording ---------------------------------------------------------------


def test_the_server_names_the_field_that_cannot_be_read() -> None:
    engine = load_server("pinochle_adapters.reference:server")
    line = (
        '{"jsonrpc": "2.0", "id": 1, "method": "meld", "params": {"variant": "double-deck", '
        '"options": {}, "trump": "h", "hand": ["Ah", "K\\ud800"]}}'
    )
    surrogate = json.loads(engine.handle_line(line))["error"]["message"]
    assert "params.hand[1]" in surrogate and "lone surrogate" in surrogate, surrogate
    deep = {**MELD, "hand": ["Ah"], "options": {"x": json.loads("[" * 200 + "]" * 200)}}
    request = {"jsonrpc": "2.0", "id": 2, "method": "meld", "params": deep}
    nested = json.loads(engine.handle_line(json.dumps(request)))
    assert "params.options.x[0]" in nested["error"]["message"], nested


def test_a_broken_variant_file_stops_the_reference_server_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken_file() -> None:
        raise specdata.DataFileError("spec/variants/double-deck.yaml:3: not a mapping")

    monkeypatch.setattr(reference, "server", broken_file)
    assert reference.main([]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "pinochle-reference-adapter: spec/variants/double-deck.yaml:3: not a mapping"
    ]
