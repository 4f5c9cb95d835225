"""The engine client: in-process and subprocess give the same answers; broken engines are errors.

Every broken engine in tests/broken_engines/ must produce the EngineError subclass of its fault,
saying what went wrong in one line, leaving no process behind; a dead engine is restarted. Each
subprocess test runs under both transports (``select``, and ``threads``, Windows's default), so
the Windows path runs on Linux too. No test asserts a wall-clock time: a timeout shows as the
timeout error, a call that must not wait as an unchanged count of engine exits.
"""

from __future__ import annotations

import json
import shlex
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pinochle_adapters import client, processes, protocol, transports
from pinochle_adapters.client import (
    MAX_CONSECUTIVE_TIMEOUTS,
    MAX_FAILED_STARTS,
    TRANSPORT_ENV,
    TRANSPORTS,
    BadReply,
    Engine,
    EngineCrashed,
    EngineError,
    EngineTimeout,
    ErrorReply,
    StartupFailed,
    load_server,
    open_engine,
    open_in_process,
)
from pinochle_adapters.errors import TransportError
from pinochle_adapters.inprocess import InProcessTransport

BROKEN = Path(__file__).parent / "broken_engines"
PYTHON = shlex.quote(sys.executable)
REFERENCE_COMMAND = f"{PYTHON} -m pinochle_adapters.reference"
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


class Engines(list[Engine]):
    """The engines a test opened (closed afterwards), subprocesses on one ``transport``."""

    def __init__(self, transport: str | None) -> None:
        super().__init__()
        self.transport = transport


def closing(engines: Engines) -> Iterator[Engines]:
    yield engines
    for engine in engines:
        engine.close()


@pytest.fixture(params=TRANSPORTS)
def engines(request: pytest.FixtureRequest) -> Iterator[Engines]:
    """Subprocess engines opened by a test: the test runs once per transport."""
    yield from closing(Engines(request.param))


@pytest.fixture
def opened() -> Iterator[Engines]:
    """In-process engines opened by a test, closed afterwards whatever happens."""
    yield from closing(Engines(None))


def start(engines: Engines, command: str | None, **kwargs: Any) -> Engine:
    """A subprocess engine on the test's transport, or (command None) the reference server
    in-process, trusted."""
    timeout = kwargs.pop("timeout", TIMEOUT)
    if command is None:
        server = load_server("pinochle_adapters.reference:server")
        engine = open_in_process(server, timeout=timeout, trusted=True, **kwargs)
    else:
        engine = open_engine(command, timeout=timeout, transport=engines.transport, **kwargs)
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


def test_in_process_and_subprocess_answer_identically(engines: Engines) -> None:
    inproc = start(engines, None, validate=True)
    subproc = start(engines, REFERENCE_COMMAND, timeout=10.0, validate=True)
    assert subproc.start_error is None
    assert inproc.info is not None and inproc.info == subproc.info
    got = answers(inproc)
    assert got == answers(subproc)
    assert got[0]["total"] == 88  # 003's hand with hearts trump: the example of spec/protocol.md
    assert got[8]["violation"]["rule"] == "AUCTION-STEP"


def test_in_process_engine_declares_its_name(opened: Engines) -> None:
    engine = start(opened, None)
    assert engine.description == "pinochle-reference (in-process)"
    assert engine.info is not None and engine.info["engine"]["name"] == "pinochle-reference"


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("pinochle_adapters.reference", "named 'package.module:factory'"),
        ("no_such_package.engine:server", "cannot import no_such_package.engine"),
        ("pinochle_adapters.reference:no_factory", "has no callable no_factory"),
        ("pinochle_adapters.protocol:registry", "no handle_line"),
    ],
)
def test_load_server_names_what_is_wrong(target: str, words: str) -> None:
    with pytest.raises(StartupFailed, match=words):
        load_server(target)


def test_invalid_params_are_an_engine_error_quoting_the_reply(engines: Engines) -> None:
    engine = start(engines, REFERENCE_COMMAND, timeout=10.0)
    with pytest.raises(ErrorReply) as info:
        engine.call("meld", {**DD, "trump": "h", "hand": ["Ah", "Xx"]})
    message = str(info.value)
    assert "-32602" in message and "params.hand[1]" in message and "'Xx'" in message
    assert "reply: " in message
    # The engine is still in step: the next call answers.
    assert engine.call("meld", MELD_88)["total"] == 88


