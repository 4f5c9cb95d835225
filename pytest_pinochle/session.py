"""The state of one suite run, held by its pytest config: the engine under test and the case IDs
seen. Nothing is kept in module globals, so several runs in one process stay apart."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from pinochle_adapters.client import Engine, EngineError, load_server, open_engine, open_in_process

REFERENCE_SERVER = "pinochle_adapters.reference:server"
"""The reference engine's server, loaded by name: the runner never imports the rules."""


@dataclass
class RunState:
    """What one run shares between its items: the engine (started on first use) and case IDs."""

    command: str | None
    """``--engine``: a shell command, or None for the reference engine in-process."""
    timeout: float
    validate: bool
    case_ids: dict[str, str] = field(default_factory=dict)
    """Case ID -> ``file:line`` of the first case with that ID."""
    _engine: Engine | None = None
    _error: EngineError | None = None

    def engine(self) -> Engine:
        """The run's engine, opened on first use (each xdist worker opens its own)."""
        if self._error is not None:
            raise self._error
        if self._engine is None:
            try:
                if self.command is None:
                    server = load_server(REFERENCE_SERVER)
                    self._engine = open_in_process(
                        server, timeout=self.timeout, validate=self.validate
                    )
                else:
                    self._engine = open_engine(
                        self.command, timeout=self.timeout, validate=self.validate
                    )
            except EngineError as e:
                self._error = e
                raise
        return self._engine

    def close(self) -> None:
        """Shut the engine down, if it was started."""
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.close()


_STATE = pytest.StashKey[RunState]()


def start_run(config: pytest.Config, command: str | None, timeout: float, validate: bool) -> None:
    """Give ``config`` its run state."""
    config.stash[_STATE] = RunState(command, timeout, validate)


def state_of(config: pytest.Config) -> RunState:
    """The run state of ``config``."""
    return config.stash[_STATE]


def end_run(config: pytest.Config) -> None:
    """Close the run's engine, if the run got as far as having one."""
    state = config.stash.get(_STATE, None)
    if state is not None:
        state.close()
