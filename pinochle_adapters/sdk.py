"""The server SDK: a protocol server around any object with methods named after protocol methods.

Decides framing, ``initialize``/``shutdown``, params checks and JSON-RPC errors so an engine author
writes only the rules (``def meld(self, params: dict) -> dict``); no request line can take it down.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
import traceback
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any

import specdata

from . import protocol
from .protocol import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    MAX_LINE_BYTES,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    PROTOCOL_VERSION,
    RULE_METHODS,
    UNSUPPORTED,
)

__all__ = [
    "ERROR_LIMIT",
    "Encoded",
    "InvalidParams",
    "Server",
    "Unsupported",
    "UnsupportedRequest",
    "VariantsDecl",
    "refused_call_rule",
    "serve",
]

ERROR_LIMIT = 500
"""Longest error message the server sends (characters): a 10 MB bad value is not echoed back."""

VariantsDecl = Mapping[str, Mapping[str, Sequence[str]]] | Sequence[Mapping[str, Any]]
"""Declared variants: ``{id: {option: [values]}}`` or the initialize shape ``[{id, options}]``."""


def refused_call_rule(broken: Iterable[str]) -> str:
    """The one rule ID an auction refusal names when the call breaks several (``broken``), by the
    spec's order (spec/rules/auction.md, "Which rule a refused call names"), so no adapter
    rebuilds it: ``refused_call_rule({"AUCTION-STEP", "AUCTION-TURN"})`` is ``AUCTION-TURN``.

    Raises ValueError when ``broken`` names no auction rule.
    """
    named = set(broken)
    for rule in specdata.AUCTION_PRECEDENCE:
        if rule in named:
            return rule
    raise ValueError(f"no auction rule among {sorted(named)}")


class InvalidParams(ValueError):
    """Raise from an engine method to answer -32602 with this message."""


class UnsupportedRequest(Exception):
    """Raise from an engine method to answer ``UNSUPPORTED`` with this message (say what is not
    supported: ``trick_winner of an incomplete trick``).

    The engine's side of the wire; the client raises ``UnsupportedReply`` when it reads the
    answer, and the suite skips the case."""


Unsupported = UnsupportedRequest
"""The name ``UnsupportedRequest`` had before it was told apart from the client's
``UnsupportedReply``; engines written against it keep working."""


class Encoded(str):
    """A result the engine has already written as JSON text: the server splices it into the reply
    as it is, unparsed and unchecked (the engine's own trusted fast path).

    An engine offers one for a method by a ``<method>_encoded`` method on the same class as
    ``<method>``; a subclass that overrides ``<method>`` alone is answered by its override."""


def encoded_handlers(engine: object, methods: Iterable[str]) -> dict[str, Any]:
    """The ``<method>_encoded`` handlers of ``engine`` that answer for its ``<method>``: defined
    by the very class that defines ``<method>`` (or one below it)."""
    found: dict[str, Any] = {}
    mro = type(engine).__mro__
    own = getattr(engine, "__dict__", {})
    for method in methods:
        name = f"{method}_encoded"
        if method in own or name in own:
            continue  # set on the instance: the class's pairing says nothing about it
        plain = next((i for i, c in enumerate(mro) if method in c.__dict__), None)
        fast = next((i for i, c in enumerate(mro) if name in c.__dict__), None)
        if plain is not None and fast is not None and fast <= plain:
            found[method] = getattr(engine, name)
    return found


def _is_text(value: str) -> bool:
    """Whether ``value`` is encodable as UTF-8 (it holds no lone surrogate)."""
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _line(reply: dict[str, Any]) -> bytes:
    """One reply as one UTF-8 line (no newline); raises if it is not JSON or not text."""
    return protocol.encode(reply).encode("utf-8")


def _text(message: str, limit: int = ERROR_LIMIT) -> str:
    """``message`` cut to ``limit`` characters and made encodable as UTF-8."""
    text = specdata.shorten(message, limit)
    return text.encode("utf-8", errors="backslashreplace").decode("utf-8")


def _error(request_id: int | str | None, code: int, message: str, data: Any = None) -> bytes:
    """An error reply line; the message is cut to ERROR_LIMIT and made encodable."""
    return _line(protocol.error_response(request_id, code, _text(message), data))


TRACEBACK_FRAMES = 3
"""How many of the innermost frames an internal error's ``data`` quotes."""


def _fault_data(error: BaseException) -> dict[str, Any]:
    """``data`` of an internal error: the exception's type, its message and the innermost frames
    (``file:line in function: source``), so the engine's author sees where the bug is."""
    # The SDK's own frame (the call into the engine) says nothing about the bug: leave it out.
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != __file__]
    frames = frames[-TRACEBACK_FRAMES:]
    return {
        "type": type(error).__name__,
        "message": _text(str(error)),
        "traceback": [
            _text(f"{f.filename}:{f.lineno} in {f.name}: {(f.line or '').strip()}", 300)
            for f in frames
        ],
    }