def test_validate_checks_the_suites_own_requests(opened: Engines) -> None:
    engine = start(opened, None, validate=True)
    with pytest.raises(
        EngineError, match=r"the suite's request fails the protocol: params: 'hand'"
    ):
        engine.call("meld", {**DD, "trump": "h"})
    lenient = start(opened, None)
    with pytest.raises(EngineError, match="-32602"):
        lenient.call("meld", {**DD, "trump": "h"})


def test_only_rule_methods_can_be_called(opened: Engines) -> None:
    engine = start(opened, None)
    with pytest.raises(ValueError, match="not a rule method"):
        engine.call("shutdown", {})


# --- broken engines -----------------------------------------------------------------------------


def failed_call(
    engine: Engine,
    method: str = "meld",
    params: dict[str, Any] = MELD_88,
    kind: type[EngineError] = EngineError,
) -> str:
    """The message of a call that must fail with ``kind``, checking its reason is one line."""
    with pytest.raises(kind) as info:
        engine.call(method, params)
    assert "\n" not in info.value.reason  # the cause is one line; quotes follow below it
    return str(info.value)


def test_crash_at_start_fails_fast_with_the_reason(engines: Engines) -> None:
    engine = start(engines, broken("crash_at_start.py"))
    assert engine.info is None
    assert engine.start_error is not None and "exited with status 3" in engine.start_error
    for _ in range(MAX_FAILED_STARTS - 1):
        message = failed_call(engine, kind=StartupFailed)
        assert "cannot start and initialise it" in message
        assert "cannot load my meld tables" in message  # the engine's stderr is quoted
    assert len(engine.exits) == MAX_FAILED_STARTS
    for _ in range(3):
        message = failed_call(engine, kind=StartupFailed)
        assert f"failed to start {MAX_FAILED_STARTS} times; giving up" in message
        assert "exited with status 3" in message
    assert len(engine.exits) == MAX_FAILED_STARTS  # no more attempts


def test_crash_after_a_request_is_reported_and_restarted(engines: Engines) -> None:
    engine = start(engines, broken("crash_after.py", "1"))
    assert engine.call("meld", MELD_88)["total"] == 88
    message = failed_call(engine, kind=EngineCrashed)
    assert "exited with status 7" in message
    assert "segfault in meld" in message
    # Restarted (and initialize replayed) for the next call, which the new process answers.
    assert engine.call("meld", MELD_88)["total"] == 88
    assert "exited with status 7" in failed_call(engine)


@pytest.mark.slow  # waits out engine timeouts
def test_hang_times_out_then_restarts(engines: Engines) -> None:
    engine = start(engines, broken("hang.py", "meld"))
    message = failed_call(engine, kind=EngineTimeout)
    assert f"no reply within {TIMEOUT:g} s" in message
    assert "thinking hard about meld" in message
    assert engine.call("card_points", {**DD, "cards": ["Ah"], "last_trick": False}) == {"points": 1}


@pytest.mark.slow  # waits out engine timeouts
def test_a_method_that_keeps_hanging_is_given_up_without_more_timeouts(
    engines: Engines,
) -> None:
    """After MAX_CONSECUTIVE_TIMEOUTS timeouts in a row, meld errors at once; other methods run."""
    engine = start(engines, broken("hang.py", "meld"))
    for _ in range(MAX_CONSECUTIVE_TIMEOUTS):
        assert "no reply within" in failed_call(engine, kind=EngineTimeout)
    killed = engine.exits
    assert len(killed) == MAX_CONSECUTIVE_TIMEOUTS
    for _ in range(5):
        assert "given up after" in failed_call(engine, kind=EngineTimeout)
    assert engine.exits == killed  # given up at once: no engine was waited for or killed
    assert engine.call("card_points", {**DD, "cards": ["Ah"], "last_trick": False}) == {"points": 1}


@pytest.mark.slow
def test_hang_at_initialize_is_a_start_failure(engines: Engines) -> None:
    engine = start(engines, broken("hang.py", "initialize"), startup_timeout=0.5)
    assert engine.start_error is not None
    assert "initialize: no reply within 0.5 s" in engine.start_error
    assert engine.exits == ["the engine was killed by signal SIGKILL (after a timeout)"]


