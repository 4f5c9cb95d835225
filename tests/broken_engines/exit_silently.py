"""Broken engine: starts properly, then exits with status 0 on its first rule request."""

import sys

from _base import run


def misbehave(message: dict, count: int) -> str | None:
    if count >= 1:
        sys.exit(0)
    return None


run(misbehave)
