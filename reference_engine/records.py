"""Game records: a whole game as JSON (spec/schema/game-record.schema.json), and its replay.

``record(state)`` writes what a game did; ``replay(record)`` plays the actions again and reports
the first illegal action and every recorded figure the rules do not give.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from specdata import checker, shorten, shown
from specdata.files import read_at_most, size_over, unreadable
from specdata.schemas import ValidationError

from .actions import parse, text
from .cards import SUITS, card_code, from_counts, sort_key
from .errors import CardError, PinochleError
from .game import Game, check_hands, deal_hands
from .hand import TURN_RULE, HandState
from .hand import replay as replay_hand
from .variants import load_rules

FORMAT = "pinochle-game-record"
VERSION = 1
MAX_RECORD_BYTES = 64 * 1024 * 1024
"""The largest record file read (a 60-hand double-deck game is about 200 KB)."""
RECORD_SCHEMA = "game-record.schema.json"
SCHEMA_MESSAGE_LIMIT = 200
"""Longest schema complaint a record error quotes (characters)."""
ACTION_HELP = "'bid 55', 'pass', 'trump h', 'give Ts Ah ...', 'throw-in', 'play-on', 'play Ah'"


class RecordError(PinochleError):
    """A game record that cannot be replayed: not readable, not UTF-8, not JSON, not a record
    (its schema), or an action that is not a canonical string. One line naming the place."""


def _hand_entry(hand: HandState) -> dict[str, Any]:
    assert hand.score is not None
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "deal": [[card_code(c) for c in from_counts(h)] for h in hand.deal],
        "actions": [{"seat": seat, "action": text(action)} for seat, action in hand.actions],
        "bidder": hand.bidder,
        "contract": hand.contract,
        "trump": SUITS[hand.trump] if hand.trump is not None else None,
        "outcome": hand.outcome,
        "meld": [m.total for m in hand.meld] if hand.meld is not None else None,
        "card_points": list(hand.card_points),
        "tricks_won": list(hand.tricks_won),
        "delta": list(hand.score.delta),
        "scores": list(hand.score.scores),
    }


def record(state: Game) -> dict[str, Any]:
    """The record of every finished hand of a game (the hand in progress is left out)."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": state.rules.variant,
        "options": dict(state.rules.options),
    }
    if state.seed is not None:
        out["seed"] = state.seed
    out["hands"] = [_hand_entry(h) for h in state.history]
    out["winner"] = state.winner
    return out


def load(path: Path | str) -> dict[str, Any]:
    """A record file, read and checked against its schema; RecordError says what is wrong in
    one line naming the file (and the line, for text that is not UTF-8 or not JSON)."""
    path = Path(path)
    try:
        read = read_at_most(path, MAX_RECORD_BYTES)
    except OSError as err:
        raise RecordError(f"{path}: {unreadable(path, err)}") from None
    if read is None:
        size = size_over(path, MAX_RECORD_BYTES)
        raise RecordError(f"{path}: {size}: a record may hold {MAX_RECORD_BYTES}")
    raw = read
    try:
        content = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise RecordError(f"{path}:{line}: not UTF-8 (byte offset {err.start})") from None
    try:
        data = json.loads(content)
    except json.JSONDecodeError as err:
        raise RecordError(
            f"{path}:{err.lineno}: not JSON: {err.msg} (column {err.colno})"
        ) from None
    except RecursionError:
        raise RecordError(f"{path}: not JSON: nested too deeply") from None
    try:
        return validate(data)
    except RecordError as err:
        raise RecordError(f"{path}: {str(err).removeprefix('game record: ')}") from None


def validate(data: object) -> dict[str, Any]:
    """Check a record against its schema; raise RecordError naming the first problem."""
    schema = checker(RECORD_SCHEMA)
    try:
        error = None if schema.is_valid(data) else schema.best_error(data)
    except RecursionError:
        raise RecordError("game record: nested too deeply") from None
    # A fault only jsonschema-rs sees (``$`` before a final newline) is left to the replay,
    # whose own check of each action words it.
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(top)"
        raise RecordError(f"game record: at {where}: {_schema_message(error)}")
    assert isinstance(data, dict)
    return data


def _schema_message(error: ValidationError) -> str:
    """The schema's complaint without quoting a whole (maybe huge) value."""
    if error.validator == "type":
        return f"expected {error.validator_value}, got {type(error.instance).__name__}"
    if error.validator == "pattern" and list(error.absolute_path)[-1:] == ["action"]:
        return f"{shown(error.instance)} is not a canonical action string ({ACTION_HELP})"
    return shorten(error.message, SCHEMA_MESSAGE_LIMIT, count=False)


def _actions(number: int, steps: list[dict[str, Any]]) -> list[int]:
    """The hand's actions parsed, each the canonical string of its action (CONTRIBUTING.md):
    a record is a transcript other programs compare, so ``bid  55`` or ``play 10h`` is refused."""
    parsed = []
    for index, step in enumerate(steps):
        words = step["action"]
        where = f"game record: hand {number} action {index}"
        try:
            action = parse(words)
        except PinochleError as err:
            raise RecordError(f"{where}: {err}; actions are canonical strings") from None
        if text(action) != words:
            raise RecordError(
                f"{where}: {shown(words)} is not a canonical action string: write {text(action)!r}"
            )
        parsed.append(action)
    return parsed