@pytest.mark.slow  # waits out engine timeouts
def test_initialize_has_its_own_start_up_timeout(engines: Engines) -> None:
    """A slow starter (here 1 s, over the 0.3 s per-call timeout) starts, at first and again
    after a crash: initialize is timed by the start-up timeout (default 30 s)."""
    engine = start(engines, broken("slow_start.py", "1", "1"), timeout=0.3)
    assert engine.start_error is None and engine.startup_timeout == client.DEFAULT_STARTUP_TIMEOUT
    assert engine.call("meld", MELD_88)["total"] == 88
    assert "exited with status 5" in failed_call(engine, kind=EngineCrashed)
    assert engine.call("meld", MELD_88)["total"] == 88  # restarted, slowly, and initialised
    assert engine.exits == ["the engine exited with status 5"]


@pytest.mark.slow
def test_close_kills_an_engine_that_ignores_shutdown(engines: Engines) -> None:
    engine = start(engines, broken("hang.py", "shutdown"))
    assert engine.call("meld", MELD_88)["total"] == 88
    engine.close()
    assert len(engine.exits) == 1 and "killed by signal SIGKILL" in engine.exits[0]
    with pytest.raises(EngineError, match="closed"):
        engine.call("meld", MELD_88)


def test_garbage_reply_is_quoted(engines: Engines) -> None:
    engine = start(engines, broken("garbage.py"))
    message = failed_call(engine, kind=BadReply)
    assert "the reply is not JSON" in message
    assert "Your meld is 88 points" in message


def test_wrong_id_is_reported(engines: Engines) -> None:
    engine = start(engines, broken("wrong_id.py"))
    message = failed_call(engine, kind=BadReply)
    assert "the reply has id 102, the request had id 2" in message


def test_schema_invalid_result_is_reported(engines: Engines) -> None:
    engine = start(engines, broken("bad_result.py"))
    message = failed_call(engine, kind=BadReply)
    assert "the result fails the protocol schema: result.total: '88' is not of type 'integer'" in (
        message
    )
    # Other methods are fine: the engine stays in step after a bad result.
    assert engine.call("trick_winner", {**DD, "trump": "h", "trick": ["As", "Ah"]}) == {"winner": 1}


def test_silent_exit_is_reported(engines: Engines) -> None:
    engine = start(engines, broken("exit_silently.py"))
    message = failed_call(engine, kind=EngineCrashed)
    assert "no reply: the engine exited with status 0" in message


def test_wrong_protocol_version_fails_to_start(engines: Engines) -> None:
    engine = start(engines, broken("wrong_protocol.py"))
    message = failed_call(engine, kind=StartupFailed)
    assert "speaks protocol 2, the suite speaks 1" in message


def test_missing_command_is_a_start_failure(engines: Engines) -> None:
    engine = start(engines, "/nonexistent/pinochle-engine --serve")
    assert engine.start_error is not None
    assert "exited with status 127" in engine.start_error
    message = failed_call(engine)
    assert "not found" in message  # the shell's complaint, from stderr


# --- hostile engines --------------------------------------------------------------------------


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def gone_soon(pid: int, seconds: float = 10.0) -> bool:
    """Whether process ``pid`` is gone within ``seconds`` (a SIGKILL takes a moment to land)."""
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return not alive(pid)


needs_proc = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux /proc")


@pytest.mark.slow
@needs_proc
@pytest.mark.parametrize("mode", ["setsid", "group"])
def test_an_orphan_holding_stdout_neither_hangs_nor_outlives_the_run(
    engines: Engines, tmp_path: Path, mode: str
) -> None:
    """D1: the engine dies, its child (in or out of the process group) keeps stdout open."""
    pid_file = tmp_path / "child.pid"
    engine = start(engines, broken("fork_child.py", mode, "1", str(pid_file)), timeout=60.0)
    assert engine.call("meld", MELD_88)["total"] == 88
    child = int(pid_file.read_text())
    # The exit is seen at once: a crash, not a timeout (which is 60 s here).
    message = failed_call(engine, kind=EngineCrashed)
    assert "the engine exited with status 3" in message and "my child lives on" in message
    assert "the engine exited with status 3" in engine.exits
    assert gone_soon(child)  # killed with the engine: no process left behind
    assert engine.call("meld", MELD_88)["total"] == 88  # restarted (with a new child)
    child = int(pid_file.read_text())
    engine.close()
    assert gone_soon(child)


