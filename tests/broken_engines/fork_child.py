"""Broken engine: forks a child that keeps stdout open and sleeps, then dies on a rule request.

argv: ``setsid|group`` (the child leaves the process group or stays in it), the number of rule
requests answered before the engine exits with status 3, and a file to write the child's pid to.
"""

import os
import sys
import time

from _base import run

MODE, LIMIT, PID_FILE = sys.argv[1], int(sys.argv[2]), sys.argv[3]

child = os.fork()
if child == 0:
    if MODE == "setsid":
        os.setsid()  # out of the engine's process group: killpg cannot reach it
    time.sleep(120)  # holding the inherited stdout (and stderr) open all the while
    os._exit(0)
with open(PID_FILE, "w") as f:
    f.write(str(child))


def misbehave(message: dict, count: int) -> str | None:
    if count > LIMIT:
        sys.stderr.write(f"broken engine: dying in {message['method']}, my child lives on\n")
        sys.stderr.flush()
        os._exit(3)
    return None


run(misbehave)
