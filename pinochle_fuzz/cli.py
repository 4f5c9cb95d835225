"""``pinochle fuzz``: the options, the progress bar, the summary and the exit status of a campaign.

``main(argv)`` is called by the ``pinochle`` face module with the arguments after ``fuzz``; exit 1
when the engine disagrees with the reference anywhere, 0 when not, 2 when it cannot run.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from pinochle_adapters.client import (
    DEFAULT_TIMEOUT,
    Engine,
    EngineError,
    load_server,
    open_engine,
    open_in_process,
)
from pinochle_judge.cases import CaseError
from specdata import escaped
from specdata.files import folder_problem

from . import campaign
from .campaign import Finding, FuzzError, Report
from .cases import replay, replay_command, write_case

DEFAULT_SECONDS = 30.0
"""How long a campaign runs when neither ``--seconds`` nor ``--hands`` is given."""


def option_argument(text: str) -> tuple[str, str]:
    """A ``--option NAME=VALUE`` argument (the ``pinochle`` commands share it)."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"option {text!r} must be written name=value")
    return name, value


def add_option_flag(
    parser: argparse.ArgumentParser, help: str = "a variant option, e.g. run=15 (repeatable)"
) -> None:
    """The repeatable ``--option NAME=VALUE`` flag, collected as (name, value) pairs."""
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        type=option_argument,
        metavar="NAME=VALUE",
        help=help,
    )


def positive(kind: type[int] | type[float]) -> Any:
    """An argparse type: a number above zero of ``kind`` (a count, seconds), refused otherwise
    (a negative timeout would time every call out and read as the engine's fault)."""

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"{text!r} is not above zero")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


