"""The built wheel alone runs the suite: a fresh virtualenv, no repository, any directory.

Data files (spec/, features/) are found as package resources; the reference server is run as a
subprocess engine through its console script, as an engine author would run their own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds the wheel and a fresh virtualenv

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        args, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False, env=env
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv holding only the built wheel and its dependencies; its bin folder."""
    where = tmp_path_factory.mktemp("wheel")
    built = _run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(where), "."], ROOT
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = where.glob("pinochle_spec-*.whl")
    venv.create(where / "venv", with_pip=True)
    bin_dir = where / "venv" / "bin"
    done = _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], where)
    if done.returncode != 0:
        pytest.skip(f"cannot install the wheel's dependencies here: {done.stderr.strip()[-300:]}")
    return bin_dir


def test_the_wheel_runs_the_whole_suite_against_the_reference_server(
    installed: Path, tmp_path: Path
) -> None:
    report = tmp_path / "report.json"
    engine = str(installed / "pinochle-reference-adapter")
    done = _run(
        [
            str(installed / "pinochle"),
            "test",
            "-q",
            "--engine",
            engine,
            "--conformance-report",
            str(report),
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    cases = json.loads(report.read_text(encoding="utf-8"))["cases"]
    assert len(cases) > 1300
    assert {c["outcome"] for c in cases.values()} == {"passed"}
    assert all(node.startswith("features/") for node in cases)
    # Plain pytest with the plugin's option does the same, from any directory.
    plain = _run(
        [
            str(installed / "pytest"),
            "--pinochle",
            "-q",
            "-p",
            "no:cacheprovider",
            "--engine",
            engine,
        ],
        tmp_path,
    )
    assert plain.returncode == 0, plain.stdout[-3000:] + plain.stderr[-2000:]
    assert f"{len(cases)} passed" in plain.stdout
    # Nothing of the repository was used: the suite ran from the installed package.
    site = _run(
        [str(installed / "python"), "-c", "import specdata; print(specdata.SPEC_DIR)"], tmp_path
    )
    assert "site-packages" in site.stdout and str(ROOT) not in site.stdout
