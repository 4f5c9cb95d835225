"""Broken engine: after N rule requests (argv[1], default 5) it sends a signal (argv[2], default
SIGINT) to the suite process that started it, as Ctrl-C or a CI timeout would, and answers on.
argv[2] may name several, comma-separated (``SIGINT,SIGTERM``): they are sent GAP seconds apart
from a thread, as a second Ctrl-C or the SIGTERM after a Ctrl-C would come. With a ``group:``
prefix (``group:SIGINT``) they go to the suite's process group, as a terminal's Ctrl-C does.
With argv[3] it writes its pid there and ignores shutdown and the end of its input.

The suite is the nearest ancestor that is not a shell (``sh -c`` may or may not exec).
"""

import os
import signal
import sys
import threading
import time
from pathlib import Path

from _base import run

AFTER = int(sys.argv[1]) if len(sys.argv) > 1 else 5
NAMED = sys.argv[2] if len(sys.argv) > 2 else "SIGINT"
GROUP = NAMED.startswith("group:")
SIGNALS = [signal.Signals[s] for s in NAMED.removeprefix("group:").split(",")]
GAP = 0.02
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
        suite = suite_pid()
        send(suite, SIGNALS[0])
        if SIGNALS[1:]:
            threading.Thread(target=send_later, args=(suite,)).start()
    return None


def send_later(suite: int) -> None:
    for sent_now in SIGNALS[1:]:
        time.sleep(GAP)
        send(suite, sent_now)


def send(suite: int, number: signal.Signals) -> None:
    if GROUP:
        os.killpg(os.getpgid(suite), number)
    else:
        os.kill(suite, number)


if len(sys.argv) > 3:
    Path(sys.argv[3]).write_text(str(os.getpid()), encoding="utf-8")
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
run(misbehave)
if len(sys.argv) > 3:
    while True:
        time.sleep(60)
