"""The engine client: in-process and subprocess give the same answers; broken engines are errors.

Every broken engine in tests/broken_engines/ must produce an EngineError saying what went wrong,
within bounded time, and a dead engine is restarted for the next call.
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adapters.client import (
    MAX_CONSECUTIVE_TIMEOUTS,
    MAX_FAILED_STARTS,
    Engine,
    EngineError,
    open_engine,
)

BROKEN = Path(__file__).parent / "broken_engines"
PYTHON = shlex.quote(sys.executable)
REFERENCE_COMMAND = f"{PYTHON} -m adapters.reference"
TIMEOUT = 1.0


def codes(text: str) -> list[str]:
    """Card codes written with spaces."""
    return text.split()


HAND_88 = codes("Ah Th Kh Kh Kh Qh Qh Jh Qd Qd Jd Qc Qc As Ks Ks Qs Qs Js Js")
DD: dict[str, Any] = {"variant": "double-deck", "options": {}}
SD: dict[str, Any] = {"variant": "single-deck", "options": {}}
MELD_88 = {**DD, "trump": "h", "hand": HAND_88}

REQUESTS: list[tuple[str, dict[str, Any]]] = [
    ("meld", MELD_88),
    ("meld", {**SD, "trump": "d", "hand": codes("9d Ad Td Kd Qd Jd Qs Jd Ac Ah As Ad")}),
    ("meld", {"variant": "online", "options": {"extra_trump_kq": "on"}, "trump": "s",
              "hand": codes("As Ts Ks Ks Qs Qs Js 9c 9h 9d Jd Jd")}),
    ("legal_plays", {**DD, "trump": "s", "hand": codes("Ah Kh Qs Jd Ac"), "trick": ["Th"]}),
    ("legal_plays", {**SD, "options": {"trick_rules": "post-1945"}, "trump": "s",
                     "hand": codes("Ah Kh Qs Jd"), "trick": ["Qh"]}),
    ("trick_winner", {**DD, "trump": "c", "trick": codes("Ah Ah Jc Tc")}),
    ("card_points", {**SD, "cards": codes("Ah Th Kh Qh Jh 9h"), "last_trick": True}),
    ("card_points", {**SD, "options": {"card_points": "literal-002"}, "cards": ["Th", "Qh"],
                     "last_trick": False}),
    ("auction", {**DD, "dealer": 0, "calls": [{"seat": 1, "bid": 50}, {"seat": 2, "bid": 61}]}),
    ("auction", {**SD, "dealer": 3, "calls": [{"seat": 3, "bid": 150}, {"seat": 0, "pass": True}]}),
    ("score_hand", {**DD, "bidder_team": 0, "contract": 60, "outcome": "played",
                    "meld": [30, 12], "tricks": [35, 15], "tricks_won": [12, 8],
                    "scores": [100, 200]}),
]  # fmt: skip


def broken(script: str, *args: str) -> str:
    """The command line of a broken engine."""
    return " ".join([PYTHON, shlex.quote(str(BROKEN / script)), *map(shlex.quote, args)])


@pytest.fixture
def engines() -> Iterator[list[Engine]]:
    """Engines opened by a test, closed afterwards whatever happens."""
    opened: list[Engine] = []
    yield opened
    for engine in opened:
        engine.close()


def start(engines: list[Engine], command: str | None, **kwargs: Any) -> Engine:
    engine = open_engine(command, timeout=kwargs.pop("timeout", TIMEOUT), **kwargs)
    engines.append(engine)
    return engine


def answers(engine: Engine) -> list[Any]:
    out: list[Any] = []
    for method, params in REQUESTS:
        try:
            out.append(engine.call(method, params))
        except EngineError as e:
            out.append(("error", e.reason.split(": ", 2)[-1]))
    return out


# --- the reference engine, both ways ------------------------------------------------------------


def test_in_process_and_subprocess_answer_identically(engines: list[Engine]) -> None:
    inproc = start(engines, None, validate=True)
    subproc = start(engines, REFERENCE_COMMAND, timeout=10.0, validate=True)
    assert subproc.start_error is None
    assert inproc.info == subproc.info
    got = answers(inproc)
    assert got == answers(subproc)
    assert got[0]["total"] == 88  # 003's hand with hearts trump: the example of spec/protocol.md
    assert got[8]["violation"]["rule"] == "AUCTION-STEP"


def test_reference_alias_is_in_process(engines: list[Engine]) -> None:
    engine = start(engines, "reference")
    assert engine.description == "reference engine (in-process)"
    assert engine.info["engine"]["name"] == "pinochle-reference"


def test_reference_declares_every_variant_and_option(engines: list[Engine]) -> None:
    engine = start(engines, None)
    assert engine.skip_reason("meld", "online", {"scoring_method": "classic"}) is None
    assert engine.skip_reason("meld", "double-deck", {"run": 15}) is None
    assert engine.skip_reason("meld", "double-deck", {"run": "17"}) == (
        "engine does not declare option run=17"
    )
    assert engine.skip_reason("meld", "pinochle-for-three", {}) == (
        "engine does not implement pinochle-for-three"
    )


def test_invalid_params_are_an_engine_error_quoting_the_reply(engines: list[Engine]) -> None:
    engine = start(engines, REFERENCE_COMMAND, timeout=10.0)
    with pytest.raises(EngineError) as info:
        engine.call("meld", {**DD, "trump": "h", "hand": ["Ah", "Xx"]})
    message = str(info.value)
    assert "-32602" in message and "params.hand[1]" in message and "'Xx'" in message
    assert "reply: " in message
    # The engine is still in step: the next call answers.
    assert engine.call("meld", MELD_88)["total"] == 88


def test_validate_checks_the_suites_own_requests(engines: list[Engine]) -> None:
    engine = start(engines, None, validate=True)
    with pytest.raises(
        EngineError, match=r"the suite's request fails the protocol: params: 'hand'"
    ):
        engine.call("meld", {**DD, "trump": "h"})
    lenient = start(engines, None)
    with pytest.raises(EngineError, match="-32602"):
        lenient.call("meld", {**DD, "trump": "h"})


def test_only_rule_methods_can_be_called(engines: list[Engine]) -> None:
    engine = start(engines, None)
    with pytest.raises(ValueError, match="not a rule method"):
        engine.call("shutdown", {})


def test_skip_reason_for_an_undeclared_method() -> None:
    engine = open_engine(broken("wrong_protocol.py"), timeout=TIMEOUT)
    try:
        assert engine.info == {}  # it could not be initialised: calls are errors, not skips
        assert engine.skip_reason("meld", "double-deck", {}) is None
    finally:
        engine.close()


# --- broken engines -----------------------------------------------------------------------------


def timed_call(engine: Engine, method: str = "meld", params: dict[str, Any] = MELD_88) -> str:
    """The EngineError message of a call that must fail, checking it fails in bounded time."""
    began = time.monotonic()
    with pytest.raises(EngineError) as info:
        engine.call(method, params)
    assert time.monotonic() - began < TIMEOUT + 4
    return str(info.value)


def test_crash_at_start_fails_fast_with_the_reason(engines: list[Engine]) -> None:
    engine = start(engines, broken("crash_at_start.py"))
    assert engine.info == {}
    assert engine.start_error is not None and "exited with status 3" in engine.start_error
    for _ in range(MAX_FAILED_STARTS - 1):
        message = timed_call(engine)
        assert "cannot start and initialise it" in message
        assert "cannot load my meld tables" in message  # the engine's stderr is quoted
    began = time.monotonic()
    for _ in range(3):
        message = timed_call(engine)
        assert f"failed to start {MAX_FAILED_STARTS} times; giving up" in message
        assert "exited with status 3" in message
    assert time.monotonic() - began < 0.5  # no more attempts


def test_crash_after_a_request_is_reported_and_restarted(engines: list[Engine]) -> None:
    engine = start(engines, broken("crash_after.py", "1"))
    assert engine.call("meld", MELD_88)["total"] == 88
    message = timed_call(engine)
    assert "exited with status 7" in message
    assert "segfault in meld" in message
    # Restarted (and initialize replayed) for the next call, which the new process answers.
    assert engine.call("meld", MELD_88)["total"] == 88
    assert "exited with status 7" in timed_call(engine)


def test_hang_times_out_then_restarts(engines: list[Engine]) -> None:
    engine = start(engines, broken("hang.py", "meld"))
    message = timed_call(engine)
    assert f"no reply within {TIMEOUT:g} s" in message
    assert "thinking hard about meld" in message
    assert engine.call("card_points", {**DD, "cards": ["Ah"], "last_trick": False}) == {"points": 1}


def test_a_method_that_keeps_hanging_is_given_up_without_more_timeouts(
    engines: list[Engine],
) -> None:
    """After MAX_CONSECUTIVE_TIMEOUTS timeouts in a row, meld errors at once; other methods run."""
    engine = start(engines, broken("hang.py", "meld"))
    for _ in range(MAX_CONSECUTIVE_TIMEOUTS):
        assert "no reply within" in timed_call(engine)
    began = time.monotonic()
    for _ in range(5):
        assert "given up after" in timed_call(engine)
    assert time.monotonic() - began < 0.5
    assert engine.call("card_points", {**DD, "cards": ["Ah"], "last_trick": False}) == {"points": 1}


def test_hang_at_initialize_is_a_start_failure(engines: list[Engine]) -> None:
    began = time.monotonic()
    engine = start(engines, broken("hang.py", "initialize"))
    assert engine.start_error is not None and "no reply within" in engine.start_error
    assert time.monotonic() - began < TIMEOUT + 4


def test_close_kills_an_engine_that_ignores_shutdown(engines: list[Engine]) -> None:
    engine = start(engines, broken("hang.py", "shutdown"))
    assert engine.call("meld", MELD_88)["total"] == 88
    began = time.monotonic()
    engine.close()
    assert time.monotonic() - began < TIMEOUT + 4
    with pytest.raises(EngineError, match="closed"):
        engine.call("meld", MELD_88)


def test_garbage_reply_is_quoted(engines: list[Engine]) -> None:
    engine = start(engines, broken("garbage.py"))
    message = timed_call(engine)
    assert "the reply is not JSON" in message
    assert "Your meld is 88 points" in message


def test_wrong_id_is_reported(engines: list[Engine]) -> None:
    engine = start(engines, broken("wrong_id.py"))
    message = timed_call(engine)
    assert "the reply has id 102, the request had id 2" in message


def test_schema_invalid_result_is_reported(engines: list[Engine]) -> None:
    engine = start(engines, broken("bad_result.py"))
    message = timed_call(engine)
    assert "the result fails the protocol schema: result.total: '88' is not of type 'integer'" in (
        message
    )
    # Other methods are fine: the engine stays in step after a bad result.
    assert engine.call("trick_winner", {**DD, "trump": "h", "trick": ["As", "Ah"]}) == {"winner": 1}


def test_silent_exit_is_reported(engines: list[Engine]) -> None:
    engine = start(engines, broken("exit_silently.py"))
    message = timed_call(engine)
    assert "no reply: the engine exited with status 0" in message


def test_wrong_protocol_version_fails_to_start(engines: list[Engine]) -> None:
    engine = start(engines, broken("wrong_protocol.py"))
    message = timed_call(engine)
    assert "speaks protocol 2, the suite speaks 1" in message


def test_missing_command_is_a_start_failure(engines: list[Engine]) -> None:
    engine = start(engines, "/nonexistent/pinochle-engine --serve")
    assert engine.start_error is not None
    assert "exited with status 127" in engine.start_error
    message = timed_call(engine)
    assert "not found" in message  # the shell's complaint, from stderr
