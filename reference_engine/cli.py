"""The ``pinochle`` command: play a seeded game between bots, replay a record, run spec tools.

``pinochle play``, ``pinochle replay FILE``; ``pinochle spec ...`` and ``pinochle suite ...``
hand over to ``pinochle_adapters.coverage`` and ``pinochle_adapters.export``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from specdata import variant_ids

from . import records
from .actions import GIVE, given_cards, kind, text
from .bots import simple
from .cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS, card_symbol
from .errors import PinochleError
from .game import Game
from .hand import HandState
from .text import show_cards, show_meld
from .variants import load_rules

DELEGATES = {"spec": "pinochle_adapters.coverage", "suite": "pinochle_adapters.export"}
"""Subcommands served by other modules of the project: name -> module with ``main(argv)``."""


def _option(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"option {text!r} must be written name=value")
    return name, value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pinochle", description="The executable specification of Pinochle."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a whole game between simple bots and log it")
    play.add_argument("--variant", default="double-deck", choices=variant_ids())
    play.add_argument("--seed", default="0", help="seed of the deals and the bots (default 0)")
    play.add_argument(
        "--option",
        action="append",
        default=[],
        type=_option,
        metavar="NAME=VALUE",
        help="a variant option, e.g. run=15 (repeatable)",
    )
    play.add_argument("--record", metavar="FILE", help="write the game record (JSON) here")
    play.add_argument("--dealer", type=int, default=0, choices=range(4))
    play.add_argument(
        "--max-hands", type=int, default=200, help="stop after this many hands (default 200)"
    )
    replay = sub.add_parser("replay", help="replay a game record and check every figure")
    replay.add_argument("file")
    for name in DELEGATES:
        sub.add_parser(name, help=f"run {DELEGATES[name]} (arguments passed on)", add_help=False)
    return parser


def _seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def _log_hand(hand: HandState, out: list[str]) -> None:
    out.append("")
    out.append(f"== Hand {hand.number}: dealer seat {hand.dealer} ==")
    for seat, counts in enumerate(hand.deal):
        out.append(f"  seat {seat} (team {seat % 2}): {show_cards(counts)}")
    calls = [(seat, text(a)) for seat, a in hand.actions[: len(hand.auction.calls)]]
    out.append("  auction: " + ", ".join(f"seat {s} {a}" for s, a in calls))
    out.append(f"  seat {hand.bidder} wins the auction at {hand.contract}")
    if hand.outcome == "no_marriage":
        out.append(f"  seat {hand.bidder} holds no marriage: cannot name trump, loses the hand")
    if hand.trump is not None:
        suit = SUITS[hand.trump]
        out.append(f"  trump: {SUIT_NAMES[suit]} {SUIT_SYMBOLS[suit]}")
    for seat, action in hand.actions:
        if kind(action) == GIVE:
            cards = " ".join(card_symbol(c) for c in given_cards(action))
            out.append(f"  seat {seat} gives {cards}")
    if hand.meld is not None:
        for seat, result in enumerate(hand.meld):
            out.append(f"  meld seat {seat}: {show_meld(result)}")
        assert hand.team_meld is not None
        out.append(f"  team meld: {hand.team_meld[0]} / {hand.team_meld[1]}")
        if hand.outcome == "meld_short":
            out.append("  the bidding side is short of the meld minimum: the hand ends")
    for seat, action in hand.actions:
        if text(action) in ("throw-in", "play-on"):
            out.append(f"  seat {seat}: {text(action)}")
    for i, trick in enumerate(hand.tricks, 1):
        cards = " ".join(
            f"{(trick.leader + k) % 4}:{card_symbol(c)}" for k, c in enumerate(trick.cards)
        )
        out.append(f"  trick {i:2}: {cards}  -> seat {trick.winner}")
    if hand.tricks:
        out.append(
            f"  card points: {hand.card_points[0]} / {hand.card_points[1]}; "
            f"tricks {hand.tricks_won[0]} / {hand.tricks_won[1]}"
        )
    score = hand.score
    assert score is not None and hand.outcome is not None
    verdict = "made" if score.made else hand.outcome.replace("_", " ")
    if hand.outcome == "played" and not score.made:
        verdict = "set"
    out.append(
        f"  {verdict}: delta {score.delta[0]:+d} / {score.delta[1]:+d}; "
        f"scores {score.scores[0]} / {score.scores[1]}"
    )


def play(args: argparse.Namespace) -> int:
    """Play a seeded game between the engine's simple bots and print its log."""
    options = dict(args.option)
    rules = load_rules(args.variant, options)
    seed = _seed(args.seed)
    state = Game(rules, seed=seed, dealer=args.dealer)
    rng = random.Random(f"bots:{seed}")
    while not state.is_terminal() and len(state.history) < args.max_hands:
        state.apply(simple(state.hand, rng))
    out = [f"{rules.variant} pinochle, seed {seed}, options {dict(rules.options)}"]
    for hand in state.history:
        _log_hand(hand, out)
    out.append("")
    if state.winner is not None:
        out.append(
            f"Team {state.winner} (seats {state.winner} and {state.winner + 2}) wins "
            f"{state.returns()[0]} / {state.returns()[1]}."
        )
    else:
        out.append(f"No winner after {len(state.history)} hands (--max-hands).")
    print("\n".join(out))
    if args.record:
        with open(args.record, "w", encoding="utf-8") as f:
            json.dump(records.record(state), f, indent=1)
            f.write("\n")
        print(f"record written to {args.record}")
    return 0


def replay(args: argparse.Namespace) -> int:
    """Replay a record; exit 1 if an action is illegal or a figure does not match."""
    try:
        with open(args.file, encoding="utf-8") as f:
            data: Any = json.load(f)
    except OSError as err:
        print(f"pinochle replay: cannot read {args.file}: {err.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as err:
        print(f"pinochle replay: {args.file} is not JSON: {err}", file=sys.stderr)
        return 2
    report = records.replay(data)
    print(records.describe(report))
    return 0 if report["ok"] else 1


def _delegate(name: str, argv: list[str]) -> int:
    module_name = DELEGATES[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name is not None and module_name.startswith(err.name):
            print(f"pinochle {name}: {module_name} is not available ({err})", file=sys.stderr)
            return 2
        raise
    entry = getattr(module, "main", None)
    if entry is None:
        print(f"pinochle {name}: {module_name} has no main(argv)", file=sys.stderr)
        return 2
    result = entry(argv)
    return int(result or 0)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pinochle`` console script."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in DELEGATES:
        return _delegate(args_list[0], args_list[1:])
    args = _parser().parse_args(args_list)
    try:
        if args.command == "play":
            return play(args)
        return replay(args)
    except PinochleError as err:
        print(f"pinochle {args.command}: {err}", file=sys.stderr)
        return 2