def error_line(error: object) -> str:
    """An error as one line: a data file's problems (one per line after a heading, as a schema
    check words them) become the heading, the first problem and how many more there are."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    if len(lines) <= 1:
        return lines[0] if lines else type(error).__name__
    more = f" (and {len(lines) - 2} more lines)" if len(lines) > 2 else ""
    return f"{lines[0].rstrip(':')}: {lines[1]}{more}"


def parser() -> argparse.ArgumentParser:
    """The options of ``pinochle fuzz``."""
    p = argparse.ArgumentParser(
        prog="pinochle fuzz",
        description=(
            "Ask an engine random questions (deals, auctions, meld, plays, scores, whole hands) "
            "and compare each answer with the reference engine's; every disagreement is shrunk "
            "to a minimal case and written as a scenario table."
        ),
    )
    p.add_argument("--engine", required=True, metavar="CMD", help="the engine's command line")
    p.add_argument(
        "--in-process",
        action="store_true",
        help="CMD is package.module:factory, a protocol server loaded into this process",
    )
    p.add_argument("--variant", action="append", default=[], help="only this variant (repeatable)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        type=option_argument,
        metavar="NAME=VALUE",
        help="fix a variant option (repeatable); others vary over the declared values",
    )
    p.add_argument("--method", action="append", default=[], help="only this method (repeatable)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument(
        "--seconds", type=positive(float), help=f"run this long (default {DEFAULT_SECONDS:g})"
    )
    budget.add_argument(
        "--hands", type=positive(int), help="run this many rounds, one question per method"
    )
    p.add_argument("--seed", type=int, help="seed of the questions (default: drawn and printed)")
    p.add_argument(
        "--out", type=Path, default=Path("fuzz-findings"), help="where cases are written"
    )
    p.add_argument(
        "--engine-timeout", type=positive(float), default=DEFAULT_TIMEOUT, metavar="SECONDS"
    )
    p.add_argument(
        "--replay",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="ask the engine the cases of these files again instead of fuzzing",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar on a terminal")
    return p


def open_target(command: str, in_process: bool, timeout: float) -> Engine:
    """The engine under test: a subprocess, or a server loaded in-process."""
    if in_process:
        return open_in_process(load_server(command), timeout=timeout)
    return open_engine(command, timeout=timeout)


class Progress:
    """A one-line progress bar on a terminal, redrawn in place."""

    def __init__(self, stream: IO[str], hands: int | None, seconds: float | None) -> None:
        self.stream, self.hands, self.seconds = stream, hands, seconds

    def __call__(self, report: Report) -> None:
        if self.hands:
            done = report.rounds / self.hands
        else:
            done = report.seconds / self.seconds if self.seconds else 0.0
        width = 30
        filled = int(min(done, 1.0) * width)
        found = len(report.findings)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done:4.0%} {report.rounds} hands "
            f"{report.rate:6.0f}/s  {found} disagreement{'s' if found != 1 else ''}"
        )
        self.stream.flush()

    def end(self) -> None:
        self.stream.write("\n")


def _short(value: Any) -> str:
    return json.dumps(value, sort_keys=True)[:300]


def describe(finding: Finding, number: int, out: IO[str]) -> None:
    """The summary of one disagreement: method, rule, question, both answers, the case file."""
    d = finding.disagreement
    q = d.question
    fields = sorted({m.where.split(".")[0].split("[")[0] for m in d.mismatches})
    actual = d.actual if isinstance(d.actual, dict) else {"answer": d.actual}
    print(
        f"DISAGREEMENT {number}: {d.rule} ({q.variant}), by {q.method} "
        f"(charged {finding.seen} time{'s' if finding.seen != 1 else ''}, first in round "
        f"{finding.rounds})",
        file=out,
    )
    if len(d.rules) > 1:
        print(f"  also:      {', '.join(d.rules[1:4])}", file=out)
    print(f"  options:   {_short(dict(q.options))}", file=out)
    print(f"  question:  {_short(q.input)}", file=out)
    print(f"  engine:    {_short({k: actual.get(k) for k in fields if k in actual})}", file=out)
    print(f"  reference: {_short({k: d.expect.get(k) for k in fields if k in d.expect})}", file=out)
    for m in d.mismatches[:5]:
        print(f"  differs:   {m}", file=out)
    if finding.path is not None:
        print(f"  case:      {finding.path}", file=out)


def summary(report: Report, out: IO[str]) -> None:
    """The rules charged with their counts, the counts per method, and the rate."""
    if report.rules:
        print(f"{'rule charged':<28} {'variant':<12} {'disagreements':>13}", file=out)
        for (variant, rule), count in report.rules.most_common():
            print(f"{rule:<28} {variant:<12} {count:>13}", file=out)
    print(f"{'method':<14} {'asked':>9} {'disagreed':>10} {'skipped':>9} {'errored':>8}", file=out)
    for method, asked in report.asked.items():
        print(
            f"{method:<14} {asked:>9} {report.disagreed[method]:>10} {report.skipped[method]:>9}"
            f" {report.errored[method]:>8}",
            file=out,
        )
    errored = sum(report.errored.values())
    if errored:
        # Engine faults, not rules broken: no case is written for them.
        first = escaped(report.faults[0])
        print(f"{errored} questions errored: the engine failed to answer ({first})", file=out)
    print(
        f"{report.rounds} hands in {report.seconds:.1f} s: {report.rate:.0f} hands/s "
        f"(shrinking {report.shrink_seconds:.1f} s not counted)",
        file=out,
    )


def _replay(engine: Engine, paths: Sequence[Path], out: IO[str]) -> int:
    failed = 0
    try:
        results = replay(engine, paths)
    except CaseError as err:  # a broken case file: one line naming file and line, usage status
        print(f"pinochle fuzz: {error_line(err)}", file=sys.stderr)
        return 2
    for result in results:
        status = "DISAGREES" if result.mismatches else "agrees"
        if result.skipped:
            status = f"skipped ({result.skipped})"
        print(f"{result.case.id} ({result.case.where}): {status}", file=out)
        for m in result.mismatches:
            print(f"  {m}", file=out)
        failed += bool(result.mismatches)
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None, out: IO[str] | None = None) -> int:
    """Run ``pinochle fuzz`` with these arguments (those after ``fuzz``); the exit status."""
    args = parser().parse_args(argv)
    out = out if out is not None else sys.stdout
    # Found now, not after the campaign, when the findings would have nowhere to go.
    problem = None if args.replay else folder_problem(args.out, "--out")
    if problem is not None:
        print(f"pinochle fuzz: {problem}", file=sys.stderr)
        return 2
    try:
        engine = open_target(args.engine, args.in_process, args.engine_timeout)
    except EngineError as err:
        print(f"pinochle fuzz: {error_line(err)}", file=sys.stderr)
        return 2
    with engine:
        if engine.info is None:
            print(
                f"pinochle fuzz: {error_line(engine.start_error or 'cannot start')}",
                file=sys.stderr,
            )
            return 2
        if args.replay:
            return _replay(engine, args.replay, out)
        try:
            targets = campaign.targets(engine.info, args.variant, dict(args.option))
            methods = campaign.declared_methods(engine.info, args.method)
        except FuzzError as err:
            print(f"pinochle fuzz: {err}", file=sys.stderr)
            return 2
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        seconds = args.seconds
        if seconds is None and args.hands is None:
            seconds = DEFAULT_SECONDS
        print(
            f"pinochle fuzz: {engine.description}, seed {seed}, "
            f"variants {' '.join(t.variant for t in targets)}, methods {' '.join(methods)}",
            file=out,
        )
        progress = None
        if not args.no_progress and sys.stderr.isatty():
            progress = Progress(sys.stderr, args.hands, seconds)

        def record(finding: Finding) -> None:
            path = write_case(finding.disagreement, args.out, args.engine, seed, args.in_process)
            earlier, finding.path = finding.path, str(path)
            if earlier is not None and earlier != finding.path:
                # A smaller reproducer of the same deviation (another variant) replaces the
                # case this campaign wrote for it: one case per deviation.
                Path(earlier).unlink(missing_ok=True)

        report = campaign.run(
            engine,
            targets,
            methods,
            seed,
            hands=args.hands,
            seconds=seconds,
            on_finding=record,
            on_progress=progress,
        )
        if progress is not None:
            progress.end()
    for number, finding in enumerate(report.findings, 1):
        describe(finding, number, out)
        if finding.path is not None:
            print(
                f"  replay:    {replay_command(Path(finding.path), args.engine, args.in_process)}",
                file=out,
            )
    summary(report, out)
    return 1 if report.findings or report.errored else 0
