"""A fuzz campaign: rounds of seeded questions, each answered by the engine and the reference;
a disagreement is shrunk by Hypothesis (from the choices that found it, its search derandomized)
to a minimal case: the same seed and the same engine give the same reproducers, byte for byte.

Only what the engine declares in ``initialize`` is asked: its variants, option values, methods.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis import strategies as st
from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes
from hypothesis.errors import NoSuchExample

from pinochle_adapters.client import Engine, EngineError, UnsupportedReply
from pinochle_adapters.protocol import RULE_METHODS
from pinochle_adapters.reference import decisions, game_answer
from pinochle_judge import charges, methods
from pinochle_judge.capabilities import Capabilities, Skip
from pinochle_judge.capabilities import expectation as modelled
from pinochle_judge.compare import Mismatch
from pinochle_judge.engines import ModelledEngine
from pinochle_judge.house_rules import declared_options, played_options
from pinochle_judge.verdicts import Where
from reference_engine.actions import play
from reference_engine.cards import card_code, from_counts, parse_cards, suit_index, to_counts
from reference_engine.errors import PinochleError
from reference_engine.hand import HandState
from reference_engine.variants import load_rules, variant_options

from .choices import Choose, DrawChoices, RandomChoices, ReplayChoices
from .oracle import (
    differences,
    expectation,
    likely_rules,
    meld_seat,
    played_answer,
    reference_answer,
    seat_meld_question,
)
from .questions import (
    GENERATORS,
    MAX_LIMIT,
    Question,
    in_tens,
    play_game_question,
    play_hand_question,
)

ROUND_METHODS = tuple(record.name for record in methods.fuzzed())
"""The methods a round asks, one question each, in their records' order (a round is one "hand"
of the campaign)."""
OWN_STREAM = ("play_tricks", "play_game")
"""Methods whose questions draw their seeds from a stream of their own: a seed asks every other
method the same questions as before they were asked."""


def _streams(seed: int) -> Callable[[str], int]:
    """Each question's seed, by method, from ``seed`` (``OWN_STREAM``)."""
    master, own = random.Random(seed), random.Random(f"{seed}/own")
    return lambda method: (own if method in OWN_STREAM else master).getrandbits(64)


class FuzzError(ValueError):
    """The campaign cannot start: the engine declares none of what was asked."""


@dataclass(frozen=True)
class Target:
    """A variant to ask about, as the engine declared it: the option values it plays (its
    house values, and the other values it lists), and those fixed by ``--option``."""

    variant: str
    fixed: Mapping[str, str]
    declared: Mapping[str, Sequence[str]]
    """Option name -> the values the engine declares and the reference knows, its first value
    first (an option it does not declare is played at the variant's default)."""
    tens: bool = False
    """The engine keeps its figures in tens (capability ``scale: tens``): its ``score_hand``
    questions are drawn in tens (``questions.in_tens``)."""

    @property
    def free(self) -> dict[str, Sequence[str]]:
        """The options a question may vary: declared with several values and not fixed."""
        return {k: v for k, v in self.declared.items() if len(v) > 1 and k not in self.fixed}


def targets(
    info: Mapping[str, Any],
    variants: Sequence[str] = (),
    options: Mapping[str, str] | None = None,
) -> list[Target]:
    """The targets an engine's ``initialize`` answer allows, restricted to ``variants`` (all the
    reference knows when empty) and with ``options`` fixed; FuzzError if none remains, a fixed
    option value is not declared, or the engine plays only values the reference does not know."""
    fixed = dict(options or {})
    found: list[Target] = []
    for decl in info.get("variants", []):
        vid = decl.get("id") if isinstance(decl, Mapping) else None
        if not isinstance(vid, str) or (variants and vid not in variants):
            continue
        try:
            known = variant_options(vid)
        except ValueError:
            continue  # a variant of the engine's own: the reference has no answers for it
        declared = declared_options(info, vid) or {}
        bad = [
            f"{k}={v}"
            for k, v in fixed.items()
            if v not in declared.get(k, ()) or v not in known.get(k, {}).get("choices", ())
        ]
        if bad:
            raise FuzzError(f"{vid}: the engine or the reference does not declare {', '.join(bad)}")
        playable: dict[str, list[str]] = {}
        for name, values in declared.items():
            ours = [v for v in values if v in known.get(name, {}).get("choices", ())]
            if not ours:
                raise FuzzError(
                    f"{vid}: the engine plays {name}={'|'.join(values)}, which the reference "
                    "does not know"
                )
            playable[name] = ours
        tens = Capabilities.declared(info).scale == "tens"
        found.append(Target(vid, fixed, playable, tens))
    if not found:
        raise FuzzError(f"the engine declares none of the variants asked for: {list(variants)}")
    return found


