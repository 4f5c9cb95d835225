"""Broken engine: hangs on every other rule request (the even ones), answers the others: the
timeouts never come three in a row."""

import time

from _base import run


def misbehave(message: dict, count: int) -> str | None:
    if count and count % 2 == 0:
        while True:
            time.sleep(60)
    return None


run(misbehave)
