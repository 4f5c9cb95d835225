"""The ``pinochle`` commands other than ``test``: play and replay games, the rule catalogue, the
suite as data, one case, the report site and the fuzzer; ``main`` parses their arguments."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from pinochle_cli import adapter, ask, diff, smoke
from pinochle_fuzz.cli import add_option_flag, error_line, option_argument, positive
from pinochle_fuzz.cli import main as fuzz_main
from pinochle_tools import case, catalogue, export
from pinochle_tools.site import build_site, build_spec_site
from reference_engine import records
from reference_engine.bots import simple
from reference_engine.errors import PinochleError
from reference_engine.game import Game
from reference_engine.text import hand_log
from reference_engine.variants import load_rules
from specdata import variant_ids
from specdata.files import folder_problem, output_problem, write_atomic


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pinochle", description="The executable specification of Pinochle."
    )
    # Answered by pinochle_cli.main before parsing; here for --help.
    parser.add_argument("-V", "--version", action="store_true", help="print the suite's version")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a whole game between simple bots and log it")
    play.add_argument(
        "--variant",
        default="double-deck",
        choices=variant_ids(),
        help="the rule system (default double-deck)",
    )
    play.add_argument(
        "--seed",
        default=0,
        type=_seed,
        help="integer seed of the deals and bots (default 0)",
    )
    play.add_argument(
        "--option",
        action="append",
        default=[],
        type=option_argument,
        metavar="NAME=VALUE",
        help="a variant option, e.g. run=15 (repeatable)",
    )
    play.add_argument("--record", metavar="FILE", help="write the game record (JSON) here")
    play.add_argument("--dealer", type=int, default=0, choices=range(4))
    play.add_argument(
        "--max-hands",
        type=positive(int),
        default=200,
        help="stop after this many hands (default 200)",
    )
    replay = sub.add_parser("replay", help="replay a game record and check every figure")
    replay.add_argument("file")
    spec = sub.add_parser("spec", help="the rule catalogue: coverage matrix, variants table")
    spec_sub = spec.add_subparsers(dest="spec_command", required=True)
    cov = spec_sub.add_parser(
        "coverage", help="the rule x variant matrix of positive/negative cases"
    )
    group = cov.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="exit 1 listing every gap")
    group.add_argument("--write", action="store_true", help="write spec/coverage.md")
    site = spec_sub.add_parser(
        "site",
        help="the rulebook as a static site: the chapters in play order, each overview, every "
        "rule with its table cases and Gherkin scenarios drawn, the errata, the protocol, the "
        "options, the sources, an offline search; --variant/--option: one table's own rulebook",
    )
    site.add_argument("-o", "--output", required=True, type=Path, help="directory to write")
    site.add_argument(
        "--variant",
        help="a table's own rulebook: only this variant's rules, with the answers its --option "
        "values change (derived by the reference engine) beside the default's",
    )
    add_option_flag(
        site, "an option the table plays, e.g. run_royal=both (repeatable; needs --variant)"
    )
    var = spec_sub.add_parser("variants", help="the side-by-side table of the variants")
    var.add_argument("--write", action="store_true", help="fill the block in spec/README.md")
    suite = sub.add_parser("suite", help="the conformance suite's cases as data")
    suite_sub = suite.add_subparsers(dest="suite_command", required=True)
    out = suite_sub.add_parser(
        "export",
        help="write every case (scenario tables and Gherkin scenarios) with its expected answer "
        "as JSON",
    )
    out.add_argument("output", help="file to write, or - for standard output")
    out.add_argument(
        "--variant", action="append", default=[], help="only this variant (repeatable)"
    )
    out.add_argument("--method", action="append", default=[], help="only this method (repeatable)")
    out.add_argument("--tables", nargs="+", type=Path, help="tables to read (default: the suite's)")
    one = sub.add_parser(
        "case", help="run one case: its request, the reply, the expected answer, the comparison"
    )
    one.add_argument("case_id", help="a table case ID or a scenario node ID")
    one.add_argument("--engine", metavar="COMMAND", help="default: the reference engine")
    report = sub.add_parser("report", help="a static site from conformance reports (JSON)")
    report.add_argument(
        "reports",
        nargs="+",
        type=Path,
        help="--conformance-report files (single, or combined from several engines)",
    )
    report.add_argument("-o", "--output", required=True, type=Path, help="directory to write")
    sub.add_parser(
        "fuzz",
        help="ask an engine random questions and compare with the reference (options follow)",
        add_help=False,
    )
    sub.add_parser(
        "adapter",
        help="write a starter adapter (new python|node DIR), or print where one ships, or the CI "
        "recipes (path python|node|ci)",
        add_help=False,
    )
    sub.add_parser(
        "ask",
        help="ask the rules a question: the reference engine's answer and the rules that decided "
        "it (ask METHOD --variant V [--option N=V] [--json] PARAMS)",
        add_help=False,
    )
    sub.add_parser(
        "diff",
        help="what changed between two conformance reports of one engine: fixed, broke, new, "
        "gone (exit 1 when a case that passed fails)",
        add_help=False,
    )
    sub.add_parser(
        "smoke",
        help="does an engine speak the protocol? each declared method once, replies checked "
        "against the schemas (--engine CMD)",
        add_help=False,
    )
    sub.add_parser(
        "test",
        help="run the packaged conformance suite (pytest options follow, e.g. --engine CMD)",
        add_help=False,
    )
    return parser


def _seed(text: str) -> int:
    """A seed is an integer, so that a record's seed replays the same game everywhere."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed {text!r} is not an integer") from None


