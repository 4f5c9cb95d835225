"""Every error path of the ``pinochle`` command: one line on stderr naming what is wrong, the
documented exit status (README, "Exit statuses"), never a traceback.

Each bad invocation runs in this process through ``pinochle_cli.main`` where it can; those that
start an engine or a whole pytest run are child processes, marked slow.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

import pinochle_cli
from pinochle_cli import INTERRUPTED, main
from pinochle_cli import commands as cli_commands
from pinochle_fuzz import campaign
from specdata import files
from tests.suite_runs import PYTHON
from tests.test_reliability import gone, python_child

USAGE, BROKEN_RUN = 2, 4
"""The statuses: 2 a bad command line or input file (argparse's own too), 4 ``pinochle test``
cannot run (pytest's usage error); 1 is kept for "the engine disagrees" (not an error here)."""
REFERENCE = "pinochle_adapters.reference:server"
FUZZ = ["fuzz", "--engine", REFERENCE, "--in-process", "--hands", "1"]
NOT_A_COMMAND = "no-such-engine-command-20"
BROKEN = Path(__file__).parent / "broken_engines"

slow = pytest.mark.slow


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    """A folder of bad inputs: a folder, a plain file, broken JSON and YAML, JSON nested too
    deeply, JSON of the wrong shape, a YAML file that fails its schema, a good report, a starter
    already written."""
    (tmp_path / "adir").mkdir()
    (tmp_path / "file.txt").write_text("hi\n", encoding="utf-8")
    (tmp_path / "bad.json").write_text("{\n", encoding="utf-8")
    (tmp_path / "bad.yaml").write_text("a: [\n", encoding="utf-8")
    (tmp_path / "deep.json").write_text("[" * 100_000, encoding="utf-8")
    (tmp_path / "shape.json").write_text('{"x": 1}\n', encoding="utf-8")
    (tmp_path / "schema.yaml").write_text("format: 1\n", encoding="utf-8")
    report = {
        "format": 4,
        "engine": {"command": "x", "name": "x", "version": "1"},
        "variants": "all",
        "totals": {"passed": 0, "failed": 0, "errored": 0, "skipped": 0},
        "rules": {},
        "diagnosis": [],
        "cases": {},
    }
    (tmp_path / "report.json").write_text(json.dumps(report), encoding="utf-8")
    (tmp_path / "starter").mkdir()
    (tmp_path / "starter" / "my_engine.py").write_text("", encoding="utf-8")
    return tmp_path


def case(name: str, argv: str, status: int, says: str, *marks: Any) -> Any:
    """One bad invocation: ``argv`` ({in} is the inputs folder), its status, what its line says.
    Where argparse or jsonschema words the fault, only the input it names is asserted (their
    wording is theirs, and changes between releases)."""
    return pytest.param(argv, status, says, id=name, marks=marks)


BAD = [
    # no command, or no such command
    case("no-command", "", USAGE, "command"),
    case("unknown-command", "nope", USAGE, "'nope'"),
    # play
    case("play-variant", "play --variant nope", USAGE, "--variant"),
    case("play-seed", "play --seed x", USAGE, "seed 'x' is not an integer"),
    case("play-option-form", "play --option bad", USAGE, "name=value"),
    case("play-option-name", "play --option nosuch=1", USAGE, "no option 'nosuch'"),
    case("play-option-value", "play --option run=abc", USAGE, "run='abc'"),
    case("play-dealer", "play --dealer 9", USAGE, "--dealer"),
    case("play-max-hands", "play --max-hands 0", USAGE, "not above zero"),
    case("play-record-no-folder", "play --record {in}/missing/r.json", USAGE, "does not exist"),
    case("play-record-folder", "play --record {in}/adir", USAGE, "is a folder"),
    case("play-record-in-file", "play --record {in}/file.txt/r.json", USAGE, "file.txt"),
    # replay
    case("replay-missing", "replay {in}/missing.json", USAGE, "cannot read"),
    case("replay-folder", "replay {in}/adir", USAGE, "is a folder, not a file"),
    case("replay-bad-json", "replay {in}/bad.json", USAGE, "bad.json:2: not JSON"),
    case("replay-deep", "replay {in}/deep.json", USAGE, "nested too deeply"),
    case("replay-shape", "replay {in}/shape.json", USAGE, "'format'"),
    # spec
    case("spec-unknown", "spec nope", USAGE, "'nope'"),
    case("spec-check-and-write", "spec coverage --check --write", USAGE, "--check"),
    case("spec-site-to-file", "spec site -o {in}/file.txt", USAGE, "is a file, not a folder"),
    case("spec-site-in-file", "spec site -o {in}/file.txt/site", USAGE, "is a file"),
    case("spec-site-no-folder", "spec site -o {in}/missing/site", USAGE, "does not exist"),
    # suite export
    case("export-no-folder", "suite export {in}/missing/o.json", USAGE, "does not exist"),
    case("export-to-folder", "suite export {in}/adir", USAGE, "is a folder"),
    case("export-tables-missing", "suite export - --tables {in}/no.yaml", USAGE, "cannot read"),
    case(
        "export-tables-folder",
        "suite export - --tables {in}/adir",
        USAGE,
        "is a folder, not a file",
    ),
    case("export-tables-bad", "suite export - --tables {in}/bad.yaml", USAGE, "not valid YAML"),
    case("export-tables-schema", "suite export - --tables {in}/schema.yaml", USAGE, "and 4 more"),
    case("export-variant", "suite export - --variant nope", USAGE, "unknown variant nope"),
    case("export-method", "suite export - --method nope", USAGE, "unknown method nope"),
    # case
    case("case-unknown", "case nope-case", USAGE, "no case ID 'nope-case'"),
    case(
        "case-engine-missing",
        f"case dd-meld-run-single --engine {NOT_A_COMMAND}",
        USAGE,
        "status 127",
        slow,
    ),
    # report
    case("report-missing", "report {in}/missing.json -o {in}/s", USAGE, "cannot read"),
    case("report-folder", "report {in}/adir -o {in}/s", USAGE, "is a folder, not a file"),
    case("report-bad-json", "report {in}/bad.json -o {in}/s", USAGE, "not JSON"),
    case("report-deep", "report {in}/deep.json -o {in}/s", USAGE, "nested too deeply"),
    case("report-shape", "report {in}/shape.json -o {in}/s", USAGE, "not a conformance report"),
    case("report-to-file", "report {in}/report.json -o {in}/file.txt", USAGE, "is a file"),
    case("report-no-folder", "report {in}/report.json -o {in}/missing/s", USAGE, "does not exist"),
    # adapter
    case("adapter-unknown", "adapter nope", USAGE, "'nope'"),
    case("adapter-language", "adapter new cobol {in}/x", USAGE, "'cobol'"),
    case("adapter-to-file", "adapter new python {in}/file.txt", USAGE, "is a file"),
    case("adapter-over-files", "adapter new python {in}/starter", USAGE, "exists already"),
    case("adapter-no-folder", "adapter new python {in}/missing/x", USAGE, "does not exist"),
    # smoke
    case("smoke-no-engine", "smoke", USAGE, "--engine"),
    case("smoke-empty-engine", "smoke --engine ''", USAGE, "--engine is empty"),
    case("smoke-timeout", "smoke --engine x --timeout 0", USAGE, "not above zero"),
    case("smoke-startup", "smoke --engine x --startup-timeout abc", USAGE, "not a number"),
    # fuzz
    case("fuzz-no-engine", "fuzz", USAGE, "--engine"),
    case("fuzz-seconds", "fuzz --engine x --seconds abc", USAGE, "'abc' is not a number"),
    case("fuzz-seconds-zero", "fuzz --engine x --seconds 0", USAGE, "not above zero"),
    case("fuzz-hands", "fuzz --engine x --hands -1", USAGE, "not above zero"),
    case("fuzz-timeout", "fuzz --engine x --engine-timeout -1", USAGE, "not above zero"),
    case("fuzz-both-budgets", "fuzz --engine x --hands 1 --seconds 1", USAGE, "--hands"),
    case("fuzz-option-form", "fuzz --engine x --option bad", USAGE, "name=value"),
    case("fuzz-module", "fuzz --engine nope.module:server --in-process", USAGE, "cannot import"),
    case("fuzz-out-file", " ".join(FUZZ) + " --out {in}/file.txt", USAGE, "is a file"),
    case("fuzz-out-in-file", " ".join(FUZZ) + " --out {in}/file.txt/o", USAGE, "is a file"),
    case("fuzz-out-no-folder", " ".join(FUZZ) + " --out {in}/missing/o", USAGE, "does not exist"),
    case("fuzz-variant", " ".join(FUZZ) + " --variant nope", USAGE, "none of the variants"),
    case("fuzz-method", " ".join(FUZZ) + " --method nope", USAGE, "none of the methods"),
    case("fuzz-option-name", " ".join(FUZZ) + " --option nosuch=1", USAGE, "nosuch=1"),
    case("fuzz-replay-missing", " ".join(FUZZ) + " --replay {in}/no.yaml", USAGE, "cannot read"),
    case(
        "fuzz-replay-folder",
        " ".join(FUZZ) + " --replay {in}/adir",
        USAGE,
        "is a folder, not a file",
    ),
    case("fuzz-replay-yaml", " ".join(FUZZ) + " --replay {in}/bad.yaml", USAGE, "not valid YAML"),
    case("fuzz-replay-schema", " ".join(FUZZ) + " --replay {in}/schema.yaml", USAGE, "and 4 more"),
    case("fuzz-engine-missing", f"fuzz --engine {NOT_A_COMMAND}", USAGE, "status 127", slow),
    # test, where it stops before pytest starts
    case(
        "test-engines-report-folder-missing",
        "test --engine a --engine b --runs-dir {in}/runs --conformance-report {in}/no/r.json",
        BROKEN_RUN,
        "--conformance-report",
    ),
    case(
        "test-engines-run-timeout",
        "test --engine a --engine b --runs-dir {in}/runs --run-timeout=0",
        BROKEN_RUN,
        "--run-timeout 0",
    ),
    # test, where pytest reads its options
    case("test-engine-timeout", "test --engine-timeout abc", BROKEN_RUN, "--engine-timeout abc"),
    case("test-engine-timeout-zero", "test --engine-timeout 0", BROKEN_RUN, "--engine-timeout 0"),
    case("test-startup-timeout", "test --startup-timeout -1", BROKEN_RUN, "--startup-timeout -1"),
    case("test-run-timeout", "test --run-timeout=nan", BROKEN_RUN, "--run-timeout nan"),
    case(
        "test-runs-dir-file",
        "test --engine a --engine b --runs-dir {in}/file.txt",
        BROKEN_RUN,
        "is a file",
    ),
    case(
        "test-runs-dir-no-folder",
        "test --engine a --engine b --runs-dir {in}/missing/runs",
        BROKEN_RUN,
        "does not exist",
    ),
    case("test-engines-no-runs-dir", "test --engine a --engine b", BROKEN_RUN, "--runs-dir DIR"),
]


@pytest.mark.parametrize(("argv", "status", "says"), BAD)
def test_a_bad_invocation_is_one_line_with_its_status(
    argv: str,
    status: int,
    says: str,
    inputs: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(inputs)
    args = shlex.split(argv.replace("{in}", str(inputs)))
    before = sorted(inputs.rglob("*"))
    try:
        code = main(args)
    except SystemExit as e:  # argparse: its usage, then one line
        code = e.code
    out, err = capsys.readouterr()
    assert code == status, (out, err)
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert lines and says in lines[-1], err
    if ": error: " not in lines[-1]:  # argparse's line comes after its usage; others, alone
        assert len(lines) == 1, err
    assert out == "", out  # nothing done before the error (no game played, no site begun)
    assert sorted(inputs.rglob("*")) == before  # and nothing written


@pytest.mark.parametrize(
    "argv", ["play --record {in}/r.json", "suite export {in}/o.json"], ids=["play", "export"]
)
def test_an_output_folder_that_is_not_writable_is_one_line_before_any_work(
    argv: str, inputs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """(As root every folder is writable, so the check is told it is not.)"""
    monkeypatch.setattr(files.os, "access", lambda path, mode: False)
    assert main(shlex.split(argv.replace("{in}", str(inputs)))) == USAGE
    out, err = capsys.readouterr()
    assert out == "" and err.strip().splitlines() == [err.strip()] and "not writable" in err


def interrupted(*args: Any, **kwargs: Any) -> Any:
    """A stand-in for a command's work, stopped by Ctrl-C."""
    raise KeyboardInterrupt


def test_ctrl_c_in_a_command_is_one_line_and_status_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_commands, "play", interrupted)
    assert main(["play"]) == INTERRUPTED == 130
    assert capsys.readouterr().err.splitlines() == ["pinochle play: interrupted"]
    monkeypatch.setattr(campaign, "run", interrupted)
    assert main([*FUZZ, "--out", "-"]) == INTERRUPTED
    assert capsys.readouterr().err.splitlines() == ["pinochle fuzz: interrupted"]


def test_ctrl_c_around_pinochle_test_has_pytests_status(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pinochle_cli, "test_command", interrupted)
    assert main(["test"]) == 2
    assert capsys.readouterr().err.splitlines() == ["pinochle test: interrupted"]


@slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize("sent", ["SIGINT", "SIGTERM"])
def test_a_signal_stops_a_command_in_one_line_and_its_engine_with_it(
    sent: str, tmp_path: Path
) -> None:
    """``pinochle case`` whose engine sends the command Ctrl-C (or a CI timeout's SIGTERM) on
    its first question, then ignores end of input and SIGTERM: one line, 130, engine gone."""
    pid_file = tmp_path / "engine.pid"
    engine = " ".join(
        [PYTHON, shlex.quote(str(BROKEN / "interrupt_run.py")), "1", sent, str(pid_file)]
    )
    done = run_pinochle("case", "dd-meld-run-single", "--engine", engine)
    assert done.returncode == INTERRUPTED, done.stderr
    assert done.stderr.strip().splitlines() == ["pinochle case: interrupted"], done.stderr
    assert gone(lambda: [int(pid_file.read_text(encoding="utf-8"))])


def run_pinochle(*args: str) -> subprocess.CompletedProcess[str]:
    """``pinochle ARGS`` in a child process, its output captured."""
    return python_child("-m", "pinochle_cli", *args)


@slow
@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--engine", NOT_A_COMMAND, "-k", "dd-meld-run-single"], "cannot start"),
        (["--variant", "nope"], "--variant nope: known variants are"),
        (["--conformance-report", "missing/r.json"], "does not exist"),
    ],
    ids=["engine-missing", "variant", "report-folder"],
)
def test_pinochle_test_that_cannot_run_says_why_first_with_status_4(
    args: list[str], says: str
) -> None:
    """pytest's usage error: ``ERROR: <what is wrong>`` first (an engine that cannot start has
    its own stderr quoted below it), status 4."""
    done = run_pinochle("test", "-q", "-p", "no:cacheprovider", *args)
    assert done.returncode == BROKEN_RUN, done.stdout[-2000:]
    assert "Traceback" not in done.stdout + done.stderr
    first = done.stderr.strip().splitlines()[0]
    assert first.startswith("ERROR: ") and says in first, done.stderr
