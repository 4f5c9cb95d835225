"""The state of one suite run, held by its pytest config: the engine under test and the case IDs
seen. Nothing is kept in module globals, so several runs in one process stay apart."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import pytest

from pinochle_adapters.client import (
    EngineError,
    StartupFailed,
    load_server,
    open_engine,
    open_in_process,
)
from pinochle_adapters.processes import Interrupts
from pinochle_judge.engines import REFERENCE_SERVER, ModelledEngine, Reference
from specdata.files import temporary_beside


@dataclass
class RunState:
    """What one run shares between its items: the engine (started on first use) and case IDs."""

    command: str | None
    """``--engine``: a shell command, or None for the reference engine in-process."""
    timeout: float
    validate: bool
    traffic_path: str | None = None
    """``--log-traffic``: where every request and reply line is written (per xdist worker)."""
    case_ids: dict[str, str] = field(default_factory=dict)
    """Case ID -> ``file:line`` of the first case with that ID."""
    data_errors: list[str] = field(default_factory=list)
    """One line per table that could not be loaded, naming its file and line."""
    engine_name: dict[str, Any] | None = None
    """The engine's ``initialize`` answer ``engine`` (name, version), once it has started."""
    derived: bool = True
    """Whether a case whose answer the engine's house rules change is judged against the
    reference engine's answer (derived) or skipped (``--no-derived``)."""
    server: str | None = None
    """``--engine-server``: ``module:factory`` of an engine served in this process (its results
    checked as a subprocess's), in place of the command."""
    startup_timeout: float | None = None
    """``--startup-timeout``: for starting the engine and ``initialize`` (None: the client's)."""
    budget: float | None = None
    """``--run-timeout``: seconds the whole run may take (None: no limit)."""
    deadline: float | None = None
    """``time.monotonic()`` at which that budget is spent."""
    interrupts: Interrupts | None = None
    """The interrupts recorded since the run began (set once it is a run of the suite)."""
    _engine: ModelledEngine | None = None
    _reference: Reference | None = None
    _error: EngineError | None = None
    _traffic: TextIO | None = None
    _traffic_target: Path | None = None
    """Where the traffic log goes once the run completes (it is written beside it till then)."""
    traffic_kept: tuple[Path, bool] | None = None
    """Where the traffic log was left, and whether this process's run completed."""
    worker_traffic: list[Path] = field(default_factory=list)
    """Under xdist, on the controller: the logs its workers left as ``FILE.gwN.partial`` after
    completing their share (``pytest_testnodedown``), named ``FILE.gwN`` if the run completes."""

    def _traffic_log(self) -> TextIO | None:
        if self.traffic_path is None:
            return None
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        target = f"{self.traffic_path}.{worker}" if worker else self.traffic_path
        self._traffic_target = Path(target)
        self._traffic = temporary_beside(self._traffic_target).open("w", encoding="utf-8")
        return self._traffic

    def engine(self) -> ModelledEngine:
        """The run's engine, opened on first use (each xdist worker opens its own)."""
        if self._error is not None:
            raise self._error
        if self._engine is None:
            try:
                traffic = self._traffic_log()
                if self.command is None:
                    # The suite's own reference: its answers are not re-checked against the
                    # result schemas unless --validate-protocol asks (a subprocess's always are);
                    # an engine served in-process by name is checked as a subprocess is.
                    server = load_server(self.server or REFERENCE_SERVER)
                    opened = open_in_process(
                        server,
                        timeout=self.timeout,
                        validate=self.validate,
                        trusted=self.server is None,
                        traffic=traffic,
                        startup_timeout=self.startup_timeout,
                    )
                else:
                    opened = open_engine(
                        self.command,
                        timeout=self.timeout,
                        validate=self.validate,
                        traffic=traffic,
                        startup_timeout=self.startup_timeout,
                    )
                opened.deadline, opened.budget = self.deadline, self.budget
                self._reference = Reference(max(self.timeout, 10.0))
                self._engine = ModelledEngine(opened, self._reference, self.derived)
            except EngineError as e:
                self._error = e
                raise
            if self._engine.info is None:
                # The engine could not start: one more call tries again and raises StartupFailed
                # with the reason and the engine's stderr (the client keeps them for the call).
                try:
                    self._engine.call("card_points", PROBE)
                except EngineError as e:
                    self._error = e if isinstance(e, StartupFailed) else StartupFailed(str(e))
                    raise self._error from None
            self.engine_name = dict((self._engine.info or {}).get("engine") or {})
        return self._engine

    def close(self, complete: bool = False) -> None:
        """Shut the engine down, if it was started. The traffic log replaces ``--log-traffic``'s
        file when the run completed; otherwise it is kept as ``FILE.partial``, the file as it was.

        An xdist worker cannot tell whether the whole run completed (the controller stops it the
        same way after the last item as after a Ctrl-C elsewhere): it always leaves its log as
        ``FILE.gwN.partial``, and the controller names the logs of workers that completed their
        share ``FILE.gwN`` once the run has completed.
        """
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.close()
        reference, self._reference = self._reference, None
        if reference is not None:
            reference.close()
        traffic, self._traffic = self._traffic, None
        if traffic is not None and self._traffic_target is not None:
            traffic.close()
            target = self._traffic_target
            worker = bool(os.environ.get("PYTEST_XDIST_WORKER"))
            kept = target if complete and not worker else Path(f"{target}.partial")
            with contextlib.suppress(OSError):  # a log must never fail the run it records
                os.replace(traffic.name, kept)
                self.traffic_kept = (kept, complete)
        workers, self.worker_traffic = self.worker_traffic, []
        for partial in workers if complete else ():
            with contextlib.suppress(OSError):
                os.replace(partial, partial.with_name(partial.name.removesuffix(".partial")))


PROBE: dict[str, Any] = {"variant": "double-deck", "options": {}, "cards": [], "last_trick": False}
"""A harmless request that makes a client start its engine again, to learn why it cannot."""

STATE_KEY = pytest.StashKey[RunState]()


def start_run(
    config: pytest.Config,
    command: str | None,
    timeout: float,
    validate: bool,
    traffic_path: str | None = None,
) -> None:
    """Give ``config`` its run state."""
    config.stash[STATE_KEY] = RunState(command, timeout, validate, traffic_path)


def state_of(config: pytest.Config) -> RunState:
    """The run state of ``config``."""
    return config.stash[STATE_KEY]


def end_run(config: pytest.Config, complete: bool = False) -> None:
    """Close the run's engine, if the run got as far as having one (``complete``: the run went
    through its whole selection, see ``RunState.close``)."""
    state = config.stash.get(STATE_KEY, None)
    if state is not None:
        state.close(complete)
