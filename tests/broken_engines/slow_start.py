"""Slow, not broken: sleeps argv[1] seconds at every start before reading anything (a JVM, a
virus scan), then answers argv[2] rule requests (default 1) and dies on the next one."""

import os
import sys
import time

from _base import run

DELAY = float(sys.argv[1])
LIMIT = int(sys.argv[2]) if len(sys.argv) > 2 else 1
time.sleep(DELAY)


def misbehave(message: dict, count: int) -> str | None:
    if count > LIMIT:
        sys.stderr.write(f"broken engine: dying in {message['method']}\n")
        sys.stderr.flush()
        os._exit(5)
    return None


run(misbehave)