def play(args: argparse.Namespace) -> int:
    """Play a seeded game between the engine's simple bots and print its log."""
    options = dict(args.option)
    rules = load_rules(args.variant, options)
    seed: int = args.seed
    state = Game(rules, seed=seed, dealer=args.dealer)
    rng = random.Random(f"bots:{seed}")
    while not state.is_terminal() and len(state.history) < args.max_hands:
        state.apply(simple(state.hand, rng))
    out = [f"{rules.variant} pinochle, seed {seed}, options {dict(rules.options)}"]
    for hand in state.history:
        out.extend(hand_log(hand))
    out.append("")
    if state.winner is not None:
        out.append(
            f"Team {state.winner} (seats {state.winner} and {state.winner + 2}) wins "
            f"{state.returns()[0]} / {state.returns()[1]}."
        )
    else:
        played = len(state.history)
        out.append(f"No winner after {played} hand{'s' if played != 1 else ''} (--max-hands).")
    print("\n".join(out))
    if args.record:
        write_atomic(Path(args.record), json.dumps(records.record(state), indent=1) + "\n")
        print(f"record written to {args.record}")
    return 0


def replay(args: argparse.Namespace) -> int:
    """Replay a record; exit 1 if an action is illegal or a figure does not match."""
    # A record that cannot be read, decoded or checked is one line (RecordError) and exit 2,
    # raised through main's handler; a record that replays but disagrees is FAILED, exit 1.
    report = records.replay(records.load(args.file))
    print(records.describe(report))
    return 0 if report["ok"] else 1


def spec_command(args: argparse.Namespace) -> int:
    """``pinochle spec coverage [--check|--write]`` and ``pinochle spec variants [--write]``."""
    if args.spec_command == "site":
        return spec_site(args)
    if args.spec_command == "variants":
        if not args.write:
            print(catalogue.variants_table())
            return 0
        text = catalogue.variants_block(catalogue.README_MD.read_text(encoding="utf-8"))
        write_atomic(catalogue.README_MD, text)
        print(f"wrote the variants table into {catalogue.README_MD}")
        return 0
    if args.write:
        write_atomic(catalogue.COVERAGE_MD, catalogue.coverage_report(markdown=True))
        print(f"wrote {catalogue.COVERAGE_MD}")
        return 0
    if args.check:
        problems = catalogue.coverage_gaps()
        for line in problems:
            print(line)
        print(f"{len(problems)} problems" if problems else "every rule is covered in every variant")
        return 1 if problems else 0
    print(catalogue.coverage_report())
    return 0


def spec_site(args: argparse.Namespace) -> int:
    """``pinochle spec site -o DIR [--variant V [--option NAME=VALUE]...]``: the rulebook; a
    table's own with --variant, its changed answers asked of the reference engine."""
    from pinochle_judge.engines import Reference

    reference = Reference() if args.variant and args.option else None
    try:
        build_spec_site(args.output, args.variant, dict(args.option), reference)
    finally:
        if reference is not None:
            reference.close()
    print(f"wrote {args.output / 'index.html'}")
    return 0


def suite_command(args: argparse.Namespace) -> int:
    """``pinochle suite export OUT``: every case, table cases and the questions of the Gherkin
    scenarios (scenarios are left out when ``--tables`` names tables), as JSON."""
    document = export.export_document(args.variant, args.method, args.tables)
    text = export.to_json(document)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        write_atomic(Path(args.output), text)
        print(f"wrote {len(document['cases'])} cases to {args.output}", file=sys.stderr)
    return 0


def report_command(args: argparse.Namespace) -> int:
    """``pinochle report REPORT.json [MORE.json ...] -o DIR``: one engine or many side by side."""
    build_site(args.reports, args.output)
    print(f"wrote {args.output / 'index.html'}")
    return 0


def output_trouble(args: argparse.Namespace) -> str | None:
    """Why a command's output cannot be written, in one line, found before any work is done
    (not after a whole game, with a temporary file's name); None when nothing stands in the way."""
    if args.command == "play" and args.record:
        return output_problem(args.record, "--record")
    if args.command == "suite" and args.output != "-":
        return output_problem(args.output, "export to")
    if args.command == "report" or (args.command == "spec" and args.spec_command == "site"):
        return folder_problem(args.output, "-o")
    return None


def run(args_list: Sequence[str]) -> int:
    """Parse a command line (without ``test``) and run its command."""
    if args_list[:1] == ["fuzz"]:
        return fuzz_main(args_list[1:])
    if args_list[:1] == ["adapter"]:
        return adapter.main(args_list[1:])
    if args_list[:1] == ["smoke"]:
        return smoke.main(args_list[1:])
    if args_list[:1] == ["ask"]:
        return ask.main(args_list[1:])
    if args_list[:1] == ["diff"]:
        return diff.main(args_list[1:])
    args = _parser().parse_args(args_list)
    trouble = output_trouble(args)
    if trouble is not None:
        print(f"pinochle {args.command}: {trouble}", file=sys.stderr)
        return 2
    try:
        if args.command == "play":
            return play(args)
        if args.command == "replay":
            return replay(args)
        if args.command == "spec":
            return spec_command(args)
        if args.command == "report":
            return report_command(args)
        if args.command == "case":
            return case.run_case(args.case_id, args.engine)
        return suite_command(args)
    except BrokenPipeError:
        raise  # the reader has gone: pinochle_cli.main ends quietly
    except (PinochleError, ValueError, OSError) as err:
        # Every part words its errors (file:line for data, the rule for an action): one line.
        print(f"pinochle {args.command}: {error_line(err)}", file=sys.stderr)
        return 2
