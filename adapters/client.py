"""The suite's side of the engine protocol: talk to an engine in-process or as a subprocess.

Both paths exchange the same JSON-RPC request and reply lines, so they cannot drift apart. Any way
an engine fails to answer (timeout, crash, garbage, wrong id, bad result) raises ``EngineError``.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import json
import os
import queue
import signal
import subprocess
import threading
import time
from typing import Any, Protocol

from . import protocol
from .protocol import PROTOCOL_VERSION

STDERR_LINES = 20
"""How many of the engine's last stderr lines an error message quotes."""
MAX_FAILED_STARTS = 3
MAX_CONSECUTIVE_TIMEOUTS = 3
"""After this many timeouts in a row on one method, its further calls error at once: an engine
that hangs must not cost the run a full timeout per case."""
"""After this many failed starts in a row, calls fail at once with the last reason."""
QUOTE_LIMIT = 500
"""Longest stretch of an engine reply quoted in an error message."""


class EngineError(Exception):
    """The engine failed to answer properly: the case is errored, not failed.

    The message says what went wrong, quotes the reply (if any) and the last lines of stderr.
    """

    def __init__(self, message: str, reply: str | None = None, stderr: str = "") -> None:
        text = message
        if reply is not None:
            text += f"\n  reply: {_quote(reply)}"
        if stderr:
            text += "\n  engine stderr (last lines):\n" + _indent(stderr)
        super().__init__(text)
        self.reason = message
        self.reply = reply
        self.stderr = stderr


def _quote(text: str) -> str:
    text = text.rstrip("\n")
    if len(text) > QUOTE_LIMIT:
        return repr(text[:QUOTE_LIMIT]) + f" ... ({len(text)} characters)"
    return repr(text)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


class _TransportError(Exception):
    """The transport could not deliver a reply; ``restart`` says the engine must be restarted."""

    def __init__(self, message: str, *, restart: bool = True, timed_out: bool = False) -> None:
        super().__init__(message)
        self.restart = restart
        self.timed_out = timed_out


class _Transport(Protocol):
    """Carries one request line to the engine and brings back one reply line."""

    description: str

    def start(self) -> None: ...
    def exchange(self, line: str, timeout: float) -> str: ...
    def stderr_tail(self) -> str: ...
    def stop(self, timeout: float) -> None: ...


class _InProcess:
    """The reference engine's server called directly: same lines, no pipe."""

    description = "reference engine (in-process)"

    def __init__(self) -> None:
        from .reference import server

        self._server = server()

    def start(self) -> None:
        """Nothing to start."""

    def exchange(self, line: str, timeout: float) -> str:
        return self._server.handle_line(line)

    def stderr_tail(self) -> str:
        return ""

    def stop(self, timeout: float) -> None:
        """Nothing to stop."""


_EOF = object()


