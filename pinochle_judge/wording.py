"""The one place the suite words a verdict on an engine: a mismatch, a table case's or a scenario's
failure (both show a mismatch alike), a Then step's sentence, a skip reason, a derived expectation,
a charge, the diagnosis, the run's summary, a known failure.

Functions take structured values and return text; no other module words a failure
(``tests/test_wording.py``). Not here: faults in the suite's own data, worded beside the checks
that find them, and an engine's misbehaviour (``EngineError``), worded by the client in
``pinochle_adapters``, a lower layer. Cards, suits and melds are shown by ``notation``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from . import methods, notation

if TYPE_CHECKING:
    from .cases import Case
    from .counts import Count
    from .verdicts import SuspectEntry, Where

# --- one mismatch (compare) -------------------------------------------------------------------


def at(where: str, text: str) -> str:
    """A mismatch with the place it is found: ``tricks[0].cards: expected ...``."""
    return f"{where}: {text}"


def _listed(value: object) -> str:
    """A list of card codes as codes (``Kc Jc``, ``nothing``); anything else as its repr."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value) if value else "nothing"
    return repr(value)


def missing(want: object) -> str:
    """A field the answer left out."""
    return f"expected {want!r}, missing from the answer"


def not_expected(got: object) -> str:
    """A key of an answered object that the expected object does not have."""
    return f"not expected, got {got!r}"


def differs(want: object, got: object) -> str:
    """Two values that are not equal."""
    return f"expected {want!r}, got {got!r}"


def length_differs(want: Sequence[object], got: Sequence[object]) -> str:
    """Two lists of different lengths (compared exactly)."""
    return f"expected {len(want)} items {want!r}, got {len(got)} {got!r}"


def out_of_order(want: object, got: object) -> str:
    """A sequence whose items or order differ."""
    return f"expected {_listed(want)} in this order, got {_listed(got)}"


def set_differs(
    lacking: Sequence[object], extra: Sequence[object], want: object, got: object
) -> str:
    """A set or multiset with items missing and/or unexpected."""
    parts = []
    if lacking:
        parts.append(f"missing {_listed(list(lacking))}")
    if extra:
        parts.append(f"unexpected {_listed(list(extra))}")
    return f"{'; '.join(parts)} (expected {_listed(want)}, got {_listed(got)})"


def not_melds(want: object, got: object) -> str:
    """A meld list that is not a list on one side."""
    return f"expected a list of melds {want!r}, got {got!r}"


def melds_worth(worth: int, total: int | None) -> str:
    """Expected meld items whose points do not add up to a totals-only engine's total."""
    return f"the expected items are worth {worth}; the engine (meld totals only) counts {total}"


def melds_differ(
    lacking: Sequence[Mapping[str, object]], extra: Sequence[Mapping[str, object]]
) -> str:
    """Meld entries expected but not reported, and reported but not expected ("" if none)."""
    parts = []
    if lacking:
        parts.append("missing " + ", ".join(notation.meld(m) for m in lacking))
    if extra:
        parts.append("unexpected " + ", ".join(notation.meld(m) for m in extra))
    return "; ".join(parts)


def item_count(want: int, got: object) -> str:
    """A list of another length than an exported record's check requires (or not a list)."""
    return f"expected {want} items, got {len(got) if isinstance(got, list) else repr(got)}"


def not_a_meld_list(got: object) -> str:
    """A meld field that is not a list, where an exported record's check looks for melds."""
    return f"expected a list of melds, got {got!r}"


def meld_missing(entry: object) -> str:
    """A meld entry an exported record's check requires, not reported."""
    return f"missing {entry!r}"


def mismatch_lines(mismatches: Iterable[object]) -> str:
    """The mismatches block of a failure, the same for a table case and a scenario."""
    return "\n  mismatches:\n" + "\n".join(f"    - {m}" for m in mismatches)


# --- a failed table case (tables) -------------------------------------------------------------

WRONG_ANSWER = "wrong answer in"
"""The headline of a failure: the engine answered, but not what the rules require."""
ENGINE_ERROR = "engine error in"
"""The headline of an engine's fault (its text is the client's, ``EngineError``)."""


