"""``pinochle test`` runs the packaged suite from any directory, and nothing a user keeps in that
directory (their own ``features`` or ``adapters`` package, a conftest, a pytest.ini) shadows it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from specdata import FEATURES_DIR
from tests.suite_runs import run_packaged_suite

pytestmark = pytest.mark.slow  # each test runs the packaged suite in a child process


def _user_project(root: Path) -> None:
    """A directory such as an engine author's: packages with the suite's generic names."""
    for package in ("features", "adapters"):
        (root / package).mkdir()
        (root / package / "__init__.py").write_text(
            "raise ImportError('the user\\'s own package')\n"
        )
    (root / "conftest.py").write_text("")
    (root / "pytest.ini").write_text("[pytest]\naddopts = --this-option-does-not-exist\n")


def test_the_packaged_suite_runs_from_a_directory_with_look_alike_packages(tmp_path: Path) -> None:
    _user_project(tmp_path)
    done, cases = run_packaged_suite(["pinochle_cli", "test"], tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert len(cases) > 1300
    # Test IDs read as in the repository, whatever the directory the suite was run from.
    assert all(node.startswith("features/") for node in cases), sorted(cases)[:3]
    assert {c["outcome"] for c in cases.values()} == {"passed"}
    assert not (FEATURES_DIR / ".pytest_cache").exists()
    # The command imports no part before pytest, which can then rewrite the plugin's asserts.
    assert "PytestAssertRewriteWarning" not in done.stdout + done.stderr


def test_plain_pytest_with_the_plugin_option_runs_the_packaged_suite(tmp_path: Path) -> None:
    """``pytest --pinochle``: no test path, any directory, the same IDs as in the repository."""
    _user_project(tmp_path)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")  # the user's own, harmless config
    done, cases = run_packaged_suite(["pytest", "--pinochle", "-p", "no:cacheprovider"], tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert len(cases) > 1300
    assert all(node.startswith("features/") for node in cases), sorted(cases)[:3]
