"""``python -m tests.capability_engines NAME [--undeclared]``: serve one engine over stdio."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from . import ENGINES, server


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    declared = "--undeclared" not in args
    names = [a for a in args if a != "--undeclared"]
    if len(names) != 1 or names[0] not in ENGINES:
        print(
            f"usage: python -m tests.capability_engines {'|'.join(ENGINES)} [--undeclared]",
            file=sys.stderr,
        )
        return 2
    return server(names[0], declared=declared).serve_stdio()


if __name__ == "__main__":
    raise SystemExit(main())