def request_shown(line: str | None) -> str:
    """The line ending a failure: the exact request sent, to paste into the engine."""
    return f"\n  request: {line}" if line else ""


def rules_line(variant: str | None, options: Mapping[str, object]) -> str:
    """Which rules a question was put under."""
    return f"  rules: {variant} ({notation.options(options)})"


def field_lines(method: str, kind: str, values: Mapping[str, object]) -> list[str]:
    """Fields of a request (kind ``params``) or answer (``result``), one per line."""
    return [f"    {k}: {notation.value(method, kind, k, v)}" for k, v in values.items()]


def case_text(
    headline: str,
    case: Case,
    expected: Mapping[str, object],
    answer: Mapping[str, object] | None,
    house: str = "",
    derived: str | None = None,
) -> str:
    """A table case in the game's language: rules, question, expected and actual answer.

    ``house``: the options the engine plays in place of the case's; ``derived``: why the
    expectation is derived rather than hand-worked (None when it is hand-worked). A derived
    case says what the house options changed (the hand-worked fields it replaced), not the
    hand-worked reasoning, which is about another answer.
    """
    method, why = case.method, case.why
    lines = [
        f"{headline} {case.id} ({case.where})",
        rules_line(case.variant, case.options)
        + "; tests "
        + case.rule
        + (" (where the rule refuses or denies)" if case.negative else "")
        + (f", using {', '.join(case.uses)}" if case.uses else ""),
        f"  asked {method}:",
        *field_lines(method, "params", case.params),
    ]
    if house:
        lines.append(f"  played under the engine's options: {house}")
    if derived is not None:
        lines.append(f"  expected (DERIVED, not hand-worked: {derived}):")
    else:
        lines.append("  expected:")
    lines += field_lines(method, "result", expected)
    if answer is not None:
        lines.append("  engine answered:")
        lines += field_lines(method, "result", {k: answer[k] for k in expected if k in answer})
    if derived is not None:
        lines += house_changed(method, case.expect, expected)
    elif why:
        lines.append(f"  why: {why}")
    return "\n".join(lines)


def house_changed(
    method: str, hand_worked: Mapping[str, object], judged: Mapping[str, object]
) -> list[str]:
    """The hand-worked fields a derived expectation replaced, as lines: what the house options
    changed (the hand-worked answer's reasoning holds for the case's own options only)."""
    changed = {k: v for k, v in hand_worked.items() if k in judged and judged[k] != v}
    if not changed:
        return []
    return [
        "  the house options changed the hand-worked answer (not judged here):",
        *("  " + line for line in field_lines(method, "result", changed)),
    ]


def case_failed(description: str, mismatches: Iterable[object], request: str | None) -> str:
    """A wrong answer to a table case: the case, its mismatches, the request line."""
    return description + mismatch_lines(mismatches) + request_shown(request)


def case_engine_error(description: str, error: object, request: str | None) -> str:
    """An engine's fault in a table case: the case, the client's words, the request line."""
    return description + f"\n  engine error: {error}" + request_shown(request)


# --- a failed scenario (driver, report) -------------------------------------------------------

NO_VARIANT = (
    "the scenario has no variant: give it one variant tag (a variant of spec/variants), or a "
    "variant column in its Examples when it has several"
)
SEATS_TABLE = (
    'the seats hold: give a table with the header row "| seat | cards |" and a row per seat'
)
NO_HAND = 'the scenario holds no hand: add "seat <n> holds ..."'
NO_QUESTION = "no question was put to the engine: add a When step"


def hands_missing(seats: Sequence[int]) -> str:
    """A whole hand asked before every seat holds cards."""
    return f"play_hand needs all four hands; no hand for seats {list(seats)}"


def no_field(key: str) -> str:
    """An answer without a field a Then step reads."""
    return f"the engine's answer has no {key!r}"


