"""A charge's kind of place is data: the diagnosis ranks on it, never on the words of ``at``; a
report written before charges carried it is read from its words (pinochle_judge/diagnosis.py)."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

from pinochle_judge import methods, wording
from pinochle_judge.charges import kind_of
from pinochle_judge.diagnosis import (
    Charge,
    Outcome,
    charge_case,
    diagnose,
    hand_divergence,
    kind_of_an_older_report,
)
from pinochle_judge.verdicts import ChargeKind, Where

RUN = {"id": "run", "count": 1, "points": 15, "suit": "h"}
ROYAL = {"id": "royal_marriage", "count": 1, "points": 4, "suit": "h"}
MARRIAGE = {"id": "marriage", "count": 1, "points": 2, "suit": "h"}
TRICKS = [
    {"leader": 0, "cards": ["Kc", "Jc", "Qc", "Tc"], "winner": 3},
    {"leader": 3, "cards": ["Ac", "Jc", "Ac", "Kc"], "winner": 3},
]
HAND: dict[str, Any] = {"legal": True, "first_illegal": None, "tricks": TRICKS}


def _charges() -> dict[ChargeKind, Charge]:
    """One charge of each kind, as the diagnosis charges failures without a trace."""
    refused = {"rule": "AUCTION-TURN", "message": "not your turn", "index": 0}
    calls = [{"seat": 0, "bid": 150}, {"seat": 1, "bid": 160}]
    wrong_trick = [TRICKS[0], {**TRICKS[1], "winner": 1}]
    hand = hand_divergence(HAND, {**HAND, "tricks": wrong_trick}, [], "SCORE-MADE")
    assert hand is not None
    score = {"bidder_team": 0, "outcome": "played"}
    found: dict[ChargeKind, Charge] = {
        "answer": charge_case("trick_winner", {}, {"winner": 1}, {"winner": 2}, "TRICK-WINNER"),
        "call": charge_case(
            "auction",
            {"calls": calls},
            {"legal": True, "next_seat": 2},
            {"legal": False, "violation": refused},
            "AUCTION-HIGHER",
        ),
        "field": charge_case(
            "score_hand", score, {"made": True}, {"made": False}, "SCORE-SET", ["SCORE-MADE"]
        ),
        "meld items": charge_case(
            "meld",
            {},
            {"total": 15, "melds": [RUN]},
            {"total": 19, "melds": [RUN, ROYAL]},
            "MELD-RUN",
        ),
        "meld total": charge_case(
            "meld", {}, {"total": 4}, {"total": 6, "melds": [ROYAL, MARRIAGE]}, "MELD-ROUNDHOUSE"
        ),
        "point": hand,
    }
    assert {k: c.kind for k, c in found.items()} == {k: k for k in found}
    return found


def _outcomes(charges: dict[ChargeKind, Charge]) -> list[Outcome]:
    """Failures of every kind, own cases passing and failing, an engine error among them."""
    out: list[Outcome] = []
    for n, (kind, charge) in enumerate(charges.items()):
        rule = charge.rules[-1]
        out += [
            Outcome(f"{kind}{i}", "failed", rule, ("MELD-MARRIAGE",), charge) for i in range(n + 1)
        ]
        out += [Outcome(f"{kind}p{i}", "passed", rule) for i in range(2)]
    out += [Outcome("m0", "failed", "MELD-MARRIAGE"), Outcome("mp0", "passed", "MELD-MARRIAGE")]
    return out


MISLEADING: dict[ChargeKind, str] = {
    "answer": "meld total",
    "call": "answer",
    "field": "answer",
    "meld items": "trick 3 winner",
    "meld total": "hand 1 seat 2 meld",
    "point": "field scores",
    "error": "answer",
}
"""Words naming another kind of place than each kind: a reader of the words goes astray."""


def _ranking(found: list[Any]) -> list[Any]:
    """The diagnosis without the words it quotes."""
    return [
        {**s, "evidence": [{k: v for k, v in ev.items() if k != "at"} for ev in s["evidence"]]}
        for s in found
    ]


def test_the_diagnosis_reads_the_kind_never_the_words() -> None:
    charges = _charges()
    honest = diagnose(_outcomes(charges))
    misled = {k: replace(c, at=MISLEADING[c.kind]) for k, c in charges.items()}
    assert _ranking(diagnose(_outcomes(misled))) == _ranking(honest)
    # The words alone would mislead it: the same charges read as an older report reads them.
    older = {k: Charge.from_dict({**c.as_dict(), "kind": None}) for k, c in misled.items()}
    assert [s["rule"] for s in diagnose(_outcomes(older))] != [s["rule"] for s in honest]


def test_an_older_report_is_read_from_its_words_as_before() -> None:
    for charge in _charges().values():
        entry = dict(charge.as_dict())
        assert Charge.from_dict(entry) == charge
        del entry["kind"]
        assert Charge.from_dict(entry) == charge
    assert kind_of_an_older_report("engine error") == "error"


def test_the_kind_of_a_traced_place_is_the_kind_its_words_name() -> None:
    # ``charges.kind_of`` reads the data ``wording.charge_at`` words: both place alike.
    places = itertools.product(
        (r.name for r in methods.RECORDS),
        ("call", "action", "meld", "team_meld", "min_bid", "total", "delta"),
        (None, 1),
        (None, 2),
        (None, 3),
        (None, 0),
    )
    for method, field, hand, index, seat, trick in places:
        where = Where(method, field, field, hand, index, seat, trick, shown="bid 150")
        assert kind_of(where) == kind_of_an_older_report(wording.charge_at(where)), where