def test_a_huge_stderr_line_is_quoted_capped(engines: Engines) -> None:
    """D4: one 20 MB stderr line must not become a 20 MB error message."""
    engine = start(engines, broken("long_stderr.py", "20"), timeout=10.0)
    message = failed_call(engine, kind=BadReply)
    assert "the reply is not JSON" in message and "xxxx" in message
    assert len(message) < 2_000


def test_a_reply_line_over_the_limit_is_refused(engines: Engines) -> None:
    engine = start(engines, broken("long_reply.py", "3"), timeout=10.0)
    message = failed_call(engine, kind=BadReply)
    assert f"the reply line is over {client.MAX_LINE_BYTES} bytes" in message
    assert len(message) < 2_000


def test_a_deeply_nested_reply_is_a_one_line_bad_reply(engines: Engines) -> None:
    """D5: nesting deeper than Python's recursion limit is an errored case, not a RecursionError."""
    engine = start(engines, broken("deep_reply.py", "100000"))
    assert "the reply is nested too deeply to decode" in failed_call(engine, kind=BadReply)
    engine = start(engines, broken("deep_reply.py", "500"))  # decodes, but is no meld result
    assert "the result fails the protocol schema: result" in failed_call(engine, kind=BadReply)
    engine.close()  # close never raises, and stops the engine
    with pytest.raises(EngineError, match="closed"):
        engine.call("meld", MELD_88)


def test_a_pipe_closed_behind_the_clients_back_is_a_one_line_error(engines: Engines) -> None:
    """An OS error (here ValueError or BrokenPipeError on a closed stdin) is
    an EngineError with one line, never a traceback; the next call restarts the engine."""
    engine = start(engines, REFERENCE_COMMAND, timeout=10.0)
    transport = engine._transport
    assert isinstance(transport, transports.PipeTransport) and transport._proc is not None
    assert transport._proc.stdin is not None
    transport._proc.stdin.close()
    message = failed_call(engine, kind=EngineCrashed)
    assert "the pipes to the engine failed" in message or "cannot send the request" in message
    assert engine.call("meld", MELD_88)["total"] == 88


