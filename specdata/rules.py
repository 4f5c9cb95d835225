"""The rules: what a rule ID looks like, the catalogue (every ``## RULE-ID: title`` heading of
spec/rules/*.md with its chapter and variants), the IDs it defines, and which rule a refused auction
call names when it breaks several. Read by the runner (tags, diagnosis) and the offline tools."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .paths import RULES_DIR, SPEC_DIR

__all__ = [
    "AUCTION_PRECEDENCE",
    "RULE_HEADING",
    "RULE_ID",
    "Rule",
    "load_catalogue",
    "rule_ids",
]

RULE_ID = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")
"""A rule ID: ``AREA-NAME``, upper case with dashes (``PLAY-CRAWL``); ERRATA-* are decisions."""


AUCTION_PRECEDENCE = (
    "AUCTION-END",
    "AUCTION-PASS-FINAL",
    "AUCTION-TURN",
    "AUCTION-DEALER-FORCED",
    "AUCTION-DEALER-OPENS",
    "AUCTION-OPENING-MIN",
    "AUCTION-HIGHER",
    "AUCTION-STEP",
)
"""The rule a refused call names when it breaks several, first first (spec/rules/auction.md,
"Which rule a refused call names"); the two forced rules never apply to the same call."""

RULE_HEADING = re.compile(rf"^## (?P<id>{RULE_ID.pattern}):\s*(?P<title>.*?)\s*$")
VARIANTS_BULLET = re.compile(r"^- \*\*Variants:\*\*\s*(?P<variants>.*?)\s*$")
VALUES_PREFIX = "- **Values:** "


@dataclass(frozen=True)
class Rule:
    """A rule of the catalogue: its ID, title, chapter and the variants it applies to."""

    id: str
    title: str
    file: str
    line: int
    variants: tuple[str, ...]
    refuse_only: tuple[str, ...] = ()
    """Variants whose value of the rule is ``none`` or ``never``: every attempt is refused, so
    only a negative case can exist there."""


def _refuse_only(values: str, variants: Sequence[str]) -> tuple[str, ...]:
    """The variants a ``- **Values:**`` text gives as ``none`` or ``never`` (``single-deck never
    allowed``)."""
    out = []
    for chunk in values.split(";"):
        words = chunk.split()
        if len(words) > 1 and words[0] in variants and words[1] in ("none", "never"):
            out.append(words[0])
    return tuple(out)


def load_catalogue(rules_dir: Path = RULES_DIR) -> dict[str, Rule]:
    """The rule catalogue: every ``## ID: title`` heading of spec/rules/*.md with its variants."""
    rules: dict[str, Rule] = {}
    for path in sorted(rules_dir.glob("*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, text in enumerate(lines):
            m = RULE_HEADING.match(text)
            if not m:
                continue
            variants: tuple[str, ...] = ()
            values = ""
            body = lines[i + 1 :]
            for n, after in enumerate(body):
                if after.startswith("## ") or after.startswith("# "):
                    break
                vm = VARIANTS_BULLET.match(after)
                if vm:
                    variants = tuple(v.strip() for v in vm["variants"].split(",") if v.strip())
                if after.startswith(VALUES_PREFIX):
                    more = [x.strip() for x in body[n + 1 :] if x.startswith("  ")]
                    values = " ".join([after.removeprefix(VALUES_PREFIX), *more])
                    break
            rules[m["id"]] = Rule(
                m["id"],
                m["title"],
                _shown(path),
                i + 1,
                variants,
                _refuse_only(values, variants),
            )
    return rules


def _shown(path: Path) -> str:
    """A chapter's path as reports show it (``spec/rules/meld.md``), the same from a wheel."""
    resolved, base = path.resolve(), SPEC_DIR.resolve().parent
    return str(resolved.relative_to(base)) if resolved.is_relative_to(base) else str(path)


@cache
def rule_ids() -> frozenset[str]:
    """Every rule ID the spec defines: the IDs of the catalogue (``load_catalogue``)."""
    return frozenset(load_catalogue())
