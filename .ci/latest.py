"""Do the newest releases still pass? python3 .ci/latest.py

A fresh virtualenv without constraints (what a user installing today gets) runs the fast tier.
If it fails, the packages whose versions differ from .ci/constraints.txt (the last green set) are
listed, and each is tried alone: a virtualenv with the pins, that one package at its newest
version (--no-deps), runs the tests that failed. The packages that break them alone are named.
Not part of .ci/run, which installs the pins; see CONTRIBUTING.md, "Dependencies".
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

import fresh

FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)


def fast_tier_output(bin_dir: Path, *extra: str) -> tuple[int, str]:
    """The fast tier (or the tests named in ``extra``), shown and returned with its status."""
    args = [str(bin_dir / "pytest"), *fresh.FAST_TIER, "-rfE", *extra]
    done = subprocess.run(args, cwd=fresh.ROOT, capture_output=True, text=True, check=False)
    print(done.stdout[-3000:], done.stderr[-2000:], sep="\n", flush=True)
    return done.returncode, done.stdout


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="pinochle-latest-") as tmp:
        newest = fresh.create(Path(tmp) / "newest")
        fresh.install(newest)
        status, output = fast_tier_output(newest)
        if status == 0:
            print("the newest releases pass the fast tier")
            return 0
        pinned = fresh.versions(fresh.CONSTRAINTS.read_text(encoding="utf-8"))
        latest = fresh.versions(fresh.frozen(newest))
        print("the newest releases FAIL the fast tier; they differ from .ci/constraints.txt in:")
        changed = fresh.drift(pinned, latest)
        failing = sorted(set(FAILED.findall(output)))
        if not failing or not changed:
            return 1
        base = fresh.create(Path(tmp) / "pinned")
        fresh.install(base, "-c", str(fresh.CONSTRAINTS))
        guilty = []
        for name in (n for n in changed if n in latest):
            fresh.run(base / "pip", "install", "-q", "--no-deps", f"{name}=={latest[name]}")
            if fast_tier_output(base, *failing)[0] != 0:
                guilty.append(name)
            if name in pinned:
                fresh.run(base / "pip", "install", "-q", "--no-deps", f"{name}=={pinned[name]}")
            else:
                fresh.run(base / "pip", "uninstall", "-q", "-y", name)
        if guilty:
            for name in guilty:
                print(f"BROKEN BY {name} {latest[name]} (passes with {pinned.get(name, 'none')})")
        else:
            print("no single upgrade breaks the failing tests alone: a combination of the above")
        return 1


if __name__ == "__main__":
    sys.exit(main())
