"""A plugin writing down every pytest-bdd hook call of a run: ``-p tests.bdd_hooks
--bdd-hook-log FILE``. The file (JSON) holds the calls in order, each as the hook's name and what
its arguments show (node ID, step, step function, the step's arguments, the exception's type),
and ``spoken``: how many scenarios the suite's ``Speaker`` ran (None when it was not loaded).
``tests/test_steps.py`` compares the Speaker with pytest-bdd's own runner through it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_pinochle.driver import SITUATION_KEY, Situation
from specdata.files import write_atomic


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--bdd-hook-log", default=None, help="write pytest-bdd's hook calls here")


def _value(value: object) -> object:
    """An argument as the log shows it: functions and situations by name, data as it is."""
    if callable(value):
        return f"function {getattr(value, '__name__', '?')}"
    if isinstance(value, Situation):
        return "a Situation"
    if isinstance(value, dict):
        return {str(k): _value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_value(v) for v in value]
    return value if value is None or isinstance(value, (str, int, float, bool)) else repr(value)


class HookLog:
    def __init__(self) -> None:
        self.calls: list[list[Any]] = []

    def _step(
        self,
        name: str,
        request: Any,
        step: Any,
        step_func: object = None,
        step_func_args: dict[str, Any] | None = None,
        exception: BaseException | None = None,
    ) -> None:
        args = step_func_args or {}
        situation = args.get("situation")
        kept = request.node.stash.get(SITUATION_KEY, None)
        self.calls.append(
            [
                name,
                request.node.nodeid,
                step.keyword,
                step.name,
                _value(step_func),
                list(args),
                _value(args),
                # The fixture's value, the one the item keeps for the diagnosis:
                None if situation is None else situation is kept,
                None if exception is None else type(exception).__name__,
            ]
        )

    def pytest_bdd_before_scenario(self, request: Any, feature: Any, scenario: Any) -> None:
        self.calls.append(["before_scenario", request.node.nodeid, feature.name, scenario.name])

    def pytest_bdd_after_scenario(self, request: Any, feature: Any, scenario: Any) -> None:
        self.calls.append(["after_scenario", request.node.nodeid, feature.name, scenario.name])

    def pytest_bdd_before_step(self, request: Any, step: Any, step_func: Any) -> None:
        self._step("before_step", request, step, step_func)

    def pytest_bdd_before_step_call(
        self, request: Any, step: Any, step_func: Any, step_func_args: dict[str, Any]
    ) -> None:
        self._step("before_step_call", request, step, step_func, step_func_args)

    def pytest_bdd_after_step(
        self, request: Any, step: Any, step_func: Any, step_func_args: dict[str, Any]
    ) -> None:
        self._step("after_step", request, step, step_func, step_func_args)

    def pytest_bdd_step_error(
        self,
        request: Any,
        step: Any,
        step_func: Any,
        step_func_args: dict[str, Any],
        exception: BaseException,
    ) -> None:
        self._step("step_error", request, step, step_func, step_func_args, exception)

    def pytest_bdd_step_func_lookup_error(
        self, request: Any, step: Any, exception: BaseException
    ) -> None:
        self._step("step_func_lookup_error", request, step, exception=exception)


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("bdd_hook_log"):
        config.pluginmanager.register(HookLog(), "bdd-hook-log")


def pytest_unconfigure(config: pytest.Config) -> None:
    log = config.pluginmanager.get_plugin("bdd-hook-log")
    if log is None:
        return
    speaker = config.pluginmanager.get_plugin("features.steps.phrasebook")
    found = {"calls": log.calls, "spoken": getattr(speaker, "spoken", None)}
    write_atomic(Path(config.getoption("bdd_hook_log")), json.dumps(found))