def scenario_context(
    variant: str | None,
    options: Mapping[str, object],
    method: str | None,
    params: Mapping[str, object],
    answer: Mapping[str, object],
) -> str:
    """The question and answer of a scenario, for the end of its failure (as a table case
    shows them: one field per line)."""
    lines = ["", rules_line(variant, options)]
    if method:
        asked = {k: v for k, v in params.items() if k not in ("variant", "options")}
        lines += [f"  asked {method}:", *field_lines(method, "params", asked)]
        lines += ["  engine answered:", *field_lines(method, "result", answer)]
    return "\n".join(lines)


def scenario_failed(sentence: str, context: str, mismatches: Sequence[object] = ()) -> str:
    """A Then step that does not hold: its sentence, the situation, and the mismatches of the
    suite's comparison (as a table case shows them)."""
    return sentence + context + (mismatch_lines(mismatches) if mismatches else "")


def scenario_report(headline: str, title: str, text: object, request: str | None) -> str:
    """A scenario's failure or engine fault as the report shows it."""
    return f"{headline} {title}\n{text}{request_shown(request)}"


# --- Then steps (features/steps/then.py): each says what the rules require, then what the
# engine answered; the step's mismatches follow it (``scenario_failed``).


def meld_total(want: object, got: object) -> str:
    return f"the meld should total {want}, the engine counts {got}"


def meld_includes(entry: Mapping[str, object]) -> str:
    return f"the meld should include {notation.meld(entry)}"


def melds_named_worth(sentence: str, worth: int, total: int | None) -> str:
    """``meld_includes`` against an engine reporting meld totals only."""
    return (
        f"{sentence}: the items named so far are worth {worth}, more than the engine's "
        f"total {total} (it reports meld totals only)"
    )


def melds_unexpected(extra: Iterable[Mapping[str, object]]) -> str:
    return "the engine counts melds the rules do not: " + ", ".join(map(notation.meld, extra))


def legal_plays(hand: Sequence[str], want: Sequence[str], got: Sequence[str]) -> str:
    return (
        f"with {notation.cards(hand)} in hand the rules allow "
        f"{notation.cards(sorted(set(want)))}; the engine allows {notation.cards(sorted(got))}"
    )


def trick_winner(trick: Sequence[str], which: str, want: int, got: object) -> str:
    shown = notation.card(trick[got]) if isinstance(got, int) and 0 <= got < len(trick) else got
    return (
        f"in the trick {notation.cards(trick)} the {which} card ({notation.card(trick[want])}) "
        f"wins; the engine says card {got} ({shown})"
    )


def card_points(want: object, got: object) -> str:
    return f"the cards are worth {want}; the engine counts {got}"


def seat_dealt(seat: int, want: Sequence[str], got: Sequence[str] | None) -> str:
    return (
        f"seat {seat} should be dealt {notation.cards(want)}; "
        f"the engine deals {notation.cards(got or [])}"
    )


def hand_sizes(size: object, sizes: object) -> str:
    return f"each seat should hold {size} cards; the engine deals {sizes}"


def next_dealer(want: object, got: object) -> str:
    return f"seat {want} deals next; the engine says seat {got}"


THIS_DECK = "this deck"
LAST_CALL = "the last call"


def action(index: int) -> str:
    """An action of a whole hand, by its index from 0."""
    return f"action {index}"


def refused(what: str, rule: object, legal: object, key: str, got: object) -> str:
    """A deck, call or action (``THIS_DECK``, ``LAST_CALL``, ``action``) the rules refuse
    under ``rule``."""
    return f"{what} should be refused under {rule}; the engine says legal={legal}, {key}={got}"


def all_accepted(refusal: object) -> str:
    return f"every call is legal; the engine refuses one: {refusal}"


def next_to_call(seat: object, bid: object, got_seat: object, got_bid: object) -> str:
    return (
        f"seat {seat} calls next and may bid {bid} or more; the engine says seat {got_seat}, "
        f"{got_bid} or more"
    )


def must_bid(seat: object, got_seat: object, can_pass: object) -> str:
    return f"seat {seat} must bid; the engine says next seat {got_seat}, can pass: {can_pass}"


AUCTION_GOES_ON = "the auction goes on"


def auction_won(
    seat: object, bid: object, complete: object, winner: object, contract: object
) -> str:
    return (
        f"the auction is over, won by seat {seat} at {bid}; the engine says complete={complete}, "
        f"winner={winner}, contract={contract}"
    )


