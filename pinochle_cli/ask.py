"""``pinochle ask METHOD --variant V [--option NAME=VALUE]... [--json] PARAMS``: ask the rules a
question of your own. The reference engine answers it, and says which rule decided each point of
the answer (each meld item, the rule refusing a call or a play, each scoring step), in words and
with the cards drawn; ``--json`` prints the protocol's result as it is.

PARAMS is the protocol's params object as JSON, as a case's ``input:`` (variant and options come
from --variant and --option), or friendlier, as ``NAME=VALUE`` words: ``hand="As Ah Kh Qh"``
``trump=h`` (cards as words, numbers and JSON as themselves). Bad input is one line naming it,
exit 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from pinochle_adapters.client import EngineError, open_in_process
from pinochle_adapters.protocol import RULE_METHODS
from pinochle_adapters.reference import decisions, server
from pinochle_fuzz.cli import add_option_flag
from pinochle_judge import notation
from pinochle_tools.site.spec_site import TableError, table_of
from specdata.rules import load_catalogue

USAGE_EXAMPLES = """\
examples:
  pinochle ask meld --variant single-deck hand="Ah Th Kh Qh Jh Qs Jd" trump=h
  pinochle ask legal_plays --variant double-deck \\
      '{"hand": ["As", "Ks", "Ah"], "trick": ["Qs"], "trump": "h"}'
  pinochle ask trick_winner --variant online --json trick="Qs As Ah As" trump=h
"""
RED_SUITS = ("h", "d")


class AskError(ValueError):
    """The question cannot be asked: the message names the argument that is wrong."""


def parser() -> argparse.ArgumentParser:
    out = argparse.ArgumentParser(
        prog="pinochle ask",
        description="Ask the reference engine a rules question; it answers with the rules that "
        "decided each point of the answer.",
        epilog=USAGE_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    out.add_argument("method", choices=RULE_METHODS, help="the protocol method")
    out.add_argument("--variant", required=True, help="the rule system (double-deck, ...)")
    add_option_flag(out)
    out.add_argument("--json", action="store_true", help="print the protocol's result as JSON")
    out.add_argument(
        "params",
        nargs="+",
        metavar="PARAMS",
        help='the params object as JSON, or NAME=VALUE words (hand="As Ah Kh" trump=h)',
    )
    return out


def read_params(method: str, words: Sequence[str]) -> dict[str, Any]:
    """The params a command line gives: one JSON object, or ``NAME=VALUE`` words (a card field
    as card words ``As Ah`` or ``AsAh``, anything else as JSON when it reads as JSON, else as
    text). AskError naming the word that is neither."""
    if len(words) == 1 and words[0].lstrip().startswith("{"):
        try:
            found = json.loads(words[0])
        except ValueError as e:
            raise AskError(f"PARAMS is not a JSON object: {e}") from None
        if not isinstance(found, dict):
            raise AskError("PARAMS is not a JSON object")
        return found
    cards = {path.rstrip("[]") for path in notation.card_paths(method, "params")}
    params: dict[str, Any] = {}
    for word in words:
        name, sep, text = word.partition("=")
        if not sep or not name:
            raise AskError(f"PARAMS {word!r}: write the params as one JSON object or NAME=VALUE")
        params[name] = _value(name, text, cards)
    return params


def _value(name: str, text: str, cards: set[str]) -> Any:
    if name in cards and not text.lstrip().startswith("["):
        if "|" in text or "/" in text:  # four hands: seat 0 | seat 1 | ...
            return [_cards(name, part) for part in text.replace("/", "|").split("|")]
        return _cards(name, text)
    try:
        return json.loads(text)
    except ValueError:
        return text


def _cards(name: str, text: str) -> list[str]:
    try:
        return notation.parse_cards(text)
    except ValueError as e:
        raise AskError(f"{name}={text!r}: {e}") from None


def _error_line(err: EngineError) -> str:
    """What is wrong with the question, as the reference server or the protocol says it."""
    try:
        reply = json.loads(err.reply or "")
        message = reply["error"]["message"]
    except (ValueError, KeyError, TypeError):
        message = err.reason.split("fails the protocol: ", 1)[-1]
    return str(message).splitlines()[0]


def drawn(codes: Sequence[Any], colour: bool) -> str:
    """Cards for the terminal: rank and suit symbol, the red suits red when ``colour``."""
    shown = []
    for code in codes:
        text = notation.card(str(code))
        if colour and str(code)[-1:] in RED_SUITS:
            text = f"\033[31m{text}\033[0m"
        shown.append(text)
    return " ".join(shown) if shown else "no cards"


def field_text(method: str, kind: str, key: str, data: Any, colour: bool) -> str:
    """A field of the params or the answer in the game's language, cards drawn."""
    paths = notation.card_paths(method, kind)
    if key in paths and isinstance(data, list):
        return drawn(data, colour)
    if f"{key}[]" in paths and isinstance(data, list):
        return "; ".join(
            f"seat {i}: {drawn(h, colour) if isinstance(h, list) else h}"
            for i, h in enumerate(data)
        )
    if key == "calls" and isinstance(data, list):
        return "; ".join(_call(c) for c in data) or "none"
    if key == "trump" and isinstance(data, str):
        return notation.suit(data)
    if isinstance(data, str):
        return data
    if key in ("melds", "tricks") and data and all(isinstance(d, dict) for d in data):
        return notation.value(method, kind, key, data)
    return json.dumps(data, ensure_ascii=False)


