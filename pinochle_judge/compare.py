"""The one comparison of an engine's answer with the answer the rules require.

A per-method field map says how each field compares; table cases, Then steps and the export all
use it (the export writes the map out as data). This code is the authority on comparison.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from . import methods, notation, wording
from .methods import Kind

Answer = Mapping[str, object]
"""An engine's answer, or the expected part of one: a JSON object, its fields not known here."""

KINDS: dict[str, str] = {
    "exact": (
        "equal JSON values (an integer equals the same number as a float, a boolean is not a "
        "number); an expected object must have exactly the expected keys, a list the same "
        "length, compared item by item with the field map"
    ),
    "set": "the distinct items must be the same set (order and repeats do not matter)",
    "multiset": "the same items the same number of times, in any order",
    "sequence": "the same items in the same order",
    "melds": (
        "the multiset of (id, count, points[, suit][, cards as a multiset]); an expected entry "
        "that gives a suit is "
        "matched first; complete: every reported entry must be expected; an engine reporting "
        "meld as totals only (capability meld: totals) gives no items: the expected items' "
        "points must add up to its total"
    ),
    "given-keys": "null must be null; otherwise only the keys given are compared (exactly)",
}
"""What each kind of comparison means (written out by the export)."""


class TotalsOnly(list[object]):
    """The ``melds`` of an engine that reports meld as totals only (capability ``meld:
    totals``): empty, never compared item by item; an expected list of items is held to the
    answer's ``total`` instead (their points must add up to it)."""

    def __init__(self, total: int | None) -> None:
        super().__init__()
        self.total = total

    def __reduce__(self) -> tuple[type[TotalsOnly], tuple[int | None]]:
        return (TotalsOnly, (self.total,))

    def worth(self, expected: Sequence[Answer]) -> int:
        """What the expected items add up to."""
        return sum(_points(m.get("points")) for m in expected)


def _points(value: object) -> int:
    return int(value) if isinstance(value, int | float) else 0


MELD_KEYS = ("id", "count", "points", "suit", "cards")
"""The fields of a meld entry that are compared (``suit`` and ``cards`` only where the entry
gives them; ``cards`` as a multiset)."""


def _meld_field_matches(key: str, want: object, got: object) -> bool:
    if key == "cards":
        return (
            isinstance(got, list)
            and isinstance(want, list)
            and sorted(map(str, got)) == sorted(map(str, want))
        )
    return bool(got == want)


@cache
def field_map(method: str) -> dict[str, Kind]:
    """How each field of ``method``'s answer compares: path (``tricks[].cards``) -> kind.

    Paths not listed compare exactly. Card lists come from the result schema.
    """
    special = methods.method(method).compare
    fields: dict[str, Kind] = {
        path: "multiset" for path in sorted(notation.card_paths(method, "result"))
    }
    fields.update(special)
    # A field compared as a whole (melds, given keys) has no separately compared parts.
    wholes = [p for p, k in fields.items() if k in ("melds", "given-keys")]
    return {
        p: k
        for p, k in sorted(fields.items())
        if not any(p.startswith(w + ".") or p.startswith(w + "[]") for w in wholes)
    }


@dataclass(frozen=True)
class Mismatch:
    """One way an answer differs from the expected one, at ``where`` (``tricks[0].cards``)."""

    where: str
    text: str

    def __str__(self) -> str:
        return wording.at(self.where, self.text)


def compare(method: str, expect: Answer, actual: Answer) -> list[Mismatch]:
    """How ``actual`` differs from ``expect`` (empty when it conforms).

    Every key of ``expect`` must be in the answer and match by the field map; keys of the answer
    that ``expect`` does not name are not compared.
    """
    fields = field_map(method)
    careful = _careful_fields(method)
    out: list[Mismatch] = []
    for key, want in expect.items():
        if key not in actual:
            out.append(Mismatch(key, wording.missing(want)))
            continue
        got = actual[key]
        if key in careful or not _same(want, got):
            out.extend(_compare(fields, key, key, want, got))
    return out


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _same(want: object, got: object) -> bool:
    """Whether two JSON values are equal and of the same types throughout (same keys, same
    lengths): then no comparison kind but ``melds``, ``set`` and ``multiset`` can find a fault,
    and a conforming answer is passed without building the paths of its fields."""
    kind = type(want)
    if kind is not type(got):
        return False
    if kind is dict:
        assert isinstance(want, dict) and isinstance(got, dict)
        return len(want) == len(got) and all(
            key in got and _same(value, got[key]) for key, value in want.items()
        )
    if kind is list:
        assert isinstance(want, list) and isinstance(got, list)
        return len(want) == len(got) and all(map(_same, want, got))
    return kind in _SCALARS and want == got


@cache
def _careful_fields(method: str) -> frozenset[str]:
    """The answer fields of ``method`` holding a part compared as melds, a set or a multiset:
    those always go through ``_compare`` (a set of unhashable items differs even from itself,
    and melds match entry by entry)."""
    return frozenset(
        re.split(r"[.\[]", path, maxsplit=1)[0]
        for path, kind in field_map(method).items()
        if kind in ("melds", "set", "multiset")
    )


