"""The suite's side of the engine protocol: drive one engine, in-process or as a subprocess.

Decides how long to wait, when to restart and when to give up, and turns every way an engine fails
into one ``EngineError`` subclass with a one-line reason. It imports no engine: an in-process engine
is any ``LineServer``, and both paths exchange the same JSON-RPC lines. The lines travel through a
transport: ``inprocess`` for a server object, ``transports`` (and ``processes``) for a subprocess.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import threading
import time
from collections import deque
from typing import Any, Protocol, TextIO

from specdata import escaped, shorten

from . import protocol
from .errors import (
    QUOTE_LIMIT,
    BadReply,
    EngineCrashed,
    EngineError,
    EngineTimeout,
    ErrorReply,
    StartupFailed,
    Unsupported,
    UnsupportedReply,
    one_line,
)
from .errors import TransportError as _TransportError
from .inprocess import WATCH_INTERVAL, InProcessTransport, LineServer
from .protocol import MAX_LINE_BYTES, MESSAGE_LIMIT, PROTOCOL_VERSION, UNSUPPORTED
from .transports import (
    STDERR_LINE_LIMIT,
    STDERR_LINES,
    TRANSPORT_ENV,
    TRANSPORTS,
    default_transport,
    subprocess_transport,
)

__all__ = [
    "DEFAULT_STARTUP_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "MAX_CONSECUTIVE_TIMEOUTS",
    "MAX_FAILED_STARTS",
    "MAX_LINE_BYTES",
    "NAME_LIMIT",
    "QUOTE_LIMIT",
    "STDERR_LINES",
    "STDERR_LINE_LIMIT",
    "STOP_GRACE",
    "TRANSPORTS",
    "TRANSPORT_ENV",
    "WATCH_INTERVAL",
    "BadReply",
    "Engine",
    "EngineCrashed",
    "EngineError",
    "EngineTimeout",
    "ErrorReply",
    "LineServer",
    "StartupFailed",
    "Unsupported",
    "UnsupportedReply",
    "default_transport",
    "load_server",
    "open_engine",
    "open_in_process",
]

DEFAULT_TIMEOUT = 5.0
"""Seconds an engine has to answer one request (``--engine-timeout``)."""
DEFAULT_STARTUP_TIMEOUT = 30.0
"""Seconds an engine has to start and answer ``initialize``, at first and after every restart
(``--startup-timeout``); never less than the per-call timeout. A JVM, a .NET runtime or a
virus-scanned interpreter can take seconds to start on a loaded machine."""
MAX_FAILED_STARTS = 3
"""After this many failed starts in a row, calls fail at once with the last reason."""
MAX_CONSECUTIVE_TIMEOUTS = 3
"""After this many timeouts in a row on one method, its further calls error at once: an engine
that hangs must not cost the run a full timeout per case."""
WINDOW = 20
"""How many of a method's last calls the give-ups below look at."""
MAX_TIMEOUTS_IN_WINDOW = 5
"""A method with this many timeouts among its last WINDOW calls is given up, in a row or not: an
engine hanging on every other call must not cost the run a timeout per two cases."""
MAX_RESTARTS_IN_WINDOW = 10
"""A method whose calls broke the stream (a crash, a timeout, a reply with the wrong id, a reply
to no request, a notification, a line that is not JSON-RPC) this many times among its last
WINDOW calls is given up: each of them costs an engine restart."""
WORDING_LIMIT = 65536
"""Replies longer than this (characters) that fail a schema are worded from a capped copy of the
reply (``_capped``): the explanation must not cost more than the engine's own answer."""
STOP_GRACE = 0.5
"""Seconds an engine has to exit after ``shutdown`` and the end of its stdin before it is killed."""
NAME_LIMIT = 100
"""Longest engine name or version kept from ``initialize`` (characters): the engine's own words
name files and head every page of the report site, so they are capped as quotes are."""


# --- the engine's transport ---------------------------------------------------------------------


class _Transport(Protocol):
    """Carries one request line to the engine and brings back one reply line."""

    description: str
    exits: list[str]

    def start(self) -> None: ...
    def exchange(self, line: str, timeout: float) -> str: ...
    def stderr_tail(self) -> str: ...
    def stop(self, timeout: float) -> None: ...


# --- the engine ---------------------------------------------------------------------------------


