"""Broken engine served in-process (``--engine-server MODULE:server``): the reference engine,
except that the meld request of one hand (``dd-meld-run-single``'s) ends the process it is
served in, as a crashing native engine would take its pytest worker with it."""

from __future__ import annotations

import json
import os

from pinochle_adapters.client import LineServer, load_server

FATAL_HAND = ["Ah", "Th", "Kh", "Qh", "Jh"]
"""The hand of the one meld request that kills the process."""


class KillsItsProcess:
    def __init__(self) -> None:
        self.reference = load_server("pinochle_adapters.reference:server")

    def handle_line(self, line: str) -> str:
        request = json.loads(line)
        if request.get("method") == "meld" and request["params"].get("hand") == FATAL_HAND:
            os._exit(1)
        return self.reference.handle_line(line)


def server() -> LineServer:
    return KillsItsProcess()
