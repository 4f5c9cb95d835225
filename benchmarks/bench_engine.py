"""Engine speed: meld per hand, legal plays per call, random hands per second per variant.

A plain script (not part of the test run): ``python benchmarks/bench_engine.py [--quick]``.
Targets on a development machine: meld < 5 µs, legal plays < 5 µs, >= 4000 random double-deck
hands per second on one core through the one state machine (``bots.playout``: deal, every action
chosen uniformly among ``legal_actions``, apply, score).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from reference_engine import bots, meld, tricks
from reference_engine.cards import to_counts
from reference_engine.variants import Rules, load_rules
from specdata import variant_ids


def per_call(fn: Callable[[], object], seconds: float) -> float:
    """Best-of-three seconds per call of ``fn``."""
    n = 1
    while True:  # find a batch size that takes ~seconds/10
        start = time.perf_counter()
        for _ in range(n):
            fn()
        took = time.perf_counter() - start
        if took > seconds / 10:
            break
        n *= 2
    best = took / n
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - start) / n)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    args = parser.parse_args()
    budget = 0.5 if args.quick else 2.0
    dd = load_rules("double-deck")
    rng = random.Random(1)
    deck = list(dd.deck_cards)
    hands = []
    for _ in range(64):
        rng.shuffle(deck)
        hands.append(to_counts(deck[:20]))
    it = iter(range(10**12))

    def meld_total() -> int:
        return meld.meld_total(hands[next(it) % 64], 1, dd)

    def meld_items() -> object:
        return meld.meld(hands[next(it) % 64], 1, dd)

    situations = []
    for h in hands:
        rng.shuffle(deck)
        situations.append((h, deck[: rng.randrange(4)], rng.randrange(4)))

    def legal() -> object:
        h, trick, trump = situations[next(it) % 64]
        return tricks.legal_plays(h, trick, trump, dd)

    print(f"meld_total (20-card count vector): {per_call(meld_total, budget) * 1e6:6.2f} µs")
    print(f"meld itemised (20-card hand):      {per_call(meld_items, budget) * 1e6:6.2f} µs")
    print(f"legal_plays (0-3 cards in trick):  {per_call(legal, budget) * 1e6:6.2f} µs")

    print("random hands/s, one core (deal to score through hand.HandState; best of 3):")
    for variant in variant_ids():
        rules = load_rules(variant)
        uniform, played = hands_per_second(rules, bots.uniform, budget)
        simple, simple_played = hands_per_second(rules, bots.simple, budget)
        print(
            f"  {variant:12} uniform {uniform:6.0f} ({played:4.0%} played out); "
            f"simple bot {simple:6.0f} ({simple_played:4.0%} played out)"
        )


def hands_per_second(rules: Rules, policy: bots.Policy, seconds: float) -> tuple[float, float]:
    """Best-of-three hands per second of ``bots.playout`` with ``policy``, and the share of
    hands played to the last trick (the rest end at the auction, meld or a throw-in)."""
    best, played = 0.0, 0.0
    for run in range(3):
        rng = random.Random(f"{rules.variant}/{run}")
        count = out = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 3:
            out += bots.playout(rules, rng, policy, dealer=count % 4).outcome == "played"
            count += 1
        rate = count / (time.perf_counter() - start)
        if rate > best:
            best, played = rate, out / count
    return best, played


if __name__ == "__main__":
    main()
