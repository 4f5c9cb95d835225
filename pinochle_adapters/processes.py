"""Starting, watching and killing an engine's process tree: the one module that knows the OS.

POSIX: the engine gets its own session and process group, and its own mark in its environment; a
kill is SIGKILL to the group, then (on Linux, through ``/proc``) to the rest of its session, to any
process carrying its mark (with its group) or still holding its output pipes, scanning again
until none is left. A process is found only by what this module gave the engine: nothing is
adopted, and no process this one did not start is killed, reaped or waited for (a daemon that
left the session, dropped the mark and closed the pipes cannot be told from the user's own, and
is left alone). Windows: the engine gets its own process group; a kill is ``taskkill /F /T``, the
whole tree under the shell.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import secrets
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

WINDOWS = os.name == "nt"
CREATE_NEW_PROCESS_GROUP = 0x00000200
"""``subprocess.CREATE_NEW_PROCESS_GROUP``, which the subprocess module names on Windows only."""
KILLED_STATUS = 1 if WINDOWS else -int(getattr(signal, "SIGKILL", 9))
"""The status of a process this module killed (Windows: TerminateProcess's exit code 1)."""
MARK_ENV = "PINOCHLE_ENGINE_MARK"
"""Environment variable every engine process (and whatever it starts) inherits: a daemon that
double-forked, called setsid and closed its pipes still carries it, so it can be found."""
MARK = f"{os.getpid()}-{secrets.token_hex(8)}"
"""This process's part of each engine's mark (a value no other run shares)."""
_numbers = itertools.count(1)
_marks: weakref.WeakKeyDictionary[subprocess.Popen[bytes], str] = weakref.WeakKeyDictionary()
"""Engine process -> its mark: one per engine, so that stopping one spares the others."""
MAX_SCANS = 50
"""Passes of the ``/proc`` scan after a kill: it is repeated until a pass finds nobody left (an
orphan that keeps changing its pid by fork and exit is caught through its process group)."""


def popen(command: str) -> subprocess.Popen[bytes]:
    """Start a shell command line with its three pipes (unbuffered), in a group (POSIX: a
    session) of its own, carrying its own mark in its environment (never in this process's)."""
    group: dict[str, Any] = (
        {"creationflags": CREATE_NEW_PROCESS_GROUP} if WINDOWS else {"start_new_session": True}
    )
    mark = f"{MARK}-{next(_numbers)}"
    proc = subprocess.Popen(
        command,
        shell=True,
        env={**os.environ, MARK_ENV: mark},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
        **group,
    )
    with contextlib.suppress(TypeError):  # a stand-in for Popen may not be weak-referable
        _marks[proc] = mark
    return proc


def pipe_inodes(proc: subprocess.Popen[bytes]) -> set[int]:
    """The inodes of the engine's stdout and stderr pipes (POSIX), to find who else holds them."""
    if WINDOWS:
        return set()
    return {os.fstat(s.fileno()).st_ino for s in (proc.stdout, proc.stderr) if s is not None}


def exit_fd(proc: subprocess.Popen[bytes]) -> int:
    """An fd that becomes readable when ``proc`` exits (a Linux >= 5.3 pidfd), or -1."""
    with contextlib.suppress(AttributeError, OSError):
        return os.pidfd_open(proc.pid)
    return -1


def wait_for_exit(proc: subprocess.Popen[bytes]) -> None:
    """Block until ``proc`` has exited; on POSIX without reaping it, so that its id (the process
    group's) stays the engine's until ``kill_tree`` has used it. Never raises."""
    if not WINDOWS and hasattr(os, "waitid"):
        with contextlib.suppress(ChildProcessError):  # already reaped: it has exited
            os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
        return
    with contextlib.suppress(OSError):
        proc.wait()


def kill_tree(proc: subprocess.Popen[bytes], inodes: set[int]) -> None:
    """Kill the engine, its process group (tree on Windows), the rest of its session and anyone
    carrying its mark or holding its output pipes; never a process this module did not start
    (or one of theirs).

    Waits up to 2 s for the engine's status; never raises.
    """
    if WINDOWS:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                ["taskkill", "/F", "/T", "/PID", str(proc.pid)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=10,
                check=False,
            )
    else:
        # The group first, while the engine (alive or a zombie, not yet reaped) still holds its
        # id: no other process can have that group or session yet.
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
    if not WINDOWS:
        # The session by id only while the engine is not reaped: after that its id may be reused.
        session = proc.pid if proc.returncode is None else 0
        kill_leftovers(inodes, _marks.get(proc), session)
    with contextlib.suppress(OSError):
        proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=2)


