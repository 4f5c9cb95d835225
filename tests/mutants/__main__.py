"""``python -m tests.mutants NAME``: serve one wrong engine (or ``reference``) over stdio.

``python -m tests.mutants --list`` prints every mutant with the rule that must catch it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from . import get, mutants


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--list"]:
        for mutant in mutants().values():
            print(f"{mutant.name:<24} {mutant.caught_by:<22} {mutant.misreading}")
        return 0
    if len(args) != 1:
        print("usage: python -m tests.mutants NAME | --list", file=sys.stderr)
        return 2
    try:
        mutant = get(args[0])
    except KeyError as e:
        print(e.args[0], file=sys.stderr)
        return 2
    return mutant.serve()


if __name__ == "__main__":
    raise SystemExit(main())
