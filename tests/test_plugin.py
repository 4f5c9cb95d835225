"""The pytest_pinochle plugin: runs in one process stay apart, usage errors, errored vs failed,
broken tables as one error line, and no effect on pytest runs that are not the suite."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pinochle_judge.cases import TABLES_DIR, load_table
from pytest_pinochle import plugin
from tests.suite_runs import BASE_ARGS, ROOT, run_suite

QUIET = list(BASE_ARGS)


def run_in_process(args: list[str], report: Path | None = None) -> tuple[int, dict[str, Any]]:
    """``pytest.main`` in this process; its exit status and its conformance report (if any)."""
    extra = ["--conformance-report", str(report)] if report is not None else []
    status = pytest.main([*QUIET, *extra, *args])
    document = json.loads(report.read_text(encoding="utf-8")) if report and report.exists() else {}
    return int(status), document


def case_nodes(table: str, count: int) -> list[str]:
    path = TABLES_DIR / table
    return [f"{path}::{case.id}" for case in load_table(path)[:count]]


def test_two_runs_in_one_process_report_only_their_own_cases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = case_nodes("meld-double-deck.yaml", 10)
    second = case_nodes("trick-winner-single-deck.yaml", 4)
    status, report = run_in_process(first, tmp_path / "first.json")
    assert status == 0
    assert len(report["cases"]) == 10 and report["totals"]["passed"] == 10
    capsys.readouterr()

    status, report = run_in_process(second, tmp_path / "second.json")
    out = capsys.readouterr().out
    assert status == 0
    assert sorted(report["cases"]) == sorted(
        f"features/tables/trick-winner-single-deck.yaml::{n.split('::')[1]}" for n in second
    )
    assert report["totals"] == {"passed": 4, "failed": 0, "errored": 0, "skipped": 0}
    assert "total: 4 cases judged (4 hand-worked, 0 derived), 4 passed, 0 failed" in out


def test_an_empty_engine_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """An unset variable in CI (``--engine "$ENGINE"``) must not test the reference engine."""
    status, _ = run_in_process(["--engine", " ", *case_nodes("meld-double-deck.yaml", 1)])
    assert status == pytest.ExitCode.USAGE_ERROR
    assert "--engine is empty" in capsys.readouterr().err


def test_an_unknown_variant_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = run_in_process(["--variant", "dubble-deck", *case_nodes("meld-online.yaml", 1)])
    assert status == pytest.ExitCode.USAGE_ERROR
    assert "known variants are double-deck" in capsys.readouterr().err


@pytest.mark.slow
def test_an_engine_fault_errors_table_cases_and_scenarios_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An engine answering garbage: every case errors (never fails) with a one-line cause."""
    garbage = f"{sys.executable} {ROOT / 'tests' / 'broken_engines' / 'garbage.py'}"
    scenario = str(ROOT / "features" / "test_meld.py")
    nodes = [*case_nodes("meld-double-deck.yaml", 2), scenario, "-k", "88point or dd-meld"]
    status, report = run_in_process(["--engine", garbage, *nodes], tmp_path / "r.json")
    out = capsys.readouterr().out
    assert status == pytest.ExitCode.TESTS_FAILED
    outcomes = {node: case["outcome"] for node, case in report["cases"].items()}
    assert any("test_meld.py::" in node for node in outcomes), outcomes
    assert any(".yaml::" in node for node in outcomes), outcomes
    assert set(outcomes.values()) == {"errored"}
    assert "engine error in dd-meld" in out
    assert "engine error in features/meld.feature: The 88-point example hand" in out
    assert "the reply is not JSON" in out
    assert f"{len(outcomes)} errors" in out
    assert "Traceback" not in out


