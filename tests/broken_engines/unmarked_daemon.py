"""Broken engine: on start it leaves a daemon behind that drops every trace of the engine (double
fork, ``setsid``, every descriptor closed, then ``exec`` with an empty environment, so without the
engine's mark) and writes its pid to argv[1]; then it answers properly. Only the suite being a
subreaper finds the daemon: it is re-parented to the suite when its parent exits."""

import os
import sys
import time
from pathlib import Path

from _base import run

PID_FILE = sys.argv[1]
DAEMON = "import os, sys, time; open(sys.argv[1], 'w').write(str(os.getpid())); time.sleep(600)"

if os.fork() == 0:
    if os.fork() == 0:
        time.sleep(0.05)  # until its parent has exited and it has been re-parented
        os.setsid()
        os.closerange(0, 1024)
        os.execve(sys.executable, [sys.executable, "-c", DAEMON, PID_FILE], {})
    os._exit(0)
os.wait()
while not os.path.exists(PID_FILE) or not Path(PID_FILE).read_text(encoding="utf-8"):
    time.sleep(0.01)
run(lambda message, count: None)
