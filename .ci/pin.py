"""Regenerate .ci/constraints.txt on purpose: python3 .ci/pin.py

A fresh virtualenv gets the newest releases pyproject.toml's ranges allow; the fast tier runs in
it; only if it passes are its exact versions written as the pins CI installs with (.ci/run).
Review the diff of .ci/constraints.txt and commit it with the reason (CONTRIBUTING.md).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import fresh

HEADER = """\
# The exact releases CI installs with (.ci/run: pip install -c .ci/constraints.txt -e ".[dev]").
# The last green set, regenerated on purpose only: python3 .ci/pin.py (CONTRIBUTING.md,
# "Dependencies"). pyproject.toml keeps ranges; python3 .ci/latest.py tries the newest releases.
"""


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="pinochle-pin-") as tmp:
        bin_dir = fresh.create(Path(tmp) / "venv")
        fresh.install(bin_dir)
        if fresh.fast_tier(bin_dir) != 0:
            print("the fast tier fails with the newest releases: constraints left as they are")
            print("(python3 .ci/latest.py names the packages that changed)")
            return 1
        before = fresh.versions(fresh.CONSTRAINTS.read_text(encoding="utf-8"))
        pins = fresh.frozen(bin_dir)
    fresh.CONSTRAINTS.write_text(HEADER + pins, encoding="utf-8")
    after = fresh.versions(pins)
    changed = fresh.drift(before, after)
    print(f"wrote {fresh.CONSTRAINTS} ({len(changed)} changed): review and commit it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