def test_a_wrong_answer_fails_with_the_case_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mutant engine's wrong answer is a failure described in the game's language."""
    mutant = f"{sys.executable} -m tests.mutants no_last_trick"
    nodes = [str(TABLES_DIR / "card-points-double-deck.yaml")]
    status, report = run_in_process(["--engine", mutant, *nodes], tmp_path / "r.json")
    out = capsys.readouterr().out
    assert status == pytest.ExitCode.TESTS_FAILED
    failed = [n for n, c in report["cases"].items() if c["outcome"] == "failed"]
    assert failed and "POINTS-LAST-TRICK" in report["rules"]
    assert "wrong answer in" in out and "mismatches:" in out and "points: expected" in out


def test_a_broken_table_is_one_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A typo in a table's input stops collection with file:line, before any engine is asked."""
    table = tmp_path / "meld-typo.yaml"
    table.write_text(
        "area: meld\nmethod: meld\nvariant: double-deck\ncases:\n"
        "  - id: typo\n    rules: [MELD-RUN]\n"
        "    input:\n      trmup: h\n      hand: AhThKhQhJh\n"
        "    expect: {total: 16}\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(plugin, "_tables_dir", lambda: tmp_path)
    status, _ = run_in_process([str(table), "--rootdir", str(tmp_path)])
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert status == pytest.ExitCode.USAGE_ERROR
    assert "meld-typo.yaml:8: input of typo: unknown field 'trmup'" in out
    assert "Traceback" not in out and "conformance by rule" not in out


@pytest.mark.slow
def test_the_plugin_is_inert_in_another_project(tmp_path: Path) -> None:
    """Autoloaded in every pytest run of the venv, it must not touch a project that is not the
    suite: no table collection, no summary, no report, even with its own features/ and tables/."""
    (tmp_path / "test_own.py").write_text("def test_own():\n    assert True\n", encoding="utf-8")
    for folder in ("features", "tables"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "meld-double-deck.yaml").write_text("not: [a table\n")
    (tmp_path / "features" / "__init__.py").write_text("")
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *QUIET, "--conformance-report", str(report)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
    assert "conformance by rule" not in done.stdout
    assert not report.exists()


def test_an_engine_without_the_suite_says_how_to_run_the_packaged_suite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pytest --engine ...`` outside a checkout, without ``--pinochle``: not a bare "collected
    0 items" but the two ways to run the packaged suite."""
    status, _ = run_in_process(["--engine", "node my_adapter.js", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == pytest.ExitCode.NO_TESTS_COLLECTED
    assert "pytest --pinochle --engine" in out and "pinochle test --engine" in out
    status, _ = run_in_process([str(tmp_path)])
    assert "--pinochle" not in capsys.readouterr().out


COMPLETE_TRICKS_ONLY = """\
import sys
sys.path.insert(0, {root!r})
from pinochle_adapters import sdk
from pinochle_adapters.reference import ReferenceEngine


class CompleteTricksOnly(ReferenceEngine):
    def trick_winner(self, params):
        if len(params["trick"]) < 4:
            raise sdk.Unsupported("trick_winner: only complete tricks of four cards")
        return super().trick_winner(params)


sys.exit(sdk.serve(CompleteTricksOnly()))
"""


@pytest.mark.slow
def test_a_winner_function_for_complete_tricks_only_skips_the_shorter_tricks(
    tmp_path: Path,
) -> None:
    """An engine may answer ``trick_winner`` on 1-3 cards with -32001 unsupported: those cases
    are skipped with its message, never errored, and the complete tricks are still judged."""
    engine = tmp_path / "complete_tricks_only.py"
    engine.write_text(COMPLETE_TRICKS_ONLY.format(root=str(ROOT)), encoding="utf-8")
    table = TABLES_DIR / "trick-winner-single-deck.yaml"
    cases = load_table(table)
    short = {f"{table.relative_to(ROOT)}::{c.id}" for c in cases if len(c.params["trick"]) < 4}
    full = {f"{table.relative_to(ROOT)}::{c.id}" for c in cases if len(c.params["trick"]) == 4}
    assert short and full, "the table needs tricks of both kinds for this test to mean anything"
    run = run_suite(f"{sys.executable} {engine}", paths=[str(table.relative_to(ROOT))])
    assert run.returncode == 0, run.tail()
    assert run.items("skipped") == short
    assert full <= run.items("passed")
    assert not run.items("errored") and not run.items("failed")
    assert "only complete tricks of four cards" in run.output
    # Skips are listed by the case's table, never by a line of the plugin that skipped them.
    skip_lines = [x for x in run.output.splitlines() if x.startswith("SKIPPED")]
    assert skip_lines and all(
        f"{table.relative_to(ROOT)}: " in x and "pytest_pinochle" not in x for x in skip_lines
    ), skip_lines
    # The gap is shown per rule: a rule an engine breaks cannot hide behind "unsupported".
    rules = sorted({run.outcomes[node]["rule"] for node in short})
    line = next(x for x in run.output.splitlines() if x.startswith("answered unsupported"))
    assert all(rule in line for rule in rules), line


def _as_any_process(cases: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A report's cases without what tells processes apart: the request's id (its place in the
    process's run) and the failure text (xdist heads it with the worker's name)."""
    kept = {}
    for node, case in cases.items():
        case = {k: v for k, v in case.items() if k != "message"}
        if case.get("request"):
            request = json.loads(case["request"])
            del request["id"]
            case["request"] = request
        kept[node] = case
    return kept


@pytest.mark.slow
def test_xdist_workers_report_each_case_as_a_serial_run_does(tmp_path: Path) -> None:
    """What a report says of each case besides its verdict (variant, options, method, the
    request line, whether it reached its rule, how its deal was re-based) and the diagnosis
    built on it come back from xdist workers as from one process: they ride on the reports.

    A whole-hands house engine (``pass_cards=3``: re-based deals, cases not reaching their
    rule) with a planted trick-play bug, on single-deck tables of whole hands and of scores."""
    from tests.suite_runs import python_engine, python_module

    engine = python_engine("tests.house_engines", "sd-pass-3", "partner-crawl")
    tables = [f"features/tables/{t}-single-deck.yaml" for t in ("hands", "reach", "scoring")]
    args = [*tables, "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--engine", engine]
    documents = []
    for name, workers in (("serial", ["-p", "no:xdist"]), ("xdist", ["-n", "2"])):
        report = tmp_path / f"{name}.json"
        python_module("pytest", *args, *workers, "--conformance-report", str(report))
        documents.append(json.loads(report.read_text(encoding="utf-8")))
    serial, xdist = documents
    cases = serial["cases"]
    assert any(c["outcome"] == "failed" for c in cases.values()), "the planted bug is not seen"
    assert any(c.get("rebased") for c in cases.values()), "no deal was re-based"
    assert any(c.get("reached") is False for c in cases.values()), "every case reached its rule"
    assert all(c.get("request") for c in cases.values() if c["outcome"] != "skipped")
    assert _as_any_process(xdist["cases"]) == _as_any_process(cases)
    assert xdist["diagnosis"] == serial["diagnosis"]
    assert xdist["reach"] == serial["reach"]


@pytest.mark.slow
def test_junit_properties_are_plain_text(tmp_path: Path) -> None:
    """A JUnit XML report shows the tested rule, its uses and the variant as text: never a
    Python tuple or dict repr."""
    import sys
    import xml.etree.ElementTree as ET

    from tests.suite_runs import python_module

    junit = tmp_path / "j.xml"
    python_module(
        "pytest",
        "features/",
        "-q",
        "-p",
        "no:cacheprovider",
        "-k",
        "dd-meld-88-example-hearts",
        "--engine",
        f"{sys.executable} -m tests.mutants run-plus-royal",
        f"--junitxml={junit}",
    )
    props = {p.get("name"): p.get("value") for p in ET.parse(junit).iter("property")}
    assert props["rule"] == "MELD-TYPES" and props["variant"] == "double-deck"
    assert props["uses"].split() == sorted(props["uses"].split()) and "MELD-RUN" in props["uses"]
    assert not any(v and v[0] in "({['" for v in props.values()), props
