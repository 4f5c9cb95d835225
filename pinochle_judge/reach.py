"""Reach: how many judged cases of each rule get to the point where that rule decides under the
options the engine plays (``Plan.reached``), which whole hands play to where their hand-worked
versions end, and which rules no case reaches. Pure data in, pure data out: the reporter, the
report site and the tests read the same figures.

A case written for an option value the engine does not play (its ``needed`` values are not the
variant's defaults: a ``rounds`` game against an engine without rounds) is counted apart: it
tests that value, which the engine does not claim. A rule the engine's options switch off
(``specdata.house.rules_off``) is never owed a reaching case.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from specdata import option_defaults
from specdata.house import rules_off

from .methods import WHOLE_HANDS


@dataclass(frozen=True)
class ReachEntry:
    """One judged case: its rule, where it stands and whether it reached its stop point."""

    rule: str
    variant: str
    method: str
    reached: bool
    own: bool = False
    """Written for an option value the engine does not play (counted apart)."""
    options: Mapping[str, str] | None = None
    """The options sent (to name the rules they switch off)."""

    def as_dict(self) -> dict[str, Any]:
        """The entry as the report's case property stores it."""
        return self.record(self.variant, self.method, self.reached, self.own, self.options)

    @staticmethod
    def record(
        variant: str, method: str, reached: bool, own: bool, options: Mapping[str, str] | None
    ) -> dict[str, Any]:
        """``ReachEntry(rule, variant, ...).as_dict()`` without the entry: what a judged case
        stores (``from_dict`` reads it back)."""
        return {
            "reached": reached,
            "own": own,
            "method": method,
            "variant": variant,
            "options": dict(options or {}),
        }

    @classmethod
    def from_dict(cls, rule: str, data: Mapping[str, Any]) -> ReachEntry:
        """The entry back from ``as_dict``."""
        return cls(
            rule,
            str(data.get("variant", "")),
            str(data.get("method", "")),
            bool(data.get("reached", True)),
            bool(data.get("own", False)),
            {str(k): str(v) for k, v in (data.get("options") or {}).items()},
        )


def written_for_other_values(variant: str, needed: Mapping[str, str]) -> bool:
    """Whether a case needs option values, other than the defaults, that the engine plays
    otherwise (``Plan.needed``): it is written for those values."""
    if not needed:
        return False
    defaults = option_defaults(variant)
    return any(defaults.get(name) != value for name, value in needed.items())


@dataclass(frozen=True)
class Reach:
    """The reach figures of one run."""

    rules: dict[str, dict[str, int]]
    """Rule -> ``judged`` and ``reached`` (cases testing it; a case written for option values
    the engine does not play counts only when it reaches the rule)."""
    whole_hands: dict[str, int]
    """Whole-hand cases written for values the engine plays: ``judged``, ``reached``."""
    other_values: dict[str, int]
    """Whole-hand cases written for option values the engine does not play, or testing a rule
    its options switch off: they test what the engine does not claim."""
    off: list[str]
    """Rules the engine's options switch off in the variants judged."""
    unreached: list[str]
    """Rules with judged cases, none reaching, not switched off."""

    def as_dict(self) -> dict[str, Any]:
        """The report's ``reach`` object."""
        return {
            "rules": self.rules,
            "whole_hands": self.whole_hands,
            "other_values": self.other_values,
            "off": self.off,
            "unreached": self.unreached,
        }

    @property
    def partly(self) -> dict[str, tuple[int, int]]:
        """Rules some of whose judged cases do not reach: rule -> (reached, judged)."""
        return {
            r: (c["reached"], c["judged"])
            for r, c in self.rules.items()
            if c["reached"] < c["judged"] and r not in self.off
        }

    @property
    def shown(self) -> bool:
        """Whether the figures say anything (some case stops short of its rule)."""
        whole = self.whole_hands
        return bool(self.partly or self.unreached or whole["reached"] < whole["judged"])


def reach(entries: Iterable[ReachEntry]) -> Reach:
    """The figures of a run's judged cases (a rule is owed a reaching case in each variant where
    it has judged cases and the engine's options do not switch it off)."""
    rules: dict[str, dict[str, int]] = defaultdict(lambda: {"judged": 0, "reached": 0})
    per_variant: dict[tuple[str, str], int] = defaultdict(int)
    whole = {"judged": 0, "reached": 0}
    other = {"judged": 0, "reached": 0}
    off: dict[str, set[str]] = {}
    for e in entries:
        if e.variant not in off:
            off[e.variant] = rules_off(e.variant, e.options or {}) if e.variant else set()
        apart = e.own or e.rule in off[e.variant]
        if e.method in WHOLE_HANDS:
            box = other if apart else whole
            box["judged"] += 1
            box["reached"] += e.reached
        if e.own and not e.reached:
            continue  # it tests a value the engine does not play: neither for nor against
        rules[e.rule]["judged"] += 1
        rules[e.rule]["reached"] += e.reached
        per_variant[e.variant, e.rule] += e.reached
    switched = {(v, r) for v, found in off.items() for r in found}
    unreached = sorted({r for (v, r), n in per_variant.items() if not n and (v, r) not in switched})
    judged_off = sorted({r for v, r in switched if (v, r) in per_variant})
    return Reach({r: rules[r] for r in sorted(rules)}, whole, other, judged_off, unreached)