def declared_methods(info: Mapping[str, Any], wanted: Sequence[str] = ()) -> list[str]:
    """The methods of a round the engine declares (and, if given, of ``wanted``)."""
    have = set(info.get("methods", [])) & set(RULE_METHODS)
    methods = [m for m in ROUND_METHODS if m in have and (not wanted or m in wanted)]
    if not methods:
        raise FuzzError("the engine declares none of the methods asked for")
    return methods


# --- one question -----------------------------------------------------------------------------


def choose_options(target: Target, choose: Choose) -> dict[str, str]:
    """The options a question is asked under: what the engine plays (``played_options``, the
    suite's own rule) when it wants the fixed values and, for each option it declares several
    values of, one of them (0: its first)."""
    wanted = {k: v[0] for k, v in target.declared.items()}
    wanted.update(target.fixed)
    for name, values in target.free.items():
        wanted[name] = values[choose(len(values))]
    declared = tuple((k, tuple(v)) for k, v in target.declared.items())
    return dict(_sent(target.variant, declared, tuple(sorted(wanted.items()))))


@lru_cache(maxsize=4096)
def _sent(
    variant: str,
    declared: tuple[tuple[str, tuple[str, ...]], ...],
    wanted: tuple[tuple[str, str], ...],
) -> dict[str, str]:
    lists = {k: list(v) for k, v in declared}
    return played_options(lists, variant, dict(wanted))[0]


def generate(method: str, target: Target, choose: Choose) -> Question:
    """The question ``choose`` makes for ``method`` about ``target``."""
    options = choose_options(target, choose)
    rules = load_rules(target.variant, options)
    shape = methods.method(method).shape
    if shape == "hand":
        params, played, extra = play_hand_question(rules, choose)
        return Question(method, target.variant, options, params, played_answer(played, extra))
    if shape == "game":
        # The reference's answer read from the hands the generator played, not replayed.
        params, hands = play_game_question(rules, choose)
        start = (params["scores"][0], params["scores"][1])
        answer = dict(game_answer(hands, None, start))
        return Question(method, target.variant, options, params, answer)
    params = GENERATORS[method](rules, choose)
    if target.tens and method == "score_hand":
        params = in_tens(rules, params)
    return Question(method, target.variant, options, params)


def questions(method: str, target: Target) -> st.SearchStrategy[Question]:
    """The questions of ``method`` about ``target`` as a Hypothesis strategy (for shrinking and
    for HypoFuzz); the same generator as a campaign's, so recorded choices replay."""

    @st.composite
    def strategy(draw: st.DrawFn) -> Question:
        return generate(method, target, DrawChoices(draw))

    return strategy()


@dataclass
class Disagreement:
    """A question the engine answers otherwise than the reference."""

    question: Question
    expect: dict[str, Any]
    actual: Any
    mismatches: list[Mismatch]
    rules: tuple[str, ...] = ()
    """The rules it is charged to, likeliest first."""
    where: Where | None = None
    """Where the answers part (the charge's place), when the reference's trace placed it."""

    @property
    def rule(self) -> str:
        """The rule it is charged to: the rule deciding the first point where the answers
        part."""
        return self.rules[0] if self.rules else ""

    @property
    def key(self) -> str:
        """What makes two disagreements the same deviation for a campaign: the rule that
        decided the point where the engine's answer and the reference's first part, whatever
        the variant, method, deal or kind of point it was reached through (an opening minimum
        seen as a refused call and as a wrong least bid is one deviation); the method's name
        where no rule was charged."""
        return self.rule or self.question.method

    @property
    def size(self) -> int:
        """How large its question is (the smaller reproducer of one deviation is kept)."""
        return len(json.dumps(self.question.input, sort_keys=True, default=str))


