"""The plugin is a good guest in its user's pytest session: it never kills, reaps or takes the exit
status of a process it did not start; a session that is not a run of the suite keeps its signal
handlers, and a run of the suite gives them back at its end (tests/data/user_processes.py is the
user's test file)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

import specdata
from pinochle_adapters.client import _capped_names
from pinochle_adapters.processes import Interrupts
from pinochle_cli import main as cli_main
from pinochle_cli import multi
from pinochle_tools.site import SiteFolderError, build_site, load_runs
from pinochle_tools.site.folder import write_site
from pinochle_tools.site.reports import unique_slugs
from specdata import escaped
from specdata.files import read_at_most
from tests.suite_runs import ROOT, RUN_TIMEOUT, child_environment
from tests.test_reliability import alive, broken, gone, linux_only, python_child

USER_FILE = ROOT / "tests" / "data" / "user_processes.py"


def user_run(tmp_path: Path, *args: str, plain: bool = False) -> dict[str, tuple[bool, str]]:
    """The user's file run in a child pytest with ``args``; each of its checks: (ok, detail)."""
    results, daemon = tmp_path / "results.jsonl", tmp_path / "daemon"
    environ = {"USER_RESULTS": str(results), "USER_DAEMON": str(daemon)}
    environ["USER_PLAIN"] = "1" if plain else "0"
    done = python_child(
        "-m", "pytest", str(USER_FILE), "-q", "-p", "no:cacheprovider", *args, extra=environ
    )
    checks = {}
    for line in results.read_text(encoding="utf-8").splitlines():
        found = json.loads(line)
        checks[found["name"]] = (found["ok"], found["detail"])
    # The daemon was meant to outlive pytest: it must still be there, then this test ends it.
    pid = int(daemon.read_text(encoding="utf-8"))
    try:
        os.kill(pid, 0)
        checks["daemon outlives pytest"] = (True, "")
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        checks["daemon outlives pytest"] = (False, "gone")
    assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]
    return checks


@linux_only
@pytest.mark.slow
@pytest.mark.parametrize("mode", ["plain", "crashing engine"])
def test_the_users_processes_keep_their_lives_and_statuses(tmp_path: Path, mode: str) -> None:
    """Beside an engine that crashes every third request (restarted each time), and without any
    Pinochle option: every fork, pty, daemon, forkserver, server and background spawn of the
    user's keeps its life and its exit status; nothing is adopted."""
    args: tuple[str, ...] = ()
    if mode != "plain":
        meld = str(ROOT / "features" / "tables" / "meld-double-deck.yaml")
        engine = broken("crash_after.py", "2")
        args = (meld, "-k", "user or dd-meld-run", "--engine", engine, "--engine-timeout", "2")
    checks = user_run(tmp_path, *args, plain=mode == "plain")
    wrong = {name: detail for name, (ok, detail) in checks.items() if not ok}
    assert len(checks) >= 15 and not wrong, wrong


def test_interrupts_restore_the_handlers_they_replaced() -> None:
    before = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    interrupts = Interrupts().install()
    replaced = signal.getsignal(signal.SIGTERM) == interrupts.handle
    interrupts.restore()
    assert replaced == (before[1] is signal.SIG_DFL)
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_a_second_interrupt_soon_after_the_first_is_only_recorded() -> None:
    interrupts = Interrupts()
    with pytest.raises(KeyboardInterrupt):
        interrupts.handle(signal.SIGINT, None)
    interrupts.handle(signal.SIGTERM, None)  # the first one's stop goes on
    assert interrupts.count == 2


# --- several engines: this run's files only, one per engine, no run outliving the command ---------


