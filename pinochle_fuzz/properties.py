"""The campaign's properties as Hypothesis tests, one per method, for HypoFuzz across cores.

``hypothesis fuzz -- pinochle_fuzz/properties.py`` (engine from ``PINOCHLE_FUZZ_ENGINE``, the
reference in-process when unset); ``pytest pinochle_fuzz/properties.py`` replays what it found.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinochle_adapters.client import Engine, load_server, open_engine, open_in_process

from .campaign import Errored, Skipped, Target, declared_methods, judged, questions, targets

ENGINE_VARIABLE = "PINOCHLE_FUZZ_ENGINE"
"""The engine's command line (``module:factory`` with PINOCHLE_FUZZ_IN_PROCESS=1)."""


@cache
def engine() -> Engine:
    """The engine under test, opened once per process (each HypoFuzz worker has its own)."""
    command = os.environ.get(ENGINE_VARIABLE)
    if command is None:
        return open_in_process(load_server("pinochle_adapters.reference:server"))
    if os.environ.get("PINOCHLE_FUZZ_IN_PROCESS") == "1":
        return open_in_process(load_server(command))
    return open_engine(command)


@cache
def fuzz_targets() -> list[Target]:
    """The variants the engine declares (PINOCHLE_FUZZ_VARIANTS, comma-separated, restricts)."""
    info = engine().info
    assert info is not None, engine().start_error
    wanted = [v for v in os.environ.get("PINOCHLE_FUZZ_VARIANTS", "").split(",") if v]
    return targets(info, wanted)


def agrees(method: str, data: Any) -> None:
    """The property: the engine answers ``method``'s questions as the reference does."""
    info = engine().info
    assert info is not None, engine().start_error
    if method not in declared_methods(info):
        pytest.skip(f"the engine does not declare {method}")
    target = data.draw(st.sampled_from(fuzz_targets()), label="target")
    question = data.draw(questions(method, target), label="question")
    found = judged(engine(), question)
    if isinstance(found, Skipped):
        return  # the engine answers "unsupported", or its model has no such call
    assert not isinstance(found, Errored), f"{method}: the engine failed to answer: {found.reason}"
    assert found is None, f"{method} ({question.variant}, likely {found.rule}): " + "; ".join(
        str(m) for m in found.mismatches
    )


# HypoFuzz skips tests that suppress the nested_given check; a hand takes milliseconds.
_SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(st.data())
def test_play_hand(data: st.DataObject) -> None:
    agrees("play_hand", data)


@_SETTINGS
@given(st.data())
def test_deal(data: st.DataObject) -> None:
    agrees("deal", data)


@_SETTINGS
@given(st.data())
def test_auction(data: st.DataObject) -> None:
    agrees("auction", data)


@_SETTINGS
@given(st.data())
def test_meld(data: st.DataObject) -> None:
    agrees("meld", data)


@_SETTINGS
@given(st.data())
def test_legal_plays(data: st.DataObject) -> None:
    agrees("legal_plays", data)


@_SETTINGS
@given(st.data())
def test_trick_winner(data: st.DataObject) -> None:
    agrees("trick_winner", data)


@_SETTINGS
@given(st.data())
def test_card_points(data: st.DataObject) -> None:
    agrees("card_points", data)


@_SETTINGS
@given(st.data())
def test_score_hand(data: st.DataObject) -> None:
    agrees("score_hand", data)


@_SETTINGS
@given(st.data())
def test_play_tricks(data: st.DataObject) -> None:
    agrees("play_tricks", data)


@_SETTINGS
@given(st.data())
def test_play_game(data: st.DataObject) -> None:
    agrees("play_game", data)