def compare_at(method: str, path: str, expected: object, actual: object) -> list[Mismatch]:
    """Compare one value found at ``path`` of ``method``'s answer (``hands[]`` for one hand)."""
    return _compare(field_map(method), path, path.replace("[]", ""), expected, actual)


def _compare(
    fields: Mapping[str, Kind], path: str, label: str, want: object, got: object
) -> list[Mismatch]:
    kind = fields.get(path, "exact")
    if kind == "melds":
        return _melds(label, want, got)
    if kind == "given-keys":
        return _given_keys(fields, path, label, want, got)
    if kind in ("set", "multiset", "sequence"):
        return _collection(kind, label, want, got)
    return _exact(fields, path, label, want, got)


def _same_scalar(want: object, got: object) -> bool:
    numbers = (int, float)
    if isinstance(want, numbers) and isinstance(got, numbers):
        # A boolean is not a number here: True must not pass for 1.
        return isinstance(want, bool) == isinstance(got, bool) and want == got
    return type(want) is type(got) and want == got


def _exact(
    fields: Mapping[str, Kind], path: str, label: str, want: object, got: object
) -> list[Mismatch]:
    if isinstance(want, dict) and isinstance(got, dict):
        out: list[Mismatch] = []
        for key, value in want.items():
            if key not in got:
                out.append(Mismatch(f"{label}.{key}", wording.missing(value)))
            else:
                out.extend(_compare(fields, f"{path}.{key}", f"{label}.{key}", value, got[key]))
        out.extend(
            Mismatch(f"{label}.{key}", wording.not_expected(got[key]))
            for key in got
            if key not in want
        )
        return out
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return [Mismatch(label, wording.length_differs(want, got))]
        out = []
        for i, (w, g) in enumerate(zip(want, got, strict=True)):
            out.extend(_compare(fields, f"{path}[]", f"{label}[{i}]", w, g))
        return out
    return [] if _same_scalar(want, got) else [Mismatch(label, wording.differs(want, got))]


def _collection(kind: str, label: str, want: object, got: object) -> list[Mismatch]:
    if not isinstance(want, list) or not isinstance(got, list):
        return [] if want == got else [Mismatch(label, wording.differs(want, got))]
    if kind == "sequence":
        return [] if want == got else [Mismatch(label, wording.out_of_order(want, got))]
    try:
        missing_and_extra = _differences(kind, want, got)
    except TypeError:  # unhashable items: the engine answered something else than a list of values
        return [Mismatch(label, wording.differs(want, got))]
    missing, extra = missing_and_extra
    if not missing and not extra:
        return []
    return [Mismatch(label, wording.set_differs(missing, extra, want, got))]


def _differences(
    kind: str, want: list[object], got: list[object]
) -> tuple[list[object], list[object]]:
    if kind == "set":
        return sorted(set(want) - set(got), key=str), sorted(set(got) - set(want), key=str)
    w, g = Counter(want), Counter(got)
    return sorted((w - g).elements(), key=str), sorted((g - w).elements(), key=str)


def _given_keys(
    fields: Mapping[str, Kind], path: str, label: str, want: object, got: object
) -> list[Mismatch]:
    if not isinstance(want, dict) or not isinstance(got, dict):
        return [] if want == got else [Mismatch(label, wording.differs(want, got))]
    out: list[Mismatch] = []
    for key, value in want.items():
        if key not in got:
            out.append(Mismatch(f"{label}.{key}", wording.missing(value)))
        else:
            out.extend(_exact(fields, f"{path}.{key}", f"{label}.{key}", value, got[key]))
    return out


@dataclass(frozen=True)
class MeldDiff:
    """Expected meld entries the answer lacks, and reported entries nobody expected."""

    missing: list[Answer]
    unexpected: list[Answer]


def meld_diff(expected: Sequence[Answer], actual: Sequence[object]) -> MeldDiff:
    """Match expected meld entries to reported ones on the keys each expected entry gives."""
    unmatched: list[Answer] = [a for a in actual if isinstance(a, dict)]
    missing: list[Answer] = []
    # Entries that give a suit are the most specific: match them first, so that an entry without
    # a suit never takes the one reported meld a suited entry needs.
    for want in sorted(expected, key=lambda e: e.get("suit") is None):
        keys = [k for k in MELD_KEYS if k in want]
        for got in unmatched:
            if all(_meld_field_matches(k, want[k], got.get(k)) for k in keys):
                unmatched.remove(got)
                break
        else:
            missing.append(want)
    return MeldDiff(missing, unmatched)


def _melds(label: str, want: object, got: object) -> list[Mismatch]:
    if not isinstance(want, list) or not isinstance(got, list):
        return [Mismatch(label, wording.not_melds(want, got))]
    if isinstance(got, TotalsOnly):
        worth = got.worth([w for w in want if isinstance(w, dict)])
        if worth == got.total:
            return []
        return [Mismatch(label, wording.melds_worth(worth, got.total))]
    diff = meld_diff([w for w in want if isinstance(w, dict)], got)
    text = wording.melds_differ(diff.missing, diff.unexpected)
    return [Mismatch(label, text)] if text else []
