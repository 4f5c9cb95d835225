"""Broken engine: writes one stderr line of argv[1] megabytes (no newline), then bad replies."""

import sys

from _base import run

MEGABYTES = int(sys.argv[1]) if len(sys.argv) > 1 else 20
sys.stderr.write("x" * (MEGABYTES << 20))
sys.stderr.flush()


def misbehave(message: dict, count: int) -> str | None:
    if message["method"] in ("initialize", "shutdown"):
        return None
    return "not json"


run(misbehave)
