"""Broken engine: answers every rule request with a JSON-RPC notification (no id) instead of a
reply, so the stream is out of step on every call."""

import json

from _base import run


def misbehave(message: dict, count: int) -> str | None:
    if message["method"] in ("initialize", "shutdown"):
        return None
    return json.dumps({"jsonrpc": "2.0", "method": "progress", "params": {"done": count}})


run(misbehave)
