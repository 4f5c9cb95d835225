"""Broken engine: answers rule requests with the right result under the wrong id."""

import json

from _base import run

from pinochle_adapters.reference import server

engine = server()


def misbehave(message: dict, count: int) -> str | None:
    if message["method"] in ("initialize", "shutdown"):
        return None
    reply = json.loads(engine.handle_line(json.dumps(message)))
    reply["id"] = message["id"] + 100
    return json.dumps(reply)


run(misbehave)
