"""The suite has teeth: each wrong engine of tests/mutants fails it on the rule it misreads.

Each mutant is served as a subprocess engine (``python -m tests.mutants NAME``) and the
conformance suite runs against it, narrowed to the variants concerned. The control, the
unmodified reference engine served the same way, must pass the same runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.mutants import CONTROL, Mutant, mutants
from tests.mutants.outcomes import ENV

ROOT = Path(__file__).resolve().parent.parent
RUN_TIMEOUT = 300


@dataclass(frozen=True)
class SuiteRun:
    """One run of the conformance suite against an engine: exit status and outcome per item."""

    command: str
    returncode: int
    outcomes: dict[str, dict[str, Any]]
    output: str

    def items(self, outcome: str) -> set[str]:
        """Node ids of the items with this outcome."""
        return {node for node, o in self.outcomes.items() if o["outcome"] == outcome}

    def rules_of(self, nodes: set[str]) -> set[str]:
        """Every rule ID the given items test."""
        return {rule for node in nodes for rule in self.outcomes[node]["rules"]}


def run_suite(mutant: Mutant, variants: tuple[str, ...]) -> SuiteRun:
    """Run ``pytest features/`` against ``mutant`` served as a subprocess engine."""
    command = f"{sys.executable} -m tests.mutants {mutant.name}"
    with tempfile.TemporaryDirectory() as tmp:
        outcomes_file = Path(tmp) / "outcomes.json"
        args = [
            sys.executable,
            "-m",
            "pytest",
            "features/",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "-p",
            "no:xdist",
            "-p",
            "tests.mutants.outcomes",
            "--engine",
            command,
        ]
        for variant in variants:
            args += ["--variant", variant]
        env = {**os.environ, ENV: str(outcomes_file)}
        done = subprocess.run(
            args,
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            check=False,
        )
        outcomes = (
            json.loads(outcomes_file.read_text(encoding="utf-8")) if outcomes_file.exists() else {}
        )
    return SuiteRun(command, done.returncode, outcomes, done.stdout + done.stderr)


@cache
def control_run(variants: tuple[str, ...]) -> SuiteRun:
    """The reference engine, served like the mutants, on the same variants (once per process)."""
    return run_suite(CONTROL, variants)


def _tail(run: SuiteRun, lines: int = 40) -> str:
    return "\n".join(run.output.splitlines()[-lines:])


CONTROL_VARIANTS = sorted({m.variants for m in mutants().values()})


@pytest.mark.parametrize("variants", CONTROL_VARIANTS, ids=["+".join(v) for v in CONTROL_VARIANTS])
def test_reference_passes_the_narrowed_runs(variants: tuple[str, ...]) -> None:
    """The control: without it a failing mutant run proves nothing."""
    run = control_run(variants)
    assert run.outcomes, f"no outcomes recorded:\n{_tail(run)}"
    assert run.returncode == 0, (
        f"the reference engine fails {sorted(run.items('failed') | run.items('errored'))}:\n"
        + _tail(run)
    )


@pytest.mark.parametrize("mutant", list(mutants().values()), ids=list(mutants()))
def test_mutant_is_caught(mutant: Mutant) -> None:
    """The suite fails (exit 1) against the mutant, with wrong answers on the rule it misreads.

    A case counts only if the control passes it, so a case the reference itself fails (work in
    progress in the tables) cannot make a mutant look caught.
    """
    run = run_suite(mutant, mutant.variants)
    control = control_run(mutant.variants)
    assert run.outcomes, f"no outcomes recorded:\n{_tail(run)}"
    assert run.returncode == 1, f"exit {run.returncode}, expected 1 (tests failed):\n{_tail(run)}"
    caught = (run.items("failed") | run.items("errored")) & control.items("passed")
    wrong = run.items("failed") & control.items("passed")
    assert caught, f"{mutant.name}: every case the reference passes also passes"
    assert mutant.caught_by in run.rules_of(wrong), (
        f"{mutant.name} misreads {mutant.caught_by}, but no case of that rule failed; "
        f"failing rules: {sorted(run.rules_of(caught))}"
    )
