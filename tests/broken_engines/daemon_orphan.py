"""Broken engine: on start it leaves a daemon behind (double fork, ``setsid``, every descriptor
closed) that writes its pid to argv[1] and sleeps; then it answers properly. Nothing of the
daemon is in the engine's process group or holds its pipes."""

import os
import sys
import time
from pathlib import Path

from _base import run

PID_FILE = sys.argv[1]

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.closerange(0, 1024)
        with open(PID_FILE, "w", encoding="utf-8") as f:
            f.write(str(os.getpid()))
        time.sleep(600)
    os._exit(0)
os.wait()
while not os.path.exists(PID_FILE) or not Path(PID_FILE).read_text(encoding="utf-8"):
    time.sleep(0.01)
run(lambda message, count: None)
