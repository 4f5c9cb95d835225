"""Broken engine: speaks protocol version 2 only."""

import json

from _base import run


def misbehave(message: dict, count: int) -> str | None:
    if message["method"] != "initialize":
        return None
    info = {
        "protocol": 2,
        "engine": {"name": "future", "version": "9"},
        "variants": [],
        "methods": [],
    }
    return json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": info})


run(misbehave)
