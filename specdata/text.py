"""Keeping messages bounded: one way to shorten a text that may be huge (an engine's reply, a
10 MB input), with the cap given by each caller."""

from __future__ import annotations

import re

__all__ = ["escaped", "shorten", "shown"]

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def escaped(text: str) -> str:
    """``text`` with every C0 and C1 control character (ESC, BEL, newline...) written as
    ``\\xNN``: a name from an engine or a file never moves the cursor, sets a window title or
    writes the clipboard (OSC 52) of the terminal it is printed to."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def shorten(text: str, limit: int, *, count: bool = True, quote: bool = False) -> str:
    """``text`` cut to ``limit`` characters (left whole when it fits).

    ``count`` (the default): the part kept is followed by ``... (N characters)``, N the length of
    the whole text. Otherwise it ends in ``...`` and the result stays within ``limit``.
    ``quote``: the part kept is shown as its ``repr``.
    """
    fits = len(text) <= limit
    kept = text if fits else text[:limit] if count else text[: max(limit - 3, 0)]
    shown_part = repr(kept) if quote else kept
    if fits:
        return shown_part
    if count:
        return f"{shown_part}{' ' if quote else ''}... ({len(text)} characters)"
    return shown_part + "..."


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: messages never echo a whole 10 MB input."""
    return shorten(repr(value), limit, count=False)