class _Window:
    """How a method's last WINDOW calls ended (ok, timeout or restart), with the counts the
    give-ups read kept up to date: no count over the window at every call."""

    __slots__ = ("broken", "outcomes", "timeouts")

    def __init__(self) -> None:
        self.outcomes: deque[str] = deque(maxlen=WINDOW)
        self.timeouts = 0
        self.broken = 0
        """Calls that did not end ok (timeouts included)."""

    def note(self, outcome: str) -> None:
        if len(self.outcomes) == WINDOW:
            self._count(self.outcomes[0], -1)
        self.outcomes.append(outcome)
        self._count(outcome, 1)

    def _count(self, outcome: str, step: int) -> None:
        if outcome != "ok":
            self.broken += step
            if outcome == "timeout":
                self.timeouts += step


class Engine:
    """A running engine: ``call`` a protocol method, close.

    ``info`` is the ``initialize`` result (None when the engine could not be initialised; then
    every call raises EngineError with the reason). A dead or killed engine is restarted, and
    ``initialize`` replayed, before the next call. ``exits`` lists how each engine process ended.
    ``timeout`` bounds each rule call; ``startup_timeout`` bounds starting and ``initialize``
    (None: the longer of ``timeout`` and DEFAULT_STARTUP_TIMEOUT).
    """

    def __init__(
        self,
        transport: _Transport,
        *,
        timeout: float,
        validate: bool,
        check_results: bool,
        traffic: TextIO | None = None,
        startup_timeout: float | None = None,
    ) -> None:
        self._transport = transport
        self._traffic = traffic
        self._traffic_lock = threading.Lock()
        self.timeout = timeout
        self.startup_timeout = (
            max(timeout, DEFAULT_STARTUP_TIMEOUT) if startup_timeout is None else startup_timeout
        )
        self.validate = validate
        self.check_results = check_results or validate
        self.info: dict[str, Any] | None = None
        self._ids = itertools.count(1)
        self.last_request: str | None = None
        """The last request line sent, byte for byte (its id included): what a report shows so
        that a failure can be replayed into the engine as it is."""
        self._running = False
        self._failed_starts = 0
        self._start_error: str | None = None
        self._closed = False
        self._timeouts: dict[str, int] = {}
        self._recent: dict[str, _Window] = {}
        """Method -> how each of its last WINDOW calls ended: ok, timeout or restart."""
        self.deadline: float | None = None
        """``time.monotonic()`` after which every call errors at once (``--run-timeout``)."""
        self.budget: float | None = None
        """The whole run's budget in seconds, as the give-up names it."""
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

    @property
    def exits(self) -> list[str]:
        """How each engine process ended, in order (``the engine exited with status 3``)."""
        return list(self._transport.exits)

    def _fail(self, kind: type[EngineError], message: str, reply: str | None = None) -> EngineError:
        return kind(f"{self.description}: {message}", reply, self._stderr_tail())

    def _stderr_tail(self) -> str:
        try:
            return self._transport.stderr_tail()
        except Exception:  # quoting stderr must never hide the failure being reported
            return ""

    def _ensure_started(self) -> None:
        if self._closed:
            raise EngineError(f"{self.description}: the engine was closed")
        if self._running:
            return
        if self._failed_starts >= MAX_FAILED_STARTS:
            raise StartupFailed(
                f"{self.description}: failed to start {self._failed_starts} times; giving up: "
                f"{self._start_error}"
            )
        try:
            try:
                self._transport.start()
            except (OSError, ValueError) as e:  # what the transport did not word itself
                raise _TransportError(StartupFailed, f"cannot start: {one_line(e)}") from None
            self._running = True
            info = self._exchange(
                "initialize", {"protocol": PROTOCOL_VERSION}, self.startup_timeout
            )
            if info.get("protocol") != PROTOCOL_VERSION:
                raise self._fail(
                    StartupFailed,
                    f"initialize: the engine speaks protocol {info.get('protocol')!r}, "
                    f"the suite speaks {PROTOCOL_VERSION}",
                )
        except (EngineError, _TransportError) as e:
            self._failed_starts += 1
            stderr = e.stderr if isinstance(e, EngineError) else self._stderr_tail()
            self._stop_quietly()
            reason = e.reason if isinstance(e, EngineError) else str(e)
            reason = reason.removeprefix(f"{self.description}: ")
            self._start_error = reason
            raise StartupFailed(
                f"{self.description}: cannot start and initialise it: {reason}", None, stderr
            ) from None
        self.info = _capped_names(info)
        self._failed_starts = 0
        self._start_error = None

    def log_traffic(self, stream: TextIO | None) -> None:
        """Write every request line (``> ``), reply line (``< ``) and missing reply (``! why``) to
        ``stream`` from now on (None: stop). ``grep '^> ' FILE | cut -c3-`` replays the requests."""
        self._traffic = stream

    def _log(self, mark: str, line: str) -> None:
        stream = self._traffic
        if stream is None:
            return
        with self._traffic_lock, contextlib.suppress(OSError, ValueError):
            # A full disk or a closed log must never turn into the engine's failure.
            stream.write(f"{mark} {line}\n")
            stream.flush()

    def _stop_quietly(self) -> None:
        self._running = False
        with contextlib.suppress(Exception):
            self._transport.stop(STOP_GRACE)

    def _exchange(
        self, method: str, params: dict[str, Any], timeout: float | None = None
    ) -> dict[str, Any]:
        request_id = next(self._ids)
        if self.validate:
            problem = protocol.check_params(method, params)
            if problem is not None:
                # The suite's own request is wrong: not the engine's fault, but not a pass either.
                raise EngineError(f"{method}: the suite's request fails the protocol: {problem}")
        line = protocol.encode(protocol.request(request_id, method, params))
        if method in protocol.RULE_METHODS:
            self.last_request = line
        self._log(">", line)
        try:
            try:
                reply = self._transport.exchange(line, self.timeout if timeout is None else timeout)
            except (OSError, ValueError) as e:  # what the transport did not word itself
                raise _TransportError(EngineCrashed, f"the pipes failed: {one_line(e)}") from None
        except _TransportError as e:
            self._log("!", f"{method}: {e}")
            tail = self._stderr_tail()
            if e.restart:
                self._stop_quietly()
            if e.kind is EngineTimeout:
                self._timeouts[method] = self._timeouts.get(method, 0) + 1
            self._note(method, "timeout" if e.kind is EngineTimeout else "restart")
            raise e.kind(f"{self.description}: {method}: {e}", None, tail) from None
        self._log("<", reply)
        self._timeouts[method] = 0
        try:
            result = self._parse_reply(method, request_id, reply)
        except EngineError:
            # A reply out of step (wrong id, a notification, not JSON) stopped the engine; an
            # error reply or a schema-invalid result left the stream in step.
            self._note(method, "ok" if self._running else "restart")
            raise
        self._note(method, "ok")
        return result

    def _note(self, method: str, outcome: str) -> None:
        """Remember how a call of ``method`` ended: ok, timeout or restart (the stream broke)."""
        window = self._recent.get(method)
        if window is None:
            window = self._recent[method] = _Window()
        window.note(outcome)

    def _given_up(self, method: str) -> str | None:
        """Why further calls of ``method`` error at once, or None."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return (
                f"the run's budget of {self.budget or 0:g} s (--run-timeout) is spent; "
                "further calls are errored at once"
            )
        if self._timeouts.get(method, 0) >= MAX_CONSECUTIVE_TIMEOUTS:
            return (
                f"given up after {MAX_CONSECUTIVE_TIMEOUTS} timeouts in a row "
                f"({self.timeout:g} s each); further {method} calls are errored at once "
                "(raise --engine-timeout if the engine is only slow)"
            )
        window = self._recent.get(method)
        if window is None or not window.broken:
            return None
        timeouts = window.timeouts
        if timeouts >= MAX_TIMEOUTS_IN_WINDOW:
            return (
                f"given up after {timeouts} timeouts in its last {len(window.outcomes)} calls "
                f"({self.timeout:g} s each); further {method} calls are errored at once "
                "(raise --engine-timeout if the engine is only slow)"
            )
        broken = window.broken
        if broken >= MAX_RESTARTS_IN_WINDOW:
            return (
                f"given up after {broken} of its last {len(window.outcomes)} calls broke the reply "
                f"stream (each a restart of the engine); further {method} calls are errored "
                "at once"
            )
        return None

    def _parse_reply(self, method: str, request_id: int, reply: str) -> dict[str, Any]:
        try:
            message = protocol.decode(reply)
        except ValueError:
            self._stop_quietly()  # out of step with the engine: start afresh next time
            raise self._fail(BadReply, f"{method}: the reply is not JSON", reply) from None
        except RecursionError:  # the line was read whole: the stream is still in step
            raise self._fail(
                BadReply, f"{method}: the reply is nested too deeply to decode", reply
            ) from None
        # A trusted in-process server (the reference) writes its envelopes with the SDK: a dict
        # with its id and a result is all that needs looking at. Any other engine's reply is
        # checked against the JSON-RPC response schema.
        trusted_result = (
            not self.check_results
            and isinstance(message, dict)
            and "result" in message
            and "error" not in message
        )
        if not trusted_result and not protocol.is_valid(message, "response.json"):
            problem = _schema_problem(message, "response.json", "reply", len(reply))
            self._stop_quietly()
            raise self._fail(
                BadReply, f"{method}: the reply is not a JSON-RPC 2.0 response: {problem}", reply
            )
        if message.get("id") != request_id:
            self._stop_quietly()
            raise self._fail(
                BadReply,
                f"{method}: the reply has id "
                f"{shorten(repr(message.get('id')), MESSAGE_LIMIT)}, "
                f"the request had id {request_id}",
                reply,
            )
        if "error" in message:
            error = message["error"]
            if error["code"] == UNSUPPORTED:
                # A declared gap, not a fault: the caller skips with the engine's own words.
                raise UnsupportedReply(
                    f"engine does not support this {method}: "
                    + shorten(str(error["message"]), MESSAGE_LIMIT),
                    reply,
                )
            name = protocol.ERROR_NAMES.get(error["code"], "error")
            raise self._fail(
                ErrorReply,
                f"{method}: the engine answered with an error {error['code']} ({name}): "
                f"{shorten(str(error['message']), MESSAGE_LIMIT)}",
                reply,
            )
        result = message["result"]
        if self.check_results or method == "initialize":
            name = protocol.schema_name(method, "result")
            problem = _schema_problem(result, name, "result", len(reply))
            if problem is not None:
                raise self._fail(
                    BadReply, f"{method}: the result fails the protocol schema: {problem}", reply
                )
        if method == "shutdown":
            return {}
        if not isinstance(result, dict):
            raise self._fail(BadReply, f"{method}: the result is not an object", reply)
        return result

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """The engine's result for one protocol method; raises EngineError if it fails to answer.

        ``params`` are sent as given: which options to leave out, and which cases to skip, is the
        suite's policy over what the engine declared (``pinochle_judge.house_rules``).
        """
        if method not in protocol.RULE_METHODS:
            raise ValueError(f"not a rule method of the protocol: {method!r}")
        given_up = self._given_up(method)
        if given_up is not None:
            raise EngineTimeout(f"{self.description}: {method}: {given_up}")
        self._ensure_started()
        timeout = self.timeout
        if self.deadline is not None:  # no call runs past the run's budget
            timeout = max(min(timeout, self.deadline - time.monotonic()), 0.001)
        return self._exchange(method, params, timeout)

    def close(self) -> None:
        """Ask the engine to shut down, then stop it (killing it if it does not exit); never raises.

        The engine is stopped whatever the ``shutdown`` exchange does.
        """
        if self._closed:
            return
        self._closed = True
        try:
            if self._running:
                with contextlib.suppress(Exception):
                    self._exchange("shutdown", {})
        finally:
            self._stop_quietly()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


CAPPED_ITEMS = 20
"""Items of a list (and keys of an object) kept in the capped copy a huge reply is worded on."""
CAPPED_TEXT = 200
CAPPED_DEPTH = 40


def _capped(value: Any, depth: int = 0) -> Any:
    """A small copy of a JSON value: lists and objects cut to CAPPED_ITEMS, strings to
    CAPPED_TEXT characters, nesting to CAPPED_DEPTH; what a huge reply's error is worded on."""
    if depth >= CAPPED_DEPTH:
        return None
    if isinstance(value, list):
        return [_capped(v, depth + 1) for v in value[:CAPPED_ITEMS]]
    if isinstance(value, dict):
        kept = itertools.islice(value.items(), CAPPED_ITEMS)
        return {k: _capped(v, depth + 1) for k, v in kept}
    if isinstance(value, str):
        return value[:CAPPED_TEXT]
    return value


