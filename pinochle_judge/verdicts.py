"""The report's shapes of a verdict: a charge, the evidence quoted for a suspect, a suspect, as
the JSON report carries them (``spec/schema/report.schema.json``). Plain data, below the
diagnosis that fills them and the wording that shows them."""

from __future__ import annotations

from typing import NotRequired, TypedDict


class OwnCases(TypedDict):
    """How many of a suspect's own cases failed and passed."""

    failed: int
    passed: int


class ChargeEntry(TypedDict):
    """A charge as the report carries it (``Charge.as_dict``)."""

    rule: str
    also: list[str]
    at: str
    detail: NotRequired[str]


class Evidence(ChargeEntry):
    """One failure quoted for a suspect: the case and its charge."""

    case: str


class SuspectEntry(TypedDict):
    """One rule of the diagnosis, as the JSON report carries it."""

    rule: str
    score: float
    direct: bool
    own_cases: OwnCases
    evidence: list[Evidence]