@dataclass(frozen=True)
class Skipped:
    """A question the engine's declared model has no call for, or that it answers
    "unsupported" (-32001): not a disagreement."""

    reason: str


def ask(engine: Engine, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """The engine's answer in the model the questions are written in, asked as the suite asks
    a case (``pinochle_judge.engines.ModelledEngine``): the request translated into the
    capabilities it declared and its answer read back; raises ``capabilities.Skip`` for a
    question its model has no call for."""
    return ModelledEngine(engine).call(method, params)


@dataclass(frozen=True)
class Errored:
    """A question the engine failed to answer (a crash, a hang, a reply that breaks the
    protocol): an engine fault, counted apart, never charged to a rule nor written as a case."""

    reason: str


def check(engine: Engine, question: Question) -> Disagreement | Skipped | Errored | None:
    """Ask ``engine`` and the reference; the disagreement, if any. A question the reference
    refuses (figures that cannot come from one hand) is not a disagreement, nor is one the
    engine answers "unsupported" or its model cannot be asked (``Skipped``), nor one it fails to
    answer at all (``Errored``)."""
    try:
        expect = expectation(question.method, reference_answer(question))
    except ValueError:
        return None
    try:
        # In the engine's declared model, as the suite judges it (points: none, no points;
        # scale: tens, no answer off the tens).
        expect = modelled(question.method, "", expect, Capabilities.declared(engine.info))
    except Skip as err:
        return Skipped(str(err))
    try:
        actual: Any = ask(engine, question.method, question.params)
    except Skip as err:
        return Skipped(str(err))
    except UnsupportedReply as err:
        return Skipped(f"unsupported: {err.reason}")
    except EngineError as err:
        return Errored(err.reason)
    mismatches = differences(question.method, expect, actual)
    if not mismatches:
        return None
    return Disagreement(question, expect, actual, mismatches)


def judged(engine: Engine, question: Question) -> Disagreement | Skipped | Errored | None:
    """``check`` with the disagreement charged as the suite charges a failed case
    (``pinochle_judge.charges``): to the rules that decided the first point where the engine's
    answer and the reference's part, read from the reference's trace of the question. Where the
    trace places nothing, the blame table's rules."""
    found = check(engine, question)
    if not isinstance(found, Disagreement):
        return found
    actual = found.actual if isinstance(found.actual, Mapping) else {}
    method, params = question.method, question.params
    charge = charges.charge(method, params, found.expect, actual, decisions(method, params), "")
    if charge.where is not None:
        found.rules, found.where = charge.rules, charge.where
    else:
        found.rules = likely_rules(question, found.expect, found.actual, found.mismatches)
    if charge.where is None or charge.ambiguous or charge.where.field in ("meld", "team_meld"):
        # A seat's meld total: the engine's own items of that hand, when it gives them, say
        # which meld better than the worth of the difference.
        found.rules = _own_items(engine, question, found)
    elif _carried_over(engine, question, charge.where):
        # Asked afresh from the start of that trick, the engine agrees: what parts is the state
        # it carried from the tricks before (the turn, the trick in play), not the obligation.
        found.rules = tuple(dict.fromkeys(("PLAY-TURN", "PLAY-LEAD", *found.rules)))
    return found


def _hand_of(question: Question, hand: int | None) -> Question:
    """Hand ``hand`` of a game question as a whole-hand question (its meld does not depend on
    the scores carried to it); any other question as it is."""
    if question.method != "play_game" or hand is None:
        return question
    given = question.input
    hands = {
        "dealer": (int(given["dealer"]) + hand) % 4,
        "scores": [0, 0],
        "hands": given["hands"][hand],
        "actions": given["actions"][hand],
    }
    return Question("play_hand", question.variant, question.options, hands)


def _carried_over(engine: Engine, question: Question, where: Where) -> bool:
    """Whether the engine, asked the tricks afresh from the start of the trick where its answer
    parts from the reference's (a trick after the first), agrees with the reference there."""
    index = where.index if where.index is not None else (where.trick or 0) * 4
    first = index // 4
    end = index + 1 if where.index is not None else index + 4  # the play, or the whole trick
    if question.method != "play_tricks" or first == 0:
        return False
    given = question.input
    rules = load_rules(question.variant, question.options)
    trump = suit_index(str(given["trump"]))
    hands = [to_counts(parse_cards(h)) for h in given["hands"]]
    plays = parse_cards(given["plays"])
    state = HandState.at_trick_play(rules, trump, int(given["leader"]), hands)
    try:
        for card in plays[: 4 * first]:
            state.apply(play(card))
    except PinochleError:
        return False
    assert state.leader is not None
    afresh = Question(
        "play_tricks",
        question.variant,
        question.options,
        {
            "trump": given["trump"],
            "leader": state.leader,
            "hands": [[card_code(c) for c in from_counts(h)] for h in state.held],
            "plays": [card_code(c) for c in plays[4 * first : end]],
        },
    )
    return check(engine, afresh) is None


def _own_items(engine: Engine, question: Question, found: Disagreement) -> tuple[str, ...]:
    """A seat's meld total is wrong and the rules that may explain it are named alike: the
    engine's own items of that hand (when it declares ``meld``) say which meld, first."""
    where = found.where
    seat: int | None
    if where is not None and where.field == "meld" and where.seat is not None:
        seat, question = where.seat, _hand_of(question, where.hand)
    else:
        seat = meld_seat(question, found.expect, found.actual)  # placed by the blame table
    methods = (engine.info or {}).get("methods", [])
    asked = seat_meld_question(question, seat) if seat is not None else None
    if asked is not None and "meld" in methods:
        items = judged(engine, asked)
        if isinstance(items, Disagreement):
            return tuple(dict.fromkeys([*items.rules, *found.rules]))
    return found.rules


def disagreement(engine: Engine, question: Question) -> Disagreement | None:
    """``judged``, a skipped question counted as no disagreement."""
    found = judged(engine, question)
    return found if isinstance(found, Disagreement) else None


SHRINK_SECONDS = 5.0
"""How long Hypothesis may shrink one disagreement by default; it then keeps the smallest found
so far."""


DERANDOMIZED = settings(derandomize=True)
"""The parent of the shrinking settings: Hypothesis's search draws from a fixed seed, so the same
recorded choices and the same answers shrink to the same reproducer on every run. (Given
directly with a database, ``derandomize`` is refused; inherited, it only fixes the seed.)"""


@dataclass(frozen=True)
class ShrinkBudget:
    """How much shrinking one disagreement may ask of the engine: a number of questions, a
    number of questions in a row that found no smaller reproducer, and/or seconds. Bounded by
    counts alone (``seconds=None``, or seconds never reached), a campaign is reproducible to the
    byte: the same seed and the same engine give the same reproducers (Hypothesis's search is
    derandomized)."""

    questions: int | None = 300
    seconds: float | None = SHRINK_SECONDS
    stall: int | None = 80
    """Questions in a row that found no smaller question (``Disagreement.size``) after which
    shrinking stops: past that, Hypothesis mostly rewrites a reproducer of the same size into
    simpler choices, at a growing cost per question."""


def shrink(
    engine: Engine,
    found: Disagreement,
    target: Target,
    choices: Sequence[int],
    bounds: Sequence[int] = (),
    budget: ShrinkBudget = ShrinkBudget(),
) -> Disagreement:
    """The smallest question (``Disagreement.size``) Hypothesis finds, starting from the
    recorded ``choices`` (of these ``bounds``), on which the engine still disagrees with the
    reference about the same rule (``Disagreement.key``): each distinct rule keeps its own
    reproducer. A whole hand is cut to its shortest failing action list (``shortest_cut``), a
    whole game to the hand where the answers part (``cut_game``), without Hypothesis.

    Hypothesis's search is derandomized: the same choices and the same engine's answers give
    the same reproducer. Once the budget is spent every new candidate is refused without asking
    the engine, so Hypothesis stops at the smallest example accepted so far; no Hypothesis
    setting is patched.
    """
    shape = methods.method(found.question.method).shape
    if shape == "hand":
        # A whole hand is its shortest failing action list: Hypothesis would regenerate whole
        # hands for thousands of candidates once the budget is spent, to little gain.
        found, choices = shortest_cut(engine, found, target, choices, bounds)
        return cut_actions(engine, found)
    if shape == "game":
        return cut_game(engine, found)
    database = InMemoryExampleDatabase()
    key = b"pinochle-fuzz"
    # One extra trailing choice: Hypothesis then sees the saved example as not yet shrunk.
    database.save(key, choices_to_bytes([*choices, 0]))
    smallest = [found]
    accepted: set[str] = set()
    asked = [0]
    stalled = [0]  # questions asked since the smallest reproducer last shrank
    began = time.perf_counter()

    def spent() -> bool:
        if budget.questions is not None and asked[0] >= budget.questions:
            return True
        if budget.stall is not None and stalled[0] >= budget.stall:
            return True
        return budget.seconds is not None and time.perf_counter() - began >= budget.seconds

    def same_bug(question: Question) -> bool:
        text = json.dumps(question.params, sort_keys=True)
        if text in accepted:
            return True  # Hypothesis replays the example it keeps: the same verdict
        if spent():
            # Refusing each later candidate is not enough: Hypothesis would go on drawing them
            # for minutes. A BaseException is not a test failure to it: it ends the search.
            raise _Spent
        asked[0] += 1
        stalled[0] += 1
        other = disagreement(engine, question)
        if other is None or other.key != found.key:
            return False
        accepted.add(text)
        if other.size < smallest[0].size:
            stalled[0] = 0
        if other.size <= smallest[0].size:
            smallest[0] = other  # of one size, the later: simpler choices
        return True

    try:
        find(
            questions(found.question.method, target),
            same_bug,
            settings=settings(
                DERANDOMIZED,
                database=database,
                phases=[Phase.reuse, Phase.shrink],
                deadline=None,
                suppress_health_check=list(HealthCheck),
                verbosity=Verbosity.quiet,
            ),
            database_key=key,
        )
    except NoSuchExample:  # the engine no longer disagrees (a flaky engine): keep it as is
        return found
    except _Spent:  # the budget is spent: the smallest accepted so far
        pass
    return _cut_calls(engine, smallest[0])


def _cut_calls(engine: Engine, found: Disagreement) -> Disagreement:
    """An auction cut after the call where the answers part, when it still parts there the same
    way: the calls after it say nothing about the deviation."""
    calls, where = found.question.input.get("calls"), found.where
    if found.question.method != "auction" or where is None or where.index is None:
        return found
    if not isinstance(calls, list) or where.index + 1 >= len(calls):
        return found
    other = _same(engine, found, {**found.question.input, "calls": calls[: where.index + 1]})
    return other if other is not None else found


class _Spent(BaseException):
    """Raised inside Hypothesis's search once the shrink budget is spent, to end it at once."""


def _same(engine: Engine, found: Disagreement, given: dict[str, Any]) -> Disagreement | None:
    """The disagreement on ``found``'s question with input ``given`` (the reference answers it
    afresh), if it is the same deviation."""
    other = disagreement(engine, dataclasses.replace(found.question, input=given, answer=None))
    return other if other is not None and other.key == found.key else None


def cut_actions(engine: Engine, found: Disagreement) -> Disagreement:
    """The whole-hand question with its action list (a game's: its last hand's) cut to the
    shortest prefix that still disagrees (bisection; the reference answers the cut question
    itself)."""
    given = found.question.input
    game = methods.method(found.question.method).shape == "game"
    actions = given["actions"][-1] if game else given["actions"]
    best, low, high = found, 0, len(actions)
    while low < high:
        cut = (low + high) // 2
        kept = [*given["actions"][:-1], actions[:cut]] if game else actions[:cut]
        other = _same(engine, found, {**given, "actions": kept})
        if other is not None:
            best, high = other, cut
        else:
            low = cut + 1
    return best


def cut_game(engine: Engine, found: Disagreement) -> Disagreement:
    """A game question cut to the hand where the answers part (the last when the charge does not
    say): that hand alone, dealt first in a game from the scores carried to it, or failing that
    the game up to it; then its action list cut (``cut_actions``)."""
    given = found.question.input
    hands, lists = given["hands"], given["actions"]
    where = found.where
    hand = where.hand if where is not None and where.hand is not None else len(hands) - 1
    if not 0 <= hand < len(hands):
        return found
    candidates = []
    before = found.expect.get("hands") or []
    carried = before[hand - 1].get("scores") if 0 < hand <= len(before) else None
    if hand > 0 and isinstance(carried, list):
        dealer = (int(given["dealer"]) + hand) % 4
        alone = {"hands": [hands[hand]], "actions": [lists[hand]]}
        candidates.append({**given, "dealer": dealer, "scores": carried, **alone})
    if hand + 1 < len(hands):
        candidates.append({**given, "hands": hands[: hand + 1], "actions": lists[: hand + 1]})
    best = found
    for cut in candidates:
        other = _same(engine, found, cut)
        if other is not None:
            best = other
            break
    return cut_actions(engine, best)


def shortest_cut(
    engine: Engine,
    found: Disagreement,
    target: Target,
    choices: Sequence[int],
    bounds: Sequence[int],
) -> tuple[Disagreement, list[int]]:
    """The same hand cut after the fewest actions that still disagree (found by bisection on
    the cut, the choice of bound ``MAX_LIMIT``), and the choices that make it."""
    if MAX_LIMIT not in bounds:
        return found, list(choices)
    at = list(bounds).index(MAX_LIMIT)
    best, best_choices = found, list(choices)
    low, high = 0, len(found.question.input["actions"])
    while low < high:
        cut = (low + high) // 2
        replay = ReplayChoices([*choices[:at], cut, *choices[at + 1 :]])
        other = disagreement(engine, generate(found.question.method, target, replay))
        if other is not None and other.key == found.key:
            best, best_choices, high = other, replay.made, cut
        else:
            low = cut + 1
    return best, best_choices


# --- a campaign -------------------------------------------------------------------------------


DEALT = ("hand", "game")
"""Shapes of questions that hold a whole deal (a game's first hand at least) however shrunk."""


def least_size(question: Question) -> int:
    """A floor under the size of any question shrinking can make from ``question``
    (``Disagreement.size``): a whole hand or game keeps a whole deal, the variant's deck in four
    hands, whose text is as long in every deal."""
    shape = methods.method(question.method).shape
    if shape not in DEALT:
        return 0
    hands = question.input["hands"]
    deal = hands[0] if shape == "game" else hands
    return len(json.dumps(deal, sort_keys=True, default=str))


@dataclass
class Finding:
    """A shrunk disagreement and how often its rule was charged in the campaign."""

    disagreement: Disagreement
    seen: int = 1
    path: str | None = None
    rounds: int = 0
    """The rounds asked when it was first seen (its round number, from 1)."""
    seconds: float = 0.0
    """The campaign's seconds when it was first seen (shrinking before it included)."""


@dataclass
class Report:
    """What a campaign asked and found."""

    asked: Counter[str] = field(default_factory=Counter)
    disagreed: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    """Questions per method the engine answered "unsupported" or its model cannot be asked."""
    errored: Counter[str] = field(default_factory=Counter)
    """Questions per method the engine failed to answer (``Errored``)."""
    faults: list[str] = field(default_factory=list)
    """The first few reasons it failed (MAX_FAULTS)."""
    rules: Counter[tuple[str, str]] = field(default_factory=Counter)
    """Disagreements per (variant, rule) they are charged to (a finding is one deviation in
    any variant: ``Disagreement.key``)."""
    findings: list[Finding] = field(default_factory=list)
    rounds: int = 0
    seconds: float = 0.0
    shrink_seconds: float = 0.0

    @property
    def rate(self) -> float:
        """Rounds ("hands") per second, shrinking time excluded."""
        asking = self.seconds - self.shrink_seconds
        return self.rounds / asking if asking > 0 else 0.0


MAX_FAULTS = 3
"""Engine faults whose reason a campaign keeps."""
MAX_SHRUNK = 20
"""Distinct rules shrunk in one campaign; further ones are only counted."""


def run(
    engine: Engine,
    targets: Sequence[Target],
    methods: Sequence[str],
    seed: int,
    *,
    hands: int | None = None,
    seconds: float | None = None,
    shrink_budget: ShrinkBudget = ShrinkBudget(),
    max_findings: int | None = None,
    on_question: Callable[[Question], None] | None = None,
    on_finding: Callable[[Finding], None] | None = None,
    on_progress: Callable[[Report], None] | None = None,
) -> Report:
    """Ask rounds of questions (one per method, the targets in turn) until ``hands`` rounds or
    ``seconds`` have passed, or ``max_findings`` rules have their reproducer. Every question's
    choices come from ``seed`` and its number, so the same seed asks the same questions.

    Each disagreement is charged to the rule deciding the point where the answers part
    (``Disagreement.key``); the first of each deviation is shrunk to its reproducer, later ones
    are counted on it. Met again in another variant or through another method, it is shrunk
    there too and the smaller reproducer kept (``on_finding`` is called again with it)."""
    report = Report()
    seed_of = _streams(seed)
    start = time.perf_counter()
    next_tick = start
    findings: dict[str, Finding] = {}
    shrunk: defaultdict[str, set[tuple[str, str]]] = defaultdict(set)
    """The variants and methods whose first disagreement of each deviation was shrunk."""
    while True:
        now = time.perf_counter()
        if hands is not None and report.rounds >= hands:
            break
        if seconds is not None and now - start >= seconds:
            break
        if max_findings is not None and len(findings) >= max_findings:
            break
        if on_progress is not None and now >= next_tick:
            report.seconds = now - start
            on_progress(report)
            next_tick = now + 0.2
        target = targets[report.rounds % len(targets)]
        for method in methods:
            if seconds is not None and time.perf_counter() - start >= seconds:
                break  # a round of slow answers (an engine that hangs) keeps to the time too
            choices = RandomChoices(seed_of(method))
            question = generate(method, target, choices)
            if on_question is not None:
                on_question(question)
            report.asked[method] += 1
            found = judged(engine, question)
            if isinstance(found, Skipped):
                report.skipped[method] += 1
                continue
            if isinstance(found, Errored):
                report.errored[method] += 1
                if len(report.faults) < MAX_FAULTS:
                    report.faults.append(f"{method}: {found.reason}")
                continue
            if found is None:
                continue
            report.disagreed[method] += 1
            report.rules[(question.variant, found.rule)] += 1
            known = findings.get(found.key)
            if known is not None:
                known.seen += 1
                if (question.variant, method) in shrunk[found.key]:
                    continue
                if least_size(question) >= known.disagreement.size:
                    continue  # no shrinking would make it the smaller reproducer
            elif len(findings) >= MAX_SHRUNK:
                continue
            shrunk[found.key].add((question.variant, method))
            began = time.perf_counter()
            budget = shrink_budget
            if seconds is not None and budget.seconds is not None:
                # Shrinking keeps to the campaign's time too (at least a second per rule).
                left = max(seconds - (began - start), 1.0)
                budget = dataclasses.replace(budget, seconds=min(budget.seconds, left))
            smallest = shrink(engine, found, target, choices.made, choices.bounds, budget)
            report.shrink_seconds += time.perf_counter() - began
            if known is not None:
                # The same deviation met in another variant or method: the smaller is kept.
                if smallest.size < known.disagreement.size:
                    known.disagreement = smallest
                    if on_finding is not None:
                        on_finding(known)
                continue
            finding = findings[found.key] = Finding(
                smallest, rounds=report.rounds + 1, seconds=time.perf_counter() - start
            )
            report.findings.append(finding)
            if on_finding is not None:
                on_finding(finding)
        report.rounds += 1
    report.seconds = time.perf_counter() - start
    return report


def run_declared(engine: Engine, seed: int, **options: Any) -> Report:
    """``run`` over everything the started engine declares: every variant with its declared
    option values, every method of a round (``options``: ``run``'s keyword options)."""
    assert engine.info is not None, "the engine is started (initialize answered)"
    return run(engine, targets(engine.info), declared_methods(engine.info), seed, **options)


def asked_questions(
    targets: Sequence[Target], methods: Sequence[str], seed: int, rounds: int
) -> Iterable[Question]:
    """The questions a campaign with this seed asks in its first ``rounds`` rounds."""
    seed_of = _streams(seed)
    for i in range(rounds):
        for method in methods:
            yield generate(method, targets[i % len(targets)], RandomChoices(seed_of(method)))