def _summary(prefix: str, error: BaseException) -> str:
    """``prefix: Type: first line of the message``, at most 300 characters: never a traceback."""
    lines = f"{type(error).__name__}: {error}".splitlines() or [type(error).__name__]
    return f"{prefix}: {lines[0][:300]}"


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

    Errors: params that fail the method's schema, an undeclared variant or option, or an
    ``InvalidParams`` raised by the object answer -32602 with the message. Any other exception the
    object raises is a fault of the engine's own code, a ``KeyError`` or ``ValueError`` too: it
    answers -32603 with ``internal error in METHOD: Type: message`` and the exception's type and
    traceback tail in ``data`` (the full traceback goes to stderr). An engine whose own exception
    classes mean "bad input" names them in ``invalid_params`` (or an ``invalid_params`` attribute).
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
        invalid_params: tuple[type[Exception], ...] | None = None,
        capabilities: Mapping[str, str] | None = None,
    ) -> None:
        self.engine = engine
        declared_capabilities = (
            capabilities if capabilities is not None else getattr(engine, "capabilities", None)
        )
        self.capabilities: dict[str, str] = dict(declared_capabilities or {})
        """How the engine models what the rules leave open (spec/protocol.md, "Capabilities")."""
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
        self._encoded = encoded_handlers(engine, self.methods)
        self.check_params = check_params
        declared_bad = (
            invalid_params
            if invalid_params is not None
            else tuple(getattr(engine, "invalid_params", ()))
        )
        self.invalid_params: tuple[type[Exception], ...] = (InvalidParams, *declared_bad)
        """Exceptions that mean the request is wrong (-32602); any other one is a bug (-32603)."""
        self.log = log
        self.shutdown_requested = False

    def info(self) -> dict[str, Any]:
        """The ``initialize`` result."""
        return {
            "protocol": PROTOCOL_VERSION,
            "engine": {"name": self.name, "version": self.version},
            "variants": self.variants,
            "methods": [*self.methods],
            **({"capabilities": dict(self.capabilities)} if self.capabilities else {}),
        }

    def handle_line(self, line: str) -> str:
        """Answer one request line with one reply line (without the newline); never raises."""
        return self.handle_bytes_line(line).decode("utf-8")

    def handle_bytes_line(self, line: str) -> bytes:
        """The reply to one request line as UTF-8 bytes (encoded once); never raises."""
        try:
            return self._answer(line)
        except Exception as e:  # a fault of the SDK itself must not take the server down
            self._log_traceback()
            return _line(
                protocol.error_response(None, INTERNAL_ERROR, _summary("internal error", e))
            )

    def handle_message(self, line: str) -> dict[str, Any]:
        """Answer one request line with the reply object (decoded from the reply line)."""
        reply: dict[str, Any] = json.loads(self.handle_bytes_line(line))
        return reply

    def _answer(self, line: str) -> bytes:
        size = len(line)
        if size > MAX_LINE_BYTES // 4:  # only then can its UTF-8 length pass the limit
            size = len(line.encode("utf-8", errors="surrogatepass"))
        if size > MAX_LINE_BYTES:
            return _error(
                None,
                INVALID_REQUEST,
                f"invalid request: the line is {size} bytes long; the limit is "
                f"{MAX_LINE_BYTES} bytes",
            )
        try:
            message = protocol.decode(line)
        except ValueError as e:
            return _error(None, PARSE_ERROR, f"parse error: not JSON: {e}")
        except RecursionError:
            return _error(None, PARSE_ERROR, "parse error: the JSON is nested too deeply to decode")
        if not isinstance(message, dict):
            kind = "batches are not supported" if isinstance(message, list) else "not an object"
            return _error(None, INVALID_REQUEST, f"invalid request: {kind}")
        request_id = message.get("id")
        if not isinstance(request_id, int | str) or isinstance(request_id, bool):
            return _error(
                None,
                INVALID_REQUEST,
                "invalid request: every request needs an integer or string id",
            )
        if isinstance(request_id, str) and not _is_text(request_id):
            # A JSON "\ud800" escape decodes to a lone surrogate, which no reply can echo.
            return _error(
                None, INVALID_REQUEST, "invalid request: the id holds a lone surrogate (not text)"
            )
        method = message.get("method")
        if message.get("jsonrpc") != "2.0" or not isinstance(method, str):
            return _error(
                request_id, INVALID_REQUEST, 'invalid request: needs "jsonrpc": "2.0" and a method'
            )
        if method == "initialize":
            return _line(self._initialize(request_id, message.get("params")))
        if method == "shutdown":
            self.shutdown_requested = True
            return _line(protocol.result_response(request_id, None))
        if method not in self.methods:
            return _error(
                request_id,
                METHOD_NOT_FOUND,
                f"method not found: {method!r}; this engine implements "
                f"{', '.join(self.methods) or 'no rule methods'}",
            )
        params = message.get("params")
        problem = self._params_problem(method, params, plainly_readable(line))
        if problem is not None:
            return _error(request_id, INVALID_PARAMS, problem)
        assert isinstance(params, dict)
        try:
            result = (self._encoded.get(method) or getattr(self.engine, method))(params)
        except UnsupportedRequest as e:
            return _error(request_id, UNSUPPORTED, str(e) or f"{method} is not supported")
        except self.invalid_params as e:
            return _error(request_id, INVALID_PARAMS, str(e))
        except Exception as e:
            # Params passed validation, so whatever else the engine raises (a KeyError or a
            # ValueError included) is a bug in its code: say so, and where, not "invalid params".
            self._log_traceback()
            return _error(
                request_id,
                INTERNAL_ERROR,
                _summary(f"internal error in {method}", e),
                _fault_data(e),
            )
        try:
            if isinstance(result, Encoded):
                return protocol.result_line(request_id, result).encode("utf-8")
            # The one encoding of the result; a result that is not JSON is the engine's fault.
            return _line(protocol.result_response(request_id, result))
        except (TypeError, ValueError, RecursionError) as e:
            return _error(
                request_id,
                INTERNAL_ERROR,
                _summary(f"internal error in {method}: the result is not JSON", e),
            )

    def _initialize(self, request_id: int | str, params: Any) -> dict[str, Any]:
        version = params.get("protocol") if isinstance(params, dict) else None
        if version != PROTOCOL_VERSION:
            return protocol.error_response(
                request_id,
                INVALID_PARAMS,
                f"protocol {version!r} is not supported: this engine speaks {PROTOCOL_VERSION}",
            )
        return protocol.result_response(request_id, self.info())

    def _params_problem(self, method: str, params: Any, plain: bool = False) -> str | None:
        """Why ``params`` cannot be answered, or None; ``plain``: the line they were decoded
        from can hold no unreadable field (``plainly_readable``), so none is looked for."""
        if not isinstance(params, dict):
            return "params must be an object"
        unreadable = None if plain else unreadable_field(params, "params")
        if unreadable is not None:
            return unreadable
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

        Every line gets one reply line: a line longer than MAX_LINE_BYTES is refused unread (-32600)
        and one that is not UTF-8 is a parse error (-32700) naming the first bad byte. While the
        engine runs, ``print`` goes to stderr, so stray output never corrupts a reply. Returns 0,
        also when the client has closed the reply pipe.
        """
        source = stdin if stdin is not None else sys.stdin.buffer
        sink = stdout if stdout is not None else sys.stdout.buffer
        with contextlib.redirect_stdout(sys.stderr):
            while True:
                raw = source.readline(MAX_LINE_BYTES + 2)  # room for "\r\n"
                if not raw:
                    break
                reply: bytes | None
                hit_limit = len(raw) >= MAX_LINE_BYTES + 2 and not raw.endswith(b"\n")
                if hit_limit or len(raw.rstrip(b"\r\n")) > MAX_LINE_BYTES:
                    reply = self._too_long(raw, source)
                else:
                    reply = self._reply_to_bytes(raw)
                if reply is None:
                    continue
                try:
                    sink.write(reply + b"\n")
                    sink.flush()
                except (BrokenPipeError, ValueError):
                    break  # nobody reads the replies any more
                if self.shutdown_requested:
                    break
        return 0

    def _reply_to_bytes(self, raw: bytes) -> bytes | None:
        """The reply to one raw line; None for a blank line (no reply)."""
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            return _error(
                None,
                PARSE_ERROR,
                f"parse error: the request is not UTF-8: byte 0x{raw[e.start]:02x} at "
                f"position {e.start}",
            )
        line = line.strip()
        if not line:
            return None
        return self.handle_bytes_line(line)

    @staticmethod
    def _too_long(head: bytes, source: IO[bytes]) -> bytes:
        """Skip the rest of an over-long line, in bounded pieces, and refuse it."""
        size = len(head)
        chunk = head
        while not chunk.endswith(b"\n"):
            chunk = source.readline(1 << 16)
            if not chunk:
                break
            size += len(chunk)
        size -= len(b"\n") if chunk.endswith(b"\n") else 0
        return _error(
            None,
            INVALID_REQUEST,
            f"invalid request: the line is at least {size} bytes long; the limit is "
            f"{MAX_LINE_BYTES} bytes",
        )


def serve(engine: object, **kwargs: Any) -> int:
    """Serve ``engine`` on stdin/stdout (see ``Server``); returns the exit status."""
    return Server(engine, **kwargs).serve_stdio()


DEPTH_LIMIT = 64
"""Deepest nesting of params the server checks; deeper is refused naming the field."""


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""A JSON escape that decodes to a UTF-16 surrogate (a pair of them is harmless, but is looked
at field by field like a lone one)."""


