"""Broken engine: answers rule requests with a line that is not JSON."""

from _base import run


def misbehave(message: dict, count: int) -> str | None:
    if message["method"] in ("initialize", "shutdown"):
        return None
    return "Your meld is 88 points, have a nice day"


run(misbehave)
