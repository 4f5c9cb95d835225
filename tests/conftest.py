"""Test settings: Hypothesis without wall-clock deadlines (speed is measured in benchmarks/); the
slow tier's child runs started early, in the background."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Generator

import pytest
from hypothesis import HealthCheck, settings

from tests.suite_runs import batched, stop_started

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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist (``-n``), the heaviest modules first: those that start child runs (they have
    ``prefetch``), then those with other slow tests, then the rest. A worker that took a heavy
    module last would run it alone while the other cores idle. Every worker orders alike."""
    if not hasattr(config, "workerinput"):
        return
    rank: dict[str, int] = {}
    for item in items:
        path = item.nodeid.split("::")[0]
        here = 0 if _prefetch_of(item) else 1 if item.get_closest_marker("slow") else 2
        rank[path] = min(rank.get(path, 2), here)
    items.sort(key=lambda item: rank[item.nodeid.split("::")[0]])


@pytest.hookimpl(wrapper=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> Generator[None, int, int]:
    """``-n auto``: one worker more than xdist counts (a core each). Many slow tests wait on
    child processes, engine timeouts and restarts rather than compute, and the extra worker runs
    other tests meanwhile (the waiting modules and the fuzzer on 2 cores: 144 s with two
    workers, 131 s with three). A count given in PYTEST_XDIST_AUTO_NUM_WORKERS is kept."""
    count = yield
    return count if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") else count + 1


REPORT_RUNS_USERS = (
    "tests/test_engine_paths.py",
    "tests/test_outcomes_unchanged.py",
    "tests/test_report_schema.py",
    "tests/test_site.py",
)
"""The test modules using the runs of tests/report_runs.py: under xdist they go to one worker
together, which makes those runs once (each worker would make its own)."""


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """Under xdist, a module goes whole to one worker (its child runs and session fixtures are
    made once, not once per worker), in the order collected (heaviest first, above); the
    modules sharing the report runs (``REPORT_RUNS_USERS``) go together, as one."""
    from xdist.scheduler import LoadFileScheduling  # type: ignore[import-untyped]

    class SharedRunsScheduling(LoadFileScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            scope: str = super()._split_scope(nodeid)
            return "tests/report_runs.py" if scope in REPORT_RUNS_USERS else scope

    config.option.loadscopereorder = False
    return SharedRunsScheduling(config, log)


_PREFETCHED: set[Callable[[], None]] = set()


def _prefetch_of(item: pytest.Item) -> Callable[[], None] | None:
    """The ``prefetch()`` of the item's module (tests/suite_runs.py), if it has one."""
    prefetch = getattr(getattr(item, "module", None), "prefetch", None)
    return prefetch if callable(prefetch) else None


def _prefetch(items: list[pytest.Item]) -> None:
    """Start, together, the child runs of the items' modules not started yet."""
    with batched():
        for item in items:
            prefetch = _prefetch_of(item)
            if prefetch is not None and prefetch not in _PREFETCHED:
                _PREFETCHED.add(prefetch)
                prefetch()


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the child runs the selected slow tests will wait for: each test module may define
    ``prefetch()`` (tests/suite_runs.py), called once here if any of its slow tests is selected,
    so its suite runs proceed on the other cores while earlier tests run."""
    if session.config.option.collectonly or hasattr(session.config, "workerinput"):
        return  # an xdist worker runs only some of the items: pytest_runtest_setup starts them
    _prefetch([item for item in session.items if item.get_closest_marker("slow")])


def pytest_runtest_setup(item: pytest.Item) -> None:
    """An xdist worker starts a module's child runs at its first test there, all at once (the
    worker runs the whole module: ``pytest_xdist_make_scheduler``)."""
    if hasattr(item.config, "workerinput"):
        _prefetch([item])


def pytest_sessionfinish(session: pytest.Session) -> None:
    stop_started()