def plainly_readable(line: str) -> bool:
    """Whether every field decoded from the JSON ``line`` is readable without looking: the line is
    text, escapes no surrogate and opens fewer brackets than DEPTH_LIMIT (so nothing in it nests
    that deep). One pass over the line instead of a walk over every field it holds; False only
    means ``unreadable_field`` must look."""
    if line.count("[") + line.count("{") >= DEPTH_LIMIT or _SURROGATE_ESCAPE.search(line):
        return False
    return _is_text(line)


def unreadable_field(value: Any, root: str) -> str | None:
    """The first field of ``value`` that no schema check can read, named by its path from
    ``root``: a string (or key) holding a lone surrogate, or nesting over DEPTH_LIMIT levels.
    Walked without recursion, so any depth is safe. None when every field is readable."""
    pending: list[tuple[Any, str, int]] = [(value, root, 0)]
    while pending:
        item, path, depth = pending.pop()
        if isinstance(item, str):
            if not _is_text(item):
                return f"{path}: holds a lone surrogate, which is not Unicode text"
            continue
        if not isinstance(item, dict | list):
            continue
        if depth >= DEPTH_LIMIT:
            return f"{path}: nested too deeply to check (over {DEPTH_LIMIT} levels)"
        if isinstance(item, dict):
            for key, child in reversed(list(item.items())):
                if not _is_text(str(key)):
                    return f"{path}: a key holds a lone surrogate, which is not Unicode text"
                pending.append((child, f"{path}.{key}", depth + 1))
        else:
            pending.extend(
                (c, f"{path}[{i}]", depth + 1) for i, c in reversed(list(enumerate(item)))
            )
    return None
