"""Starting, watching and killing an engine's process tree: the one module that knows the OS.

POSIX: the engine gets its own session and process group; a kill is SIGKILL to the group, then (on
Linux, through ``/proc``) to any process still holding its output pipes or carrying the run's mark
in its environment, and to its process group, scanning again until none is left; the process that
starts engines is a child subreaper, so a daemon that lost both comes back to it and is stopped
and reaped when no engine is left. Windows: the engine gets its own process group; a kill is
``taskkill /F /T``, the whole tree under the shell.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import gc
import itertools
import os
import secrets
import signal
import subprocess
import sys
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
PR_SET_CHILD_SUBREAPER = 36
"""prctl(2) option: orphaned descendants are re-parented to this process instead of init."""
REAP_WAIT = 2.0
"""Seconds to wait for each killed orphan's exit before leaving it (a SIGKILL is prompt)."""
CLAIM_WAIT = 0.01
"""Seconds an unclaimed child is given to be claimed before it counts as an orphan: another
thread's ``Popen`` may have forked it and not yet stored its pid."""


class _Subreaper:
    """Whether this process became a child subreaper (None: not tried yet), and since when."""

    enabled: bool | None = None
    since: int | None = None
    """The start time (``/proc`` clock ticks) of the first engine started as a subreaper: an
    orphan older than that cannot be an engine's."""


def popen(command: str) -> subprocess.Popen[bytes]:
    """Start a shell command line with its three pipes (unbuffered), in a group of its own."""
    group: dict[str, Any] = (
        {"creationflags": CREATE_NEW_PROCESS_GROUP} if WINDOWS else {"start_new_session": True}
    )
    if not WINDOWS:
        become_subreaper()
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
    if _Subreaper.enabled and _Subreaper.since is None:
        with contextlib.suppress(OSError, ValueError, IndexError, TypeError):
            _Subreaper.since = _stat(Path(f"/proc/{proc.pid}")).start
    return proc


