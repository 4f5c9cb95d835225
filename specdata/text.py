"""Keeping messages bounded: one way to shorten a text that may be huge (an engine's reply, a
10 MB input), with the cap given by each caller."""

from __future__ import annotations

__all__ = ["shorten", "shown"]


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
