"""Broken engine: the reference engine under a name of argv[1] characters (default 1,000,000)
made of argv[2] (default ``<``, which a file-name slug drops and HTML escapes to four)."""

import json
import sys

from _base import run

from pinochle_adapters.reference import server

LENGTH = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
CHARACTER = sys.argv[2] if len(sys.argv) > 2 else "<"
engine = server()


def misbehave(message: dict, count: int) -> str | None:
    if message["method"] != "initialize":
        return None
    reply = json.loads(engine.handle_line(json.dumps(message)))
    reply["result"]["engine"] = {"name": CHARACTER * LENGTH, "version": "1" * LENGTH}
    return json.dumps(reply)


run(misbehave)
