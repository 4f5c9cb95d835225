"""What judging costs over its floors, as two ratios measured side by side in one run.

    python benchmarks/bench_overhead.py [--runs 7] [--calls 3000] [--skip-suite] [--instructions]
                                        [--bdd-floor]

Prints figures only; not part of the test run. Targets:

- the conformance suite in-process (``pytest features/`` against the reference engine) at most
  1.5x what pytest itself costs for as many trivial items (one parametrized test that passes);
- the reference server at most 3x a bare JSON echo per request: one meld request line answered
  by ``Server.handle_line`` in this process against ``json.dumps(json.loads(line))``, so the
  pipe both would share is left out.

Both sides of each ratio alternate within one run, so a busy machine slows both alike. The suite's
figure is the median of the ratios of pairs run back to back (each pair shares the machine's
state of the moment); the ratio of the two sides' best runs is shown too, but on a shared machine
each side's best can come from a different, quieter moment.

``--instructions`` adds a reading the machine's load cannot move: the instructions each pytest
process executes, counted by valgrind's cachegrind (``--cache-sim=no``; valgrind must be on PATH,
and each process then takes about fifteen times as long). It is one figure per side, the same on
every run give or take a few thousandths, and it follows the CPU ratio: what costs more time costs
more instructions here, where nothing waits on the disk or the network. The target applies to the
CPU ratio; the instruction ratio says where that ratio sits when the pairs scatter. It also counts
the trivial run with this package's plugin left out (``-p no:pinochle``): installed, the plugin is
loaded by every pytest run of the environment, so the trivial run above pays its import too.

``--bdd-floor`` adds a third process to each pair, for context only (no target): pytest-bdd's own
cost for items of the suite's shape, as many trivial items as the suite has table cases plus as
many Gherkin scenarios as it has, each with as many steps on average, every step a bare function.
Through pytest-bdd's runner the suite would pay that much before judging anything; its scenarios
are run by the step library's books instead (``Speaker`` in features/steps/phrasebook.py), which
skip that runner's search for each step's definition, so the suite's excess over the floor is
less than what its judging costs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pinochle_adapters import protocol  # noqa: E402
from pinochle_adapters.client import load_server  # noqa: E402

HAND = "Ah Th Kh Qh Jh Kh Qh As Ad Ac Qs Jd Ks Kd Kc Ts Td Jc Js Qd"
"""A double-deck hand with a run, a royal marriage, marriages, a pinochle and aces around."""
MELD_PARAMS = {"variant": "double-deck", "options": {}, "trump": "h", "hand": HAND.split()}
REFERENCE = "pinochle_adapters.reference:server"
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:xdist"]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""As CI runs: compiled bytecode (and pytest's rewritten test modules) kept between runs."""
WIDTH = 60
TRIVIAL = """\
import pytest


@pytest.mark.parametrize("n", range({items}))
def test_item(n):
    assert n >= 0
"""


SHAPE_PLUGIN = """\
import json, os


class Shape:
    def __init__(self):
        self.scenarios, self.steps = set(), 0

    def pytest_bdd_before_step(self, request):
        self.scenarios.add(request.node.nodeid)
        self.steps += 1


SHAPE = Shape()


def pytest_configure(config):
    config.pluginmanager.register(SHAPE)


def pytest_unconfigure(config):
    with open(os.environ["BENCH_SHAPE_FILE"], "w", encoding="utf-8") as out:
        json.dump([len(SHAPE.scenarios), SHAPE.steps], out)
"""
"""Counts the suite's Gherkin scenarios and the steps they run (for ``--bdd-floor``)."""
FLOOR_STEPS = """\
from pytest_bdd import given, parsers, scenarios, then, when

scenarios("floor.feature")


@given(parsers.re(r"step (?P<n>\\d+)"))
def given_step(n):
    pass


@when(parsers.re(r"step (?P<n>\\d+)"))
def when_step(n):
    pass


@then(parsers.re(r"step (?P<n>\\d+)"))
def then_step(n):
    pass
"""


def floor_feature(scenarios: int, steps: int) -> str:
    """``scenarios`` scenarios holding ``steps`` steps between them (Given, When, then Thens)."""
    lines = ["Feature: the floor", ""]
    for i in range(scenarios):
        count = steps // scenarios + (i < steps % scenarios)
        lines.append(f"  Scenario: scenario {i}")
        for j in range(count):
            keyword = "Given" if j == 0 else "When" if j == 1 else "Then"
            lines.append(f"    {keyword} step {j}")
        lines.append("")
    return "\n".join(lines)