def _schema_problem(instance: Any, name: str, root: str, size: int) -> str | None:
    """How ``instance`` fails schema ``name`` (None if it does not). A reply over WORDING_LIMIT
    characters is worded on a capped copy, so the explanation costs little whatever its size."""
    if protocol.is_valid(instance, name):
        return None
    if size <= WORDING_LIMIT:
        return protocol.schema_error(instance, name, root)
    problem = protocol.schema_error(_capped(instance), name, root)
    if problem is None:
        return f"{root}: fails the schema past its first items (a reply of {size} characters)"
    return f"{problem} (seen in the first items of a reply of {size} characters)"


def _capped_names(info: dict[str, Any]) -> dict[str, Any]:
    """``info`` with its engine name and version cut to NAME_LIMIT characters each, their
    control characters escaped (``escaped``): they are printed to terminals and sites."""
    engine = info.get("engine")
    if not isinstance(engine, dict):
        return info
    capped = {
        key: escaped(shorten(value, NAME_LIMIT)) if isinstance(value, str) else value
        for key, value in engine.items()
    }
    return {**info, "engine": capped}


# --- opening engines ----------------------------------------------------------------------------


def open_engine(
    command: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    validate: bool = False,
    traffic: TextIO | None = None,
    startup_timeout: float | None = None,
    transport: str | None = None,
) -> Engine:
    """An engine started from a shell command line, speaking the protocol on stdin/stdout.

    ``timeout`` bounds each request (seconds); ``startup_timeout`` bounds starting it and its
    ``initialize``, at first and after every restart (None: the longer of ``timeout`` and
    DEFAULT_STARTUP_TIMEOUT). Every result is checked against the method's schema;
    ``validate=True`` also checks every request the suite sends. ``traffic`` receives every
    request and reply line, ``initialize`` included (see ``Engine.log_traffic``). ``transport``
    is ``"select"`` or ``"threads"`` (None: ``$PINOCHLE_TRANSPORT``, else ``select`` on POSIX
    and ``threads`` on Windows); an unknown one raises StartupFailed.
    """
    return Engine(
        subprocess_transport(command, transport),
        timeout=timeout,
        validate=validate,
        check_results=True,
        traffic=traffic,
        startup_timeout=startup_timeout,
    )