def become_subreaper() -> bool:
    """Make this process a child subreaper (Linux ``prctl``), once: a daemon that an engine leaves
    behind by double-forking is then re-parented to this process, not to init, so that
    ``reap_orphans`` can find it even after it dropped its mark and left the engine's session.
    Whether this process is one; elsewhere (or if the call fails) False, and nothing changes."""
    if _Subreaper.enabled is not None:
        return _Subreaper.enabled
    done = False
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            done = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    _Subreaper.enabled = done
    if done:
        atexit.register(reap_orphans)
    return done


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
    """Kill the engine, its process group (tree on Windows) and anyone holding its output pipes.

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
        # The group first, while the engine (alive or a zombie) still holds its id.
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        proc.kill()
    if not WINDOWS:
        kill_leftovers(inodes, _marks.get(proc))
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=2)
    if not WINDOWS and not any(
        other is not proc and other.returncode is None for other in list(_marks.keys())
    ):
        reap_orphans()


def kill_leftovers(inodes: set[int], mark: str | None) -> int:
    """Kill every process still holding one of these pipes or carrying an engine's mark, with its
    process group, scanning again until a pass finds none (at most MAX_SCANS passes); how many
    were found. Linux ``/proc`` only; elsewhere nothing is found. Never raises."""
    found = 0
    own_group = os.getpgrp() if not WINDOWS else 0
    for _ in range(MAX_SCANS):
        left = _leftovers(inodes, mark)
        if not left:
            break
        found += len(left)
        for pid, group in left.items():
            if group > 1 and group != own_group:
                # The whole group at once: a pid that forks and exits keeps its group.
                with contextlib.suppress(OSError):
                    os.killpg(group, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    return found


def reap_orphans() -> list[int]:
    """Kill and reap the orphans this subreaper adopted from its engines; their pids.

    An orphan is a child of this process that it did not start itself (no live ``Popen`` or
    multiprocessing child of this process has its pid) and that started after the first engine:
    a descendant of an engine whose parent exited. Called when no engine of this process is
    running (and at exit), since a running engine may still use a daemon of its own. Each one is
    reaped by its pid (``waitpid(pid)``, never ``waitpid(-1)``, which would take the exit status
    of some other child from whoever waits for it); its own children come back to this process
    in turn and are taken by the next pass. Linux only; never raises."""
    since = _Subreaper.since
    if not _Subreaper.enabled or since is None:
        return []
    taken: list[int] = []
    for _ in range(MAX_SCANS):
        orphans = _adopted(since)
        if not orphans:
            break
        own_group = os.getpgrp()
        for pid in orphans:
            # Its group too, read from its (zombie's) stat: a pid that forks and exits every
            # millisecond has moved on by the time it is killed, but its group has not.
            with contextlib.suppress(OSError, ValueError, IndexError):
                group = _stat(Path(f"/proc/{pid}")).group
                if group > 1 and group != own_group:
                    os.killpg(group, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for pid in orphans:
            _reap(pid)
        taken += orphans
    return taken


def _adopted(since: int) -> list[int]:
    """This process's children that it did not start and that started at ``since`` or later
    (unclaimed twice, CLAIM_WAIT apart)."""
    fresh: dict[int, int] = {}
    for pid in _children():
        with contextlib.suppress(OSError, ValueError, IndexError):
            start = _stat(Path(f"/proc/{pid}")).start
            if start >= since and (pid, start) not in _claimed:
                fresh[pid] = start
    if not fresh:
        return []
    # Looking for the owners walks every object (gc): done only for children not seen before.
    unclaimed = _unclaimed(fresh)
    if unclaimed:
        time.sleep(CLAIM_WAIT)
        unclaimed = _unclaimed({pid: fresh[pid] for pid in unclaimed})
    return sorted(unclaimed)


def _unclaimed(fresh: dict[int, int]) -> set[int]:
    """Those of these children (pid: start time) that no ``Popen`` of this process holds; the
    others are remembered as claimed, by pid and start time (a pid is reused by a new start)."""
    here = _started_here()
    _claimed.update((pid, start) for pid, start in fresh.items() if pid in here)
    return set(fresh) - here


_claimed: set[tuple[int, int]] = set()
"""Children (pid, start time) found started by this process itself: never looked up again."""


def _children() -> set[int]:
    """The pids of this process's children, from ``/proc``: each thread's ``children`` list, or
    where the kernel has none, every process whose parent is this one."""
    pids: set[int] = set()
    listed = False
    with contextlib.suppress(OSError):
        for task in Path("/proc/self/task").iterdir():
            with contextlib.suppress(OSError, ValueError):
                pids.update(int(p) for p in (task / "children").read_text().split())
                listed = True
    if listed:
        return pids
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):
            if entry.name.isdigit() and _stat(entry).parent == me:
                pids.add(int(entry.name))
    return pids


def _started_here() -> set[int]:
    """The pids of the children this process started itself and still holds (``Popen`` objects,
    alive or not yet waited for, and multiprocessing's children): never to be killed or reaped
    here, their owners wait for them."""
    pids = {p.pid for p in list(_marks.keys())}
    for obj in gc.get_objects():
        # type(), not isinstance(): a dead weak proxy raises when asked its __class__.
        if issubclass(type(obj), subprocess.Popen) and getattr(obj, "returncode", 0) is None:
            pids.add(getattr(obj, "pid", -1))  # no pid yet: being started, see CLAIM_WAIT
    for obj in getattr(subprocess, "_active", None) or ():
        pids.add(getattr(obj, "pid", -1))
    mp = sys.modules.get("multiprocessing.process")
    for child in getattr(mp, "_children", None) or ():
        pids.add(getattr(getattr(child, "_popen", None), "pid", -1))
    return pids


def _reap(pid: int) -> None:
    """Wait for this one child's exit status (killed: at most REAP_WAIT seconds)."""
    deadline = time.monotonic() + REAP_WAIT
    while True:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except (ChildProcessError, OSError):
            return  # not ours to reap (any more)
        if done or time.monotonic() > deadline:
            return
        time.sleep(0.005)


def interrupt_on_sigterm() -> Callable[[], None]:
    """Make SIGTERM (a CI job's timeout, ``kill``) interrupt this process as Ctrl-C does, so a run
    ends the same clean way: its engines stopped, its files written or left whole. Returns what
    undoes it. Does nothing off the main thread, or where SIGTERM already has a handler."""
    term = getattr(signal, "SIGTERM", None)
    if (
        term is None
        or threading.current_thread() is not threading.main_thread()
        or signal.getsignal(term) is not signal.SIG_DFL
    ):
        return lambda: None

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")

    signal.signal(term, interrupt)

    def restore() -> None:
        if signal.getsignal(term) is interrupt:
            signal.signal(term, signal.SIG_DFL)

    return restore


def describe_status(code: int) -> str:
    """How a process ended, in words: ``the engine exited with status 3``."""
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"the engine was killed by signal {signal.Signals(-code).name}"
    return f"the engine exited with status {code}"


def _leftovers(inodes: set[int], mark: str | None) -> dict[int, int]:
    """Live processes holding the write end of one of these pipes or carrying an engine's mark
    in their environment, each with its process group (Linux ``/proc``; else none).

    An engine's child that left its process group (``setsid``) but kept stdout open, or a daemon
    that also closed it, is found this way: ``killpg`` of the engine's group cannot reach it.
    """
    found: dict[int, int] = {}
    proc = Path("/proc")
    if not proc.is_dir() or not (inodes or mark):
        return found
    me = os.getpid()
    targets = {f"pipe:[{ino}]" for ino in inodes}
    marked = f"{MARK_ENV}={mark}".encode() if mark else None
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            state, group = _state_and_group(entry)
            if state in ("Z", "X"):
                continue  # dead already, waiting for its parent
            if (marked and marked in (entry / "environ").read_bytes().split(b"\0")) or (
                targets and _holds(entry, targets)
            ):
                found[int(entry.name)] = group
    return found


class _Stat(NamedTuple):
    """What ``/proc/PID/stat`` says of a process that this module uses."""

    state: str
    parent: int
    group: int
    start: int
    """Start time in clock ticks since boot."""


def _stat(entry: Path) -> _Stat:
    fields = entry.joinpath("stat").read_text().rsplit(")", 1)[1].split()
    # fields[0] is stat's 3rd field (state): the parent is the 4th, the group the 5th, the start
    # time the 22nd.
    return _Stat(fields[0], int(fields[1]), int(fields[2]), int(fields[19]))


def _state_and_group(entry: Path) -> tuple[str, int]:
    """A process's state letter and process group, from ``/proc/PID/stat``."""
    stat = _stat(entry)
    return stat.state, stat.group


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