def kill_leftovers(inodes: set[int], mark: str | None, session: int = 0) -> int:
    """Kill every process of the engine's ``session``, carrying its mark or still holding one of
    its output pipes, with the process group of those that are the engine's for sure (its
    session's, or marked); scanning again until a pass finds none (at most MAX_SCANS passes).
    How many were found. Linux ``/proc`` only; elsewhere nothing is found. Never raises.

    Nothing is adopted or reaped here: a leftover that exits goes to its own parent (or init).
    """
    found = 0
    own_group = os.getpgrp() if not WINDOWS else 0
    for _ in range(MAX_SCANS):
        left = _leftovers(inodes, mark, session)
        if not left:
            break
        found += len(left)
        for pid, (group, sure) in left.items():
            if sure and group > 1 and group != own_group:
                # The whole group at once: a pid that forks and exits keeps its group.
                with contextlib.suppress(OSError):
                    os.killpg(group, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    return found


INSISTED = 5.0
"""Seconds after a first interrupt during which further ones are only recorded: the first one's
clean stop (engines ended, files written or left whole) is not cut short by a second Ctrl-C or by
the SIGTERM that follows a Ctrl-C; after that an insisting user interrupts the stop itself."""


class Interrupts:
    """SIGINT and SIGTERM (a CI job's timeout, ``kill``) as a Ctrl-C, recorded: ``count`` says
    whether the run was interrupted, whatever became of the KeyboardInterrupt (a second one can
    escape the handler of the first, leaving the caller believing the run ended well).

    ``install`` sets the handlers only where they are still the defaults (SIGTERM's SIG_DFL,
    SIGINT's ``default_int_handler``), from the main thread; ``restore`` puts back what it
    replaced. A process forked meanwhile starts with the defaults again."""

    def __init__(self) -> None:
        self.count = 0
        self.first: float | None = None
        self._replaced: dict[int, Any] = {}

    def handle(self, signum: int, frame: object) -> None:
        self.count += 1
        now = time.monotonic()
        if self.first is None:
            self.first = now
        elif now - self.first < INSISTED:
            return  # recorded: the first one's stop goes on
        raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")

    def install(self) -> Interrupts:
        if threading.current_thread() is not threading.main_thread():
            return self
        defaults = {"SIGTERM": signal.SIG_DFL, "SIGINT": signal.default_int_handler}
        for name, default in defaults.items():
            number = getattr(signal, name, None)
            if (
                number is not None
                and number not in self._replaced
                and signal.getsignal(number) is default
            ):
                signal.signal(number, self.handle)
                self._replaced[number] = default
        if self._replaced:
            _installed.add(self)
            _defaults_in_children()
        return self

    def restore(self) -> None:
        replaced, self._replaced = self._replaced, {}
        _installed.discard(self)
        for number, default in replaced.items():
            with contextlib.suppress(ValueError):  # not the main thread: nothing to undo here
                if signal.getsignal(number) == self.handle:
                    signal.signal(number, default)


_installed: weakref.WeakSet[Interrupts] = weakref.WeakSet()
"""The Interrupts whose handlers are set in this process (none in a process forked from it)."""


class _AtFork:
    registered = False


def _defaults_in_children() -> None:
    """Have every process forked from this one start with the default handlers (a user's
    ``multiprocessing`` child terminated with SIGTERM must die of it), once per process."""
    if _AtFork.registered or not hasattr(os, "register_at_fork"):
        return
    _AtFork.registered = True
    os.register_at_fork(after_in_child=_reset_in_child)


def _reset_in_child() -> None:
    for interrupts in list(_installed):
        interrupts.restore()


def interrupt_on_sigterm() -> Callable[[], None]:
    """Make SIGTERM interrupt this process as Ctrl-C does (``Interrupts``), so a command ends the
    same clean way: its engines stopped, its files written or left whole. Returns what undoes
    it. Does nothing off the main thread, or where the handlers are not the defaults."""
    return Interrupts().install().restore


def describe_status(code: int) -> str:
    """How a process ended, in words: ``the engine exited with status 3``."""
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"the engine was killed by signal {signal.Signals(-code).name}"
    return f"the engine exited with status {code}"


def _leftovers(inodes: set[int], mark: str | None, session: int) -> dict[int, tuple[int, bool]]:
    """Live processes of the engine: in its ``session`` (0: none), carrying its mark in their
    environment, or holding the write end of one of these pipes; each with its process group
    and whether it is the engine's for sure (Linux ``/proc``; else none).

    An engine's child that left its session (``setsid``) but kept its mark or its stdout is
    found this way: ``killpg`` of the engine's group cannot reach it. A pipe holder that is
    neither marked nor of the session is not sure: a child this process forked (in another
    thread, while the engine was being started) may hold a copy of the pipe too, so this
    process's own children and session are left alone, and the group of such a process is
    never killed.
    """
    found: dict[int, tuple[int, bool]] = {}
    proc = Path("/proc")
    if not proc.is_dir() or not (inodes or mark or session):
        return found
    me = os.getpid()
    own_session = os.getsid(0)
    targets = {f"pipe:[{ino}]" for ino in inodes}
    marked = f"{MARK_ENV}={mark}".encode() if mark else None
    # Newest first, the very newest before the folder is even listed: an orphan that changes
    # its pid by fork and exit every millisecond is always the newest process, and is looked at
    # while its pid is still its own (its group, then killed, holds its next pids).
    listed = sorted((int(n) for n in os.listdir(proc) if n.isdigit()), reverse=True)
    for pid in [*_newest_pids(), *listed]:
        if pid == me:
            continue
        entry = proc / str(pid)
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = _stat(entry)
            if stat.state in ("Z", "X"):
                continue  # dead already, waiting for its parent
            sure = (session > 1 and stat.session == session) or bool(
                marked and marked in (entry / "environ").read_bytes().split(b"\0")
            )
            if sure or (
                targets
                and stat.parent != me
                and stat.session != own_session
                and _holds(entry, targets)
            ):
                found[pid] = (stat.group, sure)
    return found


NEWEST = 32
"""Pids looked at first, counting down from the last one the system gave."""


def _newest_pids() -> list[int]:
    """The NEWEST pids up to the last one the system gave (``/proc/loadavg``), whether they
    run or not; none where that cannot be read."""
    try:
        last = int(Path("/proc/loadavg").read_text().split()[-1])
    except (OSError, ValueError, IndexError):
        return []
    return list(range(last, max(last - NEWEST, 1), -1))


class _Stat(NamedTuple):
    """What ``/proc/PID/stat`` says of a process that this module uses."""

    state: str
    parent: int
    group: int
    session: int


def _stat(entry: Path) -> _Stat:
    fields = entry.joinpath("stat").read_text().rsplit(")", 1)[1].split()
    # fields[0] is stat's 3rd field (state): the parent is the 4th, the group the 5th, the
    # session the 6th.
    return _Stat(fields[0], int(fields[1]), int(fields[2]), int(fields[3]))


def _holds(entry: Path, targets: set[str]) -> bool:
    for fd in (entry / "fd").iterdir():
        with contextlib.suppress(OSError):
            if os.readlink(fd) in targets and _is_write_end(entry / "fdinfo" / fd.name):
                return True
    return False


def _is_write_end(fdinfo: Path) -> bool:
    for line in fdinfo.read_text().splitlines():
        if line.startswith("flags:"):
            return int(line.split()[1], 8) & os.O_ACCMODE == os.O_WRONLY
    return False
