"""Carrying one request line to a subprocess engine and one reply line back, on any OS.

Two transports keep the same promises (spec/protocol.md, "Timeouts, crashes and restarts"):
``select`` (POSIX, the default there) does all I/O in the caller's thread with a selector;
``threads`` (any OS, the default on Windows) reads the pipes from threads. ``PINOCHLE_TRANSPORT``
picks one. Both leave processes to ``processes`` and report failures as ``TransportError``.
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import selectors
import subprocess
import threading
import time
from collections.abc import Callable
from typing import BinaryIO

from . import processes
from .errors import (
    BadReply,
    EngineCrashed,
    EngineTimeout,
    StartupFailed,
    TransportError,
    one_line,
)
from .protocol import MAX_LINE_BYTES

TRANSPORT_ENV = "PINOCHLE_TRANSPORT"
"""The environment variable naming the subprocess transport: ``select`` or ``threads``."""
TRANSPORTS = ("select", "threads")
STDERR_LINES = 20
"""How many of the engine's last stderr lines an error message quotes."""
STDERR_LINE_LIMIT = 300
"""Longest stderr line quoted (characters): one 100 MB line must not become a 100 MB message."""
POLL_INTERVAL = 0.05
"""How often an exit is polled where the OS gives no exit notification (no pidfd)."""
EXIT_READ = 0.05
"""Seconds to read what an engine wrote just before it exited (a last reply still counts)."""
STDERR_CATCH_UP = 1.0
"""Seconds, at most, to read a dead engine's last stderr before quoting it: the reader ends at
the pipe's end, at once once the process is gone; only a loaded machine needs the margin."""
CHUNK = 1 << 16


def default_transport() -> str:
    """``threads`` on Windows (its pipes cannot be selected), ``select`` elsewhere."""
    return "threads" if processes.WINDOWS else "select"


def subprocess_transport(command: str, name: str | None = None) -> PipeTransport:
    """The transport ``name`` (default: ``$PINOCHLE_TRANSPORT``, else ``default_transport()``)
    for an engine started from ``command``; StartupFailed for a name it does not know."""
    chosen = name or os.environ.get(TRANSPORT_ENV, "").strip() or default_transport()
    if chosen == "threads":
        return ThreadTransport(command)
    if chosen == "select" and not processes.WINDOWS:
        return SelectTransport(command)
    why = "needs POSIX pipes" if chosen == "select" else "is not a transport"
    raise StartupFailed(
        f"{TRANSPORT_ENV}={chosen!r} {why}: choose one of {', '.join(TRANSPORTS)} "
        f"(default here: {default_transport()})"
    )


class StderrRing:
    """The last STDERR_LINES lines of stderr, each cut to STDERR_LINE_LIMIT characters."""

    def __init__(self) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._partial = bytearray()
        self._dropped = 0

    def feed(self, chunk: bytes) -> None:
        parts = chunk.split(b"\n")
        if len(parts) > STDERR_LINES + 1:  # earlier lines would scroll out anyway
            self._partial.clear()
            self._dropped = 0
            parts = parts[-(STDERR_LINES + 1) :]
        for i, part in enumerate(parts):
            room = 4 * STDERR_LINE_LIMIT - len(self._partial)  # UTF-8 bytes for the characters
            self._partial += part[: max(room, 0)]
            self._dropped += max(len(part) - max(room, 0), 0)
            if i < len(parts) - 1:
                self.lines.append(self._text())
                self._partial.clear()
                self._dropped = 0

    def _text(self) -> str:
        text = self._partial.decode("utf-8", errors="replace").rstrip("\r")
        extra = len(text) - STDERR_LINE_LIMIT
        if extra > 0 or self._dropped:
            more = max(extra, 0) + self._dropped
            text = f"{text[:STDERR_LINE_LIMIT]}... ({more} more characters or bytes)"
        return text

    def tail(self) -> str:
        lines = list(self.lines)
        if self._partial:
            lines.append(self._text())
        return "\n".join(lines)


