"""The engine protocol's messages: JSON-RPC 2.0 framing, method names, error codes, schemas, limits.

Decides what a valid message is (one JSON object per line, UTF-8, at most MAX_LINE_BYTES, checked
against ``spec/schema/protocol/``) and words why one is not; client and server SDK both use it.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from referencing import Registry, Resource

import specdata
from specdata.schemas import Checker, where
from specdata.vocabulary import METHODS as METHODS
from specdata.vocabulary import RULE_METHODS as RULE_METHODS

ERRORS_RANKED = 50
"""How many schema errors are ranked to pick the one an error message names."""

PROTOCOL_VERSION = 1
"""The protocol version this suite speaks; ``initialize`` exchanges it."""


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
UNSUPPORTED = -32001
"""Not one of JSON-RPC's: "this engine does not support that request" (spec/protocol.md,
"Capabilities"); the suite skips the case with the message instead of erroring it."""


ERROR_NAMES = {
    PARSE_ERROR: "parse error",
    INVALID_REQUEST: "invalid request",
    METHOD_NOT_FOUND: "method not found",
    INVALID_PARAMS: "invalid params",
    INTERNAL_ERROR: "internal error",
    UNSUPPORTED: "unsupported",
}

SCHEMA_DIR = specdata.SCHEMA_DIR / "protocol"
SCHEMA_BASE = "https://pinochle-spec.example/schema/protocol/"
"""The ``$id`` prefix of the protocol schemas; ``$ref`` between them are relative file names."""

MAX_LINE_BYTES = 1 << 20
"""Longest message line either side sends or accepts (1 MiB, newline excluded).

The largest real request (``play_hand`` or ``deal``) is a few kilobytes; a longer line is refused
unread (the server answers -32600, the client errors the case) so memory and time stay bounded.
"""
MESSAGE_LIMIT = 300
"""Longest stretch of a value quoted inside an error message (characters)."""


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
def inlined_schema(name: str) -> dict[str, Any]:
    """Protocol schema ``name`` with every ``$ref`` inlined: one self-contained document."""
    inlined: dict[str, Any] = _inline_refs(schema(name), name)
    return inlined


@cache
def checker(name: str) -> Checker:
    """Schema ``name`` (references inlined) in the one schema checker (``specdata.schemas``):
    jsonschema-rs decides, jsonschema words a failure."""
    return Checker(inlined_schema(name))


def is_valid(instance: Any, name: str) -> bool:
    """Whether ``instance`` is valid against schema ``name`` (fast; no message)."""
    return checker(name).is_valid(instance)


def schema_error(instance: Any, name: str, root: str) -> str | None:
    """The most relevant way ``instance`` fails schema ``name``, or None if it is valid.

    The message names the path from ``root`` (``params.hand[2]: 'Xx' does not match ...``) and
    quotes at most MESSAGE_LIMIT characters of the value. The compiled validator decides; only a
    failure pays for jsonschema, whose messages are the clearer ones.
    """
    schema = checker(name)
    if schema.is_valid(instance):
        return None
    # The most relevant of the first few errors: a line of 150,000 bad cards must not make the
    # server rank 150,000 errors before it answers.
    try:
        error = schema.best_error(instance, ERRORS_RANKED)
    except RecursionError:  # nested deeper than Python recursion: the compiled check words it
        error = None
    if error is None:  # jsonschema finds nothing, or cannot recurse that deep
        message = schema.fast_message(instance, root) or f"{root}: fails {name}"
    else:
        message = f"{where(root, error.absolute_path)}: {error.message}"
    return specdata.shorten(message, 2 * MESSAGE_LIMIT)


def check_params(method: str, params: Any) -> str | None:
    """Why ``params`` are not valid for ``method`` (None when they are)."""
    return schema_error(params, schema_name(method, "params"), "params")


def check_result(method: str, result: Any) -> str | None:
    """Why ``result`` is not a valid answer to ``method`` (None when it is)."""
    return schema_error(result, schema_name(method, "result"), "result")


_ENCODER = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False
)
"""Built once; no circularity check (about 20% faster): a cycle raises RecursionError instead."""


def encode(message: dict[str, Any]) -> str:
    """One message as one line of JSON (no newline inside, no trailing newline).

    Raises TypeError or ValueError for what is not JSON (NaN included), RecursionError for a cycle
    or nesting too deep.
    """
    return _ENCODER.encode(message)


def decode(line: str) -> Any:
    """One line of JSON as its value (``json.loads``): the one place client and server read a
    line, as ``encode`` is the one place they write one."""
    return json.loads(line)


def request(request_id: int | str, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """A JSON-RPC 2.0 request object."""
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def result_response(request_id: int | str | None, result: Any) -> dict[str, Any]:
    """A JSON-RPC 2.0 success response."""
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def result_line(request_id: int | str | None, result_json: str) -> str:
    """``encode(result_response(request_id, result))`` for a result already encoded as JSON."""
    shown = request_id if type(request_id) is int else _ENCODER.encode(request_id)
    return f'{{"jsonrpc":"2.0","id":{shown},"result":{result_json}}}'


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
        values = declared.get(name, ())
        if text not in values and text not in [str(v) for v in values]:
            return name, text
    return None


option_text = specdata.option_text
"""An option value as the variants spell it (``True`` -> ``on``, ``15`` -> ``15``)."""
