"""The client's traffic log: every request and reply line, in order, so a failure can be replayed
by piping the logged requests into the engine."""

from __future__ import annotations

import io
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pinochle_adapters.client import (
    TRANSPORTS,
    EngineTimeout,
    load_server,
    open_engine,
    open_in_process,
)
from tests.suite_runs import python_module

PYTHON = shlex.quote(sys.executable)
REFERENCE_COMMAND = f"{PYTHON} -m pinochle_adapters.reference"
HANG = Path(__file__).parent / "broken_engines" / "hang.py"
TRICK: dict[str, Any] = {
    "variant": "double-deck",
    "options": {},
    "trump": "c",
    "trick": ["Ah", "Ah", "Jc", "Tc"],
}

POINTS: dict[str, Any] = {"variant": "double-deck", "options": {}}


def entries(text: str) -> list[tuple[str, str]]:
    """The log as (mark, line) pairs."""
    return [(line[0], line[2:]) for line in text.splitlines()]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_subprocess_engine_logs_initialize_each_request_and_each_reply(transport: str) -> None:
    log = io.StringIO()
    with open_engine(REFERENCE_COMMAND, timeout=10, traffic=log, transport=transport) as engine:
        # TRICK-WINNER: the highest trump wins; the ten (4th card) ranks above the jack (DECK-RANK).
        assert engine.call("trick_winner", TRICK) == {"winner": 3}
    logged = entries(log.getvalue())
    assert [mark for mark, _ in logged[:4]] == [">", "<", ">", "<"]
    assert json.loads(logged[0][1])["method"] == "initialize"
    request, reply = json.loads(logged[2][1]), json.loads(logged[3][1])
    assert (request["method"], request["params"]) == ("trick_winner", TRICK)
    assert reply == {"jsonrpc": "2.0", "id": request["id"], "result": {"winner": 3}}


def test_logged_requests_replay_to_the_same_replies() -> None:
    """What the log is for: ``grep '^> ' FILE | cut -c3- | ENGINE`` reproduces the exchange."""
    log = io.StringIO()
    with open_in_process(load_server("pinochle_adapters.reference:server"), traffic=log) as engine:
        engine.call("trick_winner", TRICK)
        points = {
            "variant": "double-deck",
            "options": {},
            "cards": ["Ah", "Th"],
            "last_trick": True,
        }
        engine.call("card_points", points)
    logged = entries(log.getvalue())
    requests = "".join(line + "\n" for mark, line in logged if mark == ">")
    replayed = subprocess.run(
        [sys.executable, "-m", "pinochle_adapters.reference"],
        input=requests,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.splitlines()
    assert replayed == [line for mark, line in logged if mark == "<"]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_missing_reply_is_logged_with_its_reason(transport: str) -> None:
    log = io.StringIO()
    engine = open_engine(f"{PYTHON} {HANG} meld", timeout=0.5, traffic=log, transport=transport)
    try:
        with pytest.raises(EngineTimeout):
            engine.call("meld", {**TRICK, "trump": "h", "hand": ["Ah"]})
    finally:
        engine.close()
    marks = [mark for mark, _ in entries(log.getvalue())]
    assert marks[-2:] == [">", "!"]
    assert entries(log.getvalue())[-1][1].startswith("meld: ")


def test_log_traffic_starts_and_stops_logging() -> None:
    engine = open_in_process(load_server("pinochle_adapters.reference:server"))
    log = io.StringIO()
    with engine:
        engine.call("trick_winner", TRICK)
        engine.log_traffic(log)
        engine.call("trick_winner", TRICK)
        engine.log_traffic(None)
        engine.call("trick_winner", TRICK)
    assert [mark for mark, _ in entries(log.getvalue())] == [">", "<"]


@pytest.mark.slow
def test_log_traffic_option_writes_every_line_of_a_suite_run(tmp_path: Path) -> None:
    """``--log-traffic FILE``: the requests a run sent, replayable line by line."""
    log = tmp_path / "traffic.log"
    done = python_module(
        "pytest",
        "features/",
        "-q",
        "-p",
        "no:cacheprovider",
        "-k",
        "dd-meld-run-single or dd-meld-run-double",
        "--log-traffic",
        str(log),
    )
    assert done.returncode == 0, done.stdout[-2000:]
    lines = log.read_text(encoding="utf-8").splitlines()
    requests = [json.loads(line[2:]) for line in lines if line.startswith("> ")]
    replies = [json.loads(line[2:]) for line in lines if line.startswith("< ")]
    assert [r["method"] for r in requests] == ["initialize", "meld", "meld", "shutdown"]
    assert [r["id"] for r in replies] == [r["id"] for r in requests]
    # The suite's two run cases: one run of hearts (16), two of hearts (150).
    assert sorted(r["result"]["total"] for r in replies[1:3]) == [16, 150]
