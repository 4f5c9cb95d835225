"""Engines with one planted bug that the fixed suite misses and the fuzzer must find.

Each module wraps the reference engine (``PlantedEngine``) and alters one method's answer in one
rare situation. ``python -m tests.fuzz_engines.NAME`` serves it; ``NAME:server`` loads it
in-process.
"""

from __future__ import annotations

from pinochle_adapters import sdk
from pinochle_adapters.reference import ReferenceEngine


class PlantedEngine(ReferenceEngine):
    """The reference engine under another name; subclasses override one method."""

    name = "planted-bug"


def serve(engine: ReferenceEngine) -> None:
    """Serve ``engine`` on stdin/stdout and exit with the server's status."""
    raise SystemExit(sdk.Server(engine).serve_stdio())
