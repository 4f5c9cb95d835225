"""What the engine protocol costs, against the targets of issue 8, measured side by side in one run.

    python benchmarks/bench_protocol.py [--runs 3] [--calls 2000] [--skip-suite]

Prints figures only; not part of the test run. Targets: the reference server's round trip <= 3x a
bare JSON echo process; an in-process ``Engine.call("meld")`` <= 50 us; the whole suite through a
subprocess engine <= 1.2x the in-process run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pinochle_adapters import protocol  # noqa: E402
from pinochle_adapters.client import load_server, open_engine, open_in_process  # noqa: E402

HAND = "Ah Th Kh Qh Jh Kh Qh As Ad Ac Qs Jd Ks Kd Kc Ts Td Jc Js Qd"
"""A double-deck hand with a run, a royal marriage, marriages, a pinochle and aces around."""
REFERENCE = "pinochle_adapters.reference:server"
SERVER_COMMAND = [sys.executable, "-m", "pinochle_adapters.reference"]
ECHO_COMMAND = [
    sys.executable,
    "-c",
    "import json, sys\n"
    "for line in sys.stdin.buffer:\n"
    "    sys.stdout.buffer.write(json.dumps(json.loads(line)).encode() + b'\\n')\n"
    "    sys.stdout.buffer.flush()\n",
]
"""A bare Python process that only parses and echoes each JSON line: the floor of any server."""
MELD_PARAMS = {"variant": "double-deck", "options": {}, "trump": "h", "hand": HAND.split()}
WIDTH = 58


def best_of(runs: int, job: Callable[[], object]) -> float:
    """The fastest of ``runs`` wall-clock timings of ``job`` (seconds)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return min(times)


def per_call(label: str, calls: int, call: Callable[[], object]) -> float:
    """Microseconds per call of ``call`` (best of 3 batches), printed with ``label``."""
    call()  # warm up (schemas compiled, engine started)

    def batch() -> None:
        for _ in range(calls):  # answers are dropped at once: keeping 2,000 alive measures GC
            call()

    micros = best_of(3, batch) / calls * 1e6
    print(f"  {label:<{WIDTH}} {micros:8.1f} us/call")
    return micros


def verdict(value: float, target: float) -> str:
    return f"({'ok' if value <= target else 'ABOVE TARGET'}, target <= {target:g})"


def side_by_side(calls: int, batches: int = 7) -> tuple[float, float]:
    """Microseconds per meld round trip through a pipe, with no client: (echo, server).

    Both processes run at once and their batches alternate, so a busy machine slows both alike.
    """
    procs = [
        subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        for command in (ECHO_COMMAND, SERVER_COMMAND)
    ]
    initialize = protocol.encode(protocol.request(1, "initialize", {"protocol": 1}))
    meld = protocol.encode(protocol.request(2, "meld", MELD_PARAMS)).encode() + b"\n"
    best = [float("inf"), float("inf")]
    try:
        for proc in procs:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(initialize.encode() + b"\n")
            proc.stdin.flush()
            proc.stdout.readline()
        for _ in range(batches):
            for i, proc in enumerate(procs):
                stdin, stdout = proc.stdin, proc.stdout
                assert stdin is not None and stdout is not None
                began = time.perf_counter()
                for _ in range(calls):
                    stdin.write(meld)
                    stdin.flush()
                    stdout.readline()
                best[i] = min(best[i], (time.perf_counter() - began) / calls * 1e6)
    finally:
        for proc in procs:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=5)
    return best[0], best[1]


def suite(engine: str | None) -> Callable[[], object]:
    """A job running ``pytest features/`` against ``engine`` (None: the in-process default)."""
    args = [sys.executable, "-m", "pytest", "features/", "-q", "-p", "no:cacheprovider"]
    args += ["-p", "no:randomly", "-p", "no:xdist"]
    if engine is not None:
        args += ["--engine", engine]

    def job() -> object:
        done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)
        if done.returncode not in (0, 1):
            raise SystemExit(f"pytest exited {done.returncode}:\n{done.stdout[-2000:]}")
        return done

    return job


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="suite runs per path (best of)")
    parser.add_argument("--calls", type=int, default=2000, help="requests per round-trip batch")
    parser.add_argument("--skip-suite", action="store_true", help="only the round-trip figures")
    args = parser.parse_args()
    n = args.calls
    if hasattr(os, "sched_setaffinity"):
        # Everything here, children included, runs on one CPU: a request/reply ping-pong across
        # two cores pays the idle core's wake-up on every reply (measured on this machine: 45 us
        # per server round trip with the other core busy, 88 us with it idle, the echo 15 us
        # either way), which measures the machine's power states, not the protocol.
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        print(f"(pinned to CPU {cpu}; children inherit it)")

    print(f"one meld request ({n} calls per batch, best of 3 batches):")
    echo, served = side_by_side(n)
    print(f"  {'bare JSON echo process, through a pipe':<{WIDTH}} {echo:8.1f} us/call")
    print(f"  {'reference server, through a pipe (no client)':<{WIDTH}} {served:8.1f} us/call")
    print(f"  {'=> server / echo':<{WIDTH}} {served / echo:8.2f}x    {verdict(served / echo, 3)}")

    engine_only = load_server(REFERENCE)
    rules = getattr(engine_only, "engine", None)
    if rules is not None and hasattr(rules, "meld"):
        per_call(
            "  of which the reference engine's meld method", n, lambda: rules.meld(MELD_PARAMS)
        )
    line = protocol.encode(protocol.request(1, "meld", MELD_PARAMS))
    per_call("  of which server.handle_line (in-process)", n, lambda: engine_only.handle_line(line))

    with open_in_process(load_server(REFERENCE), trusted=True) as engine:
        inproc = per_call(
            "in-process Engine.call, trusted (default checks)",
            n,
            lambda: engine.call("meld", MELD_PARAMS),
        )
    print(f"  {'=> in-process Engine.call':<{WIDTH}} {inproc:8.1f} us     {verdict(inproc, 50)}")
    with open_in_process(load_server(REFERENCE)) as engine:
        per_call(
            "in-process Engine.call, untrusted (worker thread, results checked)",
            n,
            lambda: engine.call("meld", MELD_PARAMS),
        )
    with open_in_process(load_server(REFERENCE), trusted=True, validate=True) as engine:
        per_call(
            "in-process Engine.call, --validate-protocol",
            n,
            lambda: engine.call("meld", MELD_PARAMS),
        )
    with open_engine(" ".join(SERVER_COMMAND)) as engine:
        per_call(
            "subprocess Engine.call (results checked)", n, lambda: engine.call("meld", MELD_PARAMS)
        )

    if not args.skip_suite:
        print(f"\nfull feature suite, best of {args.runs}:")
        inproc_suite = best_of(args.runs, suite(None))
        sub_suite = best_of(args.runs, suite(" ".join(SERVER_COMMAND)))
        ratio = sub_suite / inproc_suite
        print(f"  {'in-process (default engine)':<{WIDTH}} {inproc_suite:8.2f} s")
        label = "subprocess (--engine python -m pinochle_adapters.reference)"
        print(f"  {label:<{WIDTH}} {sub_suite:8.2f} s")
        print(f"  {'=> subprocess / in-process':<{WIDTH}} {ratio:8.2f}x    {verdict(ratio, 1.2)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
