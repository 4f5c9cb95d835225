"""Do the newest releases still pass? python3 .ci/latest.py

A fresh virtualenv without constraints (what a user installing today gets) runs the fast tier.
If it fails, the packages whose versions differ from .ci/constraints.txt (the last green set) are
listed, and each is tried alone: a virtualenv with the pins, that one package at its newest
version (--no-deps), runs the tests that failed. The packages that break them alone are named.
Not part of .ci/run, which installs the pins; see CONTRIBUTING.md, "Dependencies".
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import fresh


def fast_tier_output(bin_dir: Path, cache: Path, *extra: str) -> int:
    """The fast tier (``--lf``: only what failed before), its last-failed list kept in ``cache``."""
    args = [str(bin_dir / "pytest"), *fresh.FAST_TIER, "-o", f"cache_dir={cache}", "-rfE", *extra]
    done = subprocess.run(args, cwd=fresh.ROOT, capture_output=True, text=True, check=False)
    print(done.stdout[-3000:], done.stderr[-2000:], sep="\n", flush=True)
    return done.returncode


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="pinochle-latest-") as tmp:
        newest = fresh.create(Path(tmp) / "newest")
        fresh.install(newest)
        failed = Path(tmp) / "failed"
        if fast_tier_output(newest, failed) == 0:
            print("the newest releases pass the fast tier")
            return 0
        pinned = fresh.versions(fresh.CONSTRAINTS.read_text(encoding="utf-8"))
        latest = fresh.versions(fresh.frozen(newest))
        print("the newest releases FAIL the fast tier; they differ from .ci/constraints.txt in:")
        changed = fresh.drift(pinned, latest)
        if not changed:
            return 1
        base = fresh.create(Path(tmp) / "pinned")
        fresh.install(base, "-c", str(fresh.CONSTRAINTS))
        guilty = []
        for name in (n for n in changed if n in latest):
            fresh.run(base / "pip", "install", "-q", "--no-deps", f"{name}=={latest[name]}")
            trial = Path(tmp) / f"trial-{name}"
            shutil.copytree(failed, trial)  # each trial reruns the same failures (--lf)
            if fast_tier_output(base, trial, "--lf") != 0:
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
