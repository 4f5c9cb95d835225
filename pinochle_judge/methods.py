"""One record per protocol method that answers a rules question: everything the suite knows about
a method in one place, each piece named.

A record gives the method's params and result schemas, how the fields of its answer compare
(``compare``), which rules decide each field (``blame``), the area a generated table of it is
filed under, how the fuzzer asks it (its generator in ``pinochle_fuzz.questions`` and its place
in a round, or not fuzzed), the reference server's handler, the shape of its answer (how the
charging, the diagnosis, a re-based case's stop point, the capabilities' translation and the
fuzzer's blame walk it: ``Shape``) and what the house's options move in its cases (``Rebase``).
The comparison, the blame table, those walks, the fuzzer and the docs' method tables take what
they need from here; ``tests/test_methods.py`` fails naming the piece a method lacks, and a
lookup of a method or field no record knows raises ``UnknownMethod`` or ``UnknownField``
instead of falling back to a default.

Pure data: this module imports nothing of the suite but the shared vocabulary.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from specdata.vocabulary import RULE_METHODS

Kind = Literal["exact", "set", "multiset", "sequence", "melds", "given-keys"]
"""How a field compares (``compare.KINDS`` says what each means)."""

Shape = Literal["one", "meld", "legal_plays", "winner", "points", "auction", "score", "tricks",
                "hand", "game"]  # fmt: skip
"""What an answer is the record of, for the modules that walk one: each keeps a table with an
entry for every shape (``tests/test_methods.py`` names one it lacks), never a default.

- ``one``: one decision, no walk of its own: a failure is charged to the case's rule, the fuzzer
  blames the first field that differs, the question stops where it is asked;
