"""A fresh virtualenv for the dependency checks of .ci/pin.py and .ci/latest.py: the project
installed from this checkout (with or without constraints), the fast tier, its exact versions."""

from __future__ import annotations

import re
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONSTRAINTS = ROOT / ".ci" / "constraints.txt"
FAST_TIER = ["-q", "-m", "not slow"]


def create(where: Path) -> Path:
    """A new virtualenv in ``where``; its bin folder."""
    venv.create(where, with_pip=True)
    return where / ("Scripts" if sys.platform == "win32" else "bin")


def install(bin_dir: Path, *pip_args: str) -> None:
    """``pip install [pip_args] -e ".[dev]"`` into the virtualenv, from the checkout."""
    run(bin_dir / "pip", "install", "-q", *pip_args, "-e", ".[dev]")


def run(*args: str | Path) -> int:
    """A command in the checkout, its output shown; its exit status."""
    print("$", " ".join(map(str, args)), flush=True)
    return subprocess.run(list(map(str, args)), cwd=ROOT, check=False).returncode


def fast_tier(bin_dir: Path, *extra: str) -> int:
    """``pytest -m "not slow"`` with the virtualenv's pytest; its exit status."""
    return run(bin_dir / "pytest", *FAST_TIER, "-p", "no:cacheprovider", *extra)


def versions(lines: str) -> dict[str, str]:
    """``name==version`` lines (pip freeze, constraints) as {normalized name: version}."""
    found: dict[str, str] = {}
    for line in lines.splitlines():
        name, sep, version = line.split("#", 1)[0].strip().partition("==")
        if sep:
            found[re.sub(r"[-_.]+", "-", name).lower()] = version
    return found


def frozen(bin_dir: Path) -> str:
    """``pip freeze`` of the virtualenv, the project itself left out."""
    args = [str(bin_dir / "pip"), "freeze", "--exclude-editable"]
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def drift(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The packages whose versions differ, each printed as ``name: old -> new``."""
    names = sorted(n for n in before.keys() | after.keys() if before.get(n) != after.get(n))
    for name in names:
        print(f"  {name}: {before.get(name, '-')} -> {after.get(name, '-')}")
    return names
