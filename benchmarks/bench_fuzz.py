"""How fast the fuzzer compares whole hands, against the targets of issue 10; with ``--find``, how
long it takes to find planted bugs in house-rule and whole-hand-only engines (issue 18).

    python benchmarks/bench_fuzz.py [--seconds 5] [--profile]
    python benchmarks/bench_fuzz.py --find [--seconds 30]

Prints figures only; not part of the test run. Targets: >= 1,000 whole double-deck hands per
second compared in-process, >= 300 with the engine as a subprocess. A "hand" here is one
``play_hand`` question (deal, auction, meld, tricks, score) generated through the reference's state
API, asked of the engine (the reference server itself) and compared with the suite's comparison;
about nine in ten are whole hands, the rest cut short by the generator, and only whole hands count.

``--planted`` also times the fuzzer against each planted bug of ``tests/fuzz_engines`` (in-process,
the seed of tests/test_fuzz.py): rounds and seconds to the first shrunk finding, shrinking
included (target: each within 30 s). The test counts the rounds; the seconds are figures here.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pinochle_adapters.client import Engine, load_server, open_engine, open_in_process  # noqa: E402
from pinochle_fuzz import campaign  # noqa: E402
from pinochle_fuzz.questions import Question  # noqa: E402
from reference_engine.bots import playout  # noqa: E402
from reference_engine.variants import load_rules  # noqa: E402

REFERENCE = "pinochle_adapters.reference:server"
SUBPROCESS = f"{sys.executable} -m pinochle_adapters.reference"
WIDTH = 56


def whole_hands(engine: Engine, variant: str, seconds: float) -> tuple[float, float]:
    """Whole hands compared per second, and play_hand questions per second."""
    assert engine.info is not None
    whole = [0]

    def count(question: Question) -> None:
        assert question.answer is not None
        whole[0] += bool(question.answer["complete"])

    targets = campaign.targets(engine.info, [variant])
    campaign.run(engine, targets, ["play_hand"], seed=1, hands=50)  # warm up
    report = campaign.run(
        engine, targets, ["play_hand"], seed=2, seconds=seconds, on_question=count
    )
    if report.findings:
        raise SystemExit(f"the reference disagrees with itself: {report.findings}")
    return whole[0] / report.seconds, report.rounds / report.seconds


def rounds(engine: Engine, seconds: float) -> float:
    """Rounds (one question of every method, variants in turn) per second."""
    report = campaign.run_declared(engine, 3, seconds=seconds)
    return report.rate


def playouts(seconds: float) -> float:
    """The reference's own double-deck playouts per second (no engine, no comparison): the
    machine's speed at the moment, to read the other figures against."""
    rules = load_rules("double-deck", {})
    rng = random.Random(0)
    began, count = time.perf_counter(), 0
    while time.perf_counter() - began < seconds:
        playout(rules, rng)
        count += 1
    return count / (time.perf_counter() - began)


PLANTED = ("third_identical", "run_royal_quad", "online_raise_50", "third_copy_takes")


def planted() -> None:
    """Seconds and rounds to the first shrunk finding, per planted bug (tests/test_fuzz.py)."""
    for name in PLANTED:
        with open_in_process(load_server(f"tests.fuzz_engines.{name}:server")) as engine:
            report = campaign.run_declared(
                engine,
                1,
                hands=5000,
                shrink_budget=campaign.ShrinkBudget(questions=400, seconds=None),
                max_findings=1,
            )
        found = f"{report.rounds} rounds, shrinking {report.shrink_seconds:.1f} s"
        if not report.findings:
            found = f"NOT FOUND in {report.rounds} rounds"
        line(f"planted bug {name} ({found})", report.seconds, "s", None)


HOUSE_BUGS = "arounds-missing-suit+step-on-high-bid+no-overtrump"
"""Three bugs planted at once in the double-deck house engine without bid-to-win (issue 18)."""
WHOLE_HAND_BUGS = (
    "partner-no-crawl",
    "trump-void-discard",
    "last-identical-wins",
    "set-costs-nothing",
)
"""Bugs of tests/whole_hand_engines timed (engines declaring play_hand and play_game only)."""