def verdict(value: float, target: float) -> str:
    return f"({'ok' if value <= target else 'ABOVE TARGET'}, target <= {target:g})"


def run_pytest(
    args: list[str], cwd: Path, env: dict[str, str] | None = None
) -> tuple[float, float, str]:
    """CPU seconds (user + system) and wall seconds one pytest process takes, and its last
    output line. CPU time is the figure compared: on a shared machine, wall time measures the
    neighbours."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(
        [*PYTEST, *args], cwd=cwd, env=env or ENV, capture_output=True, text=True, check=False
    )
    took = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if done.returncode != 0:
        raise SystemExit(
            f"pytest {' '.join(args)} exited {done.returncode}:\n{done.stdout[-2000:]}"
        )
    return cpu, took, done.stdout.strip().splitlines()[-1]


def instructions(args: list[str], cwd: Path) -> int:
    """Instructions one pytest process executes (valgrind's cachegrind), hash seed fixed."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("--instructions: valgrind is not on PATH (apt-get install valgrind)")
    command = [valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    done = subprocess.run(
        [*command, *PYTEST, *args],
        cwd=cwd,
        env={**ENV, "PYTHONHASHSEED": "0"},
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind pytest {' '.join(args)} exited {done.returncode}")
    return int(found.group(1).replace(",", ""))


def suite_ratio(runs: int, count_instructions: bool, bdd_floor: bool) -> None:
    """The in-process suite against pytest's own cost for as many trivial items."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "bench_shape.py").write_text(SHAPE_PLUGIN, encoding="utf-8")
        shape_file = folder / "shape.json"
        env = {**ENV, "PYTHONPATH": str(folder), "BENCH_SHAPE_FILE": str(shape_file)}
        # The suite's pytest cache is kept here too, as the trivial run's is: a checkout's own
        # holds the node IDs of every run made there (its tests' as well), which pytest reads
        # and rewrites whole at each run. Each side then starts from a cache of its own runs.
        suite_args = ["features/", "-o", f"cache_dir={folder / 'suite-cache'}"]
        # Warm (bytecode compiled and kept, tables checked and stored) and counted: items,
        # scenarios and their steps.
        *_, last = run_pytest([*suite_args, "-p", "bench_shape"], ROOT, env)
        items = int(re.search(r"(\d+) passed", last).group(1))  # type: ignore[union-attr]
        scenarios, steps = json.loads(shape_file.read_text(encoding="utf-8"))
        (folder / "test_trivial.py").write_text(TRIVIAL.format(items=items), encoding="utf-8")
        floor = folder / "floor"
        floor.mkdir()
        (floor / "floor.feature").write_text(floor_feature(scenarios, steps), encoding="utf-8")
        (floor / "test_floor.py").write_text(FLOOR_STEPS, encoding="utf-8")
        (floor / "test_items.py").write_text(
            TRIVIAL.format(items=items - scenarios), encoding="utf-8"
        )
        run_pytest(["test_trivial.py"], folder)
        if bdd_floor:
            run_pytest(["floor"], folder)
        pairs = []
        floors = []
        for _ in range(runs):
            suite_run = run_pytest(suite_args, ROOT)[:2]
            pairs.append((suite_run, run_pytest(["test_trivial.py"], folder)[:2]))
            if bdd_floor:
                floors.append(run_pytest(["floor"], folder)[:2])
        counted = (
            (
                instructions(suite_args, ROOT),
                instructions(["test_trivial.py"], folder),
                instructions(["-p", "no:pinochle", "test_trivial.py"], folder),
            )
            if count_instructions
            else None
        )
    suite = min(s for s, _ in pairs)
    trivial = min(t for _, t in pairs)
    paired = statistics.median(s[0] / t[0] for s, t in pairs)
    print(f"pytest processes, {items} items each, {runs} pairs run back to back, CPU (wall):")
    label = "trivial items (one parametrized passing test), best"
    print(f"  {label:<{WIDTH}} {trivial[0]:8.2f} s ({trivial[1]:.2f} s)")
    label = "pytest features/ (reference engine, in-process), best"
    print(f"  {label:<{WIDTH}} {suite[0]:8.2f} s ({suite[1]:.2f} s)")
    print(f"  {'   best / best':<{WIDTH}} {suite[0] / trivial[0]:8.2f}x")
    ratios = ", ".join(f"{s[0] / t[0]:.2f}" for s, t in pairs)
    print(f"  {'   each pair':<{WIDTH}} {ratios}")
    label = "=> suite / trivial items, CPU, median of the pairs"
    print(f"  {label:<{WIDTH}} {paired:8.2f}x    {verdict(paired, 1.5)}")
    if floors:
        print(
            f"pytest-bdd's own floor for the suite's shape ({items - scenarios} trivial items and "
            f"{scenarios} scenarios of {steps} bare steps), CPU, context only:"
        )
        label = "floor, best"
        best = min(floors)
        print(f"  {label:<{WIDTH}} {best[0]:8.2f} s ({best[1]:.2f} s)")
        label = "floor / trivial items, median of the runs"
        below = statistics.median(f[0] / t[0] for f, (_, t) in zip(floors, pairs, strict=True))
        print(f"  {label:<{WIDTH}} {below:8.2f}x")
        label = "suite / floor, median of the runs"
        above = statistics.median(s[0] / f[0] for f, (s, _) in zip(floors, pairs, strict=True))
        print(f"  {label:<{WIDTH}} {above:8.2f}x")
    if counted is not None:
        suite_count, trivial_count, bare_count = counted
        print("the same two pytest processes, instructions executed (valgrind cachegrind):")
        label = "trivial items / pytest features/"
        print(f"  {label:<{WIDTH}} {trivial_count / 1e9:.3f} G / {suite_count / 1e9:.3f} G")
        label = "=> suite / trivial items, instructions"
        print(f"  {label:<{WIDTH}} {suite_count / trivial_count:8.2f}x")
        # Installed, this package's plugin is loaded by every pytest run of the environment:
        # the trivial run above pays its import too. Without it, pytest's cost alone.
        label = "trivial items, -p no:pinochle (pytest alone)"
        print(f"  {label:<{WIDTH}} {bare_count / 1e9:.3f} G")
        label = "   suite / that, instructions (context)"
        print(f"  {label:<{WIDTH}} {suite_count / bare_count:8.2f}x")
        label = "   this package's plugin, share of the trivial run"
        print(f"  {label:<{WIDTH}} {1 - bare_count / trivial_count:8.0%}")


def server_ratio(calls: int, batches: int = 7) -> None:
    """One meld request answered by the reference server against a bare JSON echo, in-process."""
    server = load_server(REFERENCE)
    server.handle_line(protocol.encode(protocol.request(1, "initialize", {"protocol": 1})))
    line = protocol.encode(protocol.request(2, "meld", MELD_PARAMS))

    def echo(text: str) -> str:
        return json.dumps(json.loads(text))

    jobs: list[Callable[[str], object]] = [echo, server.handle_line]
    best = [float("inf")] * len(jobs)
    for job in jobs:
        job(line)  # warm: schemas compiled, caches filled
    for _ in range(batches):
        for i, job in enumerate(jobs):
            began = time.thread_time()  # CPU time: a busy machine's neighbours are not counted
            for _ in range(calls):
                job(line)
            best[i] = min(best[i], (time.thread_time() - began) / calls * 1e6)
    ratio = best[1] / best[0]
    print(f"one meld request line, in this process ({calls} per batch, best of {batches}, CPU):")
    print(f"  {'bare JSON echo: json.dumps(json.loads(line))':<{WIDTH}} {best[0]:8.1f} us")
    print(f"  {'reference server: Server.handle_line(line)':<{WIDTH}} {best[1]:8.1f} us")
    print(f"  {'=> server / echo':<{WIDTH}} {ratio:8.2f}x    {verdict(ratio, 3)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="pairs of pytest processes")
    parser.add_argument("--calls", type=int, default=3000, help="requests per batch")
    parser.add_argument("--skip-suite", action="store_true", help="only the server's ratio")
    parser.add_argument(
        "--bdd-floor",
        action="store_true",
        help="also time pytest-bdd's own cost for items of the suite's shape (context only)",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count the instructions each pytest process executes (needs valgrind)",
    )
    args = parser.parse_args()
    server_ratio(args.calls)
    if not args.skip_suite:
        suite_ratio(args.runs, args.instructions, args.bdd_floor)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