def made_or_set(verdict: str, made: object) -> str:
    return f"the bidders {verdict}; the engine says made={made}"


def hand_scores(d0: object, d1: object, got: object) -> str:
    return f"the hand scores {d0} and {d1}; the engine scores {got}"


def scores_become(s0: object, s1: object, got: object) -> str:
    return f"the scores become {s0} to {s1}; the engine says {got}"


def game_winner(want: int | None, got: object) -> str:
    said = f"team {want} wins the game" if want is not None else "nobody has won yet"
    return f"{said}; the engine says game_winner={got}"


def hand_outcome(outcome: str, complete: object, got: object) -> str:
    return f"the hand ends {outcome}; the engine says complete={complete}, outcome={got}"


def bidder(seat: object, contract: object, suit: str, got: object) -> str:
    return f"seat {seat} bids {contract} in {suit}; the engine says {got}"


def seat_melds(seat: object, points: object, got: object) -> str:
    return f"seat {seat} melds {points}; the engine says {got}"


PAIRS = {
    "team_meld": "the team melds",
    "card_points": "the card points",
    "tricks_won": "the tricks won",
}
"""The answer fields holding one figure per team, in words."""


def pair(key: str, a: object, b: object, got: object) -> str:
    """Two figures of the field ``key``, one per team (``PAIRS``)."""
    return f"{PAIRS.get(key, key)} are {a} and {b}; the engine says {got}"


def aces_around(want: Sequence[int], got: object) -> str:
    return f"aces around: {list(want) or 'nobody'}; the engine says {got}"


# --- skip reasons and derived expectations (house_rules) -------------------------------------

UNDECLARED = ("no method ", "engine does not implement ")
"""How the skip reasons of cases of a method or variant the engine does not declare begin."""
HOUSE_SKIP = "engine plays "
"""How the skip reason of a case whose answer the engine's options change begins."""


def no_method(method: str) -> str:
    """A case of a method the engine does not declare."""
    return f"{UNDECLARED[0]}{method}"


def no_variant(variant: str) -> str:
    """A case of a variant the engine does not declare."""
    return f"{UNDECLARED[1]}{variant}"


def option_undeclared(settings: Iterable[str]) -> str:
    """A case needing option values (``name=value``) the engine neither declares nor plays."""
    return f"engine does not declare option {', '.join(settings)}"


def house_played(house: str, needed: str) -> str:
    """A case needing option values (``needed``, ``name=value, ...``) other than those the
    engine plays as its house rules (``house``)."""
    return f"{HOUSE_SKIP}{house} (the case needs {needed})"


REFERENCE_REFUSES = "the reference engine refuses it under them"
"""Why a case is not judged under the engine's house rules: the reference engine refuses it."""
ANSWER_CHANGED = "they change its answer"
"""Why a case is not judged under the engine's house rules: they change the hand-worked answer
(and derived expectations are turned off)."""


def refusable(item: str) -> str:
    """Why a case is not judged under the engine's house rules: its figures are ones the engine
    may refuse under them (``item``: the item of ERRATA-SCORE-HAND-INPUTS)."""
    return (
        "its figures are ones the engine may refuse under them "
        f"(ERRATA-SCORE-HAND-INPUTS, item {item})"
    )


def house_skip(house: str, needed: str, why: str) -> str:
    """A case skipped because the engine's house rules stand in the way (``why``)."""
    return f"{house_played(house, needed)}: {why}"


def derived_reason(house: str, needed: str, rebased: Sequence[str] = ()) -> str:
    """Why a case is judged on a derived expectation (and how the deal was re-based to the
    house's course, if it was)."""
    played = f"; the deal played the house's way ({'; '.join(rebased)})" if rebased else ""
    return (
        f"derived: the engine plays {house} (the case needs {needed}), "
        "which changes the hand-worked answer; judged against the reference engine's "
        f"answer under the engine's options{played}"
    )


# --- charges and the diagnosis (diagnosis, report) --------------------------------------------


