"""``python -m tests.house_engines NAME [MUTANT] [--whole-hands] [--strict]``: serve a house-rule
engine over stdio."""

from __future__ import annotations

import sys

from . import HOUSES, serve

if __name__ == "__main__":
    flags = {"--whole-hands", "--strict"}
    args = [a for a in sys.argv[1:] if a not in flags]
    if not 1 <= len(args) <= 2 or args[0] not in HOUSES:
        print(
            f"usage: python -m tests.house_engines {{{','.join(HOUSES)}}} [MUTANT] "
            "[--whole-hands] [--strict]",
            file=sys.stderr,
        )
        raise SystemExit(2)
    whole, strict = "--whole-hands" in sys.argv, "--strict" in sys.argv
    raise SystemExit(serve(args[0], args[1] if len(args) > 1 else None, whole, strict))
