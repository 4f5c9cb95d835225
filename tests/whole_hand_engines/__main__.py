"""``python -m tests.whole_hand_engines NAME``: serve one whole-hand-only engine over stdio.

``--list`` prints every engine with the rule that must catch its bug.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from . import BUGS, bug, engine_names, server


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--list"]:
        print(f"{'clean':<24} {'':<20} none: the reference engine, whole hands only")
        for planted in BUGS.values():
            print(f"{planted.name:<24} {planted.caught_by:<20} {planted.misreading}")
        return 0
    if len(args) != 1 or not _known(args[0]):
        print(
            f"usage: python -m tests.whole_hand_engines {'|'.join(engine_names())} | --list",
            file=sys.stderr,
        )
        return 2
    with bug(args[0]).installed():
        return server(args[0]).serve_stdio()


def _known(name: str) -> bool:
    try:
        bug(name)
    except KeyError:
        return False
    return True


if __name__ == "__main__":
    raise SystemExit(main())
