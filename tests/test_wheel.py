"""The built wheel alone runs the suite: a fresh virtualenv, no repository, any directory.

Data files (spec/, features/) are found as package resources; the reference server is run as a
subprocess engine through its console script, as an engine author would run their own.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import venv
import zipfile
from concurrent.futures import Future
from pathlib import Path

import pytest

from tests.suite_runs import started
from tests.test_layers import PACKAGES

pytestmark = pytest.mark.slow  # builds the wheel and a fresh virtualenv

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        args, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False, env=env
    )


CONSTRAINTS = ROOT / ".ci" / "constraints.txt"
"""The releases of the last green run: the wheel's dependencies are installed at those too."""


def build_and_install(where: Path) -> tuple[Path | None, str]:
    """The wheel built into ``where`` and installed in a fresh virtualenv there: its bin folder,
    or None and why the dependencies could not be installed (no index here)."""
    built = _run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(where), "."], ROOT
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = where.glob("pinochle_spec-*.whl")
    # No pip of its own (ensurepip costs more than the rest of the set-up): this pip installs
    # into it (``--python``), so the virtualenv holds the wheel and its dependencies only.
    venv.create(where / "venv", with_pip=False)
    bin_dir = where / "venv" / "bin"
    target = ["--python", str(bin_dir / "python")]
    pip = [sys.executable, "-m", "pip", *target, "install", "-q", "-c", str(CONSTRAINTS)]
    done = _run([*pip, str(wheel)], where)
    if done.returncode != 0:
        return None, f"cannot install the wheel's dependencies here: {done.stderr.strip()[-300:]}"
    return bin_dir, ""


def _start() -> Future[tuple[Path | None, str]]:
    where = Path(tempfile.mkdtemp(prefix="pinochle-wheel-"))
    return started(("wheel",), lambda: build_and_install(where))


def prefetch() -> None:
    """Build and install at once (tests/conftest.py): pip waits on the network meanwhile."""
    _start()


@pytest.fixture(scope="session")
def installed() -> Path:
    """A fresh virtualenv holding only the built wheel and its dependencies; its bin folder.
    Built once per session: every test of the installed package shares it."""
    bin_dir, problem = _start().result()
    if bin_dir is None:
        pytest.skip(problem)
    return bin_dir