- ``meld``: a hand's meld items (by id) and total; ``legal_plays``: the cards a seat may play;
  ``winner``: a trick's winner; ``points``: a trick's card points (with the last trick's bonus);
- ``auction``: calls judged one by one, then the auction's state; ``score``: a hand's scoring;
- ``tricks``, ``hand``, ``game``: a deal played action by action: a hand's last tricks, a whole
  hand, a whole game.

The tables: ``charges.FINDERS`` (where a failure is charged), ``diagnosis.UNTRACED`` (the same
without the reference's trace), ``rebase.STOPS`` (where an answer stops), ``pinochle_fuzz.oracle.
LIKELY`` (the rule the fuzzer blames), ``capabilities.AUCTION_IN`` (where an implicit forced bid
is left out)."""

WHOLE_SHAPES: tuple[Shape, ...] = ("hand", "game")
"""The shapes of a whole deal played through: their failures are not direct evidence of one rule,
and the house's options can change their course (``rebase``)."""
PLAYED_SHAPES: tuple[Shape, ...] = ("tricks", *WHOLE_SHAPES)
"""The shapes of a deal played action by action: their fields are the state of the hand."""


class UnknownMethod(KeyError):
    """A method no record describes."""

    def __init__(self, method: str) -> None:
        super().__init__(method)
        self.method = method

    def __str__(self) -> str:
        return (
            f"no record for method {self.method!r} in pinochle_judge/methods.py; "
            f"the rules methods are {', '.join(RULE_METHODS)}"
        )


class UnknownField(KeyError):
    """A field of an answer that its method's record does not blame on any rule."""

    def __init__(self, method: str, name: str, known: Sequence[str]) -> None:
        super().__init__(name)
        self.method, self.name, self.known = method, name, tuple(known)

    def __str__(self) -> str:
        return (
            f"{self.method} has no field {self.name!r} in its record "
            f"(pinochle_judge/methods.py); its fields are {', '.join(self.known)}"
        )


@dataclass(frozen=True)
class FieldBlame:
    """The rules deciding one field, likeliest first; a case's own rules of ``family`` (rule-ID
    prefixes) come before them, since a case tests the rule it names."""

    rules: tuple[str, ...]
    family: tuple[str, ...] = ()

    def charged(self, own: Sequence[str] = ()) -> tuple[str, ...]:
        """The rules charged: the case's own of the family first, then the table's."""
        chosen = [r for r in own if self.family and r.startswith(self.family)]
        return tuple(dict.fromkeys([*chosen, *self.rules]))


@dataclass(frozen=True)
class Fuzz:
    """How ``pinochle fuzz`` asks a method."""

    generator: str
    """The function of ``pinochle_fuzz/questions.py`` that makes its questions."""
    round: int
    """Its place in a campaign's round (0 first): a round asks each fuzzed method once, in this
    order, so a seed asks the same questions."""


@dataclass(frozen=True)
class Rebase:
    """What the house's options move in a case of a method (``rebase``); a method without one is
    asked as the case gives it."""

    dealer: bool
    """``first_bidder`` moves its dealer (so the same seats make the same calls)."""
    target: bool
    """``target`` moves its scores before the hand (each side keeps its margin to the target)."""
    numbered: bool
    """``rounds`` gives its request the hand's number."""
    replay: Literal["hand", "game"] | None
    """The deal the reference replays the house's way (a hand, each hand of a game); None: none."""


@dataclass(frozen=True)
class Method:
    """Everything the suite knows about one protocol method; every field is required."""

    name: str
    params_schema: str
    """File of ``spec/schema/protocol/`` its params are checked against."""
    result_schema: str
    """File of ``spec/schema/protocol/`` its answers are checked against."""
    compare: Mapping[str, Kind]
    """Fields that do not compare as their shape suggests (``tricks[].cards``: a path); every
    other card list is a multiset and everything else is exact."""
    fields: Mapping[str, FieldBlame]
    """Each field of its answer with the rules that decide it. A whole hand also names the parts
    of a trick (``trick leader``, ``trick cards``, ``trick winner``)."""
    refusal: str | None
    """The field that carries a refusal with its own rule (``violation``, ``first_illegal``),
    with ``legal``; None for a method that never refuses."""
    answer: FieldBlame
    """The rules charged for the answer as a whole (no object, an engine error) and for a
    refusal whose own rule does not say more."""
    area: str
    """The feature area of a table of its cases written by the fuzzer (table.schema.json)."""
    fuzz: Fuzz | None
    """How the fuzzer asks it; None: not fuzzed."""
    handler: str
    """The reference server's method that answers it (``pinochle_adapters.reference``)."""
    shape: Shape
    """What its answer is the record of: how the modules that walk an answer walk it."""
    rebase: Rebase | None
    """What the house's options move in its cases; None: nothing (asked as the case gives it)."""

    def field(self, name: str) -> FieldBlame:
        """The blame of field ``name`` of an answer; the answer's for the answer as a whole
        (``""`` or ``answer``) and for the refusal fields. Raises ``UnknownField`` otherwise."""
        if name in ("", WHOLE_ANSWER) or (self.refusal and name in (self.refusal, "legal")):
            return self.answer
        found = self.fields.get(name)
        if found is None:
            raise UnknownField(self.name, name, list(self.fields))
        return found


WHOLE_ANSWER = "answer"
"""Where a mismatch of the answer as a whole is placed (``Mismatch("answer", ...)``)."""


def _method(
    name: str,
    *,
    compare: Mapping[str, Kind],
    fields: Mapping[str, FieldBlame],
    refusal: str | None,
    answer: FieldBlame,
    area: str,
    fuzz: Fuzz | None,
    handler: str,
    shape: Shape,
    rebase: Rebase | None,
) -> Method:
    """A record whose schemas are named after the method, as every protocol schema is."""
    return Method(
        name,
        f"{name}.params.json",
        f"{name}.result.json",
        compare,
        fields,
        refusal,
        answer,
        area,
        fuzz,
        handler,
        shape,
        rebase,
    )


MELD_ITEM_RULES = (
    "MELD-RUN",
    "MELD-ROYAL-MARRIAGE",
    "MELD-MARRIAGE",
    "MELD-DIX",
    "MELD-PINOCHLE",
    "MELD-AROUNDS",
    "MELD-TENS-AROUND",
    "MELD-ROUNDHOUSE",
    "MELD-TYPES",
    "MELD-ONE-HAND",
)
"""The rules that decide a seat's meld total."""

_AUCTION_END = FieldBlame(("AUCTION-END",), ("AUCTION-",))
_SCORE = FieldBlame(("SCORE-MADE", "SCORE-SET"), ("SCORE-", "MELD-MINIMUM"))
_GAME = FieldBlame(("GAME-TARGET",), ("GAME-",))
_TRICKS = FieldBlame(("TRICK-WINNER",))
_POINTS = FieldBlame(("POINTS-COUNTERS", "POINTS-LAST-TRICK"))
_OUTCOME = FieldBlame(("SCORE-THROW-IN",))

HAND_FIELDS: dict[str, FieldBlame] = {
    "bidder": _AUCTION_END,
    "contract": _AUCTION_END,
    "trump": FieldBlame(("TRUMP-CALL",)),
    "meld": FieldBlame(MELD_ITEM_RULES, MELD_ITEM_RULES),
    "aces_around": FieldBlame(("MELD-ACES-DECLARED",)),
    # The seats' melds agree by then: the team's is their sum counted from the minimum up.
    "team_meld": FieldBlame(("MELD-MINIMUM", "MELD-ONE-HAND"), ("MELD-MINIMUM", "MELD-ONE-HAND")),
    "outcome": _OUTCOME,  # refined by ``blame.outcome_rules``
    # A hand is complete when its outcome is reached: the rules of the endings decide it.
    "complete": _OUTCOME,
    "trick leader": _TRICKS,  # the first trick's: PLAY-LEAD
    # The same actions give other cards to a trick only when the turn goes round otherwise.
    "trick cards": FieldBlame(("PLAY-TURN",)),
    "trick winner": FieldBlame(("TRICK-WINNER", "TRICK-IDENTICAL")),  # ``blame.trick_rules``
    "tricks": _TRICKS,  # tricks where none are expected (or the reverse)
    "tricks_won": _TRICKS,
    "card_points": _POINTS,  # ``blame.points_rules``
    "delta": _SCORE,
    "scores": _SCORE,
    "game_winner": _GAME,
}
"""The fields of a ``play_hand`` answer (and of a tricks entry, ``trick ...``) with the rules that
decide them; ``blame.HAND_ORDER`` is the order a hand decides them in."""

RECORDS: tuple[Method, ...] = (
    _method(
        "deal",
        compare={"violation": "given-keys"},
        fields={
            "hands": FieldBlame(("DEAL-PACKETS",)),
            "next_dealer": FieldBlame(("DEAL-ROTATION",)),
        },
        refusal="violation",
        answer=FieldBlame(("DECK-COMPOSITION",)),
        area="deck",
        fuzz=Fuzz("ask_deal", 1),
        handler="deal",
        shape="one",
        rebase=None,
    ),
    _method(
        "meld",
        compare={"melds": "melds"},
        # The items' own rules when they differ: ``blame.meld_rules``, ``blame.total_rules``.
        fields={"melds": FieldBlame(("MELD-TYPES",)), "total": FieldBlame(("MELD-TYPES",))},
        refusal=None,
        answer=FieldBlame(("MELD-TYPES",)),
        area="meld",
        fuzz=Fuzz("ask_meld", 3),
        handler="meld",
        shape="meld",
        rebase=None,
    ),
    _method(
        "legal_plays",
        compare={"cards": "set"},
        # The card's obligation when held: the fuzzer finds which (``oracle``).
        fields={"cards": FieldBlame(("PLAY-FOLLOW",))},
        refusal=None,
        answer=FieldBlame(("PLAY-FOLLOW",)),
        area="play",
        fuzz=Fuzz("ask_legal_plays", 4),
        handler="legal_plays",
        shape="legal_plays",
        rebase=None,
    ),
    _method(
        "trick_winner",
        compare={},
        fields={"winner": _TRICKS},  # TRICK-IDENTICAL with twin cards: ``blame.trick_rules``
        refusal=None,
        answer=_TRICKS,
        area="winner",
        fuzz=Fuzz("ask_trick_winner", 5),
        handler="trick_winner",
        shape="winner",
        rebase=None,
    ),
    _method(
        "card_points",
        compare={},
        fields={"points": FieldBlame(("POINTS-COUNTERS",))},  # with the last trick: LAST-TRICK
        refusal=None,
        answer=FieldBlame(("POINTS-COUNTERS",)),
        area="points",
        fuzz=Fuzz("ask_card_points", 6),
        handler="card_points",
        shape="points",
        rebase=None,
    ),
    _method(
        "auction",
        compare={"violation": "given-keys"},
        fields={
            "complete": _AUCTION_END,
            "winner": _AUCTION_END,
            "contract": _AUCTION_END,
            "next_seat": FieldBlame(("AUCTION-TURN",), ("AUCTION-TURN", "AUCTION-PASS-FINAL")),
            "min_bid": FieldBlame(("AUCTION-STEP",)),
            "can_pass": FieldBlame(("AUCTION-DEALER-FORCED",)),
        },
        refusal="violation",
        answer=FieldBlame(("AUCTION-STEP",)),
        area="auction",
        fuzz=Fuzz("ask_auction", 2),
        handler="auction",
        shape="auction",
        rebase=Rebase(dealer=True, target=False, numbered=False, replay=None),
    ),
    _method(
        "score_hand",
        compare={},
        fields={
            "made": _SCORE,
            "delta": _SCORE,
            "scores": FieldBlame(("GAME-TARGET",), ("GAME-ROUNDS", "GAME-TARGET")),
            "game_winner": _GAME,
        },
        refusal=None,
        answer=_SCORE,
        area="scoring",
        fuzz=Fuzz("ask_score_hand", 7),
        handler="score_hand",
        shape="score",
        rebase=Rebase(dealer=False, target=True, numbered=True, replay=None),
    ),
    _method(
        "play_hand",
        compare={"first_illegal": "given-keys", "tricks[].cards": "sequence", "aces_around": "set"},
        fields=HAND_FIELDS,
        refusal="first_illegal",
        answer=_OUTCOME,
        area="hands",
        fuzz=Fuzz("play_hand_question", 0),
        handler="play_hand",
        shape="hand",
        rebase=Rebase(dealer=True, target=True, numbered=True, replay="hand"),
    ),
    _method(
        "play_game",
        compare={
            "first_illegal": "given-keys",
            "hands[].first_illegal": "given-keys",
            "hands[].tricks[].cards": "sequence",
            "hands[].aces_around": "set",
        },
        fields={
            # Each hand is placed as a whole hand is (``HAND_FIELDS``), after its dealer.
            "hands": FieldBlame(("DEAL-ROTATION",)),
            "scores": FieldBlame(("SCORE-MADE", "SCORE-SET"), ("SCORE-", "GAME-")),
            "game_winner": _GAME,
            "next_dealer": FieldBlame(("DEAL-ROTATION",)),
        },
        refusal="first_illegal",
        answer=_GAME,
        area="game",
        fuzz=Fuzz("ask_play_game", 9),
        handler="play_game",
        shape="game",
        rebase=Rebase(dealer=True, target=True, numbered=False, replay="game"),
    ),
    _method(
        "play_tricks",
        compare={"first_illegal": "given-keys", "tricks[].cards": "sequence"},
        fields={"tricks": _TRICKS, "card_points": _POINTS, "tricks_won": _TRICKS},
        refusal="first_illegal",
        answer=_TRICKS,
        area="play",
        fuzz=Fuzz("ask_play_tricks", 8),
        handler="play_tricks",
        shape="tricks",
        rebase=None,
    ),
)
"""The records, in the order of ``specdata.vocabulary.RULE_METHODS``."""

BY_NAME: dict[str, Method] = {record.name: record for record in RECORDS}


def method(name: str) -> Method:
    """The record of method ``name``; ``UnknownMethod`` when there is none."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise UnknownMethod(name) from None


WHOLE_HANDS = tuple(r.name for r in RECORDS if r.shape in WHOLE_SHAPES)
"""The methods whose cases play a whole deal through (``WHOLE_SHAPES``)."""


def fuzzed() -> list[Method]:
    """The methods a fuzz round asks, in the order it asks them."""
    chosen = [r for r in RECORDS if r.fuzz is not None]
    return sorted(chosen, key=lambda r: r.fuzz.round if r.fuzz is not None else 0)
