"""``python -m tests.house_engines NAME [MUTANT]``: serve a house-rule engine over stdio."""

from __future__ import annotations

import sys

from . import HOUSES, serve

if __name__ == "__main__":
    args = sys.argv[1:]
    if not 1 <= len(args) <= 2 or args[0] not in HOUSES:
        print(
            f"usage: python -m tests.house_engines {{{','.join(HOUSES)}}} [MUTANT]", file=sys.stderr
        )
        raise SystemExit(2)
    raise SystemExit(serve(*args))