def _compare(report: dict[str, Any], number: int, field: str, recorded: Any, replayed: Any) -> None:
    if recorded != replayed:
        report["mismatches"].append(
            {"hand": number, "field": field, "recorded": recorded, "replayed": replayed}
        )


def replay(data: Mapping[str, Any]) -> dict[str, Any]:
    """Replay a record: ``{ok, hands, first_illegal, mismatches, winner}``.

    Each hand starts from its recorded deal (checked, DEAL-HANDS; with a seed, also against the
    seeded deal) and the replayed scores; its actions are applied in order with their seats
    (the seat must be the one to act). Replay stops at the first illegal action, reported as
    ``{hand, index, seat, action, rule, message}``. Every figure of a hand that differs from
    the replay is listed in ``mismatches`` as ``{hand, field, recorded, replayed}``.
    """
    data = validate(data)
    rules = load_rules(data["variant"], data["options"])
    seed = data.get("seed")
    report: dict[str, Any] = {
        "ok": True,
        "hands": 0,
        "first_illegal": None,
        "mismatches": [],
        "winner": None,
    }
    scores = (0, 0)
    expected_dealer: int | None = None
    winner: int | None = None
    for entry in data["hands"]:
        number = entry["number"]
        _compare(report, number, "number", number, report["hands"] + 1)
        if expected_dealer is not None:
            _compare(report, number, "dealer", entry["dealer"], expected_dealer)
        if winner is not None:
            report["first_illegal"] = {
                "hand": number,
                "index": None,
                "seat": None,
                "action": None,
                "rule": "GAME-ROUNDS" if rules.rounds is not None else "GAME-TARGET",
                "message": f"hand {number} was played after team {winner} had won the game",
            }
            break
        try:
            counts = check_hands(rules, entry["deal"])
        except CardError as err:
            report["first_illegal"] = {
                "hand": number,
                "index": None,
                "seat": None,
                "action": None,
                "rule": "DEAL-HANDS",
                "message": f"{err} (DEAL-HANDS)",
            }
            break
        if seed is not None:
            seeded = deal_hands(rules, seed, number, entry["dealer"])
            recorded = [sorted(h, key=sort_key) for h in entry["deal"]]
            _compare(report, number, "deal", recorded, _codes(seeded))
        steps = entry["actions"]
        try:
            hand, illegal = replay_hand(
                HandState(rules, entry["dealer"], counts, scores, number),
                _actions(number, steps),
                [step["seat"] for step in steps],
            )
        except RecordError:
            raise
        except PinochleError as err:
            raise RecordError(f"game record: hand {number} {err}") from None
        if illegal is not None:
            step = steps[illegal.index]
            report["first_illegal"] = {
                "hand": number,
                "index": illegal.index,
                "seat": step["seat"],
                "action": step["action"],
                "rule": illegal.rule,
                "message": illegal.message,
            }
            break
        report["hands"] += 1
        if not hand.is_terminal():
            seat = hand.current_seat()
            report["first_illegal"] = {
                "hand": number,
                "index": len(steps),
                "seat": seat,
                "action": None,
                "rule": TURN_RULE[hand.phase],
                "message": f"hand {number} ends before it is over: seat "
                f"{seat} still has to act ({hand.phase.value})",
            }
            break
        assert hand.score is not None
        replayed = _hand_entry(hand)
        for field in (
            "bidder",
            "contract",
            "trump",
            "outcome",
            "meld",
            "card_points",
            "tricks_won",
            "delta",
            "scores",
        ):
            if field in entry:
                _compare(report, number, field, entry[field], replayed[field])
        scores = hand.score.scores
        winner = hand.score.game_winner
        expected_dealer = (entry["dealer"] + 1) % 4
    report["winner"] = winner
    if report["first_illegal"] is None:
        _compare(report, len(data["hands"]), "winner", data["winner"], winner)
    report["ok"] = report["first_illegal"] is None and not report["mismatches"]
    return report


def _codes(hands: tuple[tuple[int, ...], ...]) -> list[list[str]]:
    return [[card_code(c) for c in from_counts(h)] for h in hands]


def describe(report: Mapping[str, Any]) -> str:
    """A replay report as readable lines."""
    winner = report["winner"]
    won = "none yet" if winner is None else f"team {winner}"
    lines = [f"replayed {report['hands']} hand(s); winner: {won}"]
    bad = report["first_illegal"]
    if bad is not None:
        where = f"hand {bad['hand']}" + (
            f" action {bad['index']}" if bad["index"] is not None else ""
        )
        lines.append(f"first illegal: {where} [{bad['rule']}]: {bad['message']}")
    for m in report["mismatches"]:
        lines.append(
            f"mismatch: hand {m['hand']} {m['field']}: recorded {m['recorded']!r}, "
            f"rules give {m['replayed']!r}"
        )
    lines.append("OK" if report["ok"] else "FAILED")
    return "\n".join(lines)