def take_line(buffer: bytearray) -> str | None:
    """The next whole non-blank line taken from ``buffer``, or None; a line over the limit (or a
    buffer over it with no line end) or one that is not UTF-8 is a BadReply."""
    while (end := buffer.find(b"\n")) >= 0:
        raw = bytes(buffer[:end])
        del buffer[: end + 1]
        if len(raw) > MAX_LINE_BYTES:
            raise TransportError(BadReply, _too_long(len(raw)))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise TransportError(BadReply, f"the reply is not UTF-8: {raw[:200]!r}") from None
        if text.strip():
            return text.rstrip("\r")
    if len(buffer) > MAX_LINE_BYTES:
        raise TransportError(BadReply, _too_long(len(buffer)))
    return None


def _too_long(size: int) -> str:
    return f"the reply line is over {MAX_LINE_BYTES} bytes ({size} bytes read)"


def _timed_out(timeout: float) -> TransportError:
    return TransportError(
        EngineTimeout,
        f"no reply within {timeout:g} s (the engine was killed; it is restarted for the next call)",
    )


class PipeTransport:
    """An engine started from a shell command line, kept running between calls.

    What both transports share: starting the process (``processes.popen``), recording how each
    process ended, killing the tree, and stopping (stdin closed, a grace period, then a kill).
    Subclasses move the bytes. Every OS error is a TransportError, never a traceback.
    """

    name = ""

    def __init__(self, command: str) -> None:
        self.command = command
        self.description = f"engine {command!r}"
        self.exits: list[str] = []
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr = StderrRing()
        self._inodes: set[int] = set()
        self._exit_note: str | None = None

    def start(self) -> None:
        self._stderr = StderrRing()
        self._exit_note = None
        try:
            proc = processes.popen(self.command)
        except (OSError, ValueError) as e:
            raise TransportError(StartupFailed, f"cannot start: {e}") from None
        self._proc = proc
        try:
            self._inodes = processes.pipe_inodes(proc)
            self._open(proc)
        except (OSError, ValueError) as e:
            self.stop(0)
            raise TransportError(
                StartupFailed, f"cannot use the engine's pipes ({self.name}): {one_line(e)}"
            ) from None

    def exchange(self, line: str, timeout: float) -> str:
        if self._proc is None:
            raise TransportError(EngineCrashed, "the engine is not running")
        try:
            return self._exchange(line.encode("utf-8") + b"\n", timeout)
        except (OSError, ValueError) as e:
            raise TransportError(
                EngineCrashed, f"the pipes to the engine failed ({self.name}): {one_line(e)}"
            ) from None

    def stderr_tail(self) -> str:
        with contextlib.suppress(OSError, ValueError):
            self._catch_up()
        return self._stderr.tail()

    def kill(self, why: str) -> None:
        """Kill the engine, its process group (or tree) and any process holding its pipes."""
        proc = self._proc
        if proc is None:
            return
        processes.kill_tree(proc, self._inodes)
        if self._exit_note is None and proc.returncode is not None:
            self._record_exit(proc.returncode, why)

    def stop(self, timeout: float) -> None:
        """Close stdin, give the engine ``timeout`` seconds to exit, then kill what is left."""
        proc = self._proc
        if proc is None:
            return
        with contextlib.suppress(OSError, ValueError):
            self._close_stdin(proc)
            self._await_exit(proc, time.monotonic() + timeout)
        if self._exit_note is None and proc.returncode is not None:
            self._record_exit(proc.returncode)
        self.kill("not exiting when told")
        with contextlib.suppress(OSError, ValueError):
            self._close(proc)
        self._proc = None

    def _record_exit(self, code: int, why: str | None = None) -> None:
        self._exit_note = processes.describe_status(code)
        if why is not None and code == processes.KILLED_STATUS:
            self._exit_note += f" (after {why})"
        self.exits.append(self._exit_note)

    def _note_exit(self) -> str:
        """How the engine ended (waiting briefly for its status), recorded in ``exits``."""
        proc = self._proc
        if proc is None:
            return "the engine is not running"
        if self._exit_note is not None:
            return self._exit_note
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=0.2)
        code = proc.poll()
        if code is None:
            return "the engine closed its stdout but is still running"
        self._record_exit(code)
        return self._exit_note or ""

    def _cannot_send(self) -> TransportError:
        return TransportError(EngineCrashed, f"cannot send the request: {self._note_exit()}")

    # What a transport implements: -------------------------------------------------------------

    def _open(self, proc: subprocess.Popen[bytes]) -> None:
        raise NotImplementedError

    def _exchange(self, data: bytes, timeout: float) -> str:
        raise NotImplementedError

    def _catch_up(self) -> None:
        """Take in what a dead engine wrote to stderr last."""

    def _close_stdin(self, proc: subprocess.Popen[bytes]) -> None:
        raise NotImplementedError

    def _await_exit(self, proc: subprocess.Popen[bytes], end: float) -> None:
        """Wait until ``end`` for the engine to exit, reading its output meanwhile."""
        raise NotImplementedError

    def _close(self, proc: subprocess.Popen[bytes]) -> None:
        raise NotImplementedError


