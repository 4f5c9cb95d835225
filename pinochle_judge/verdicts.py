"""The report's shapes of a verdict: a charge, the evidence quoted for a suspect, a suspect, as
the JSON report carries them (``spec/schema/report.schema.json``). Plain data, below the
diagnosis that fills them and the wording that shows them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NotRequired, TypedDict


class OwnCases(TypedDict):
    """How many of a suspect's own cases failed and passed."""

    failed: int
    passed: int


class WhereEntry(TypedDict, total=False):
    """Where the answers part, as data (``diagnosis.Where.as_dict``)."""

    method: str
    point: str
    field: str
    hand: int
    index: int
    seat: int
    trick: int
    team: int


@dataclass(frozen=True)
class Where:
    """Where an engine's answer first leaves the expectation: the method, the point of the
    answer (``call``, ``play``, ``trick winner``, ``meld``, ``delta`` ...), the answer's field,
    and the hand (0-based, in a game), action or call index, seat, trick (0-based) and team."""

    method: str
    point: str
    field: str
    hand: int | None = None
    index: int | None = None
    seat: int | None = None
    trick: int | None = None
    team: int | None = None
    shown: str = ""
    """The action or call at ``index`` as the request gave it (for the words only)."""

    def as_dict(self) -> WhereEntry:
        entry = WhereEntry(method=self.method, point=self.point, field=self.field)
        for key in ("hand", "index", "seat", "trick", "team"):
            value = getattr(self, key)
            if value is not None:
                entry[key] = value
        return entry


ChargeKind = Literal["answer", "call", "field", "meld items", "meld total", "point", "error"]
"""What a charge's place is: the whole answer of a case asking one question (``answer``), a call
of an auction, a field of an answer to one question, the meld items or the meld total of a meld
answer; a point of a whole hand or game (``point``); an engine error (``error``)."""

ONE_QUESTION: frozenset[ChargeKind] = frozenset(
    ("answer", "call", "field", "meld items", "meld total")
)
"""The kinds of place of a case asking one question (not a whole hand or game)."""


class ChargeEntry(TypedDict):
    """A charge as the report carries it (``Charge.as_dict``)."""

    rule: str
    also: list[str]
    at: str
    detail: NotRequired[str]
    where: NotRequired[WhereEntry]
    ambiguous: NotRequired[bool]
    kept: NotRequired[list[str]]
    kind: NotRequired[ChargeKind]
    """Absent from reports written before charges carried it (``Charge.from_dict``)."""


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
    explained_by: NotRequired[list[str]]
    """Set when every failure of the rule is one of the suspects named here (a cascade of
    them): listed after the ranked suspects as "also failing"."""