class _Subprocess:
    """An engine started from a shell command line, kept running between calls.

    A reader thread moves stdout lines into a queue (so a read can time out) and another drains
    stderr into a ring of the last lines (so the engine never blocks on a full pipe).
    """

    def __init__(self, command: str) -> None:
        self.command = command
        self.description = f"engine {command!r}"
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)

    def start(self) -> None:
        self._lines = queue.Queue()
        self._stderr = collections.deque(maxlen=STDERR_LINES)
        try:
            proc = subprocess.Popen(
                self.command,
                shell=True,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=os.name == "posix",
            )
        except OSError as e:
            raise _TransportError(f"cannot start: {e}") from None
        self._proc = proc
        assert proc.stdout is not None and proc.stderr is not None
        threading.Thread(target=self._read_stdout, args=(proc, self._lines), daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(proc, self._stderr), daemon=True).start()

    @staticmethod
    def _read_stdout(proc: subprocess.Popen[bytes], lines: queue.Queue[object]) -> None:
        assert proc.stdout is not None
        with contextlib.suppress(Exception):
            for raw in proc.stdout:
                lines.put(raw)
        lines.put(_EOF)

    @staticmethod
    def _read_stderr(proc: subprocess.Popen[bytes], ring: collections.deque[str]) -> None:
        assert proc.stderr is not None
        with contextlib.suppress(Exception):
            for raw in proc.stderr:
                ring.append(raw.decode("utf-8", errors="replace").rstrip("\r\n"))

    def _exit_note(self) -> str:
        proc = self._proc
        if proc is None:
            return "the engine is not running"
        # The pipe closes a moment before the process is reaped; wait briefly for the status.
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=0.5)
        code = proc.poll()
        if code is None:
            return "the engine closed its stdout"
        if code < 0:
            with contextlib.suppress(ValueError):
                return f"the engine was killed by signal {signal.Signals(-code).name}"
        return f"the engine exited with status {code}"

    def exchange(self, line: str, timeout: float) -> str:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise _TransportError("the engine is not running")
        try:
            proc.stdin.write(line.encode("utf-8") + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise _TransportError(f"cannot send the request: {self._exit_note()}") from None
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                item = self._lines.get(timeout=max(remaining, 0.0))
            except queue.Empty:
                self.kill()
                raise _TransportError(
                    f"no reply within {timeout:g} s (the engine was killed; it is restarted "
                    "for the next call)",
                    timed_out=True,
                ) from None
            if item is _EOF:
                raise _TransportError(f"no reply: {self._exit_note()}")
            assert isinstance(item, bytes)
            try:
                text = item.decode("utf-8")
            except UnicodeDecodeError:
                raise _TransportError(f"the reply is not UTF-8: {item[:200]!r}") from None
            if text.strip():
                return text.rstrip("\r\n")

    def stderr_tail(self) -> str:
        if self._proc is not None and self._proc.poll() is not None:
            time.sleep(0.05)  # the stderr thread may still be catching up with a dead engine
        return "\n".join(list(self._stderr))

    def kill(self) -> None:
        proc = self._proc
        if proc is None or proc.poll() is not None:
            return
        with contextlib.suppress(OSError):
            if os.name == "posix":
                os.killpg(proc.pid, signal.SIGKILL)
            else:
                proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=2)

    def stop(self, timeout: float) -> None:
        proc = self._proc
        if proc is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if proc.stdin is not None:
                proc.stdin.close()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        # Kill what the shell may have left behind in the engine's process group.
        with contextlib.suppress(OSError):
            if os.name == "posix":
                os.killpg(proc.pid, signal.SIGKILL)
        for stream in (proc.stdout, proc.stderr):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()
        self._proc = None