class SelectTransport(PipeTransport):
    """POSIX: one selector over stdin, stdout, stderr and a pidfd, in the caller's thread.

    Nothing ever blocks on a pipe, stderr is drained while waiting (so the engine never blocks on
    a full pipe), and an exit is seen at once (pidfd) even when an orphaned child keeps stdout
    open; without a pidfd (macOS) the exit is polled every POLL_INTERVAL.
    """

    name = "select"

    def __init__(self, command: str) -> None:
        super().__init__(command)
        self._selector: selectors.BaseSelector | None = None
        self._pidfd = -1
        self._buffer = bytearray()

    def _open(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self._buffer = bytearray()
        selector = selectors.DefaultSelector()
        self._selector = selector
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            os.set_blocking(stream.fileno(), False)
        selector.register(proc.stdout.fileno(), selectors.EVENT_READ, "stdout")
        selector.register(proc.stderr.fileno(), selectors.EVENT_READ, "stderr")
        self._pidfd = processes.exit_fd(proc)
        if self._pidfd >= 0:
            selector.register(self._pidfd, selectors.EVENT_READ, "exit")

    def _pump(self, wait: float, pending: memoryview | None) -> tuple[bool, memoryview | None]:
        """One round of I/O for at most ``wait`` seconds; returns (engine exited, unsent bytes)."""
        proc, selector = self._proc, self._selector
        assert proc is not None and proc.stdin is not None and selector is not None
        exited = False
        events = selector.select(wait if self._pidfd >= 0 else min(wait, POLL_INTERVAL))
        for key, _ in events:
            if key.data == "stdin" and pending is not None:
                try:
                    pending = pending[os.write(proc.stdin.fileno(), pending) :]
                except BlockingIOError:
                    pass
                except OSError:
                    raise self._cannot_send() from None
                if not pending:
                    selector.unregister(proc.stdin.fileno())
                    pending = None
            elif key.data in ("stdout", "stderr"):
                exited = self._read_ready(selector, key) or exited
            elif key.data == "exit":
                exited = True
        if self._pidfd < 0 and proc.poll() is not None:
            exited = True
        return exited, pending

    def _read_ready(self, selector: selectors.BaseSelector, key: selectors.SelectorKey) -> bool:
        """Read one chunk from a ready stdout or stderr; True at the end of stdout.

        stdout past a line's limit is dropped: that reply is refused whole anyway."""
        try:
            chunk = os.read(key.fd, CHUNK)
        except BlockingIOError:
            return False
        if not chunk:
            selector.unregister(key.fd)
            return bool(key.data == "stdout")
        if key.data == "stderr":
            self._stderr.feed(chunk)
        elif len(self._buffer) <= MAX_LINE_BYTES:
            self._buffer += chunk
        return False

    def _exchange(self, data: bytes, timeout: float) -> str:
        proc, selector = self._proc, self._selector
        assert proc is not None and proc.stdin is not None and selector is not None
        deadline = time.monotonic() + timeout
        request = memoryview(data)
        try:
            pending: memoryview | None = request[os.write(proc.stdin.fileno(), request) :]
        except BlockingIOError:
            pending = request
        except OSError:
            raise self._cannot_send() from None
        if pending:
            selector.register(proc.stdin.fileno(), selectors.EVENT_WRITE, "stdin")
        else:
            pending = None
        while True:
            reply = take_line(self._buffer)
            if reply is not None:
                if pending is not None:
                    selector.unregister(proc.stdin.fileno())
                return reply
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.kill("a timeout")
                raise _timed_out(timeout)
            exited, pending = self._pump(remaining, pending)
            if exited:
                self._drain(EXIT_READ)  # a reply written just before exiting still counts
                reply = take_line(self._buffer)
                if reply is not None:
                    return reply
                raise TransportError(EngineCrashed, f"no reply: {self._note_exit()}")

    def _drain(self, seconds: float) -> None:
        """Read what stdout and stderr still hold, for at most ``seconds``."""
        selector = self._selector
        if selector is None:
            return
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            events = [k for k, _ in selector.select(left) if k.data in ("stdout", "stderr")]
            if not events:
                return
            for key in events:
                self._read_ready(selector, key)

    def _catch_up(self) -> None:
        if self._proc is not None and self._proc.poll() is not None:
            self._drain(EXIT_READ)

    def _close_stdin(self, proc: subprocess.Popen[bytes]) -> None:
        if proc.stdin is not None:
            if self._selector is not None:
                with contextlib.suppress(KeyError, ValueError):
                    self._selector.unregister(proc.stdin.fileno())
            proc.stdin.close()  # nothing else uses it: this never blocks

    def _await_exit(self, proc: subprocess.Popen[bytes], end: float) -> None:
        while proc.poll() is None and (left := end - time.monotonic()) > 0:
            # Drain while waiting: an engine blocked writing to a full pipe cannot exit.
            self._drain(min(left, POLL_INTERVAL))

    def _close(self, proc: subprocess.Popen[bytes]) -> None:
        if self._selector is not None:
            self._selector.close()
            self._selector = None
        for stream in (proc.stdout, proc.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        if self._pidfd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = -1


class _PipeThreads:
    """The threads serving one engine process, and what they share under one condition.

    stdout is read into ``buffer`` (which the reader stops filling past a line's limit until the
    caller has looked: memory stays bounded); stderr is read into the ring at all times; stdin is
    written from a queue (so a write to an engine that reads nothing never blocks the caller),
    and closed by ``None``; one thread waits for the exit. Threads of an old process keep their
    own ``_PipeThreads``, so a restart never mixes two processes' output.
    """

    def __init__(self, proc: subprocess.Popen[bytes], stderr: StderrRing) -> None:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self.cond = threading.Condition()
        self.buffer = bytearray()
        self.stdout_closed = False
        self.exited = False
        self.discard = False
        """Stopping: stdout is read and dropped, never held back."""
        self.write_error: str | None = None
        self.requests: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._stderr = stderr
        self.stderr_reader = self._thread(self._read, proc.stderr, False)
        for thread in (
            self._thread(self._read, proc.stdout, True),
            self.stderr_reader,
            self._thread(self._write, proc.stdin),
            self._thread(self._wait, proc),
        ):
            thread.start()

    @staticmethod
    def _thread(target: Callable[..., None], *args: object) -> threading.Thread:
        return threading.Thread(target=target, args=args, daemon=True, name="pinochle-pipe")

    def _read(self, stream: BinaryIO, is_stdout: bool) -> None:
        try:
            while True:
                try:
                    chunk = stream.read(CHUNK)  # unbuffered: one read, whatever is there
                except (OSError, ValueError):
                    chunk = b""
                with self.cond:
                    if not chunk:
                        if is_stdout:
                            self.stdout_closed = True
                        self.cond.notify_all()
                        return
                    if not is_stdout:
                        self._stderr.feed(chunk)
                        continue
                    if not self.discard:
                        self.buffer += chunk
                    self.cond.notify_all()
                    while len(self.buffer) > MAX_LINE_BYTES and not self.discard:
                        self.cond.wait()
        finally:
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    def _write(self, stream: BinaryIO) -> None:
        while (data := self.requests.get()) is not None:
            try:
                view = memoryview(data)
                while view:
                    view = view[stream.write(view) or 0 :]
            except (OSError, ValueError) as e:
                with self.cond:
                    self.write_error = one_line(e)
                    self.cond.notify_all()
                break
        with contextlib.suppress(OSError, ValueError):
            stream.close()

    def _wait(self, proc: subprocess.Popen[bytes]) -> None:
        processes.wait_for_exit(proc)
        with self.cond:
            self.exited = True
            self.cond.notify_all()

    def stop_reading(self) -> None:
        with self.cond:
            self.discard = True
            self.buffer.clear()
            self.cond.notify_all()


class ThreadTransport(PipeTransport):
    """Any OS: the pipes are read and written by threads, the caller waits on a condition.

    Works where pipes cannot be selected or made non-blocking (Windows). The exit is seen at once
    (a thread waits for it), even when an orphaned child keeps stdout open.
    """

    name = "threads"

    def __init__(self, command: str) -> None:
        super().__init__(command)
        self._threads: _PipeThreads | None = None

    def _open(self, proc: subprocess.Popen[bytes]) -> None:
        self._threads = _PipeThreads(proc, self._stderr)

    def _exchange(self, data: bytes, timeout: float) -> str:
        pipes = self._threads
        assert pipes is not None
        deadline = time.monotonic() + timeout
        pipes.requests.put(data)
        with pipes.cond:
            while True:
                reply = take_line(pipes.buffer)
                pipes.cond.notify_all()  # room again for the stdout reader
                if reply is not None:
                    return reply
                if pipes.write_error is not None:
                    failed = "send"
                    break
                if pipes.stdout_closed or pipes.exited:
                    # A reply written just before exiting still counts.
                    pipes.cond.wait_for(lambda: pipes.stdout_closed, EXIT_READ)
                    reply = take_line(pipes.buffer)
                    if reply is not None:
                        return reply
                    failed = "exit"
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    failed = "timeout"
                    break
                pipes.cond.wait(remaining)
        if failed == "timeout":
            self.kill("a timeout")
            raise _timed_out(timeout)
        if failed == "send":
            raise self._cannot_send()
        raise TransportError(EngineCrashed, f"no reply: {self._note_exit()}")

    def stderr_tail(self) -> str:
        pipes = self._threads
        if pipes is None:
            return self._stderr.tail()
        if pipes.exited or pipes.stdout_closed:
            # Catch up with what a dead engine wrote last: its stdout may close (the exit seen
            # there first) before the waiting thread has marked the exit.
            pipes.stderr_reader.join(STDERR_CATCH_UP)
        with pipes.cond:
            return self._stderr.tail()

    def _close_stdin(self, proc: subprocess.Popen[bytes]) -> None:
        if self._threads is not None:
            self._threads.requests.put(None)  # the writer closes stdin once it is done

    def _await_exit(self, proc: subprocess.Popen[bytes], end: float) -> None:
        pipes = self._threads
        if pipes is None:
            return
        pipes.stop_reading()  # an engine blocked writing to a full pipe cannot exit
        with pipes.cond:
            pipes.cond.wait_for(lambda: pipes.exited, max(end - time.monotonic(), 0))

    def _close(self, proc: subprocess.Popen[bytes]) -> None:
        # The readers close their own ends at end of file: closing a pipe another thread is
        # reading can block on Windows, and an orphan may hold the other end for a while.
        if self._threads is not None:
            self._threads.stop_reading()
            self._threads.requests.put(None)
            self._threads = None
