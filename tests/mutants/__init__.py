"""Deliberately wrong engines: the reference engine with one rule misread, to prove the suite bites.

Each module here defines ``MUTANT``: what it misreads, the rule ID whose cases must catch it, and
the change (a ``Rules`` value replaced, or one engine function wrapped). ``python -m tests.mutants
NAME`` serves it over stdio; ``tests/test_mutants.py`` runs the conformance suite against each.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import json
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any
from unittest import mock

from pinochle_adapters import sdk
from pinochle_adapters.reference import ReferenceEngine, decisions
from reference_engine import variants
from reference_engine.variants import Rules

RulesChange = Callable[[Rules], Rules]


@dataclass(frozen=True)
class Mutant:
    """One misreading of one rule, as a change to the reference engine.

    ``rules`` replaces values of the ``Rules`` every method (``play_hand`` included) is given;
    ``patches`` wraps engine functions (``"module.attr": replacement``) for the life of the
    server, so ``play_hand`` shares the misreading of the method the patch targets.
    """

    name: str
    misreading: str
    caught_by: str
    """The rule ID whose cases must fail against this mutant (a combined mutant: each part's
    rule ID, space-separated)."""
    variants: tuple[str, ...]
    """The variants where the misreading shows; the suite run is narrowed to them."""
    rules: RulesChange | None = None
    patches: Mapping[str, Callable[..., Any]] = field(default_factory=dict)

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        """The reference engine misreads the rule while inside this block."""
        patchers: list[Any] = []
        if self.rules is not None:
            patchers.append(
                mock.patch("reference_engine.variants.load_rules", _changed(self.rules))
            )
        patchers += [mock.patch(target, new) for target, new in self.patches.items()]
        with contextlib.ExitStack() as stack:
            for patcher in patchers:
                stack.enter_context(patcher)
            _ACTIVE.extend(patchers)
            try:
                yield
            finally:
                del _ACTIVE[len(_ACTIVE) - len(patchers) :]

    def engine(self) -> ReferenceEngine:
        """The engine object to serve (the reference engine under the mutant's name)."""
        engine = ReferenceEngine()
        engine.name = f"pinochle-mutant-{self.name}"
        return engine

    def serve(self) -> int:
        """Serve this mutant on stdin/stdout until shutdown."""
        with self.installed():
            return sdk.serve(self.engine())


_ACTIVE: list[Any] = []
"""The patches of the mutants installed in this process now, in the order installed."""


@contextlib.contextmanager
def pristine() -> Iterator[None]:
    """The rules as they are, for the length of the block, while a mutant is installed in this
    process (the suite's reference trace must not share the engine under test's misreading)."""
    # Entered as context managers (``installed``): left and entered again the same way
    # (``stop``/``start`` only know patches started by ``start``).
    for patcher in reversed(_ACTIVE):
        patcher.__exit__(None, None, None)
    try:
        yield
    finally:
        for patcher in _ACTIVE:
            patcher.__enter__()


def pristine_decisions(method: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """The reference's trace (``pinochle_adapters.reference.decisions``) of the rules as they
    are, whatever mutant is installed in this process. The same whatever the mutant, so each
    question is traced once per process: a batch's runs ask most questions again (every passing
    case's coverage), each caller getting its own copy of the entries."""
    try:
        key = json.dumps(params, sort_keys=True)
    except (TypeError, ValueError):  # not a JSON question: traced, not kept
        with pristine():
            return decisions(method, params)
    return [dict(entry) for entry in _pristine_trace(method, key)]


@cache
def _pristine_trace(method: str, key: str) -> tuple[dict[str, Any], ...]:
    with pristine():
        return tuple(decisions(method, json.loads(key)))


def _changed(change: RulesChange) -> Callable[..., Rules]:
    original = variants.load_rules

    def load_rules(variant: str, options: Mapping[str, object] | None = None) -> Rules:
        return change(original(variant, options))

    return load_rules


def replace_rules(**changes: Any) -> RulesChange:
    """A rules change setting fields of ``Rules`` (``obligations="post-1945"``)."""
    return lambda rules: dataclasses.replace(rules, **changes)


def replace_auction(**changes: Any) -> RulesChange:
    """A rules change setting fields of ``Rules.auction`` (``max_raise=None``)."""
    return lambda rules: dataclasses.replace(
        rules, auction=dataclasses.replace(rules.auction, **changes)
    )


CONTROL = Mutant(
    name="reference",
    misreading="none: the unmodified reference engine (the control)",
    caught_by="",
    variants=("double-deck", "single-deck", "online"),
)


@cache
def mutants() -> dict[str, Mutant]:
    """Every mutant of this package by name (module ``post_1945`` is mutant ``post-1945``)."""
    found: dict[str, Mutant] = {}
    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("_"):
            continue
        mutant: Mutant = importlib.import_module(f"{__name__}.{module.name}").MUTANT
        if mutant.name != module.name.replace("_", "-"):
            raise ValueError(f"{module.name}.py: MUTANT.name is {mutant.name!r}")
        found[mutant.name] = mutant
    return dict(sorted(found.items()))


PAIR = "+"
"""Joins the names of mutants served together (``dd-bid-61+no-overtrump``): two planted bugs."""


def combined(*parts: Mutant) -> Mutant:
    """One engine carrying every part's misreading at once (each rule planted where it was).

    Parts must patch different functions: each patch wraps the function it found at import, so
    two patches of one target would not stack.
    """
    patches: dict[str, Callable[..., Any]] = {}
    for part in parts:
        shared = set(patches) & set(part.patches)
        if shared:
            raise ValueError(f"mutants {PAIR.join(p.name for p in parts)} both patch {shared}")
        patches.update(part.patches)
    changes = [p.rules for p in parts if p.rules is not None]

    def rules(value: Rules) -> Rules:
        for change in changes:
            value = change(value)
        return value

    return Mutant(
        name=PAIR.join(p.name for p in parts),
        misreading="; ".join(p.misreading for p in parts),
        caught_by=" ".join(p.caught_by for p in parts),
        variants=tuple(dict.fromkeys(v for p in parts for v in p.variants)),
        rules=rules if changes else None,
        patches=patches,
    )


def get(name: str) -> Mutant:
    """A mutant by name (``reference`` is the control); dashes and underscores are the same;
    names joined by ``+`` give one engine carrying each of their misreadings."""
    if PAIR in name:
        return combined(*(get(part) for part in name.split(PAIR)))
    key = name.replace("_", "-")
    if key == CONTROL.name:
        return CONTROL
    try:
        return mutants()[key]
    except KeyError:
        raise KeyError(
            f"no mutant {name!r}: choose reference or one of {', '.join(mutants())}"
        ) from None