def test_a_start_that_fails_in_the_os_is_a_one_line_start_failure(
    engines: Engines, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_more_files(command: str) -> None:
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(processes, "popen", no_more_files)
    engine = start(engines, REFERENCE_COMMAND)
    assert engine.start_error == "cannot start: [Errno 24] Too many open files"
    assert "cannot start and initialise it: cannot start: [Errno 24]" in failed_call(
        engine, kind=StartupFailed
    )


def test_close_never_raises_before_stopping_the_engine() -> None:
    class Exploding:
        """A transport whose shutdown exchange blows up."""

        description = "exploding"
        exits: list[str] = []  # noqa: RUF012
        stopped = False

        def start(self) -> None: ...
        def stderr_tail(self) -> str:
            return ""

        def exchange(self, line: str, timeout: float) -> str:
            if '"shutdown"' in line:
                raise RecursionError("deep")
            info = {"protocol": 1, "engine": {"name": "x", "version": "1"}}
            result = {**info, "variants": [], "methods": []}
            return json.dumps({"jsonrpc": "2.0", "id": 1, "result": result})

        def stop(self, timeout: float) -> None:
            self.stopped = True

    transport = Exploding()
    engine = Engine(transport, timeout=TIMEOUT, validate=False, check_results=True)
    assert engine.info is not None
    engine.close()
    assert transport.stopped


# --- in-process timeouts ------------------------------------------------------------------------


class Looping:
    """A LineServer that loops in Python on ``meld`` (counting), and answers initialize."""

    name = "looping"

    def __init__(self) -> None:
        self.spins = 0
        self.inner = load_server("pinochle_adapters.reference:server")

    def handle_line(self, line: str) -> str:
        if '"meld"' in line:
            while True:
                self.spins += 1
        return self.inner.handle_line(line)


class Blocking(Looping):
    """A LineServer that blocks in C code (waiting on an event nobody sets) on ``meld``."""

    def handle_line(self, line: str) -> str:
        if '"meld"' in line:
            threading.Event().wait(30)
        return self.inner.handle_line(line)


def test_a_trusted_in_process_call_that_loops_is_stopped_at_the_timeout() -> None:
    server = Looping()
    with open_in_process(server, timeout=0.3, trusted=True) as engine:
        with pytest.raises(EngineTimeout, match=r"no reply within 0.3 s .*stopped"):
            engine.call("meld", MELD_88)
        spins = server.spins
        time.sleep(0.1)
        assert server.spins == spins  # the loop was interrupted, not left running
        card_points = {**DD, "cards": ["As"], "last_trick": False}
        assert engine.call("card_points", card_points) == {"points": 1}


def test_a_call_due_before_the_last_ones_deadline_is_still_stopped_at_its_own() -> None:
    """The watchdog sleeps until the latest deadline it knows: a call with a shorter timeout
    than the call before must wake it, or it would run on until that earlier call's deadline."""

    class Lingering(Looping):
        def handle_line(self, line: str) -> str:
            if '"meld"' in line:
                end = time.monotonic() + 5.0  # answers at last, unless interrupted first
                while time.monotonic() < end:
                    self.spins += 1
            return self.inner.handle_line(line)

    transport = InProcessTransport(Lingering(), trusted=True)
    card_points = {**DD, "cards": ["As"], "last_trick": False}
    try:
        first = protocol.encode(protocol.request(1, "card_points", card_points))
        assert '"result"' in transport.exchange(first, 600.0)
        second = protocol.encode(protocol.request(2, "meld", MELD_88))
        with pytest.raises(TransportError) as info:
            transport.exchange(second, 0.2)
        assert info.value.kind is EngineTimeout
    finally:
        transport.stop(1.0)


def test_an_untrusted_in_process_call_that_blocks_is_abandoned_at_the_timeout() -> None:
    with open_in_process(Blocking(), timeout=0.3) as engine:
        with pytest.raises(EngineTimeout, match=r"no reply within 0.3 s .*abandoned"):
            engine.call("meld", MELD_88)
        card_points = {**DD, "cards": ["As"], "last_trick": False}
        assert engine.call("card_points", card_points) == {"points": 1}


@pytest.mark.slow
def test_the_watchdog_never_interrupts_anything_but_an_overrunning_call() -> None:
    """Calls finishing around the deadline either answer or time out; nothing fires later."""

    class Jittery(Looping):
        def handle_line(self, line: str) -> str:
            if '"meld"' in line:
                end = time.monotonic() + (self.spins % 7) * 0.02
                self.spins += 1
                while time.monotonic() < end:
                    pass
            return self.inner.handle_line(line)

    outcomes: set[str] = set()
    with open_in_process(Jittery(), timeout=0.07, trusted=True) as engine:
        for _ in range(40):
            try:
                engine.call("meld", MELD_88)
                outcomes.add("answered")
            except EngineTimeout:
                outcomes.add("timed out")
    end = time.monotonic() + 0.3
    while time.monotonic() < end:  # a stray interrupt would be raised here
        sum(range(100))
    assert outcomes == {"answered", "timed out"}


def test_an_in_process_server_that_raises_is_a_crash(opened: Engines) -> None:
    class Raising(Looping):
        def handle_line(self, line: str) -> str:
            if '"meld"' in line:
                raise RuntimeError("boom")
            return self.inner.handle_line(line)

    engine = open_in_process(Raising(), timeout=TIMEOUT)
    opened.append(engine)
    with pytest.raises(EngineCrashed, match="the in-process server raised RuntimeError: boom"):
        engine.call("meld", MELD_88)


def test_untrusted_in_process_results_are_checked(opened: Engines) -> None:
    class Lying(Looping):
        def handle_line(self, line: str) -> str:
            reply = self.inner.handle_line(line)
            return reply.replace('"total":88', '"total":"88"')

    engine = open_in_process(Lying(), timeout=TIMEOUT)
    opened.append(engine)
    with pytest.raises(BadReply, match=r"result\.total: '88' is not of type 'integer'"):
        engine.call("meld", MELD_88)
    trusted = open_in_process(Lying(), timeout=TIMEOUT, trusted=True)
    opened.append(trusted)
    assert trusted.call("meld", MELD_88)["total"] == "88"  # trusted: not re-checked
    checked = open_in_process(Lying(), timeout=TIMEOUT, trusted=True, validate=True)
    opened.append(checked)
    with pytest.raises(BadReply):
        checked.call("meld", MELD_88)


def test_no_engine_process_is_left_after_close(engines: Engines) -> None:
    engine = start(engines, REFERENCE_COMMAND, timeout=10.0)
    engine.call("meld", MELD_88)
    transport = engine._transport
    assert isinstance(transport, transports.PipeTransport) and transport._proc is not None
    assert transport.name == engines.transport
    pid = transport._proc.pid
    engine.close()
    assert gone_soon(pid)
    assert engine.exits == ["the engine exited with status 0"]


def _watchdogs() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == "pinochle-watchdog"}


