"""``pinochle test --engine A --engine B``: one run per engine, one site comparing them, the exit
status of the worst engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pinochle_cli.multi import split_engines

from .suite_runs import ROOT

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


@pytest.mark.slow
def test_two_engines_one_site_and_the_worst_status(tmp_path: Path) -> None:
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
            str(tmp_path),
            "-m",
            "rule(id='POINTS-LAST-TRICK')",
            "-q",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr  # the mutant's failures
    names = sorted(
        json.loads((tmp_path / f"engine-{n}.json").read_text("utf-8"))["engine"]["name"]
        for n in (1, 2)
    )
    assert names == ["pinochle-mutant-no-last-trick", "pinochle-reference"]
    index = (tmp_path / "site" / "index.html").read_text("utf-8")
    listing = index.split('id="what-fails"', 1)[1].split("</section>", 1)[0]
    assert "POINTS-LAST-TRICK" in listing
    assert "pinochle-reference" not in listing
    assert len(list((tmp_path / "site" / "engines").glob("*.html"))) == 2