def test_the_wheel_runs_the_whole_suite_against_the_reference_server(
    installed: Path, tmp_path: Path
) -> None:
    report = tmp_path / "report.json"
    engine = str(installed / "pinochle-reference-adapter")
    command = [str(installed / "pinochle"), "test", "-q", "--engine", engine]
    done = _run([*command, "--conformance-report", str(report)], tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    cases = json.loads(report.read_text(encoding="utf-8"))["cases"]
    assert len(cases) > 1300
    assert {c["outcome"] for c in cases.values()} == {"passed"}
    assert all(node.startswith("features/") for node in cases)
    # Every package of the wheel is marked for rewriting; none was imported before pytest.
    assert "PytestAssertRewriteWarning" not in done.stdout + done.stderr
    # Nothing of the repository was used: the suite ran from the installed package.
    site = _run(
        [str(installed / "python"), "-c", "import specdata; print(specdata.SPEC_DIR)"], tmp_path
    )
    assert "site-packages" in site.stdout and str(ROOT) not in site.stdout


def test_plain_pytest_with_the_plugin_option_runs_the_packaged_suite(
    installed: Path, tmp_path: Path
) -> None:
    """``pytest --pinochle`` from any directory (one variant: the whole suite ran above)."""
    engine = str(installed / "pinochle-reference-adapter")
    options = ["-q", "-p", "no:cacheprovider", "--variant", "single-deck", "--engine", engine]
    plain = _run([str(installed / "pytest"), "--pinochle", *options], tmp_path)
    assert plain.returncode == 0, plain.stdout[-3000:] + plain.stderr[-2000:]
    assert re.search(r"\b[1-9]\d+ passed", plain.stdout), plain.stdout[-500:]
    assert "PytestAssertRewriteWarning" not in plain.stdout + plain.stderr


def test_pytest_without_the_plugin_option_says_how_to_run_the_suite(
    installed: Path, tmp_path: Path
) -> None:
    """Outside a checkout, ``--engine`` without ``--pinochle`` collects nothing: it says so."""
    done = _run([str(installed / "pytest"), "-p", "no:cacheprovider", "--engine", "x"], tmp_path)
    assert done.returncode == pytest.ExitCode.NO_TESTS_COLLECTED, done.stdout[-2000:]
    assert "pytest --pinochle --engine" in done.stdout and "pinochle test" in done.stdout


def test_pinochle_test_help_leads_with_the_pinochle_options(
    installed: Path, tmp_path: Path
) -> None:
    done = _run([str(installed / "pinochle"), "test", "--help"], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    head = done.stdout.split("pytest's own options", 1)[0]
    assert head.startswith("usage: pinochle test") and "--engine=COMMAND" in head
    assert "PytestAssertRewriteWarning" not in done.stdout + done.stderr


TYPED = PACKAGES
"""The packages whose hints are public (PEP 561): every package of the tree, the CLI too."""


def test_the_wheel_ships_a_py_typed_in_every_typed_package(installed: Path) -> None:
    (wheel,) = installed.parent.parent.glob("pinochle_spec-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert [p for p in TYPED if f"{p}/py.typed" not in names] == []


def test_the_wheel_ships_the_site_templates_and_builds_the_spec_site(
    installed: Path, tmp_path: Path
) -> None:
    """The templates are package data of pinochle_tools: every one is in the wheel, and the
    installed command draws the spec site with them from any directory."""
    (wheel,) = installed.parent.parent.glob("pinochle_spec-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    templates = ROOT / "pinochle_tools" / "site" / "templates"
    wanted = [f"pinochle_tools/site/templates/{p.name}" for p in sorted(templates.iterdir())]
    assert wanted and [name for name in wanted if name not in names] == []
    done = _run([str(installed / "pinochle"), "spec", "site", "-o", "out"], tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert (tmp_path / "out" / "index.html").is_file()
    assert (tmp_path / "out" / "rules" / "PLAY-CRAWL.html").is_file()


MUTANT = f"env PYTHONPATH={ROOT} {sys.executable} -m tests.mutants no_last_trick"
"""An engine with known failures (the suite itself runs from the wheel, not from ROOT)."""
SINGLE_DECK = ("--variant", "single-deck", "-k", "card-points", "-q")
"""Narrowed to the single-deck counters, where the mutant fails: the recipe is what is tested."""


def test_the_shipped_shell_recipe_installs_the_wheel_and_keeps_known_failures_green(
    installed: Path, tmp_path: Path
) -> None:
    """The CI shell recipe as the wheel ships it (``pinochle adapter path ci``), run in a folder
    holding only the engine's known-failures list, installing the wheel it is given: exit 0,
    and the report, the site and the badge are kept."""
    shipped = _run([str(installed / "pinochle"), "adapter", "path", "ci"], tmp_path)
    recipe = Path(shipped.stdout.strip()) / "run-conformance.sh"
    assert "site-packages" in str(recipe), shipped.stdout
    assert recipe.read_bytes() == (ROOT / "docs" / "ci" / "run-conformance.sh").read_bytes()
    (wheel,) = installed.parent.parent.glob("pinochle_spec-*.whl")
    # The virtualenv has no pip: its "python -m pip ..." is this pip, installing into it.
    shim = installed.parent.parent / "python-with-pip"
    target = shlex.join([sys.executable, "-m", "pip", "--python", str(installed / "python")])
    shim.write_text(f'#!/bin/sh\nshift 2\nexec {target} "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    work = tmp_path / "engine-repo"
    work.mkdir()
    write = ["--write-known-failures", "known.yaml"]
    listed = _run(
        [str(installed / "pinochle"), "test", "--engine", MUTANT, *SINGLE_DECK, *write], work
    )
    assert listed.returncode == 1, listed.stdout[-2000:] + listed.stderr[-2000:]
    settings = {
        "PATH": f"{installed}{os.pathsep}{os.environ.get('PATH', '')}",
        "PINOCHLE_INSTALL": str(wheel),
        "PYTHON": str(shim),
        "ENGINE": MUTANT,
        "KNOWN_FAILURES": "known.yaml",
        "PINOCHLE_ARGS": " ".join(SINGLE_DECK),
    }
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(
        ["sh", str(recipe)],
        cwd=work,
        env={**env, **settings},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert wheel.name in done.stdout  # pip was given the wheel
    assert "using pinochle " in done.stdout and str(installed / "pinochle") in done.stdout
    out = work / "conformance"
    for kept in ("report.json", "badge.svg", "site/index.html"):
        assert (out / kept).is_file(), kept
    assert "known.yaml" in done.stdout  # the known failures were in force
