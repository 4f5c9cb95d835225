"""Build a protocol server from any object whose methods are named after protocol methods.

The server does the framing, ``initialize``/``shutdown``, params checking and JSON-RPC errors, so an
engine author writes only the rules: ``def meld(self, params: dict) -> dict``. See spec/protocol.md.
"""

from __future__ import annotations

import contextlib
import json
import sys
import traceback
from collections.abc import Mapping, Sequence
from typing import IO, Any

from . import protocol
from .protocol import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    PROTOCOL_VERSION,
    RULE_METHODS,
)

VariantsDecl = Mapping[str, Mapping[str, Sequence[str]]] | Sequence[Mapping[str, Any]]
"""Declared variants: ``{id: {option: [values]}}`` or the initialize shape ``[{id, options}]``."""


class InvalidParams(ValueError):
    """Raise from an engine method to answer -32602 with this message."""


def _normalise_variants(declared: VariantsDecl) -> list[dict[str, Any]]:
    items: list[Mapping[str, Any]]
    if isinstance(declared, Mapping):
        items = [{"id": vid, "options": opts} for vid, opts in declared.items()]
    else:
        items = list(declared)
    out: list[dict[str, Any]] = []
    for item in items:
        options: Mapping[str, Sequence[Any]] = item.get("options") or {}
        out.append(
            {
                "id": str(item["id"]),
                "options": {
                    str(name): [protocol.option_text(v) for v in values]
                    for name, values in options.items()
                },
            }
        )
    return out


