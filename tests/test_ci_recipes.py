"""The CI recipes of docs/ci: the GitHub Actions workflow is YAML that calls the same ``pinochle``
commands with the same options as the shell recipe; neither installs a name from the package
index (the suite is not published there: a name would install nothing, or someone else's
package); the shell recipe stops with one line when it is given nothing to install or a path
that is not there. (The shell recipe shipped in the wheel runs whole in tests/test_wheel.py, on
the wheel that module builds.)"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from pinochle_cli import main

from .suite_runs import ROOT

RECIPE = ROOT / "docs" / "ci" / "run-conformance.sh"
WORKFLOW = ROOT / "docs" / "ci" / "github-actions.yml"
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
    # Both remove an earlier run's report and badge before the first step that can stop them,
    # and write the site only from a report of this run.
    for text in (recipe, workflow):
        assert text.index('rm -f "$OUT/report.json"') < text.index("pinochle smoke")
        assert text.index('if [ -f "$OUT/report.json" ]') < text.index("pinochle report")


def test_neither_recipe_installs_a_name_from_the_index() -> None:
    recipe = "\n".join(code_lines(RECIPE.read_text(encoding="utf-8")))
    workflow = workflow_commands()
    for text in (recipe, workflow):
        installs = re.findall(r"pip install (\S+)", text)
        assert installs == ['"$PINOCHLE_INSTALL"'], installs
    env = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["env"]
    assert env["PINOCHLE_INSTALL"] == "", "the user names what to install"


def recipe_run(folder: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """The shell recipe run in ``folder`` with only these settings and a PATH of the system's
    own folders (no ``pinochle``, no virtualenv)."""
    system_path = os.pathsep.join(p for p in ("/usr/bin", "/bin") if Path(p).is_dir())
    if shutil.which("pinochle", path=system_path):
        pytest.skip("a pinochle is installed system-wide here")
    env = {"PATH": system_path, "HOME": str(folder), **settings}
    return subprocess.run(
        ["sh", str(RECIPE)], cwd=folder, env=env, capture_output=True, text=True, timeout=60
    )


def test_with_nothing_to_install_the_recipe_stops_with_one_line(tmp_path: Path) -> None:
    done = recipe_run(tmp_path, ENGINE="node my_adapter.js")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert "pinochle is not installed" in line and "PINOCHLE_INSTALL" in line
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_a_named_wheel_that_is_not_there_stops_with_one_line(tmp_path: Path) -> None:
    done = recipe_run(
        tmp_path,
        ENGINE="node my_adapter.js",
        PINOCHLE_INSTALL="ci/pinochle_spec-0.1.0-py3-none-any.whl",
        PYTHON="false",  # pip is never reached
    )
    assert done.returncode == 2, done.stdout + done.stderr
    (line,) = done.stderr.splitlines()
    assert "ci/pinochle_spec-0.1.0-py3-none-any.whl: no such file or folder" in line
    assert list(tmp_path.iterdir()) == []


def test_without_an_engine_the_recipe_stops_with_one_line(tmp_path: Path) -> None:
    done = recipe_run(tmp_path)
    assert done.returncode != 0
    (line,) = done.stderr.splitlines()
    assert "ENGINE" in line
    assert list(tmp_path.iterdir()) == []


def test_pinochle_prints_where_the_recipes_are(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["adapter", "path", "ci"]) == 0
    folder = Path(capsys.readouterr().out.strip())
    assert sorted(p.name for p in folder.iterdir()) == sorted([RECIPE.name, WORKFLOW.name])


FAKE_PINOCHLE = """#!/bin/sh
# A stand-in for pinochle: logs each call's arguments, one a line; its test cannot start.
for arg in "$@"; do printf '%s\\n' "$arg"; done >> calls.log
echo --- >> calls.log
case "$1" in
    --version) echo "pinochle 0" ;;
    smoke) exit "${SMOKE_STATUS:-0}" ;;
    test) exit 4 ;;
esac
exit 0
"""


def fake_recipe_run(folder: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """The shell recipe run in ``folder`` with FAKE_PINOCHLE as ``pinochle`` and the report and
    badge of an earlier green run left in ``conformance/``."""
    bin_folder = folder / "bin"
    bin_folder.mkdir()
    fake = bin_folder / "pinochle"
    fake.write_text(FAKE_PINOCHLE, encoding="utf-8")
    fake.chmod(0o755)
    out = folder / "conformance"
    out.mkdir()
    (out / "report.json").write_text("{}", encoding="utf-8")
    (out / "badge.svg").write_text("<svg>492/492 passed</svg>", encoding="utf-8")
    env = {"PATH": os.pathsep.join([str(bin_folder), "/usr/bin", "/bin"]), "HOME": str(folder)}
    return subprocess.run(
        ["sh", str(RECIPE)],
        cwd=folder,
        env={**env, **settings},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_recipe_passes_quoted_arguments_and_never_keeps_an_earlier_badge(
    tmp_path: Path,
) -> None:
    """``pinochle test`` cannot start (exit 4, no report): the report and badge of the run
    before are not published as this one's; PINOCHLE_ARGS keeps a quoted argument whole."""
    out = tmp_path / "conformance"
    done = fake_recipe_run(
        tmp_path, ENGINE="my engine", PINOCHLE_ARGS="-k 'meld and run' -m \"rule(id='X')\""
    )
    assert done.returncode == 4, done.stdout + done.stderr
    assert not (out / "report.json").exists() and not (out / "badge.svg").exists()
    calls = (tmp_path / "calls.log").read_text(encoding="utf-8").split("---\n")
    test_call = next(c.splitlines() for c in calls if c.startswith("test\n"))
    assert test_call[-4:] == ["-k", "meld and run", "-m", "rule(id='X')"]
    assert "report" not in [c.splitlines()[0] for c in calls if c.strip()]


def test_an_engine_failing_the_smoke_check_leaves_no_earlier_badge(tmp_path: Path) -> None:
    """The smoke check stops the recipe (exit 1) before the suite runs: the report and badge
    of the run before are gone all the same."""
    done = fake_recipe_run(tmp_path, ENGINE="my engine", SMOKE_STATUS="1")
    assert done.returncode == 1, done.stdout + done.stderr
    out = tmp_path / "conformance"
    assert not (out / "report.json").exists() and not (out / "badge.svg").exists()
    calls = (tmp_path / "calls.log").read_text(encoding="utf-8").split("---\n")
    assert [c.splitlines()[0] for c in calls if c.strip()] == ["--version", "smoke"]
