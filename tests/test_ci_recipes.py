"""The CI recipes of docs/ci: the shell recipe runs as written (an engine with known failures
stays green, the report, the site and the badge are kept), and the GitHub Actions workflow is
YAML that calls the same ``pinochle`` commands with the same options."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .suite_runs import ROOT

RECIPE = ROOT / "docs" / "ci" / "run-conformance.sh"
WORKFLOW = ROOT / "docs" / "ci" / "github-actions.yml"
MUTANT = f"{sys.executable} -m tests.mutants no_last_trick"
SINGLE_DECK = ("--variant", "single-deck", "-k", "card-points", "-q")
"""Narrowed to the single-deck counters, where the mutant fails: the recipe is what is tested."""
PINOCHLE_CALL = re.compile(r"\bpinochle (smoke|test|report)\b")
PINOCHLE_OPTIONS = ("--engine", "--conformance-report", "--known-failures", " -o ")


def code_lines(text: str) -> list[str]:
    """The lines of a script that are not comments."""
    return [line for line in text.splitlines() if not line.lstrip().startswith("#")]


def workflow_commands() -> str:
    """Every ``run:`` of the workflow's job, one after the other."""
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert data.get("on", data.get(True)), "the workflow says when it runs"  # YAML 1.1: on = True
    steps = data["jobs"]["conformance"]["steps"]
    return "\n".join(step["run"] for step in steps if "run" in step)


def test_the_workflow_calls_the_recipes_commands() -> None:
    recipe = "\n".join(code_lines(RECIPE.read_text(encoding="utf-8")))
    workflow = workflow_commands()
    assert PINOCHLE_CALL.findall(workflow) == PINOCHLE_CALL.findall(recipe)
    assert PINOCHLE_CALL.findall(recipe) == ["smoke", "test", "report"]
    for option in PINOCHLE_OPTIONS:
        assert option in recipe
        assert option in workflow
    badge = 'cp "$OUT"/site/badges/*.svg "$OUT/badge.svg"'
    assert badge in recipe
    assert badge in workflow


@pytest.mark.slow
def test_the_shell_recipe_keeps_an_engine_with_known_failures_green(tmp_path: Path) -> None:
    """The recipe's commands as written, against a mutant whose failures are listed (the
    single-deck counters only, to keep it cheap): exit 0, and the report, the site and the badge
    are kept."""
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT),  # for the mutant
        "PINOCHLE_INSTALL": "",  # installed already: the venv running the tests
        "ENGINE": MUTANT,
        "KNOWN_FAILURES": "known.yaml",
        "PINOCHLE_ARGS": " ".join(SINGLE_DECK),
    }
    listed = subprocess.run(
        [
            "pinochle",
            "test",
            "--engine",
            MUTANT,
            *SINGLE_DECK,
            "--write-known-failures",
            "known.yaml",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert listed.returncode == 1, listed.stdout[-2000:] + listed.stderr[-2000:]
    assert "known_failures:" in (tmp_path / "known.yaml").read_text(encoding="utf-8")
    done = subprocess.run(
        ["sh", str(RECIPE)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = tmp_path / "conformance"
    for kept in ("report.json", "badge.svg", "site/index.html"):
        assert (out / kept).is_file(), kept
    assert "known.yaml" in done.stdout  # the known failures were in force