def time_to_find(command: str, seconds: float, wanted: int | None = None) -> None:
    """Run a campaign (seed 1, subprocess engine) and print when each rule was first charged."""
    with open_engine(command) as engine:
        report = campaign.run_declared(engine, 1, seconds=seconds, max_findings=wanted)
    print(f"  {command.split(' -m ')[-1]}: {report.rounds} rounds in {report.seconds:.1f} s")
    for f in report.findings:
        d = f.disagreement
        print(
            f"    {d.rule:<22} by {d.question.method:<12} round {f.rounds:>6}  {f.seconds:5.1f} s"
            f"  (charged {f.seen} times)"
        )
    if not report.findings:
        print("    no report")


def find_figures(seconds: float) -> None:
    """Seconds to find each planted bug, and clean engines' silence, in subprocess engines."""
    print(f"pinochle fuzz: time to find planted bugs (seed 1, at most {seconds:g} s each)")
    house = f"{sys.executable} -m tests.house_engines"
    for name in ("dd-no-bid-to-win", "sd-left-opens", "online-1000", "dd-post-1945"):
        time_to_find(f"{house} {name}", seconds)
    time_to_find(f"{house} dd-no-bid-to-win {HOUSE_BUGS}", max(seconds, 45.0), wanted=3)
    whole = f"{sys.executable} -m tests.whole_hand_engines"
    time_to_find(f"{whole} clean", seconds)
    for bug in WHOLE_HAND_BUGS:
        time_to_find(f"{whole} {bug}", seconds, wanted=1)


def line(label: str, value: float, unit: str, target: float | None = None) -> None:
    verdict = "" if target is None else ("  ok" if value >= target else f"  BELOW {target:g}")
    print(f"  {label:<{WIDTH}} {value:8.0f} {unit}{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    parser.add_argument("--profile", action="store_true", help="profile the in-process run")
    parser.add_argument("--planted", action="store_true", help="time finding each planted bug")
    parser.add_argument(
        "--find", action="store_true", help="time to find bugs in house and whole-hand engines"
    )
    args = parser.parse_args()
    if args.find:
        find_figures(args.seconds if args.seconds != parser.get_default("seconds") else 30.0)
        return
    if hasattr(os, "sched_setaffinity"):
        # One CPU for everything (children inherit it), as in bench_protocol.py: the engine under
        # test answers from a worker thread or a child process, and a hand-off across two cores
        # pays an idle core's wake-up on every question on this machine.
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        print(f"(pinned to CPU {cpu}; children inherit it)")
    print("pinochle fuzz: whole hands compared per second")
    line("calibration: reference playouts, double-deck, no engine", playouts(2), "hands/s")
    with open_in_process(load_server(REFERENCE)) as engine:
        for variant in ("double-deck", "single-deck", "online"):
            whole, asked = whole_hands(engine, variant, args.seconds)
            target = 1000 if variant == "double-deck" else None
            line(f"in-process, {variant} (play_hand {asked:.0f}/s)", whole, "hands/s", target)
        line(
            "in-process, rounds of all 8 methods, all variants",
            rounds(engine, args.seconds),
            "rounds/s",
        )
        if args.profile:
            profile = cProfile.Profile()
            profile.runcall(whole_hands, engine, "double-deck", args.seconds)
            pstats.Stats(profile).sort_stats("tottime").print_stats(15)
    if args.planted:
        print("pinochle fuzz: time to the first shrunk finding, seed 1 (target 30 s each)")
        planted()
    with open_engine(SUBPROCESS) as engine:
        whole, asked = whole_hands(engine, "double-deck", args.seconds)
        line(f"subprocess, double-deck (play_hand {asked:.0f}/s)", whole, "hands/s", 300)
        line(
            "subprocess, rounds of all 8 methods, all variants",
            rounds(engine, args.seconds),
            "rounds/s",
        )


if __name__ == "__main__":
    main()
