"""A fuzz campaign: rounds of seeded questions, each answered by the engine and the reference;
a disagreement is shrunk by Hypothesis (from the choices that found it) to a minimal case.

Only what the engine declares in ``initialize`` is asked: its variants, option values, methods.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis import strategies as st
from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes
from hypothesis.errors import NoSuchExample
from hypothesis.internal.conjecture import engine as conjecture_engine

from pinochle_adapters.client import Engine, EngineError
from pinochle_adapters.protocol import RULE_METHODS
from pytest_pinochle.compare import Mismatch
from reference_engine.variants import load_rules, variant_options

from .choices import Choose, DrawChoices, RandomChoices, ReplayChoices
from .oracle import differences, expectation, likely_rule, played_answer, reference_answer
from .questions import GENERATORS, MAX_LIMIT, Question, play_hand_question

ROUND_METHODS = (
    "play_hand",
    "deal",
    "auction",
    "meld",
    "legal_plays",
    "trick_winner",
    "card_points",
    "score_hand",
)
"""The methods a round asks, one question each (a round is one "hand" of the campaign)."""


class FuzzError(ValueError):
    """The campaign cannot start: the engine declares none of what was asked."""


@dataclass(frozen=True)
class Target:
    """A variant to ask about: options fixed by ``--option``, and the values the engine and the
    reference both know for the others (drawn at random now and then)."""

    variant: str
    fixed: Mapping[str, str]
    free: Mapping[str, Sequence[str]]


def targets(
    info: Mapping[str, Any],
    variants: Sequence[str] = (),
    options: Mapping[str, str] | None = None,
) -> list[Target]:
    """The targets an engine's ``initialize`` answer allows, restricted to ``variants`` (all the
    reference knows when empty) and with ``options`` fixed; FuzzError if none remains or a fixed
    option value is not declared."""
    fixed = dict(options or {})
    found: list[Target] = []
    for decl in info.get("variants", []):
        vid = decl.get("id")
        if variants and vid not in variants:
            continue
        try:
            known = variant_options(vid)
        except ValueError:
            continue  # a variant of the engine's own: the reference has no answers for it
        declared: Mapping[str, Sequence[str]] = decl.get("options") or {}
        bad = [
            f"{k}={v}"
            for k, v in fixed.items()
            if v not in declared.get(k, ()) or v not in known.get(k, {}).get("choices", ())
        ]
        if bad:
            raise FuzzError(f"{vid}: the engine or the reference does not declare {', '.join(bad)}")
        free = {
            name: [v for v in values if v in known[name]["choices"]]
            for name, values in sorted(declared.items())
            if name in known and name not in fixed
        }
        found.append(Target(vid, fixed, {k: v for k, v in free.items() if v}))
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
    """The options of a question: the fixed ones, and one time in four declared values of the
    others (0: the variant's defaults)."""
    options = dict(target.fixed)
    if target.free and choose(4) == 3:
        for name, values in target.free.items():
            pick = choose(len(values) + 1)
            if pick:
                options[name] = values[pick - 1]
    return options


def generate(method: str, target: Target, choose: Choose) -> Question:
    """The question ``choose`` makes for ``method`` about ``target``."""
    options = choose_options(target, choose)
    rules = load_rules(target.variant, options)
    if method == "play_hand":
        params, played, extra = play_hand_question(rules, choose)
        return Question(method, target.variant, options, params, played_answer(played, extra))
    return Question(method, target.variant, options, GENERATORS[method](rules, choose))


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
    rule: str

    @property
    def key(self) -> tuple[str, str, str]:
        """What makes two disagreements the same bug for a campaign: method, variant, rule."""
        return (self.question.method, self.question.variant, self.rule)


def check(engine: Engine, question: Question) -> Disagreement | None:
    """Ask ``engine`` and the reference; the disagreement, if any. A question the reference
    refuses (figures that cannot come from one hand) is not a disagreement."""
    try:
        expect = expectation(question.method, reference_answer(question))
    except ValueError:
        return None
    try:
        actual: Any = engine.call(question.method, question.params)
    except EngineError as err:
        actual = {"error": err.reason}
        mismatches = [Mismatch("answer", f"the engine failed to answer: {err.reason}")]
    else:
        mismatches = differences(question.method, expect, actual)
        if not mismatches:
            return None
    return Disagreement(question, expect, actual, mismatches, "")


def judged(engine: Engine, question: Question) -> Disagreement | None:
    """``check`` with the disagreement's likely rule filled in."""
    found = check(engine, question)
    if found is not None:
        found.rule = likely_rule(question, found.expect, found.actual, found.mismatches)
    return found


SHRINK_SECONDS = 10.0
"""How long Hypothesis may shrink one disagreement; it then keeps the smallest found so far."""


def shrink(
    engine: Engine,
    found: Disagreement,
    target: Target,
    choices: Sequence[int],
    bounds: Sequence[int] = (),
    seconds: float = SHRINK_SECONDS,
) -> Disagreement:
    """The smallest question Hypothesis finds, starting from the recorded ``choices`` (of these
    ``bounds``), on which the engine still disagrees with the reference about the same method
    and variant. A whole hand is first cut to its shortest failing action list
    (``shortest_cut``), so Hypothesis starts from there."""
    if found.question.method == "play_hand":
        found, choices = shortest_cut(engine, found, target, choices, bounds)
    database = InMemoryExampleDatabase()
    key = b"pinochle-fuzz"
    # One extra trailing choice: Hypothesis then sees the saved example as not yet shrunk.
    database.save(key, choices_to_bytes([*choices, 0]))
    smallest = [found]

    def same_method(question: Question) -> bool:
        other = judged(engine, question)
        if other is None or other.question.variant != found.question.variant:
            return False
        smallest[0] = other
        return True

    # Hypothesis bounds shrinking by a module constant (300 s); a campaign wants less.
    with mock.patch.object(conjecture_engine, "MAX_SHRINKING_SECONDS", seconds):
        try:
            find(
                questions(found.question.method, target),
                same_method,
                settings=settings(
                    database=database,
                    phases=[Phase.reuse, Phase.shrink],
                    deadline=None,
                    suppress_health_check=list(HealthCheck),
                    # Quiet: its advice about the time limit patched above does not apply.
                    verbosity=Verbosity.quiet,
                ),
                database_key=key,
            )
        except NoSuchExample:  # the engine no longer disagrees (a flaky engine): keep it as is
            return found
    if smallest[0].question.method == "play_hand":
        return cut_actions(engine, smallest[0])
    return smallest[0]


def cut_actions(engine: Engine, found: Disagreement) -> Disagreement:
    """The whole-hand question with its action list cut to the shortest prefix that still
    disagrees (bisection; the reference answers the cut question itself)."""
    question = found.question
    actions = question.input["actions"]
    best, low, high = found, 0, len(actions)
    while low < high:
        cut = (low + high) // 2
        shorter = dataclasses.replace(
            question, input={**question.input, "actions": actions[:cut]}, answer=None
        )
        other = judged(engine, shorter)
        if other is not None:
            best, high = other, cut
        else:
            low = cut + 1
    return best


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
        other = judged(engine, generate(found.question.method, target, replay))
        if other is not None and other.question.variant == found.question.variant:
            best, best_choices, high = other, replay.made, cut
        else:
            low = cut + 1
    return best, best_choices


# --- a campaign -------------------------------------------------------------------------------


@dataclass
class Finding:
    """A shrunk disagreement and how often its bug showed up in the campaign."""

    disagreement: Disagreement
    seen: int = 1
    path: str | None = None


@dataclass
class Report:
    """What a campaign asked and found."""

    asked: Counter[str] = field(default_factory=Counter)
    disagreed: Counter[str] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    rounds: int = 0
    seconds: float = 0.0
    shrink_seconds: float = 0.0

    @property
    def rate(self) -> float:
        """Rounds ("hands") per second, shrinking time excluded."""
        asking = self.seconds - self.shrink_seconds
        return self.rounds / asking if asking > 0 else 0.0


MAX_SHRUNK = 20
"""Distinct bugs shrunk in one campaign; further ones are only counted."""


def run(
    engine: Engine,
    targets: Sequence[Target],
    methods: Sequence[str],
    seed: int,
    *,
    hands: int | None = None,
    seconds: float | None = None,
    shrink_seconds: float = SHRINK_SECONDS,
    max_findings: int | None = None,
    on_question: Callable[[Question], None] | None = None,
    on_finding: Callable[[Finding], None] | None = None,
    on_progress: Callable[[Report], None] | None = None,
) -> Report:
    """Ask rounds of questions (one per method, the targets in turn) until ``hands`` rounds or
    ``seconds`` have passed, or ``max_findings`` bugs are shrunk. Every question's choices come
    from ``seed`` and its number, so the same seed asks the same questions."""
    report = Report()
    master = random.Random(seed)
    start = time.perf_counter()
    next_tick = start
    findings: dict[tuple[str, str, str], Finding] = {}
    raw_seen: set[tuple[str, str, str]] = set()
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
            choices = RandomChoices(master.getrandbits(64))
            question = generate(method, target, choices)
            if on_question is not None:
                on_question(question)
            report.asked[method] += 1
            found = judged(engine, question)
            if found is None:
                continue
            report.disagreed[method] += 1
            # A bug already shrunk from a disagreement like this one is only counted.
            if found.key in raw_seen or len(findings) >= MAX_SHRUNK:
                if found.key in findings:
                    findings[found.key].seen += 1
                continue
            raw_seen.add(found.key)
            began = time.perf_counter()
            smallest = shrink(engine, found, target, choices.made, choices.bounds, shrink_seconds)
            report.shrink_seconds += time.perf_counter() - began
            raw_seen.add(smallest.key)
            if smallest.key in findings:
                findings[smallest.key].seen += 1
                continue
            finding = findings[smallest.key] = Finding(smallest)
            report.findings.append(finding)
            if on_finding is not None:
                on_finding(finding)
        report.rounds += 1
    report.seconds = time.perf_counter() - start
    return report


def asked_questions(
    targets: Sequence[Target], methods: Sequence[str], seed: int, rounds: int
) -> Iterable[Question]:
    """The questions a campaign with this seed asks in its first ``rounds`` rounds."""
    master = random.Random(seed)
    for i in range(rounds):
        for method in methods:
            yield generate(method, targets[i % len(targets)], RandomChoices(master.getrandbits(64)))
