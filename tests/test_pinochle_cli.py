"""The ``pinochle`` command (the face module pinochle_cli), called through main(argv)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

import pinochle_cli as cli
from tests.suite_runs import python_module


def test_play_logs_a_whole_game_and_writes_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    assert cli.main(["play", "--variant", "double-deck", "--seed", "7", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert "== Hand 1: dealer seat 0 ==" in out
    assert "auction: seat 1 " in out  # dd: left of the dealer calls first
    assert re.search(r"trump: (spades|hearts|diamonds|clubs) [♠♥♦♣]", out)
    assert re.search(r"meld seat \d: .*= \d+", out)
    assert re.search(r"trick  1: .* -> seat \d", out)
    assert re.search(r"Team [01] \(seats \d and \d\) wins", out)
    data = json.loads(path.read_text())
    assert data["variant"] == "double-deck" and data["seed"] == 7
    assert len(data["hands"]) == out.count("== Hand ")
    # Same seed, same game.
    capsys.readouterr()
    cli.main(["play", "--variant", "double-deck", "--seed", "7"])
    assert capsys.readouterr().out == out.replace(f"record written to {path}\n", "")


def test_play_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(
        [
            "play",
            "--variant",
            "online",
            "--seed",
            "2",
            "--option",
            "rounds=3",
            "--option",
            "pass_cards=0",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "'rounds': '3'" in out and "gives" not in out
    assert out.count("== Hand ") >= 3


def test_bad_option_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--option", "bogus=1"]) == 2
    assert "no option 'bogus'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["play", "--option", "novalue"])


def test_replay_ok_and_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    cli.main(["play", "--variant", "single-deck", "--seed", "4", "--record", str(path)])
    capsys.readouterr()
    assert cli.main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.strip().endswith("OK")
    data = json.loads(path.read_text())
    data["hands"][0]["scores"][0] += 5
    path.write_text(json.dumps(data))
    assert cli.main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert "mismatch: hand 1 scores" in out and "FAILED" in out


def test_replay_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert cli.main(["replay", str(bad)]) == 2
    assert "not JSON" in capsys.readouterr().err
    bad.write_text(json.dumps({"format": "other"}))
    assert cli.main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "'version'" in err and len(err.splitlines()) == 1
    bad.write_bytes(b'{"format": "\xff"}')
    assert cli.main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "UTF-8" in err and "Traceback" not in err and len(err.splitlines()) == 1


def test_spec_coverage_check_and_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["spec", "coverage", "--check"]) == 0
    assert "every rule is covered in every variant" in capsys.readouterr().out
    assert cli.main(["spec", "coverage"]) == 0
    assert "PLAY-CRAWL" in capsys.readouterr().out
    assert cli.main(["spec", "variants"]) == 0
    assert "double-deck" in capsys.readouterr().out


@pytest.mark.slow
def test_suite_export_to_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cases.json"
    assert cli.main(["suite", "export", str(out), "--variant", "online", "--method", "meld"]) == 0
    data = json.loads(out.read_text())
    assert data["cases"] and {c["variant"] for c in data["cases"]} == {"online"}
    assert {c["method"] for c in data["cases"]} == {"meld"}
    assert "wrote" in capsys.readouterr().err


def test_suite_export_of_a_broken_table_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "broken.yaml"
    table.write_text("area: meld\nmethod: meld\nvariant: double-deck\ncases: [\n")
    assert cli.main(["suite", "export", "-", "--tables", str(table)]) == 2
    err = capsys.readouterr().err
    assert str(table) in err and "Traceback" not in err


def test_a_seed_must_be_an_integer(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["play", "--seed", "abc"])
    assert exit_.value.code == 2
    assert "seed 'abc' is not an integer" in capsys.readouterr().err


def test_help_names_no_internal_module(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["spec", "--help"], ["suite", "--help"], ["play", "--help"]):
        with pytest.raises(SystemExit):
            cli.main(argv)
        out = capsys.readouterr().out
        assert "adapters" not in out and "``" not in out, out


@pytest.mark.slow
def test_report_writes_a_site_and_refuses_a_non_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "r.json"
    done = python_module(
        "pytest",
        "features/",
        "-q",
        "-p",
        "no:cacheprovider",
        "-k",
        "meld-online",
        "--conformance-report",
        str(report),
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert cli.main(["report", str(report), "-o", str(tmp_path / "site")]) == 0
    assert (tmp_path / "site" / "index.html").is_file()
    assert "index.html" in capsys.readouterr().out
    bogus = tmp_path / "bogus.json"
    bogus.write_text("[1, 2]")
    assert cli.main(["report", str(bogus), "-o", str(tmp_path / "site2")]) == 2
    err = capsys.readouterr().err
    assert str(bogus) in err and len(err.splitlines()) == 1


def test_fuzz_is_reached_through_the_face(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["fuzz", "--help"])
    assert exit_.value.code == 0
    assert "--engine" in capsys.readouterr().out


def test_test_help_leads_with_the_pinochle_options(capsys: pytest.CaptureFixture[str]) -> None:
    """``pinochle test --help``: the suite's usage and options first, then pytest's help."""
    assert cli.main(["test", "--help"]) == 0
    out = capsys.readouterr().out
    head, _, rest = out.partition("pytest's own options")
    assert head.startswith("usage: pinochle test"), head[:200]
    assert "--engine=COMMAND" in head and "--known-failures" in head
    assert "--pinochle " not in head  # plain pytest's option: `pinochle test` needs none
    assert "-k EXPRESSION" in rest and "pytest.main()" not in rest


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from specdata import suite_version

    for flag in ("--version", "-V"):
        assert cli.main([flag]) == 0
        assert capsys.readouterr().out == f"pinochle {suite_version()}\n"


class ClosedPipe:
    """A standard output whose reader has gone, as behind ``| head -1``."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    def fileno(self) -> int:
        raise io.UnsupportedOperation("not a real file: this process's own stays as it is")


@pytest.mark.parametrize("argv", [["spec", "variants"], ["test", "--help"], ["--version"]])
def test_a_closed_pipe_ends_quietly(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No traceback and no error line: the reader chose to stop reading."""
    monkeypatch.setattr("sys.stdout", ClosedPipe())
    assert cli.main(argv) == cli.CLOSED_PIPE
    assert capsys.readouterr().err == ""


def test_the_readme_exit_table_has_a_row_for_every_status_a_command_returns() -> None:
    from pinochle_cli import multi
    from pinochle_tools import case

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    table = readme.split("### Exit statuses", 1)[1].split("\n## ", 1)[0]
    rows = {int(m[1]): m[2] for m in re.finditer(r"^\| *(\d+) *\|(.*)$", table, re.M)}
    returned = {
        case.PASSED,
        case.FAILED,
        case.USAGE,
        case.SKIPPED,
        multi.CANNOT_RUN,
        cli.INTERRUPTED,
        cli.TEST_INTERRUPTED,
        cli.CLOSED_PIPE,
    }
    assert returned <= set(rows), sorted(returned - set(rows))
    assert "`case` skipped" in rows[case.SKIPPED]
