"""Test settings: Hypothesis without wall-clock deadlines (speed is measured in benchmarks/); the
slow tier's child runs started early, in the background."""

from __future__ import annotations

import os
import signal

import pytest
from hypothesis import HealthCheck, settings

from tests.suite_runs import stop_started

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# A shell without job control starts `cmd &` with SIGINT ignored, and an ignored signal stays
# ignored across exec: every child these tests start would then shrug off the Ctrl-C that the
# interrupted-run tests send it. Those tests judge the suite's Ctrl-C, not how pytest was launched.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the child runs the selected slow tests will wait for: each test module may define
    ``prefetch()`` (tests/suite_runs.py), called once here if any of its slow tests is selected,
    so its suite runs proceed on the other cores while earlier tests run."""
    if session.config.option.collectonly or hasattr(session.config, "workerinput"):
        return  # an xdist worker runs only some of the items: its runs start on demand
    done: set[object] = set()
    for item in session.items:
        module = getattr(item, "module", None)
        prefetch = getattr(module, "prefetch", None)
        if callable(prefetch) and module not in done and item.get_closest_marker("slow"):
            done.add(module)
            prefetch()


def pytest_sessionfinish(session: pytest.Session) -> None:
    stop_started()
