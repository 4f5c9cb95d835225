"""Where a question's random choices come from: a seeded generator (fast, recorded) or Hypothesis.

Every generator asks ``choose(n)`` for an int in ``0..n-1``, with 0 the simplest choice; the
recorded values of a fast run are the Hypothesis choice sequence that replays and shrinks it.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from hypothesis import strategies as st


class Choose(Protocol):
    """A source of choices: ``choose(n)`` is an int in ``0..n-1`` (0 when ``n`` is 1)."""

    def __call__(self, n: int) -> int: ...


class RandomChoices:
    """Choices from a seeded ``random.Random``, recorded in the order they were made.

    A choice among one option is not recorded: Hypothesis draws it neither (see ``DrawChoices``).
    """

    __slots__ = ("_random", "bounds", "made")

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed).random
        self.made: list[int] = []
        self.bounds: list[int] = []  # the n of each recorded choice

    def __call__(self, n: int) -> int:
        if n < 2:
            return 0
        # As randrange(n) at a fraction of its cost; the bias of a 53-bit float is negligible.
        value = int(self._random() * n)
        self.made.append(value)
        self.bounds.append(n)
        return value


class ReplayChoices:
    """Choices replayed from a list (each cut to its bound, 0 past the end), recorded as made:
    a variant of a recorded question, as Hypothesis would replay it."""

    __slots__ = ("_values", "bounds", "made")

    def __init__(self, values: Sequence[int]) -> None:
        self._values = values
        self.made: list[int] = []
        self.bounds: list[int] = []

    def __call__(self, n: int) -> int:
        if n < 2:
            return 0
        i = len(self.made)
        value = min(self._values[i], n - 1) if i < len(self._values) else 0
        self.made.append(value)
        self.bounds.append(n)
        return value


class DrawChoices:
    """Choices drawn by Hypothesis (``st.integers(0, n - 1)``): they shrink towards 0."""

    __slots__ = ("_draw",)

    def __init__(self, draw: Callable[[st.SearchStrategy[int]], int]) -> None:
        self._draw = draw

    def __call__(self, n: int) -> int:
        if n < 2:
            return 0
        return self._draw(_below(n))


@functools.cache
def _below(n: int) -> st.SearchStrategy[int]:
    """``st.integers(0, n - 1)``, made once per bound: a whole game draws thousands of choices,
    and making the strategy anew each time cost more than the draw."""
    return st.integers(0, n - 1)