class Server:
    """A protocol server around an engine object: ``handle_line(request) -> reply``.

    The engine object implements any subset of the rule methods (``deal``, ``meld``, ...), each
    taking the params dict and returning the result dict. It may carry ``name``, ``version`` and
    ``variants`` attributes, or they are given here. ``initialize`` reports the methods the object
    implements (or its ``methods`` attribute when it has one).

    Errors: params that fail the method's schema, an undeclared variant or option, or a
    ``ValueError``/``KeyError`` raised by the object answer -32602 with the message; any other
    exception answers -32603 with a one-line message (the traceback goes to stderr only).
    """

    def __init__(
        self,
        engine: object,
        *,
        name: str | None = None,
        version: str | None = None,
        variants: VariantsDecl | None = None,
        check_params: bool = True,
        log: IO[str] | None = None,
    ) -> None:
        self.engine = engine
        self.name = name or str(getattr(engine, "name", type(engine).__name__))
        self.version = version or str(getattr(engine, "version", "0"))
        declared = variants if variants is not None else getattr(engine, "variants", None)
        if declared is None:
            raise TypeError(f"{self.name}: declare the variants and options the engine implements")
        self.variants = _normalise_variants(declared)
        self._options = {v["id"]: v["options"] for v in self.variants}
        methods = getattr(engine, "methods", None)
        if methods is None:
            methods = [m for m in RULE_METHODS if callable(getattr(engine, m, None))]
        self.methods = [m for m in RULE_METHODS if m in methods]
        self.check_params = check_params
        self.log = log
        self.shutdown_requested = False

    def info(self) -> dict[str, Any]:
        """The ``initialize`` result."""
        return {
            "protocol": PROTOCOL_VERSION,
            "engine": {"name": self.name, "version": self.version},
            "variants": self.variants,
            "methods": [*self.methods],
        }

    def handle_line(self, line: str) -> str:
        """Answer one request line with one reply line (without the newline)."""
        return protocol.encode(self.handle_message(line))

    def handle_message(self, line: str) -> dict[str, Any]:
        """Answer one request line with the reply object."""
        try:
            message = json.loads(line)
        except ValueError as e:
            return protocol.error_response(None, PARSE_ERROR, f"parse error: not JSON: {e}")
        if not isinstance(message, dict):
            kind = "batches are not supported" if isinstance(message, list) else "not an object"
            return protocol.error_response(None, INVALID_REQUEST, f"invalid request: {kind}")
        request_id = message.get("id")
        if not isinstance(request_id, int | str) or isinstance(request_id, bool):
            return protocol.error_response(
                None,
                INVALID_REQUEST,
                "invalid request: every request needs an integer or string id",
            )
        method = message.get("method")
        if message.get("jsonrpc") != "2.0" or not isinstance(method, str):
            return protocol.error_response(
                request_id, INVALID_REQUEST, 'invalid request: needs "jsonrpc": "2.0" and a method'
            )
        if method == "initialize":
            return self._initialize(request_id, message.get("params"))
        if method == "shutdown":
            self.shutdown_requested = True
            return protocol.result_response(request_id, None)
        if method not in self.methods:
            return protocol.error_response(
                request_id,
                METHOD_NOT_FOUND,
                f"method not found: {method!r}; this engine implements "
                f"{', '.join(self.methods) or 'no rule methods'}",
            )
        params = message.get("params")
        problem = self._params_problem(method, params)
        if problem is not None:
            return protocol.error_response(request_id, INVALID_PARAMS, problem)
        assert isinstance(params, dict)
        try:
            result = getattr(self.engine, method)(params)
            protocol.encode({"result": result})  # a result that is not JSON is the engine's fault
        except (ValueError, KeyError) as e:
            # PinochleError, CardError, VariantError are ValueErrors; a KeyError is a missing field.
            text = str(e) if not isinstance(e, KeyError) else f"missing or unknown {e}"
            return protocol.error_response(request_id, INVALID_PARAMS, text)
        except Exception as e:
            self._log_traceback()
            summary = f"{type(e).__name__}: {e}".splitlines()[0][:300]
            return protocol.error_response(
                request_id, INTERNAL_ERROR, f"internal error in {method}: {summary}"
            )
        return protocol.result_response(request_id, result)

    def _initialize(self, request_id: int | str, params: Any) -> dict[str, Any]:
        version = params.get("protocol") if isinstance(params, dict) else None
        if version != PROTOCOL_VERSION:
            return protocol.error_response(
                request_id,
                INVALID_PARAMS,
                f"protocol {version!r} is not supported: this engine speaks {PROTOCOL_VERSION}",
            )
        return protocol.result_response(request_id, self.info())

    def _params_problem(self, method: str, params: Any) -> str | None:
        if not isinstance(params, dict):
            return "params must be an object"
        if self.check_params:
            problem = protocol.check_params(method, params)
            if problem is not None:
                return problem
        variant = params.get("variant")
        if variant not in self._options:
            plays = ", ".join(sorted(self._options)) or "none"
            return f"unknown variant {variant!r}: this engine plays {plays}"
        options = params.get("options") or {}
        if not isinstance(options, dict):
            return "params.options must be an object"
        bad = protocol.options_declared(self._options[str(variant)], options)
        if bad is not None:
            name, value = bad
            known = self._options[str(variant)].get(name)
            if known is None:
                return f"variant {variant} has no option {name!r} in this engine"
            return (
                f"option {name}={value!r} is not implemented for {variant}: use {', '.join(known)}"
            )
        return None

    def _log_traceback(self) -> None:
        stream = self.log if self.log is not None else sys.stderr
        with contextlib.suppress(Exception):
            traceback.print_exc(file=stream)
            stream.flush()

    def serve_stdio(self, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
        """Serve requests from stdin, one per line, until ``shutdown`` or end of input.

        While the engine runs, ``print`` goes to stderr, so stray output never corrupts a reply.
        """
        source = stdin if stdin is not None else sys.stdin.buffer
        sink = stdout if stdout is not None else sys.stdout.buffer
        with contextlib.redirect_stdout(sys.stderr):
            for raw in source:
                line = raw.decode("utf-8", errors="replace").strip()
                if not line:
                    continue
                sink.write(self.handle_line(line).encode("utf-8") + b"\n")
                sink.flush()
                if self.shutdown_requested:
                    break
        return 0


def serve(engine: object, **kwargs: Any) -> int:
    """Serve ``engine`` on stdin/stdout (see ``Server``); returns the exit status."""
    return Server(engine, **kwargs).serve_stdio()
