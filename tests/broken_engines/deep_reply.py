"""Broken engine: answers rule requests with a result nested argv[1] deep (default 100000)."""

import sys

from _base import run

DEPTH = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000


def misbehave(message: dict, count: int) -> str | None:
    if message["method"] in ("initialize", "shutdown"):
        return None
    nested = "[" * DEPTH + "]" * DEPTH
    return f'{{"jsonrpc":"2.0","id":{message["id"]},"result":{{"total":{nested}}}}}'


run(misbehave)