class FakeRun:
    """A ``pinochle test`` child that has already ended: with an engine called ``good`` it wrote
    a green report of one case where ``--conformance-report`` says; any other engine could not
    start (exit 4, no report)."""

    started: ClassVar[list[list[str]]] = []
    options: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, command: list[str], stdout: Any, **kw: Any) -> None:
        FakeRun.started.append(command)
        FakeRun.options.append(kw)
        self.returncode = 0 if command[command.index("--engine") + 1] == "good" else 4
        stdout.write(b"1 passed\n" if self.returncode == 0 else b"cannot start\n")
        if self.returncode == 0:
            report = Path(command[command.index("--conformance-report") + 1])
            report.write_text(json.dumps(single_report("good")), encoding="utf-8")

    def poll(self) -> int:
        return self.returncode


def single_report(name: str) -> dict[str, Any]:
    """A small valid single report of an engine called ``name`` that passed one case."""
    case = {"outcome": "passed", "rule": "PLAY-CRAWL", "uses": [], "rules": ["PLAY-CRAWL"]}
    counts = {"passed": 1, "failed": 0, "errored": 0, "skipped": 0}
    return {
        "format": 4,
        "engine": {"command": name, "name": name, "version": "1"},
        "variants": "all",
        "totals": counts,
        "rules": {"PLAY-CRAWL": counts},
        "diagnosis": [],
        "cases": {"features/tables/legal-plays-double-deck.yaml::x": case},
    }


