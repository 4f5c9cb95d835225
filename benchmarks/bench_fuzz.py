"""How fast the fuzzer compares whole hands, against the targets of issue 10.

    python benchmarks/bench_fuzz.py [--seconds 5] [--profile]

Prints figures only; not part of the test run. Targets: >= 1,000 whole double-deck hands per
second compared in-process, >= 300 with the engine as a subprocess. A "hand" here is one
``play_hand`` question (deal, auction, meld, tricks, score) generated through the reference's state
API, asked of the engine (the reference server itself) and compared with the suite's comparison;
about nine in ten are whole hands, the rest cut short by the generator, and only whole hands count.
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
    assert engine.info is not None
    report = campaign.run(
        engine,
        campaign.targets(engine.info),
        campaign.declared_methods(engine.info),
        seed=3,
        seconds=seconds,
    )
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


def line(label: str, value: float, unit: str, target: float | None = None) -> None:
    verdict = "" if target is None else ("  ok" if value >= target else f"  BELOW {target:g}")
    print(f"  {label:<{WIDTH}} {value:8.0f} {unit}{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    parser.add_argument("--profile", action="store_true", help="profile the in-process run")
    args = parser.parse_args()
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
