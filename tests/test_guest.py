"""The plugin is a good guest in its user's pytest session: it never kills, reaps or takes the exit
status of a process it did not start, and a session that is not a run of the suite keeps its
signal handlers (tests/data/user_processes.py is the user's test file)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from pinochle_adapters.processes import Interrupts
from tests.suite_runs import ROOT
from tests.test_reliability import broken, linux_only, python_child

USER_FILE = ROOT / "tests" / "data" / "user_processes.py"


def user_run(tmp_path: Path, *args: str, plain: bool = False) -> dict[str, tuple[bool, str]]:
    """The user's file run in a child pytest with ``args``; each of its checks: (ok, detail)."""
    results, daemon = tmp_path / "results.jsonl", tmp_path / "daemon"
    environ = {"USER_RESULTS": str(results), "USER_DAEMON": str(daemon)}
    environ["USER_PLAIN"] = "1" if plain else "0"
    done = python_child(
        "-m", "pytest", str(USER_FILE), "-q", "-p", "no:cacheprovider", *args, extra=environ
    )
    checks = {}
    for line in results.read_text(encoding="utf-8").splitlines():
        found = json.loads(line)
        checks[found["name"]] = (found["ok"], found["detail"])
    # The daemon was meant to outlive pytest: it must still be there, then this test ends it.
    pid = int(daemon.read_text(encoding="utf-8"))
    try:
        os.kill(pid, 0)
        checks["daemon outlives pytest"] = (True, "")
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        checks["daemon outlives pytest"] = (False, "gone")
    assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]
    return checks


@linux_only
@pytest.mark.slow
@pytest.mark.parametrize("mode", ["plain", "crashing engine"])
def test_the_users_processes_keep_their_lives_and_statuses(tmp_path: Path, mode: str) -> None:
    """Beside an engine that crashes every third request (restarted each time), and without any
    Pinochle option: every fork, pty, daemon, forkserver, server and background spawn of the
    user's keeps its life and its exit status; nothing is adopted."""
    args: tuple[str, ...] = ()
    if mode != "plain":
        meld = str(ROOT / "features" / "tables" / "meld-double-deck.yaml")
        engine = broken("crash_after.py", "2")
        args = (meld, "-k", "user or dd-meld-run", "--engine", engine, "--engine-timeout", "2")
    checks = user_run(tmp_path, *args, plain=mode == "plain")
    wrong = {name: detail for name, (ok, detail) in checks.items() if not ok}
    assert len(checks) >= 13 and not wrong, wrong


def test_interrupts_restore_the_handlers_they_replaced() -> None:
    before = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    interrupts = Interrupts().install()
    replaced = signal.getsignal(signal.SIGTERM) == interrupts.handle
    interrupts.restore()
    assert replaced == (before[1] is signal.SIG_DFL)
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_a_second_interrupt_soon_after_the_first_is_only_recorded() -> None:
    interrupts = Interrupts()
    with pytest.raises(KeyboardInterrupt):
        interrupts.handle(signal.SIGINT, None)
    interrupts.handle(signal.SIGTERM, None)  # the first one's stop goes on
    assert interrupts.count == 2
