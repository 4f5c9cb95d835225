"""The surface engine authors and plugin users import (spec/protocol.md, "Public API"): each
side of the wire has its own word for "unsupported", and the older names still import."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import ClassVar

import pytest

from pinochle_adapters import client, errors, sdk
from tests.test_layers import PACKAGES


def test_each_side_of_the_wire_names_unsupported_its_own_way() -> None:
    assert issubclass(client.UnsupportedReply, client.ErrorReply)
    assert issubclass(client.UnsupportedReply, client.EngineError)
    assert not issubclass(sdk.UnsupportedRequest, client.EngineError)
    assert sdk.UnsupportedRequest is not client.UnsupportedReply


def test_the_older_unsupported_names_still_import() -> None:
    assert client.Unsupported is errors.Unsupported is client.UnsupportedReply
    assert sdk.Unsupported is sdk.UnsupportedRequest


def test_an_unsupported_request_reaches_the_client_as_an_unsupported_reply() -> None:
    class Partial:
        name, version = "partial", "0"
        variants: ClassVar[dict[str, dict[str, list[str]]]] = {"double-deck": {}}

        def trick_winner(self, params: dict[str, object]) -> dict[str, object]:
            raise sdk.UnsupportedRequest("trick_winner of four cards only")

    params = {"variant": "double-deck", "options": {}, "trump": "h", "trick": ["Ah"]}
    with (
        client.open_in_process(sdk.Server(Partial())) as engine,
        pytest.raises(client.UnsupportedReply, match="four cards only"),
    ):
        engine.call("trick_winner", params)


@pytest.mark.parametrize(
    "module", ["pinochle_adapters.sdk", "pinochle_adapters.client", "pytest_pinochle.plugin"]
)
def test_every_public_name_is_there(module: str) -> None:
    imported = importlib.import_module(module)
    assert [name for name in imported.__all__ if not hasattr(imported, name)] == []


@pytest.mark.parametrize("package", PACKAGES)
def test_every_typed_package_says_so(package: str) -> None:
    """PEP 561: a ``py.typed`` beside the package's ``__init__`` (tests/test_wheel.py checks
    that the wheel carries it)."""
    location = importlib.import_module(package).__file__
    assert location is not None and (Path(location).parent / "py.typed").is_file()
