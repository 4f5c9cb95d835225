"""The engine under test as the cases speak to it, and the reference engine that decides whether a
hand-worked answer holds under an engine's house rules. Neither knows pytest: a question the
engine's declared model cannot be asked raises ``capabilities.Skip``."""

from __future__ import annotations

import importlib
from typing import Any

from pinochle_adapters.client import Engine, load_server, open_in_process

from .capabilities import Capabilities, translate
from .house_rules import Ask, HouseRules, declared_only, skip_reason


class ModelledEngine:
    """The engine under test as the cases speak to it: requests and answers go through the
    models it declared (``capabilities``, spec/protocol.md) and the options it plays (its house
    rules, ``house_rules``); everything else is the engine's."""

    def __init__(self, engine: Engine, reference: Ask | None = None, derived: bool = True) -> None:
        self.engine = engine
        self._reference: Ask = Reference() if reference is None else reference
        self._derived = derived
        self._house_rules: HouseRules | None = None
        self._capabilities: tuple[object, Capabilities] | None = None

    @property
    def house_rules(self) -> HouseRules:
        """The decisions on the options this engine plays (made once it has started)."""
        if self._house_rules is None or self._house_rules.info is not self.engine.info:
            self._house_rules = HouseRules(self.engine.info, self._reference, self._derived)
        return self._house_rules

    @property
    def info(self) -> dict[str, Any] | None:
        """The engine's ``initialize`` result."""
        return self.engine.info

    @property
    def capabilities(self) -> Capabilities:
        """The models the engine declared (the defaults until it has started); read once per
        ``initialize`` result, not at every call."""
        info = self.engine.info
        if self._capabilities is None or self._capabilities[0] is not info:
            self._capabilities = (info, Capabilities.declared(info))
        return self._capabilities[1]

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """The engine's answer to ``params`` put in its declared model, read back into the
        cases' model; ``Skip`` for a case its model has no call for."""
        self.engine.last_request = None  # set again by the line this call sends
        info, capabilities = self.engine.info, self.capabilities
        if capabilities.is_default:
            return self.engine.call(method, declared_only(info, params))
        translation = translate(method, params, capabilities)
        answer = self.engine.call(method, declared_only(info, translation.params))
        return translation.answer(answer)

    def skip_reason(self, method: str, variant: str, options: dict[str, Any]) -> str | None:
        """Why a case must be skipped (``house_rules.skip_reason``)."""
        return skip_reason(self.engine.info, method, variant, options)

    def close(self) -> None:
        """Shut the engine down (and the reference engine, if this object started it)."""
        self.engine.close()
        if isinstance(self._reference, Reference):
            self._reference.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)


REFERENCE_SERVER = "pinochle_adapters.reference:server"
"""The reference engine's server, loaded by name: the runner never imports the rules."""
REFERENCE_TRACE = "pinochle_adapters.reference:decisions"
"""The reference engine's trace (every point of an answer with its deciding rule), by name."""
REFERENCE_SHOWN = f"in-process {REFERENCE_SERVER}"
"""How reports name the command of the reference engine (no ``--engine``)."""


def trace_of(method: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """The reference's trace of one question (``REFERENCE_TRACE``, loaded by name once)."""
    module, _, name = REFERENCE_TRACE.partition(":")
    found: list[dict[str, Any]] = getattr(importlib.import_module(module), name)(method, params)
    return found


class Reference:
    """The reference engine in-process, started on first question: what decides whether a
    hand-worked answer holds under an engine's house rules (``house_rules``)."""

    def __init__(self, timeout: float = 10.0) -> None:
        self.timeout = timeout
        self._engine: Engine | None = None

    def __call__(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if self._engine is None:
            server = load_server(REFERENCE_SERVER)
            self._engine = open_in_process(server, timeout=self.timeout, trusted=True)
        return self._engine.call(method, params)

    def trace(self, method: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        """The reference's answer to ``method`` with ``params``, each point with the rule that
        decided it (``pinochle_adapters.reference.decisions``); empty when it cannot say."""
        return trace_of(method, params)

    def close(self) -> None:
        """Shut the reference engine down, if it was started."""
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.close()