def charge_at(where: Where) -> str:
    """Where a charge places a failure, in words: ``call 0 (seat 1: bid 150)``, ``action 8
    (play Kc)``, ``seat 2 meld``, ``trick 3 winner``, ``field delta (team 1)``; a game's hand
    first (``hand 2 ...``, 1-based like the tricks)."""
    field, point = where.field, where.point
    shape = methods.method(where.method).shape
    if where.index is not None and field in ("call", "action"):
        # The last tricks of a hand are asked as plays, each action a card.
        word = "play" if shape == "tricks" else field
        text = f"{word} {where.index}" + (f" ({where.shown})" if where.shown else "")
    elif where.trick is not None:
        text = f"trick {where.trick + 1} {point.removeprefix('trick ')}"
    elif where.seat is not None and field == "meld":
        text = f"seat {where.seat} meld"
    elif field == "team_meld":
        text = "team meld"
    elif shape == "meld":
        text = "meld total"
    elif shape in methods.PLAYED_SHAPES:
        text = field + (f" (team {where.team})" if where.team is not None else "")
    else:
        text = "field " + field + (f" (team {where.team})" if where.team is not None else "")
    return f"hand {where.hand + 1} {text}" if where.hand is not None else text


def blame_at(where: Where) -> str:
    """Where a hand first differs (``blame.Blame``), in words: ``seat 2 meld``, ``trick 3
    winner`` (1-based), else the field (``card points``, ``team meld``)."""
    if where.trick is not None:
        return f"trick {where.trick + 1} {where.field}"
    if where.seat is not None:
        return f"seat {where.seat} {where.field}"
    return where.field.replace("_", " ")


def charge_refused(said: str) -> str:
    """An action the rules allow, refused by the engine."""
    return f"refused by the engine under {said or 'no rule'}"


CHARGE_ACCEPTED = "accepted by the engine; the rules refuse it"


def charge_other_rule(said: str, rule: str) -> str:
    """The same action refused under another rule."""
    return f"refused under {said or 'no rule'}, not {rule}"


def charge_differs(want: object, got: object, *, quoted: bool = False) -> str:
    """A field of a charge: the expected value and the engine's (``quoted``: as reprs)."""
    if quoted:
        return f"expected {want!r}, engine {got!r}"
    return f"expected {want}, engine {got}"


def charge_expected(want: object) -> str:
    """A field of a charge whose engine value says nothing more (tricks where none are played)."""
    return f"expected {want}"


def charge_engine(got: object) -> str:
    """A field of a charge whose expected value is shown elsewhere (a trick's cards)."""
    return f"engine {got}"


def charge_leader(want: object) -> str:
    """A trick led by the wrong seat."""
    return f"expected seat {want}"


def charge_trick_winner(cards: Sequence[str], want: object, got: object) -> str:
    """A trick (its cards) won by the wrong seat."""
    return f"{' '.join(cards)}: expected seat {want}, engine {got}"


def charge_trick_count(count: int) -> str:
    """More tricks than the hand has."""
    return f"engine {count} tricks"


def charge_dealer(want: object, got: object) -> str:
    return f"expected seat {want}, engine {got}"


def charge_melds_worth(worth: int, total: int | None) -> str:
    return f"expected items worth {worth}, engine (totals only) {total}"


def charge_meld_items(ids: Iterable[str]) -> str:
    return f"wrong: {', '.join(ids)}"


def charge_meld_total(want: int, got: int) -> str:
    return f"expected a total of {want}, engine {got}"


def suspect_lines(diagnosis: Sequence[SuspectEntry], limit: int = 5) -> list[str]:
    """The diagnosis as terminal lines: each ranked suspect with its score and first evidence,
    then the rules also failing whose failures the ranked ones explain."""
    ranked = [e for e in diagnosis if not e.get("explained_by")]
    lines = []
    for n, entry in enumerate(ranked[:limit], start=1):
        own = entry["own_cases"]
        how = "its own cases fail" if entry["direct"] else "only whole hands point at it"
        lines.append(
            f"{n}. {entry['rule']} (score {entry['score']}, {how}; own cases: {own['failed']} "
            f"failed charged to it, {own['passed']} passed)"
        )
        for ev in entry["evidence"][:2]:
            text = f"   - {ev.get('case')}: {ev.get('at')}"
            if ev.get("detail"):
                text += f": {ev.get('detail')}"
            lines.append(text[:160])
    if len(ranked) > limit:
        lines.append(f"   ... {len(ranked) - limit} more suspects in the JSON report")
    explained = [e for e in diagnosis if e.get("explained_by")]
    if explained:
        lines.append(
            "also failing, every failure a cascade of a suspect above: "
            + "; ".join(explained_text(e) for e in explained)
        )
    return lines


