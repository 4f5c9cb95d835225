"""How an engine failed, as one ``EngineError`` subclass with a one-line reason.

The client and its transports raise these; callers catch ``EngineError`` (re-exported by
``pinochle_adapters.client``) and never see an OS error or a traceback.
"""

from __future__ import annotations

import specdata

QUOTE_LIMIT = 500
"""Longest stretch of an engine reply quoted in an error message (characters)."""


class EngineError(Exception):
    """The engine failed to answer properly: the case is errored, not failed.

    ``reason`` is one line saying what went wrong; ``str()`` adds the reply (cut to QUOTE_LIMIT)
    and the last lines of the engine's stderr (each already cut by the transport) below it.
    """

    def __init__(self, message: str, reply: str | None = None, stderr: str = "") -> None:
        text = message
        if reply is not None:
            text += f"\n  reply: {_quote(reply)}"
        if stderr:
            text += "\n  engine stderr (last lines):\n" + _indent(stderr)
        super().__init__(text)
        self.reason = message
        self.reply = reply
        self.stderr = stderr


class StartupFailed(EngineError):
    """The engine could not be started, imported or initialised (or has failed to too often)."""


class EngineCrashed(EngineError):
    """The engine exited, closed its stdout or raised, instead of answering."""


class EngineTimeout(EngineError):
    """No reply within the timeout (or the method was given up after too many timeouts)."""


class BadReply(EngineError):
    """A reply that breaks the protocol: not UTF-8, too long, not JSON, wrong id, bad result."""


class ErrorReply(EngineError):
    """The engine answered the request with a JSON-RPC error."""


class UnsupportedReply(ErrorReply):
    """The engine answered ``UNSUPPORTED``: a capability it lacks; ``message`` says which.

    The client's side of the wire: the suite skips the case. An engine written with the SDK
    answers so by raising ``sdk.UnsupportedRequest``."""

    def __init__(self, message: str, reply: str | None = None, stderr: str = "") -> None:
        super().__init__(message, reply, stderr)
        self.message = message


Unsupported = UnsupportedReply
"""The name ``UnsupportedReply`` had before it was told apart from ``sdk.UnsupportedRequest``."""


class TransportError(Exception):
    """A transport could not deliver a reply; ``restart`` says the engine must be restarted.

    The client turns it into ``kind``, adding the engine's name, the method and its stderr.
    """

    def __init__(self, kind: type[EngineError], message: str, *, restart: bool = True) -> None:
        super().__init__(message)
        self.kind = kind
        self.restart = restart


def one_line(error: object) -> str:
    """An exception as one line of at most 300 characters (``BrokenPipeError: [Errno 32] ...``)."""
    return f"{type(error).__name__}: {error}".splitlines()[0][:300]


def _quote(text: str) -> str:
    return specdata.shorten(text.rstrip("\n"), QUOTE_LIMIT, quote=True)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())