class Engine:
    """A running engine: ``call`` a protocol method, ask why a case would be skipped, close.

    ``info`` is the ``initialize`` result (empty when the engine could not be initialised; then
    every call raises EngineError with the reason). A dead or killed engine is restarted, and
    ``initialize`` replayed, before the next call.
    """

    def __init__(self, transport: _Transport, *, timeout: float, validate: bool) -> None:
        self._transport = transport
        self.timeout = timeout
        self.validate = validate
        self.info: dict[str, Any] = {}
        self._ids = itertools.count(1)
        self._running = False
        self._failed_starts = 0
        self._start_error: str | None = None
        self._closed = False
        self._timeouts: dict[str, int] = {}
        with contextlib.suppress(EngineError):
            self._ensure_started()

    @property
    def description(self) -> str:
        """Which engine this is, for messages."""
        return self._transport.description

    @property
    def start_error(self) -> str | None:
        """Why the engine could not be started or initialised (None when it is running)."""
        return self._start_error

    def _fail(self, message: str, reply: str | None = None) -> EngineError:
        return EngineError(f"{self.description}: {message}", reply, self._transport.stderr_tail())

    def _ensure_started(self) -> None:
        if self._closed:
            raise EngineError(f"{self.description}: the engine was closed")
        if self._running:
            return
        if self._failed_starts >= MAX_FAILED_STARTS:
            raise EngineError(
                f"{self.description}: failed to start {self._failed_starts} times; giving up: "
                f"{self._start_error}"
            )
        try:
            self._transport.start()
            self._running = True
            info = self._exchange("initialize", {"protocol": PROTOCOL_VERSION})
            if info.get("protocol") != PROTOCOL_VERSION:
                raise self._fail(
                    f"initialize: the engine speaks protocol {info.get('protocol')!r}, "
                    f"the suite speaks {PROTOCOL_VERSION}"
                )
        except (EngineError, _TransportError) as e:
            self._failed_starts += 1
            self._stop_quietly()
            reason = e.reason if isinstance(e, EngineError) else str(e)
            reason = reason.removeprefix(f"{self.description}: ")
            self._start_error = reason
            stderr = e.stderr if isinstance(e, EngineError) else self._transport.stderr_tail()
            raise EngineError(
                f"{self.description}: cannot start and initialise it: {reason}", None, stderr
            ) from None
        self.info = info
        self._failed_starts = 0
        self._start_error = None

    def _stop_quietly(self) -> None:
        self._running = False
        with contextlib.suppress(Exception):
            self._transport.stop(0.5)

    def _exchange(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        request_id = next(self._ids)
        if self.validate:
            problem = protocol.check_params(method, params)
            if problem is not None:
                # The suite's own request is wrong: not the engine's fault, but not a pass either.
                raise EngineError(f"{method}: the suite's request fails the protocol: {problem}")
        line = protocol.encode(protocol.request(request_id, method, params))
        try:
            reply = self._transport.exchange(line, self.timeout)
        except _TransportError as e:
            tail = self._transport.stderr_tail()
            if e.restart:
                self._stop_quietly()
            if e.timed_out:
                self._timeouts[method] = self._timeouts.get(method, 0) + 1
            raise EngineError(f"{self.description}: {method}: {e}", None, tail) from None
        self._timeouts[method] = 0
        return self._parse_reply(method, request_id, reply)

    def _parse_reply(self, method: str, request_id: int, reply: str) -> dict[str, Any]:
        try:
            message = json.loads(reply)
        except ValueError:
            self._stop_quietly()  # out of step with the engine: start afresh next time
            raise self._fail(f"{method}: the reply is not JSON", reply) from None
        problem = protocol.schema_error(message, "response.json", "reply")
        if problem is not None:
            self._stop_quietly()
            raise self._fail(
                f"{method}: the reply is not a JSON-RPC 2.0 response: {problem}", reply
            )
        if message["id"] != request_id:
            self._stop_quietly()
            raise self._fail(
                f"{method}: the reply has id {message['id']!r}, the request had id {request_id}",
                reply,
            )
        if "error" in message:
            error = message["error"]
            name = protocol.ERROR_NAMES.get(error["code"], "error")
            raise self._fail(
                f"{method}: the engine answered with an error {error['code']} ({name}): "
                f"{error['message']}",
                reply,
            )
        result = message["result"]
        problem = protocol.check_result(method, result)
        if problem is not None:
            raise self._fail(f"{method}: the result fails the protocol schema: {problem}", reply)
        if method == "shutdown":
            return {}
        assert isinstance(result, dict)
        return result

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """The engine's result for one protocol method; raises EngineError if it fails to answer."""
        if method not in protocol.METHODS or method in ("initialize", "shutdown"):
            raise ValueError(f"not a rule method of the protocol: {method!r}")
        if self._timeouts.get(method, 0) >= MAX_CONSECUTIVE_TIMEOUTS:
            raise EngineError(
                f"{self.description}: {method}: given up after {MAX_CONSECUTIVE_TIMEOUTS} "
                f"timeouts in a row ({self.timeout:g} s each); further {method} calls are "
                "errored at once (raise --engine-timeout if the engine is only slow)"
            )
        self._ensure_started()
        return self._exchange(method, params)

    def skip_reason(self, method: str, variant: str, options: dict[str, Any]) -> str | None:
        """Why a case must be skipped: a method, variant or option value the engine did not declare.

        None when the engine implements it all, and also when the engine could not be initialised
        (then the call itself raises EngineError and the case is errored, not skipped).
        """
        if not self.info:
            return None
        if method not in self.info.get("methods", []):
            return f"no method {method}"
        declared = {v["id"]: v.get("options", {}) for v in self.info.get("variants", [])}
        if variant not in declared:
            return f"engine does not implement {variant}"
        bad = protocol.options_declared(declared[variant], options)
        if bad is not None:
            return f"engine does not declare option {bad[0]}={bad[1]}"
        return None

    def close(self) -> None:
        """Ask the engine to shut down, then stop it (killing it if it does not exit)."""
        if self._closed:
            return
        if self._running:
            with contextlib.suppress(EngineError):
                self._exchange("shutdown", {})
        self._closed = True
        self._stop_quietly()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_engine(
    command: str | None = None, *, timeout: float = 5.0, validate: bool = False
) -> Engine:
    """Open an engine: None or ``"reference"`` is the reference engine in-process; anything else
    is a shell command line started as a subprocess speaking the protocol on stdin/stdout.

    ``timeout`` bounds each request (seconds). Results are always checked against the method's
    schema; ``validate=True`` also checks every request the suite sends.
    """
    transport: _Transport
    if command is None or command.strip() == "reference":
        transport = _InProcess()
    else:
        transport = _Subprocess(command)
    return Engine(transport, timeout=timeout, validate=validate)