def explained_text(entry: SuspectEntry) -> str:
    """A rule also failing, explained by suspects ranked above it (``AUCTION-STEP, explained
    by AUCTION-OPENING-MIN``)."""
    return f"{entry['rule']}, explained by {', '.join(entry.get('explained_by', []))}"


def rule_summary(
    engine: str,
    per_rule: Mapping[str, Mapping[str, int]],
    failing: Sequence[str],
    known: Mapping[str, int],
) -> list[str]:
    """The engine, then a table of the rules with a failure or error (``known``: rule -> how
    many of its failures are known failures)."""
    lines = [f"engine: {engine}"]
    if failing:
        width = max(len(r) for r in failing)
        lines.append(f"{'rule':<{width}}  failed  errored  skipped  passed")
        for rule in failing:
            c = per_rule[rule]
            lines.append(
                f"{rule:<{width}}  {c['failed']:>6}  {c['errored']:>7}  {c['skipped']:>7}  "
                f"{c['passed']:>6}" + (f"  ({known[rule]} known)" if known.get(rule) else "")
            )
    return lines


def skipped_summary(partly: Sequence[str], only: Sequence[str]) -> list[str]:
    """The rules passing with some cases skipped, and the rules only skipped."""
    lines = []
    if partly:
        lines.append(f"passing, with skipped cases: {', '.join(partly)}")
    if only:
        lines.append(f"skipped only: {', '.join(only)}")
    return lines


def unsupported_summary(counts: Mapping[str, int]) -> str:
    """Rule ID -> cases the engine answered "unsupported" (-32001), in one line."""
    return "answered unsupported (-32001), so not judged: " + ", ".join(
        f"{rule} ({n})" for rule, n in sorted(counts.items())
    )


TOTAL = "total: "
"""How the run's count line starts (``pinochle test`` with several engines finds it by this)."""


def _plural(count: int, noun: str) -> str:
    """``noun`` as many of it as ``count`` says: one case, two cases, no cases."""
    return noun if count == 1 else f"{noun}s"


def total_summary(
    count: Count,
    known: int,
    fixed: int,
    rules: int,
    failing: int,
    passing: int,
    skipped_only: int,
) -> str:
    """The run's count in one line (``counts``): judged, hand-worked and derived, by outcome
    (``known`` failures listed, ``fixed`` listed ones passing now), the skipped and the not
    counted apart; then the rules tested."""
    return (
        f"{TOTAL}{count.judged} {_plural(count.judged, 'case')} judged "
        f"({count.judged_hand_worked} hand-worked, "
        f"{count.judged_derived} derived), {count.passed} passed"
        + (
            f" ({fixed} of them listed as known failures: fixed, they fail the run until "
            "removed from the list)"
            if fixed
            else ""
        )
        + f", {count.failed} failed, {count.errored} errored"
        + (f" ({known} of them known)" if known else "")
        + f"; {count.skipped} skipped"
        + (f", {count.not_counted} not counted" if count.not_counted else "")
        + f"; {rules} {_plural(rules, 'rule')} tested: {failing} with a failure or error, "
        f"{passing} passing, {skipped_only} only skipped"
    )


def house_summary(held: int, derived: int, changed: int) -> str:
    """What the engine's house rules did to the cases."""
    return (
        f"under the engine's house rules: {held} cases hold as hand-worked, "
        f"{derived} derived, {changed} skipped as changed by them"
    )


