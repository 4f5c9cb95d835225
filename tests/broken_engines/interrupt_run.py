"""Broken engine: after N rule requests (argv[1], default 5) it sends a signal (argv[2], default
SIGINT) to the suite process that started it, as Ctrl-C or a CI timeout would, and answers on.
With argv[3] it writes its pid there and ignores shutdown and the end of its input.

The suite is the nearest ancestor that is not a shell (``sh -c`` may or may not exec).
"""

import os
import signal
import sys
import time
from pathlib import Path

from _base import run

AFTER = int(sys.argv[1]) if len(sys.argv) > 1 else 5
SIGNAL = signal.Signals[sys.argv[2] if len(sys.argv) > 2 else "SIGINT"]
sent = False


def suite_pid() -> int:
    pid = os.getppid()
    with open(f"/proc/{pid}/comm", encoding="utf-8") as comm:
        if comm.read().strip() in ("sh", "dash", "bash"):
            return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    return pid


def misbehave(message: dict, count: int) -> str | None:
    global sent
    if count >= AFTER and not sent:
        sent = True
        os.kill(suite_pid(), SIGNAL)
    return None


if len(sys.argv) > 3:
    Path(sys.argv[3]).write_text(str(os.getpid()), encoding="utf-8")
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
run(misbehave)
if len(sys.argv) > 3:
    while True:
        time.sleep(60)