def _call(call: Any) -> str:
    """An auction call in words: ``seat 1 bids 50``, ``seat 2 passes``."""
    if not isinstance(call, dict):
        return json.dumps(call)
    if call.get("pass"):
        return f"seat {call.get('seat')} passes"
    return f"seat {call.get('seat')} bids {call.get('bid')}"


def decision_text(decision: dict[str, Any], titles: dict[str, str], colour: bool) -> str:
    """One decision in words: ``MELD-RUN (Run in trumps): meld item: run x1 = 150``."""
    where = [
        f"{key} {decision[key]}" for key in ("hand", "index", "seat", "team") if key in decision
    ]
    value = decision.get("value")
    if isinstance(value, dict) and {"id", "count", "points"} <= set(value):
        shown = notation.meld(value)
    elif isinstance(value, dict) and "id" in value:  # a meld kept from counting, and its worth
        shown = f"{value['id']} (worth {value.get('points')})"
    elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        shown = drawn(value, colour) if all(len(v) == 2 for v in value) else ", ".join(value)
    elif isinstance(value, str):
        shown = value
    else:
        shown = json.dumps(value, ensure_ascii=False)
    rule = str(decision["rule"])
    also = decision.get("also") or []
    point = "not scored" if decision["point"] == "meld kept" else decision["point"]
    line = f"{rule} ({titles.get(rule, 'not in spec/rules')}): {point}"
    line += f" ({', '.join(where)})" if where else ""
    line += f": {shown}"
    return line + (f"; also {', '.join(also)}" if also else "")


def answer_text(
    method: str,
    params: dict[str, Any],
    result: dict[str, Any],
    found: list[dict[str, Any]],
    colour: bool,
) -> str:
    """The question, the answer and the rules that decided it, for the terminal."""
    titles = {rule_id: rule.title for rule_id, rule in load_catalogue().items()}
    asked = {k: v for k, v in params.items() if k not in ("variant", "options")}
    lines = [f"{method}, {params['variant']}, {notation.options(params.get('options') or {})}"]
    lines += [
        f"  {key}: {field_text(method, 'params', key, v, colour)}" for key, v in asked.items()
    ]
    lines.append("answer:")
    lines += [
        f"  {key}: {field_text(method, 'result', key, v, colour)}" for key, v in result.items()
    ]
    lines.append("decided by:" if found else "decided by: (no rule traced for this answer)")
    lines += [f"  {decision_text(d, titles, colour)}" for d in found]
    return "\n".join(lines)


def ask(args: argparse.Namespace, out: TextIO) -> int:
    options = dict(args.option)
    table_of(args.variant, options, None)  # a variant or option the spec has not: one line
    params = {**read_params(args.method, args.params), "variant": args.variant, "options": options}
    engine = open_in_process(server(), validate=True)
    try:
        try:
            result = engine.call(args.method, params)
        except EngineError as err:
            raise AskError(_error_line(err)) from None
    finally:
        engine.close()
    if args.json:
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        return 0
    colour = out.isatty() and not os.environ.get("NO_COLOR")
    out.write(answer_text(args.method, params, result, decisions(args.method, params), colour))
    out.write("\n")
    return 0


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(list(argv))
    try:
        return ask(args, sys.stdout)
    except (AskError, TableError) as err:
        print(f"pinochle ask: {err}", file=sys.stderr)
        return 2
