"""Broken engine: answers meld with a result that fails the schema (total is a string)."""

import json

from _base import run


def misbehave(message: dict, count: int) -> str | None:
    if message["method"] != "meld":
        return None
    result = {"total": "88", "melds": []}
    return json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result})


run(misbehave)
