"""Broken engine: answers N rule requests (argv[1], default 1), then dies on the next one."""

import os
import sys

from _base import run

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 1


def misbehave(message: dict, count: int) -> str | None:
    if count > LIMIT:
        sys.stderr.write(f"broken engine: segfault in {message['method']}\n")
        sys.stderr.flush()
        os._exit(7)
    return None


run(misbehave)
