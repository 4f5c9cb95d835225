"""The engine protocol's messages: JSON-RPC 2.0 framing, method names, error codes, schemas.

One JSON object per line, UTF-8. Every method's params and result have a JSON Schema (draft
2020-12) in ``spec/schema/protocol/``; both the client and the SDK server check against them.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

PROTOCOL_VERSION = 1
"""The protocol version this suite speaks; ``initialize`` exchanges it."""

METHODS = (
    "initialize",
    "deal",
    "meld",
    "legal_plays",
    "trick_winner",
    "card_points",
    "auction",
    "score_hand",
    "play_hand",
    "shutdown",
)
"""Every method of protocol version 1."""

RULE_METHODS = METHODS[1:-1]
"""The methods that answer a rules question; their params carry ``variant`` and ``options``."""

PARSE_ERROR = -32700
"""The request line is not JSON."""
INVALID_REQUEST = -32600
"""The line is JSON but not a JSON-RPC 2.0 request object."""
METHOD_NOT_FOUND = -32601
"""The engine does not implement the method."""
INVALID_PARAMS = -32602
"""Malformed params: a bad card code, an unknown variant or option, a missing field."""
INTERNAL_ERROR = -32603
"""The engine failed while answering."""

ERROR_NAMES = {
    PARSE_ERROR: "parse error",
    INVALID_REQUEST: "invalid request",
    METHOD_NOT_FOUND: "method not found",
    INVALID_PARAMS: "invalid params",
    INTERNAL_ERROR: "internal error",
}

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "spec" / "schema" / "protocol"
SCHEMA_BASE = "https://pinochle-spec.example/schema/protocol/"
"""The ``$id`` prefix of the protocol schemas; ``$ref`` between them are relative file names."""


class ProtocolError(ValueError):
    """A message does not follow the protocol; the message says where and how."""


@cache
def registry() -> Registry[Any]:
    """Every protocol schema, by ``$id``, so that relative ``$ref`` resolve offline."""
    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


def schema_name(method: str, kind: str) -> str:
    """File name of a method's schema: ``meld.params.json``; kind is ``params`` or ``result``."""
    if method not in METHODS:
        raise ProtocolError(f"unknown method {method!r}: protocol methods are {', '.join(METHODS)}")
    if kind not in ("params", "result"):
        raise ProtocolError(f"schema kind must be params or result, not {kind!r}")
    return f"{method}.{kind}.json"


@cache
def schema(name: str) -> dict[str, Any]:
    """A protocol schema by file name (``meld.result.json``, ``request.json``)."""
    contents: dict[str, Any] = registry()[SCHEMA_BASE + name].contents
    return contents


def _inline_refs(node: Any, base: str) -> Any:
    """A copy of a schema with every ``$ref`` replaced by what it points to.

    The protocol schemas refer to ``common.json`` definitions that never recurse, so inlining
    them once lets a validator skip resolving references on every message (about 2x faster).
    """
    if isinstance(node, list):
        return [_inline_refs(item, base) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        target_file, _, pointer = ref.partition("#")
        file_name = target_file or base
        target: Any = schema(file_name)
        for part in pointer.strip("/").split("/") if pointer else []:
            target = target[part]
        rest = {k: v for k, v in node.items() if k != "$ref"}
        resolved = _inline_refs(target, file_name)
        return {"allOf": [resolved, _inline_refs(rest, base)]} if rest else resolved
    return {k: _inline_refs(v, base) for k, v in node.items() if k != "$defs"}


@cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(_inline_refs(schema(name), name))


def _where(root: str, error: ValidationError) -> str:
    out = root
    for key in error.absolute_path:
        out += f"[{key}]" if isinstance(key, int) else f".{key}"
    return out


def schema_error(instance: Any, name: str, root: str) -> str | None:
    """The most relevant way ``instance`` fails schema ``name``, or None if it is valid.

    The message names the path from ``root`` (``params.hand[2]: 'Xx' does not match ...``).
    """
    error = best_match(_validator(name).iter_errors(instance))
    if error is None:
        return None
    return f"{_where(root, error)}: {error.message}"


def check_params(method: str, params: Any) -> str | None:
    """Why ``params`` are not valid for ``method`` (None when they are)."""
    return schema_error(params, schema_name(method, "params"), "params")


def check_result(method: str, result: Any) -> str | None:
    """Why ``result`` is not a valid answer to ``method`` (None when it is)."""
    return schema_error(result, schema_name(method, "result"), "result")


def encode(message: dict[str, Any]) -> str:
    """One message as one line of JSON (no newline inside, no trailing newline)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def request(request_id: int | str, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """A JSON-RPC 2.0 request object."""
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def result_response(request_id: int | str | None, result: Any) -> dict[str, Any]:
    """A JSON-RPC 2.0 success response."""
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def error_response(
    request_id: int | str | None, code: int, message: str, data: Any = None
) -> dict[str, Any]:
    """A JSON-RPC 2.0 error response; ``data`` is left out when None."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def options_declared(
    declared: dict[str, list[str]], options: dict[str, Any]
) -> tuple[str, str] | None:
    """The first ``(name, value)`` of ``options`` not in an engine's declared options, or None.

    Values compare as strings (an integer option value stands for its decimal string, a boolean
    for ``on``/``off``), as the variants do.
    """
    for name, value in options.items():
        text = option_text(value)
        if text not in [str(v) for v in declared.get(name, [])]:
            return name, text
    return None


def option_text(value: Any) -> str:
    """An option value as the string the variants use (``True`` -> ``on``, ``15`` -> ``15``)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
