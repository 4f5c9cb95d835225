"""``pinochle test --engine A --engine B``: one run per engine, one site and one combined report
comparing them, the exit status of the worst engine; ``pinochle report`` reads the combined
report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pinochle_cli import commands, multi
from pinochle_cli.multi import run_engines, run_summary, split_engines
from pinochle_judge.counts import Count
from pinochle_tools.site import ReportError, load_runs, reports
from specdata.files import write_atomic

from .suite_runs import ROOT, child_environment

REFERENCE = f"{sys.executable} -m pinochle_adapters.reference"
MUTANT = f"{sys.executable} -m tests.mutants no_last_trick"


def test_engines_are_taken_out_of_the_pytest_options() -> None:
    engines, rest, runs_dir = split_engines(
        ["--engine", "a b", "-q", "--engine=c", "--runs-dir", "out", "-m", "slow"]
    )
    assert engines == ["a b", "c"]
    assert rest == ["-q", "-m", "slow"]
    assert runs_dir == "out"
    assert split_engines(["-q"]) == ([], ["-q"], None)


@pytest.fixture(scope="module")
def two_engines(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int, str]:
    """One ``pinochle test`` of the reference and a mutant on one rule's cases, with one
    combined report: the runs folder, the report, the exit status and what it printed."""
    out = tmp_path_factory.mktemp("runs")
    combined = out / "all.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pinochle_cli",
            "test",
            "--engine",
            REFERENCE,
            "--engine",
            MUTANT,
            "--runs-dir",
            str(out),
            "--conformance-report",
            str(combined),
            "-m",
            "rule(id='POINTS-LAST-TRICK')",
            "-q",
        ],
        cwd=ROOT,
        env={**child_environment(), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert combined.exists(), done.stdout + done.stderr
    return out, combined, done.returncode, done.stdout


def what_fails(site: Path) -> str:
    index = (site / "index.html").read_text("utf-8")
    return index.split('id="what-fails"', 1)[1].split("</section>", 1)[0]


@pytest.mark.slow
def test_two_engines_one_site_and_the_worst_status(
    two_engines: tuple[Path, Path, int, str],
) -> None:
    out, _, status, printed = two_engines
    assert status == 1  # the mutant's failures
    names = sorted(
        json.loads((out / f"{stem}.json").read_text("utf-8"))["engine"]["name"]
        for stem in multi.engine_stems([REFERENCE, MUTANT])
    )
    assert names == ["pinochle-mutant-no-last-trick", "pinochle-reference"]
    listing = what_fails(out / "site")
    assert "POINTS-LAST-TRICK" in listing
    assert "pinochle-reference" not in listing
    assert len(list((out / "site" / "engines").glob("*.html"))) == 2
    # Each run's line names its report and gives the run's one count, the report's own.
    for command in (REFERENCE, MUTANT):
        name = f"{multi.engine_stem(command)}.json"
        report = json.loads((out / name).read_text("utf-8"))
        count = Count.of_report(report)
        line = next(x for x in printed.splitlines() if x.startswith(f"{command} ("))
        assert f"({out / name}): exit {report['exit_status']}; " in line
        assert f"total: {count.judged} cases judged" in line
        assert f"{count.passed} passed, {count.failed} failed" in line


def test_a_runs_line_gives_the_runs_count_or_its_last_line(tmp_path: Path) -> None:
    log = tmp_path / "engine-1.log"
    log.write_text(
        "collected 3 items\n\ntotal: 2 cases judged (2 hand-worked, 0 derived), 2 passed, 0 "
        "failed, 0 errored; 1 skipped\n\n=== 2 passed, 1 skipped in 0.1s ===\n",
        encoding="utf-8",
    )
    assert run_summary(log).startswith("total: 2 cases judged")
    log.write_text("ERROR: the engine cannot start\n\n", encoding="utf-8")
    assert run_summary(log) == "ERROR: the engine cannot start"


@pytest.mark.slow
def test_one_combined_report_holds_every_engine_in_order(
    two_engines: tuple[Path, Path, int, str],
) -> None:
    out, combined, status, _ = two_engines
    document = json.loads(combined.read_text("utf-8"))
    assert list(reports.checker(reports.COMBINED).errors(document)) == []
    assert document["exit_status"] == status == 1
    assert [r["engine"]["command"] for r in document["reports"]] == [REFERENCE, MUTANT]
    singles = [
        json.loads((out / f"{multi.engine_stem(c)}.json").read_text("utf-8"))
        for c in (REFERENCE, MUTANT)
    ]
    assert document["reports"] == singles  # each engine's report, unchanged
    assert "missing" not in document


@pytest.mark.slow
def test_pinochle_report_builds_the_comparing_site_from_the_combined_report(
    two_engines: tuple[Path, Path, int, str], tmp_path: Path
) -> None:
    out, combined, _, _ = two_engines
    assert commands.run(["report", str(combined), "-o", str(tmp_path / "site")]) == 0
    assert len(list((tmp_path / "site" / "engines").glob("*.html"))) == 2
    listing = what_fails(tmp_path / "site")
    assert "POINTS-LAST-TRICK" in listing and "pinochle-reference" not in listing
    # A single report and a combined one together: three columns, the same engine told apart.
    mixed = tmp_path / "mixed"
    single = str(out / f"{multi.engine_stem(REFERENCE)}.json")
    assert commands.run(["report", single, str(combined), "-o", str(mixed)]) == 0
    pages = sorted(p.name for p in (mixed / "engines").glob("*.html"))
    assert len(pages) == 3
    assert "all.json, engine 1" in (mixed / "index.html").read_text("utf-8")


def _single(name: str) -> dict[str, Any]:
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


def test_a_combined_report_is_read_engine_by_engine(tmp_path: Path) -> None:
    path = tmp_path / "all.json"
    write_atomic(path, json.dumps(reports.combined([_single("a"), _single("b")], 0)))
    runs = load_runs(path)
    assert [r.command for r in runs] == ["a", "b"]
    assert [r.source for r in runs] == ["all.json, engine 1", "all.json, engine 2"]
    write_atomic(tmp_path / "c.json", json.dumps(_single("c")))
    assert [(r.command, r.source) for r in load_runs(tmp_path / "c.json")] == [("c", "c.json")]


@pytest.mark.parametrize(
    "change",
    ["a report without its engine", "no report at all", "an unknown field", "a wrong version"],
)
def test_a_broken_combined_report_is_refused_in_one_line(tmp_path: Path, change: str) -> None:
    document = reports.combined([_single("a"), _single("b")], 1)
    if change == "a report without its engine":
        del document["reports"][1]["engine"]
    elif change == "no report at all":
        document["reports"] = []
    elif change == "an unknown field":
        document["engines"] = 2
    else:
        document["combined"] = 2
    path = tmp_path / "all.json"
    write_atomic(path, json.dumps(document))
    with pytest.raises(ReportError, match=r"^\S*all\.json: ") as caught:
        load_runs(path)
    assert "\n" not in str(caught.value)


def test_a_combined_report_into_a_missing_folder_is_refused_before_any_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "no-such-folder" / "all.json"
    engines = ["/no/such/engine-a", "/no/such/engine-b"]
    status = run_engines(engines, ["--conformance-report", str(target)], tmp_path / "runs")
    err = capsys.readouterr().err
    assert status == 4
    assert err.count("\n") == 1 and "--conformance-report" in err and "does not exist" in err
    assert not (tmp_path / "runs").exists()  # nothing was started


def test_each_engines_files_are_named_by_its_command_one_name_each() -> None:
    stems = multi.engine_stems(
        [None, "python my-engine/my_engine.py", "pin 1", "pin 1", "pin 1 2", "java -jar e.jar"]
    )
    assert stems == ["reference", "my_engine", "pin-1", "pin-1-2", "pin-1-2-2", "e"]
    # Control characters, quotes and folders never reach a file name.
    hostile = multi.engine_stem("node \x1b]52;c;eA==\x07 ../../etc/passwd 'a b'")
    assert hostile and all(c.isalnum() or c in "._-" for c in hostile)
    assert multi.engine_stem("./x " + "y" * 500) == ("x-" + "y" * 500)[: multi.STEM_LIMIT]


def test_a_runs_folder_drops_the_files_its_last_run_listed_and_no_other(tmp_path: Path) -> None:
    (tmp_path / "old-engine.json").write_text("{}", encoding="utf-8")
    (tmp_path / "notes.json").write_text("{}", encoding="utf-8")
    listed = ["old-engine.json", "../outside.json", "notes.txt", "/abs.json"]
    write_atomic(tmp_path / multi.RUNS_MANIFEST, json.dumps({"files": listed}))
    assert multi.earlier_runs(tmp_path) == [tmp_path / "old-engine.json"]
    (tmp_path / multi.RUNS_MANIFEST).write_text("not json", encoding="utf-8")
    assert multi.earlier_runs(tmp_path) == []