def test_restarts_after_in_process_timeouts_leave_one_watchdog() -> None:
    before = _watchdogs()  # other tests' engines may still be alive in this process
    with open_in_process(Looping(), timeout=0.1, trusted=True) as engine:
        for _ in range(MAX_CONSECUTIVE_TIMEOUTS):
            with pytest.raises(EngineTimeout):
                engine.call("meld", MELD_88)
        card_points = {**DD, "cards": ["As"], "last_trick": False}
        assert engine.call("card_points", card_points) == {"points": 1}  # restarted each time
        time.sleep(3 * client.WATCH_INTERVAL)
        assert len(_watchdogs() - before) == 1


# --- choosing a transport; the Windows plumbing, faked on any OS -------------------------------


def test_the_transport_is_chosen_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TRANSPORT_ENV, "threads")
    assert isinstance(transports.subprocess_transport("x"), transports.ThreadTransport)
    assert isinstance(transports.subprocess_transport("x", "select"), transports.SelectTransport)
    monkeypatch.setenv(TRANSPORT_ENV, "select")
    assert isinstance(transports.subprocess_transport("x"), transports.SelectTransport)
    monkeypatch.delenv(TRANSPORT_ENV)
    assert transports.subprocess_transport("x").name == client.default_transport()
    monkeypatch.setenv(TRANSPORT_ENV, "pigeons")
    with pytest.raises(StartupFailed) as info:
        open_engine(REFERENCE_COMMAND)
    assert info.value.reason == (
        f"PINOCHLE_TRANSPORT='pigeons' is not a transport: choose one of select, threads "
        f"(default here: {client.default_transport()})"
    )


class FakeWindowsProcess:
    """What ``processes`` asks of a process it kills."""

    pid = 4242
    returncode = 1

    def __init__(self) -> None:
        self.calls: list[str] = []

    def kill(self) -> None:
        self.calls.append("kill")

    def wait(self, timeout: float) -> int:
        self.calls.append("wait")
        return self.returncode


def test_on_windows_threads_are_the_default_and_a_kill_takes_the_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(processes, "WINDOWS", True)
    monkeypatch.delenv(TRANSPORT_ENV, raising=False)
    assert transports.default_transport() == "threads"
    assert transports.subprocess_transport("x").name == "threads"
    with pytest.raises(StartupFailed, match="PINOCHLE_TRANSPORT='select' needs POSIX pipes"):
        transports.subprocess_transport("x", "select")
    started: dict[str, Any] = {}
    monkeypatch.setattr(processes.subprocess, "Popen", lambda *a, **kw: started.update(kw))
    processes.popen("my-engine")
    assert started["creationflags"] == processes.CREATE_NEW_PROCESS_GROUP
    assert "start_new_session" not in started
    ran: list[list[str]] = []
    monkeypatch.setattr(processes.subprocess, "run", lambda args, **kw: ran.append(args))
    process = FakeWindowsProcess()
    processes.kill_tree(process, set())  # type: ignore[arg-type]
    assert ran == [["taskkill", "/F", "/T", "/PID", "4242"]]
    assert process.calls == ["kill", "wait"]
