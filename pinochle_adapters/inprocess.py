"""Carrying one request line to an engine object in this process and one reply line back.

Decides how a call that overruns its timeout is stopped: a trusted server's call is interrupted
in the caller's thread by a watchdog (``PyThreadState_SetAsyncExc``); an untrusted server's call
runs in a worker thread the caller stops waiting for. Failures are reported as ``TransportError``.
"""

from __future__ import annotations

import ctypes
import queue
import threading
import time
from typing import Protocol

from .errors import BadReply, EngineCrashed, EngineTimeout, one_line
from .errors import TransportError as _TransportError

__all__ = ["WATCH_INTERVAL", "InProcessTransport", "LineServer"]

WATCH_INTERVAL = 0.05
"""How late, at most, the in-process watchdog stops a call that overran, or ends once retired.

The watchdog sleeps until the deadline it is watching for, not on a tick: a thread woken on a
tick takes the interpreter's lock from the caller each time (a thousand thread switches in a
two-second run of the suite, where the calls themselves wake it about twice)."""


_NEVER = float("inf")


class LineServer(Protocol):
    """An in-process engine: one request line in, one reply line out (``sdk.Server`` is one)."""

    def handle_line(self, line: str) -> str: ...


class _Interrupted(BaseException):
    """Raised inside an in-process call that overran its timeout (not an Exception, so an
    engine's ``except Exception`` cannot swallow it)."""


def _set_async_exc(thread_id: int, exc: type[BaseException] | None) -> None:
    """Raise ``exc`` in thread ``thread_id`` at its next bytecode (None: cancel a pending one)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc is not None else None
    )


class _Worker:
    """A thread running in-process calls for a caller that may stop waiting for it."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[tuple[LineServer, str] | None] = queue.SimpleQueue()
        self.results: queue.SimpleQueue[tuple[bool, str | BaseException]] = queue.SimpleQueue()
        threading.Thread(target=self._run, daemon=True, name="pinochle-engine-call").start()

    def _run(self) -> None:
        while (job := self.jobs.get()) is not None:
            server, line = job
            try:
                self.results.put((True, server.handle_line(line)))
            except BaseException as e:  # handed to the caller, which words it
                self.results.put((False, e))


class InProcessTransport:
    """A ``LineServer`` called directly: the same lines as a subprocess, no pipe, same timeout.

    Trusted servers (the suite's own reference engine) run in the caller's thread and a watchdog
    thread interrupts a call that overruns (an exception raised at its next Python bytecode): no
    thread hand-off per call. Untrusted ones run in a worker thread the caller stops waiting for.
    Neither can kill a thread: a trusted call stuck outside Python bytecode (in C code) cannot be
    interrupted, and an untrusted call that overran keeps its worker thread (and a CPU share) until
    it returns; a fresh worker serves the next call. Run untrusted code as a subprocess engine.
    """

    def __init__(self, server: LineServer, *, trusted: bool) -> None:
        self._server = server
        self._trusted = trusted and hasattr(ctypes, "pythonapi")
        name = getattr(server, "name", None)
        self.description = (
            f"{name if isinstance(name, str) else type(server).__name__} (in-process)"
        )
        self.exits: list[str] = []
        self._worker: _Worker | None = None
        self._lock = threading.Lock()
        self._wakeup = threading.Condition(self._lock)
        self._wake_at = _NEVER
        """When the watchdog looks next: a deadline, or never while no call is due to end."""
        self._latest = 0.0
        """The deadline of the latest call, running or not."""
        self._deadline: float | None = None
        self._caller = 0
        self._fired = False
        self._watching = False
        self._generation = 0

    def start(self) -> None:
        """Nothing to start: the server object lives as long as this transport."""

    def exchange(self, line: str, timeout: float) -> str:
        if self._trusted:
            return self._call_watched(line, timeout)
        return self._call_in_worker(line, timeout)

    def _call_in_worker(self, line: str, timeout: float) -> str:
        if self._worker is None:
            self._worker = _Worker()
        worker = self._worker
        worker.jobs.put((self._server, line))
        try:
            ok, value = worker.results.get(timeout=timeout)
        except queue.Empty:
            worker.jobs.put(None)  # it retires once the overrunning call returns
            self._worker = None
            raise _TransportError(
                EngineTimeout,
                f"no reply within {timeout:g} s (the in-process call was abandoned; its thread "
                "runs on until the call returns)",
            ) from None
        return self._checked(ok, value)

    def _call_watched(self, line: str, timeout: float) -> str:
        with self._lock:
            self._deadline = self._latest = deadline = time.monotonic() + timeout
            self._caller = threading.get_ident()
            self._fired = False
            if deadline < self._wake_at:  # rare: calls keep one timeout, so deadlines only grow
                self._wakeup.notify()
        self._ensure_watchdog()
        try:
            try:
                reply = self._server.handle_line(line)
            finally:
                late = self._disarm()
        except _Interrupted:
            self._disarm()
            late = True
        except Exception as e:
            return self._checked(False, e)
        if late:
            raise _TransportError(
                EngineTimeout, f"no reply within {timeout:g} s (the in-process call was stopped)"
            )
        return reply

    def _disarm(self) -> bool:
        """End the watch over the current call; True if it overran its deadline."""
        with self._lock:
            self._deadline = None
            fired, self._fired = self._fired, False
            if fired:
                _set_async_exc(self._caller, None)  # one not yet delivered must never be
        return fired

    def _ensure_watchdog(self) -> None:
        if not self._watching:
            self._watching = True
            self._generation += 1
            threading.Thread(
                target=self._watch, args=(self._generation,), daemon=True, name="pinochle-watchdog"
            ).start()

    def _watch(self, generation: int) -> None:
        # Sleeps until a deadline, not on a tick, and is not woken per call (waking a thread
        # costs more than a meld answer): until the running call's, or else the latest call's,
        # after which no call has run longer than its timeout; then it looks again. A call
        # wakes it only when it is due to end before that (a shorter timeout than the last).
        with self._wakeup:
            while self._watching and self._generation == generation:
                deadline, now = self._deadline, time.monotonic()
                if deadline is not None and not self._fired and now >= deadline:
                    self._fired = True
                    _set_async_exc(self._caller, _Interrupted)
                if deadline is not None and not self._fired:
                    self._wake_at = deadline
                else:
                    self._wake_at = self._latest if self._latest > now else _NEVER
                self._wakeup.wait(None if self._wake_at == _NEVER else self._wake_at - now)

    @staticmethod
    def _checked(ok: bool, value: str | BaseException) -> str:
        if isinstance(value, BaseException) or not ok:
            raise _TransportError(
                EngineCrashed, f"the in-process server raised {one_line(value)}", restart=False
            )
        if not isinstance(value, str):
            raise _TransportError(
                BadReply, f"the in-process server returned {type(value).__name__}, not a line"
            )
        return value

    def stderr_tail(self) -> str:
        return ""

    def stop(self, timeout: float) -> None:
        """Retire the worker and the watchdog (threads still in a call end when it returns)."""
        with self._wakeup:
            self._watching = False
            self._wakeup.notify_all()
        if self._worker is not None:
            self._worker.jobs.put(None)
            self._worker = None
