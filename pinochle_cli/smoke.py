"""``pinochle smoke --engine CMD``: does an engine speak the protocol? Start it, ``initialize``, ask
each method it declares once per variant it declares, check every reply against its schema, stop it.

The questions are suite cases (one per method and variant) sent under the options the engine
plays; the answers are not judged, only their shape: that is the whole suite's job.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pinochle_adapters.client import (
    DEFAULT_TIMEOUT,
    Engine,
    EngineError,
    EngineTimeout,
    ErrorReply,
)
from pinochle_adapters.client import open_engine as _open_engine
from pinochle_adapters.protocol import INVALID_PARAMS, RULE_METHODS, UNSUPPORTED
from pinochle_fuzz.cli import positive
from pinochle_judge.cases import Case, load_cases
from pinochle_judge.house_rules import declared_options, played_options

RULING_CODES = (INVALID_PARAMS, UNSUPPORTED)
"""Error replies that are the engine's ruling on the question, not a fault in its speech: a
refusal of params the suite deems valid is the whole suite's to judge. They are notes."""
NOTE = "note: "
"""How a line that is not a problem begins."""

SMOKE_STARTUP_TIMEOUT = 30.0
"""Seconds the engine has to start and answer ``initialize`` (a JVM can take a while)."""


@dataclass(frozen=True)
class Question:
    """One smoke request: a method, a variant and the params sent, from the case named."""

    method: str
    variant: str
    case_id: str
    params: dict[str, Any]


def pick_case(cases: Sequence[Case], declared: dict[str, list[str]], variant: str) -> Question:
    """The question to ask of one method and variant: a case the engine plays as written, else
    one whose options it can play (its house values in place of the case's), else any; among
    those, the fullest request the method takes: a case that is not a refusal, with the most
    input (a four-card trick for ``trick_winner``, a hand played out for ``play_hand``), so that
    an engine answering only whole requests is probed too. ``cases`` are that method's cases in
    that variant, at least one."""

    def fit(case: Case) -> tuple[int, int, bool, int]:
        _, house, _, unplayable = played_options(declared, variant, case.options)
        size = len(json.dumps(case.params))
        return (len(unplayable), len(house), case.negative, -size)

    best = min(cases, key=fit)  # min keeps the first of equals: the suite's order
    sent, _, _, _ = played_options(declared, variant, best.options)
    params = {"variant": variant, "options": sent, **best.params}
    return Question(best.method, variant, best.id, params)


def questions(info: dict[str, Any], cases: Sequence[Case]) -> tuple[list[Question], list[str]]:
    """The questions for an engine's ``initialize`` result, and the problems found in it alone
    (a declared method the protocol lacks, a variant the suite has no case of)."""
    problems: list[str] = []
    methods = [str(m) for m in info.get("methods", [])]
    variants = [str(v.get("id")) for v in info.get("variants", []) if isinstance(v, dict)]
    for method in methods:
        if method not in RULE_METHODS:
            problems.append(
                f"initialize: declares method {method!r}, not a rule method of the protocol"
            )
    if not [m for m in methods if m in RULE_METHODS]:
        problems.append("initialize: declares no rule method, so there is nothing to ask")
    if not variants:
        problems.append("initialize: declares no variant, so there is nothing to ask")
    asked: list[Question] = []
    for variant in variants:
        declared = declared_options(info, variant) or {}
        of_variant = [c for c in cases if c.variant == variant]
        if not of_variant:
            problems.append(f"initialize: declares variant {variant!r}, which the suite lacks")
            continue
        for method in RULE_METHODS:
            chosen = [c for c in of_variant if c.method == method]
            if method in methods and chosen:
                asked.append(pick_case(chosen, declared, variant))
    return asked, problems


def smoke(engine: Engine, cases: Sequence[Case] | None = None) -> tuple[list[str], int]:
    """Every problem found (one line each; a note's line begins ``note: ``) and how many rule
    requests were answered well."""
    if engine.info is None:
        reason = str(engine.start_error).removeprefix("initialize: ")
        return [f"initialize: {reason}"], 0
    asked, problems = questions(engine.info, load_cases() if cases is None else cases)
    hung: set[str] = set()
    good = 0
    for q in asked:
        where = f"{q.method} ({q.variant}, case {q.case_id})"
        if q.method in hung:
            problems.append(f"{where}: not asked, the method timed out before")
            continue
        try:
            engine.call(q.method, q.params)
        except EngineTimeout as e:
            hung.add(q.method)
            problems.append(f"{where}: {_reason(e, engine, q.method)}")
        except ErrorReply as e:
            note = NOTE if _code(e) in RULING_CODES else ""
            problems.append(f"{note}{where}: {_reason(e, engine, q.method)}")
        except EngineError as e:
            problems.append(f"{where}: {_reason(e, engine, q.method)}")
        else:
            good += 1
    return problems, good


def _code(error: ErrorReply) -> object:
    """The JSON-RPC error code of an error reply (None if the reply cannot say)."""
    try:
        return json.loads(error.reply or "")["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def _reason(error: EngineError, engine: Engine, method: str) -> str:
    """The error's reason without what the line already says: the engine and the method."""
    return error.reason.removeprefix(f"{engine.description}: ").removeprefix(f"{method}: ")


def parser() -> argparse.ArgumentParser:
    """The arguments of ``pinochle smoke``."""
    p = argparse.ArgumentParser(
        prog="pinochle smoke",
        description="Check that an engine speaks the protocol: initialize, each declared method "
        "once per declared variant, every reply checked against the schemas. One line per "
        "problem; exit 0 when there is none, 1 otherwise (2: the command line is wrong).",
    )
    p.add_argument("--engine", required=True, metavar="COMMAND", help="the engine's command line")
    p.add_argument(
        "--timeout",
        type=positive(float),
        default=DEFAULT_TIMEOUT,
        help=f"seconds per request (default {DEFAULT_TIMEOUT:g})",
    )
    p.add_argument(
        "--startup-timeout",
        type=positive(float),
        default=SMOKE_STARTUP_TIMEOUT,
        help=f"seconds to start and initialize (default {SMOKE_STARTUP_TIMEOUT:g})",
    )
    return p


def main(argv: Sequence[str]) -> int:
    """``pinochle smoke --engine CMD``: print the problems, or one line saying there are none."""
    args = parser().parse_args(list(argv))
    if not args.engine.strip():
        print(
            "pinochle smoke: --engine is empty: give the command that starts the engine",
            file=sys.stderr,
        )
        return 2
    with _open_engine(
        args.engine, timeout=args.timeout, validate=True, startup_timeout=args.startup_timeout
    ) as engine:
        lines, good = smoke(engine)
        info = engine.info or {}
    for line in lines:
        print(line)
    problems = [line for line in lines if not line.startswith(NOTE)]
    name = info.get("engine", {}).get("name", "the engine") if info else "the engine"
    if problems:
        plural = "s" if len(problems) != 1 else ""
        print(f"{len(problems)} problem{plural}; {good} requests answered well")
        return 1
    notes = len(lines) - len(problems)
    refused = f" ({notes} refused, see the notes)" if notes else ""
    print(f"{name} speaks the protocol: initialize and {good} requests answered well{refused}")
    return 0