def test_several_engines_write_this_runs_files_one_per_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An earlier run's green report of engine 2 and a link planted as engine 1's log: engine 2,
    which cannot start, has no verdict; the link's target is untouched; each run writes its own
    JUnit file and traffic log."""
    runs, victim = tmp_path / "runs", tmp_path / "victim.txt"
    runs.mkdir()
    victim.write_text("mine\n", encoding="utf-8")
    (runs / "good.log").symlink_to(victim)
    (runs / "broken.json").write_text(json.dumps(single_report("earlier")), encoding="utf-8")
    combined, junit, traffic = tmp_path / "all.json", tmp_path / "j.xml", tmp_path / "t.log"
    monkeypatch.setattr(multi.subprocess, "Popen", FakeRun)
    FakeRun.started.clear()
    FakeRun.options.clear()
    args = ["--conformance-report", str(combined), f"--junitxml={junit}", "--log-traffic"]
    assert multi.run_engines(["good", "broken"], [*args, str(traffic)], runs) == 4
    assert victim.read_text(encoding="utf-8") == "mine\n"
    assert (runs / "good.log").read_text(encoding="utf-8") == "1 passed\n"
    document = json.loads(combined.read_text(encoding="utf-8"))
    assert [r["engine"]["name"] for r in document["reports"]] == ["good"]
    assert [m["command"] for m in document["missing"]] == ["broken"]
    assert not (runs / "broken.json").exists()
    for name, command in zip(("good", "broken"), FakeRun.started, strict=True):
        assert command[command.index("--junitxml") + 1] == str(tmp_path / f"j.{name}.xml")
        assert command[command.index("--log-traffic") + 1] == str(tmp_path / f"t.{name}.log")
    if sys.platform.startswith("linux"):  # each run is told when the command dies
        assert all(kw["preexec_fn"] is multi._die_with_parent for kw in FakeRun.options)


def test_runs_dir_without_engine_tests_the_reference_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[Any] = []
    monkeypatch.setattr(multi, "run_engines", lambda engines, *rest: asked.append(engines) or 0)
    assert cli_main(["test", "--runs-dir", "somewhere", "-q"]) == 0
    assert asked == [[None]]


PARENT = """
import subprocess, sys, time
from pinochle_cli import multi
from pinochle_tools.site import SiteFolderError, build_site, load_runs
from pinochle_tools.site.folder import write_site
from pinochle_tools.site.reports import unique_slugs
import specdata
from specdata import escaped
from specdata.files import read_at_most
run = [sys.executable, "-c", "import time; time.sleep(60)"]
child = subprocess.Popen(run, preexec_fn=multi._die_with_parent)
print(child.pid, flush=True)
time.sleep(60)
"""


@linux_only
def test_the_runs_of_a_killed_command_end_with_it() -> None:
    """A ``pinochle test`` with several engines killed (SIGKILL, no chance to stop its runs):
    each run it started is told by the kernel (SIGTERM, which a run takes as an interrupt)."""
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        run = int(parent.stdout.readline())
        assert alive(run)
    finally:
        parent.kill()
        parent.wait()
    assert gone(lambda: [run])


ONLY_MELD_TABLES = ("--ignore-glob=*/test_*.py", "--ignore-glob=*/tables/[!m]*.yaml")
"""Each run collects the meld tables only (the whole packaged suite costs each run seconds)."""


@linux_only
@pytest.mark.slow
def test_a_ctrl_c_of_several_engines_leaves_only_partial_reports(tmp_path: Path) -> None:
    """A terminal's Ctrl-C reaches ``pinochle test`` and each of its runs, which then get the
    SIGTERM it sends them too: a second interrupt, recorded, never a run reported complete."""
    engine = broken("interrupt_run.py", "5", "group:SIGINT")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pinochle_cli",
            "test",
            "--engine",
            engine,
            "--engine",
            engine,
            "--runs-dir",
            str(tmp_path),
            "-k",
            "meld",
            "--variant",
            "double-deck",
            "-q",
            *ONLY_MELD_TABLES,
        ],
        cwd=ROOT,
        env={**child_environment(), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        start_new_session=True,  # its own group: the Ctrl-C reaches nothing else
        check=False,
    )
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
    stems = multi.engine_stems([engine, engine])
    written = [
        json.loads((tmp_path / f"{stem}.json").read_text(encoding="utf-8"))
        for stem in stems
        if (tmp_path / f"{stem}.json").exists()
    ]
    assert written, done.stdout[-2000:]
    assert all(d["complete"] is False and d["exit_status"] == 2 for d in written)
    assert not (tmp_path / "site").exists()


# --- names from engines ---------------------------------------------------------------------------

HOSTILE = "evil\x1b[2J\x1b]0;PWNED-TITLE\x07\x1b]52;c;ZWNobyBwd25lZA==\x07\x9b"
"""Clear the screen, set the window title, write the clipboard (OSC 52), a C1 CSI."""


def test_an_engines_name_and_version_reach_no_terminal_with_control_characters() -> None:
    info = _capped_names({"engine": {"name": HOSTILE, "version": "1\r\n2"}, "variants": []})
    named = info["engine"]
    assert not any(ord(c) < 32 or 127 <= ord(c) < 160 for c in named["name"] + named["version"])
    assert named["name"].startswith("evil\\x1b[2J") and named["version"] == "1\\x0d\\x0a2"
    assert escaped("plain name 1.0 ♠") == "plain name 1.0 ♠"


# --- output folders: only the site's own files --------------------------------------------------


def report_file(folder: Path, name: str, version: str = "1", failed: bool = False) -> Path:
    document = single_report(name)
    document["engine"]["version"] = version
    if failed:
        case = document["cases"]["features/tables/legal-plays-double-deck.yaml::x"]
        case["outcome"] = "failed"
        document["totals"] = document["rules"]["PLAY-CRAWL"] = {
            "passed": 0,
            "failed": 1,
            "errored": 0,
            "skipped": 0,
        }
    path = folder / f"{name}-{version}-{failed}.json".replace(" ", "_")
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_site_is_written_beside_the_users_files_and_removes_only_its_own(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "docs"
    mine = ["badges/coverage.svg", "rules/house-rules.html", "engines/architecture.html", "a.md"]
    for name in mine:
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(f"user's {name}", encoding="utf-8")
    assert cli_main(["report", str(report_file(tmp_path, "alpha")), "-o", str(docs)]) == 0
    assert (docs / "engines" / "alpha-1.html").exists()
    assert cli_main(["report", str(report_file(tmp_path, "beta")), "-o", str(docs)]) == 0
    assert not (docs / "engines" / "alpha-1.html").exists()  # the earlier site's own page
    assert (docs / "engines" / "beta-1.html").exists()
    assert all((docs / n).read_text(encoding="utf-8") == f"user's {n}" for n in mine)


@pytest.mark.parametrize("planted", ["index.html", "style.css", "badges/alpha-1.svg"])
def test_a_site_that_would_replace_a_users_file_is_refused_in_one_line(
    tmp_path: Path, planted: str, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    (docs / planted).parent.mkdir(parents=True)
    (docs / planted).write_text("mine", encoding="utf-8")
    assert cli_main(["report", str(report_file(tmp_path, "alpha")), "-o", str(docs)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and planted.split("/")[-1] in err
    assert (docs / planted).read_text(encoding="utf-8") == "mine"
    assert sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*") if p.is_file()) == [
        planted
    ]


def test_a_site_never_writes_through_a_linked_folder(tmp_path: Path) -> None:
    site, assets = tmp_path / "site", tmp_path / "assets"
    assets.mkdir()
    (assets / "logo.svg").write_text("logo", encoding="utf-8")
    site.mkdir()
    (site / "badges").symlink_to(assets)
    with pytest.raises(SiteFolderError, match="symbolic link"):
        write_site(site, {"index.html": "x", "badges/a.svg": "y"})
    assert sorted(p.name for p in assets.iterdir()) == ["logo.svg"]
    assert not (site / "index.html").exists()


def test_the_spec_site_keeps_the_users_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "search.html").write_text("mine", encoding="utf-8")
    assert cli_main(["spec", "site", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "search.html" in err
    assert (tmp_path / "search.html").read_text(encoding="utf-8") == "mine"
    assert [p.name for p in tmp_path.iterdir()] == ["search.html"]


def test_engines_whose_names_make_the_same_file_name_get_a_column_each(tmp_path: Path) -> None:
    """ "pin 1", "pin 1" failing and "pin 1 2": three pages, three badges, the failing one red."""
    reports = [
        report_file(tmp_path, "pin", "1"),
        report_file(tmp_path, "pin", "1", failed=True),
        report_file(tmp_path, "pin", "1 2"),
    ]
    build_site(reports, tmp_path / "site")
    runs = [r for p in reports for r in load_runs(p)]
    unique_slugs(runs)
    slugs = [r.slug for r in runs]
    assert len(set(slugs)) == 3
    badges = {p.stem: p.read_text(encoding="utf-8") for p in (tmp_path / "site/badges").iterdir()}
    assert sorted(badges) == sorted(slugs)
    assert "0/1 passed" in badges[slugs[1]] and "1/1 passed" in badges[slugs[2]]
    assert len(list((tmp_path / "site/engines").iterdir())) == 3


# --- input files of every kind, and the libraries' limits -----------------------------------------

devices = pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")


@devices
def test_size_caps_hold_for_a_device(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``/dev/zero`` has no size to check first: each reader reads at most its cap + 1 bytes."""
    assert read_at_most("/dev/zero", 1000) is None
    with pytest.raises(specdata.DataFileError, match=r"^/dev/zero: more than \d+ bytes"):
        specdata.load_yaml(Path("/dev/zero"))
    for command in (["replay", "/dev/zero"], ["report", "/dev/zero", "-o", str(tmp_path / "site")]):
        assert cli_main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "/dev/zero: more than" in err, err


def test_a_yaml_integer_past_pythons_limit_is_one_line_naming_file_and_line(
    tmp_path: Path,
) -> None:
    listed = tmp_path / "k.yaml"
    long_number = "9" * 5000
    listed.write_text(
        f"format: 1\nknown_failures:\n- {{case: x, reason: {long_number}}}\n", encoding="utf-8"
    )
    with pytest.raises(specdata.DataFileError) as caught:
        specdata.load_yaml(listed)
    assert str(caught.value).startswith(f"{listed}:3: ") and "\n" not in str(caught.value)
