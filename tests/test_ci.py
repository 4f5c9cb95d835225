"""CI runs what the README tells a newcomer, as written, and installs the pinned releases.

``.ci/run`` never activates the virtualenv, and each test command it runs is a command of the
README's Quick start, word for word; ``.ci/constraints.txt`` pins every requirement of
pyproject.toml exactly, while pyproject.toml itself keeps ranges.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CI_RUN = ROOT / ".ci" / "run"
CONSTRAINTS = ROOT / ".ci" / "constraints.txt"


def quick_start_commands() -> list[str]:
    """The commands of the README's Quick start block, a ``&&`` chain split into its parts."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    return [part.strip() for line in block.splitlines() for part in line.split("&&")]


def ci_lines() -> list[str]:
    return [line.strip() for line in CI_RUN.read_text(encoding="utf-8").splitlines()]


def test_ci_runs_the_readme_test_commands_as_written() -> None:
    readme = quick_start_commands()
    tests = [line for line in ci_lines() if line.startswith(".venv/bin/pytest")]
    assert tests, "CI runs no test command"
    assert [t for t in tests if t not in readme] == [], readme
    everything = [t for t in tests if t.split()[1:] in ([], ["-n", "auto"])]
    assert everything, "CI must run everything (no path, no -m), the README's last command"
    assert readme[-1] in everything, "the README's last command runs everything"


def test_ci_never_activates_the_virtualenv() -> None:
    code = [line for line in ci_lines() if line and not line.startswith("#")]
    assert not [line for line in code if "activate" in line]
    assert "set -euo pipefail" in code


def name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0]).lower()


def test_constraints_pin_every_requirement_exactly() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    required = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    assert not [r for r in required if "==" in r], "pyproject.toml keeps ranges; pins go below"
    pins = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            assert re.fullmatch(r"[A-Za-z0-9_.\-]+==[^=\s]+", line), line
            pins[name(line)] = line
    assert [r for r in required if name(r) not in pins] == []
    assert "-c .ci/constraints.txt" in CI_RUN.read_text(encoding="utf-8")