def open_in_process(
    server: LineServer,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    validate: bool = False,
    trusted: bool = False,
    traffic: TextIO | None = None,
    startup_timeout: float | None = None,
) -> Engine:
    """An engine answering in this process through ``server.handle_line``: the same lines as a
    subprocess, with the same timeouts (``inprocess.InProcessTransport``: what a timeout can and
    cannot stop).

    ``trusted`` is for the suite's own reference engine: its results are not re-checked against
    the result schemas (``validate=True`` checks everything anyway) and its calls run in the
    caller's thread under a watchdog. Any other server's results are checked, as a subprocess's.
    """
    transport = InProcessTransport(server, trusted=trusted)
    return Engine(
        transport,
        timeout=timeout,
        validate=validate,
        check_results=not trusted,
        traffic=traffic,
        startup_timeout=startup_timeout,
    )


def load_server(target: str) -> LineServer:
    """The ``LineServer`` a ``"package.module:factory"`` name gives (factory called with no args).

    Raises StartupFailed, saying why, when the name is malformed, the module cannot be imported,
    the factory is missing or fails, or what it returns has no ``handle_line``.
    """
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise StartupFailed(f"{target!r}: an in-process engine is named 'package.module:factory'")
    try:
        module = importlib.import_module(module_name)
    except Exception as e:
        raise StartupFailed(
            f"{target!r}: cannot import {module_name}: {type(e).__name__}: {e}"
        ) from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise StartupFailed(f"{target!r}: {module_name} has no callable {attr}")
    try:
        server = factory()
    except Exception as e:
        raise StartupFailed(f"{target!r}: {attr}() failed: {one_line(e)}") from None
    if not callable(getattr(server, "handle_line", None)):
        raise StartupFailed(f"{target!r}: {attr}() gave {type(server).__name__}, no handle_line")
    line_server: LineServer = server
    return line_server
