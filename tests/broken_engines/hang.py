"""Broken engine: hangs forever on the first request of one method (argv[1], default meld).

With ``initialize`` it never starts; with ``shutdown`` it also ignores the end of its input.
"""

import sys
import time

from _base import run

METHOD = sys.argv[1] if len(sys.argv) > 1 else "meld"
hung = False


def misbehave(message: dict, count: int) -> str | None:
    global hung
    if message["method"] == METHOD and not hung:
        hung = True
        sys.stderr.write(f"broken engine: thinking hard about {METHOD}...\n")
        sys.stderr.flush()
        while True:
            time.sleep(60)
    return None


run(misbehave)
