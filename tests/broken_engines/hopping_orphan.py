"""Broken engine: on start it leaves an orphan in a session of its own that holds the engine's
stdout and changes its pid by fork and exit every millisecond or so, counting its generations in
argv[1]; then it answers properly. A one-pass scan for the pipe's holders misses it."""

import os
import sys
import time

from _base import run

COUNT_FILE = sys.argv[1]

if os.fork() == 0:
    os.setsid()
    generation = 0
    while True:
        generation += 1
        if generation % 50 == 0:
            with open(COUNT_FILE, "w", encoding="utf-8") as f:
                f.write(str(generation))
        time.sleep(0.001)
        if os.fork() != 0:
            os._exit(0)
while not os.path.exists(COUNT_FILE):
    time.sleep(0.01)
run(lambda message, count: None)
