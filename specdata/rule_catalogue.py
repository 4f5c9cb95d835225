"""The rule IDs: their pattern, the IDs the spec's chapters define, and which rule a refused
auction call names when it breaks several."""

from __future__ import annotations

import re
from functools import cache

from . import paths

__all__ = ["AUCTION_PRECEDENCE", "RULE_ID", "rule_ids"]

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


@cache
def rule_ids() -> frozenset[str]:
    """Every rule ID the spec defines: the ``## RULE-ID: title`` headings of spec/rules/*.md."""
    heading = re.compile(rf"^## ({RULE_ID.pattern}):", re.MULTILINE)
    return frozenset(
        m.group(1)
        for path in sorted(paths.RULES_DIR.glob("*.md"))
        for m in heading.finditer(path.read_text(encoding="utf-8"))
    )
