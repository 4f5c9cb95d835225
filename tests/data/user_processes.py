"""A user's own test file, run beside the suite (``pytest user_processes.py --engine ...``) by
tests/test_guest.py: its processes must keep their lives and their exit statuses whatever the
plugin does with its engines. A session fixture starts them before the suite's cases and checks
them after (its teardown runs once the last case has run); each check appends a JSON line
``{name, ok, detail}`` to the file named by USER_RESULTS. USER_DAEMON names the file where a
daemon meant to outlive pytest writes its pid (the calling test ends it)."""

from __future__ import annotations

import atexit
import contextlib
import json
import multiprocessing
import os
import pty
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

RESULTS = Path(os.environ["USER_RESULTS"])
STOP = RESULTS.with_name("stop")
"""Created at the fixture's teardown: the user's children see it and exit with their status."""


def record(name: str, ok: bool, detail: object = "") -> None:
    with RESULTS.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"name": name, "ok": bool(ok), "detail": str(detail)}) + "\n")


PYTEST_PID = os.getpid()
"""The pytest process (a forked child inherits the exit hook below, and must not record)."""


def handlers_after_the_session() -> None:
    """At this process's exit, after pytest's cleanup: the handlers are the defaults again, set
    aside by a run of the suite or never touched by one that was not."""
    if os.getpid() != PYTEST_PID:
        return
    record("SIGTERM handler after", signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)
    record("SIGINT handler after", signal.getsignal(signal.SIGINT) is signal.default_int_handler)


atexit.register(handlers_after_the_session)


def wait_for_stop(status: int) -> None:
    """In a forked child: wait for STOP, then exit with ``status`` (never return)."""
    try:
        while not STOP.exists():
            time.sleep(0.02)
    finally:
        os._exit(status)


def fork_waiting(status: int, fork: Callable[[], int] = os.fork) -> int:
    pid = fork()
    if pid == 0:
        wait_for_stop(status)
    return pid


def daemon(pid_file: Path) -> None:
    """A double-forked daemon in a session of its own, writing its pid to ``pid_file``."""
    first = os.fork()
    if first == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):  # as a daemon does: pytest's output pipes are not held open
                os.dup2(null, fd)
            os.closerange(3, 1024)
            pid_file.write_text(str(os.getpid()), encoding="utf-8")
            try:
                time.sleep(120)
            finally:
                os._exit(0)
        os._exit(0)
    os.waitpid(first, 0)


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in "ZX"
    except (OSError, IndexError):
        return False


def exit_status(pid: int) -> object:
    try:
        return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    except ChildProcessError as e:
        return repr(e)


class Spawner(threading.Thread):
    """A background thread starting short children again and again (``os.system`` or
    ``posix_spawn`` + ``waitpid``) while the suite runs, counting the statuses that are wrong."""

    def __init__(self, how: str) -> None:
        super().__init__(daemon=True)
        self.how, self.done, self.wrong, self.count = how, threading.Event(), [], 0

    def run(self) -> None:
        while not self.done.is_set():
            self.count += 1
            try:
                if self.how == "os.system":
                    status = os.waitstatus_to_exitcode(os.system("exit 3"))
                else:
                    pid = os.posix_spawn("/bin/sh", ["sh", "-c", "exit 3"], os.environ)
                    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            except ChildProcessError as e:
                status = repr(e)  # type: ignore[assignment]
            if status != 3:
                self.wrong.append(status)
            time.sleep(0.01)


@pytest.fixture(scope="session", autouse=True)
def user_processes() -> Iterator[None]:
    forked = fork_waiting(7)
    in_pty = fork_waiting(8, lambda: pty.fork()[0])
    daemon_file = RESULTS.with_name("daemon.pid")
    daemon(daemon_file)
    forkserver = multiprocessing.get_context("forkserver")
    first = forkserver.Process(target=time.sleep, args=(0.01,))
    first.start()
    first.join()
    sidecar_file = RESULTS.with_name("sidecar.pid")
    server = subprocess.Popen(
        ["sh", "-c", f"(sleep 60 & echo $! > {sidecar_file}); exec sleep 60"],
        start_new_session=True,
    )
    spawners = [Spawner("os.system"), Spawner("posix_spawn")]
    for spawner in spawners:
        spawner.start()
    yield
    for spawner in spawners:
        spawner.done.set()
        spawner.join()
        record(spawner.how, spawner.count and not spawner.wrong, spawner.wrong[:5])
    record("live Popen server", server.poll() is None, server.returncode)
    server.terminate()
    record("its status", server.wait() == -signal.SIGTERM, server.returncode)
    sidecar = int(sidecar_file.read_text(encoding="utf-8"))
    record("sidecar of the server", alive(sidecar))
    with contextlib.suppress(ProcessLookupError):
        os.kill(sidecar, signal.SIGKILL)
    daemon_pid = int(daemon_file.read_text(encoding="utf-8"))
    record("double-forked daemon", alive(daemon_pid), daemon_pid)
    second = forkserver.Process(target=sys.exit, args=(4,))
    try:
        second.start()
        second.join()
        record("multiprocessing forkserver", second.exitcode == 4, second.exitcode)
    except Exception as e:
        record("multiprocessing forkserver", False, repr(e))
    STOP.touch()
    for name, pid, expected in (("os.fork child", forked, 7), ("pty.fork child", in_pty, 8)):
        status = exit_status(pid)
        record(name, status == expected, status)
    # A background job of a finished shell is re-parented to init (or the nearest subreaper),
    # never to this process, which would have to reap it.
    job = int(subprocess.run(["sh", "-c", "sleep 0.3 & echo $!"], capture_output=True).stdout)
    time.sleep(0.1)
    try:
        parent = int(Path(f"/proc/{job}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError):
        parent = 0
    record("orphaned job not adopted", parent != os.getpid(), parent)
    child = os.fork()
    if child == 0:
        os._exit(9)
    got = os.wait()
    record("os.wait", got == (child, 9 << 8), got)
    Path(os.environ["USER_DAEMON"]).write_text(daemon_file.read_text(encoding="utf-8"))


def test_user_sigterm_and_forked_children() -> None:
    """A forked multiprocessing child terminated with SIGTERM dies of it (the default handler)."""
    plain = os.environ.get("USER_PLAIN") == "1"
    if plain:
        record("SIGTERM handler", signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)
        record("SIGINT handler", signal.getsignal(signal.SIGINT) is signal.default_int_handler)
    else:  # a run of the suite: SIGTERM ends it as Ctrl-C does, until the session's end
        record("SIGTERM handler", signal.getsignal(signal.SIGTERM) != signal.SIG_DFL)
    process = multiprocessing.get_context("fork").Process(target=time.sleep, args=(30,))
    process.start()
    time.sleep(0.3)
    process.terminate()
    process.join(10)
    record("forked child terminated", process.exitcode == -signal.SIGTERM, process.exitcode)