def part_summaries(count: Count) -> list[str]:
    """The judged cases of each part, hand-worked and derived, by outcome (when there are
    derived ones: otherwise the total says it all)."""
    if not count.judged_derived:
        return []
    parts = (
        ("hand-worked", count.hand_worked),
        (
            "derived (not hand-worked: the reference engine's answers under the engine's "
            "house rules)",
            count.derived,
        ),
    )
    return [
        f"{name}: {sum(outcomes.values())} judged, {outcomes['passed']} passed, "
        f"{outcomes['failed']} failed, {outcomes['errored']} errored"
        for name, outcomes in parts
    ]


def unreached_case(rule: str) -> str:
    """A derived case that stops before the point where its rule decides."""
    return (
        f"not reaching {rule}: played under the engine's options, the case stops before the "
        "point where its hand-worked version is decided; it does not count for its rule"
    )


def reach_summary(
    whole: Mapping[str, int],
    other: Mapping[str, int],
    partly: Mapping[str, tuple[int, int]],
    unreached: Sequence[str],
    off: Sequence[str],
) -> list[str]:
    """Reach under the engine's options: the whole hands that play to where their hand-worked
    versions end, the rules some of whose cases stop short, and the rules no case reaches."""
    lines = []
    if whole["judged"] or other["judged"]:
        line = (
            f"reach: {whole['reached']} of {whole['judged']} whole-hand cases play to where "
            "their hand-worked versions end under the engine's options"
        )
        if other["judged"]:
            line += (
                f" ({other['reached']} of {other['judged']} more, written for option values "
                "the engine does not play or for rules they switch off)"
            )
        lines.append(line)
    if partly:
        shown = ", ".join(f"{r} {got}/{of}" for r, (got, of) in sorted(partly.items()))
        lines.append(f"rules whose cases partly reach them (reaching/judged): {shown}")
    if unreached:
        lines.append(f"rules no judged case reaches: {', '.join(unreached)}")
    if off:
        lines.append(f"rules the engine's options switch off (not owed a case): {', '.join(off)}")
    return lines


def undeclared_summary(count: int) -> str:
    return f"not counted: {count} cases of variants or methods the engine does not declare"


NOTHING_JUDGED = (
    "FAILED: no case of the engine's declared variants and methods was judged: every case was "
    "skipped (see the skip reasons: -rs); a run that tests nothing does not pass"
)


# --- known failures (known_failures) ----------------------------------------------------------


def known_failure(listed_at: str, reason: str) -> str:
    """The expected-failure reason of a case a known-failures entry lists."""
    return f"known failure ({listed_at}): {reason}"


def fixed_case(listed_at: str, what: str, reason: str) -> str:
    """A listed case that passes now."""
    return (
        f"fixed: remove it from {listed_at} ({what}): "
        f"the case passes now (listed because: {reason})"
    )


def fixed_rule(listed_at: str, what: str, ran: int) -> str:
    """A listed rule none of whose cases fails now."""
    return f"fixed: remove it from {listed_at} ({what}): all {ran} of its cases pass now"


def known_failed(count: int, path: object) -> str:
    return f"known failures: {count} cases failed as listed in {path}"


ENGINE_PREFIX = re.compile(r"^engine '[^']*': ")
"""How the client names the engine in a fault; a known-failures file is about one engine."""


def one_line(text: str, detail: str | None = None) -> str:
    """A failure in one line (the reason ``--write-known-failures`` writes): the charge's detail,
    else a table case's first mismatch or engine fault, a scenario's Then-step sentence or engine
    fault, else the first line ("" for no text)."""
    if detail:
        return detail
    lines = [x.strip() for x in text.splitlines() if x.strip()]
    for i, line in enumerate(lines):
        # A table case's failure names the case first; its fault is further down.
        if line.startswith("engine error:"):
            return ENGINE_PREFIX.sub("", line.removeprefix("engine error:").strip())
        if line == "mismatches:" and i + 1 < len(lines) and lines[1].startswith("rules: "):
            return lines[i + 1].removeprefix("- ")
    if len(lines) > 1 and lines[0].startswith((f"{WRONG_ANSWER} ", f"{ENGINE_ERROR} ")):
        return ENGINE_PREFIX.sub("", lines[1])  # a scenario: its title, then why
    return lines[0] if lines else ""
