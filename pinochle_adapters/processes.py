"""Starting, watching and killing an engine's process tree: the one module that knows the OS.

POSIX: the engine gets its own session and process group; a kill is SIGKILL to the group, then (on
Linux, through ``/proc``) to any process still holding its output pipes. Windows: the engine gets
its own process group; a kill is ``taskkill /F /T``, the whole tree under the engine's shell.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

WINDOWS = os.name == "nt"
CREATE_NEW_PROCESS_GROUP = 0x00000200
"""``subprocess.CREATE_NEW_PROCESS_GROUP``, which the subprocess module names on Windows only."""
KILLED_STATUS = 1 if WINDOWS else -int(getattr(signal, "SIGKILL", 9))
"""The status of a process this module killed (Windows: TerminateProcess's exit code 1)."""


def popen(command: str) -> subprocess.Popen[bytes]:
    """Start a shell command line with its three pipes (unbuffered), in a group of its own."""
    group: dict[str, Any] = (
        {"creationflags": CREATE_NEW_PROCESS_GROUP} if WINDOWS else {"start_new_session": True}
    )
    return subprocess.Popen(
        command,
        shell=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
        **group,
    )


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
    for pid in _pipe_writers(inodes):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=2)


def describe_status(code: int) -> str:
    """How a process ended, in words: ``the engine exited with status 3``."""
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"the engine was killed by signal {signal.Signals(-code).name}"
    return f"the engine exited with status {code}"


def _pipe_writers(inodes: set[int]) -> set[int]:
    """Other processes holding the write end of one of these pipes (Linux ``/proc``; else none).

    An engine's child that left its process group (``setsid``) but kept stdout open is found
    this way: ``killpg`` cannot reach it, and it would keep the pipe open for ever.
    """
    found: set[int] = set()
    proc = Path("/proc")
    if not inodes or not proc.is_dir():
        return found
    me = os.getpid()
    targets = {f"pipe:[{ino}]" for ino in inodes}
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        with contextlib.suppress(OSError):
            for fd in (entry / "fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) in targets and _is_write_end(entry / "fdinfo" / fd.name):
                        found.add(int(entry.name))
                        break
    return found


def _is_write_end(fdinfo: Path) -> bool:
    for line in fdinfo.read_text().splitlines():
        if line.startswith("flags:"):
            return int(line.split()[1], 8) & os.O_ACCMODE == os.O_WRONLY
    return False
