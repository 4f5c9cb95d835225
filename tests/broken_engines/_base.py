"""Shared loop of the broken engines: the reference engine, with one way of going wrong.

Each script passes ``misbehave(message, count)``: return a reply line to send instead of the real
answer, or None to answer properly. ``count`` numbers the rule requests (initialize excluded).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from pinochle_adapters.reference import server

Misbehave = Callable[[dict[str, Any], int], str | None]


def run(misbehave: Misbehave) -> None:
    """Answer requests on stdin until shutdown, letting ``misbehave`` go wrong where it likes."""
    engine = server()
    count = 0
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        message = json.loads(line)
        if message.get("method") not in ("initialize", "shutdown"):
            count += 1
        reply = misbehave(message, count)
        if reply is None:
            reply = engine.handle_line(line)
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()
        if engine.shutdown_requested:
            return
