"""Broken engine: answers rule requests with one reply line of argv[1] megabytes (default 3)."""

import sys

from _base import run

MEGABYTES = int(sys.argv[1]) if len(sys.argv) > 1 else 3


def misbehave(message: dict, count: int) -> str | None:
    if message["method"] in ("initialize", "shutdown"):
        return None
    padding = " " * (MEGABYTES << 20)
    return f'{{"jsonrpc":"2.0","id":{message["id"]},"result":{{"total":88,"melds":[]}}{padding}}}'


run(misbehave)
