"""What the engine protocol costs: the suite in-process vs through a subprocess engine, and the
round trip of one request broken down (server, client checks, pipe, reader thread).

    python benchmarks/bench_protocol.py [--runs 3] [--calls 2000] [--skip-suite]

Prints figures only; not part of the test run. Target: subprocess suite <= 1.5 x in-process.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adapters import protocol  # noqa: E402
from adapters.client import open_engine  # noqa: E402
from adapters.reference import server  # noqa: E402

HAND = "Ah Th Kh Qh Jh Kh Qh As Ad Ac Qs Jd Ks Kd Kc Ts Td Jc Js Qd"
"""A double-deck hand with a run, a royal marriage, marriages, a pinochle and aces around."""
SERVER_COMMAND = f"{sys.executable} -m adapters.reference"
MELD_PARAMS = {
    "variant": "double-deck",
    "options": {},
    "trump": "h",
    "hand": HAND.split(),
}


def best_of(runs: int, job: Callable[[], object]) -> float:
    """The fastest of ``runs`` wall-clock timings of ``job`` (seconds)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return min(times)


def suite(engine: str | None) -> Callable[[], object]:
    """A job running ``pytest features/`` against ``engine`` (None: in-process)."""
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


def collect_only() -> Callable[[], object]:
    """A job collecting the suite without running it (the fixed cost of every run)."""
    args = [sys.executable, "-m", "pytest", "features/", "-q", "-p", "no:cacheprovider"]
    args += ["--collect-only"]
    return lambda: subprocess.run(args, cwd=ROOT, capture_output=True, check=False)


def per_call(label: str, calls: int, call: Callable[[], object]) -> float:
    """Microseconds per call of ``call`` (best of 3 batches), printed with ``label``."""
    call()  # warm up (schemas compiled, engine started)
    seconds = best_of(3, lambda: [call() for _ in range(calls)])
    micros = seconds / calls * 1e6
    print(f"  {label:<46} {micros:8.1f} us/call")
    return micros


def raw_pipe(calls: int) -> float:
    """The transport floor: the reference server over a pipe, no client, no reader thread."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "adapters.reference"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout
    ids = iter(range(1, 10**9))

    def send(method: str, params: dict[str, object]) -> bytes:
        line = protocol.encode(protocol.request(next(ids), method, params))
        stdin.write(line.encode() + b"\n")
        stdin.flush()
        return stdout.readline()

    send("initialize", {"protocol": 1})
    try:
        return per_call("raw pipe (no client, no thread)", calls, lambda: send("meld", MELD_PARAMS))
    finally:
        send("shutdown", {})
        proc.wait(timeout=5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="suite runs per path (best of)")
    parser.add_argument("--calls", type=int, default=2000, help="requests per round-trip batch")
    parser.add_argument("--skip-suite", action="store_true", help="only the round-trip figures")
    args = parser.parse_args()

    if not args.skip_suite:
        print(f"full feature suite, best of {args.runs}:")
        collect = best_of(args.runs, collect_only())
        inproc = best_of(args.runs, suite(None))
        sub = best_of(args.runs, suite(SERVER_COMMAND))
        width = 54
        print(f"  {'collection only (--collect-only)':<{width}} {collect:6.2f} s")
        print(f"  {'in-process (--engine reference)':<{width}} {inproc:6.2f} s")
        print(f"  {'subprocess (--engine python -m adapters.reference)':<{width}} {sub:6.2f} s")
        verdict = "ok" if sub <= 1.5 * inproc else "ABOVE TARGET"
        ratio = f"{sub / inproc:6.2f}  ({verdict}, target <= 1.5)"
        print(f"  {'ratio subprocess / in-process':<{width}} {ratio}")
        print(f"  protocol cost: {sub - inproc:+.2f} s on top of {inproc - collect:.2f} s of cases")

    n = args.calls
    print(f"\nround trip of one meld request ({n} calls per batch, best of 3 batches):")
    srv = server()
    line = protocol.encode(protocol.request(1, "meld", MELD_PARAMS))
    served = per_call(
        "server.handle_line (engine + SDK params check)", n, lambda: srv.handle_line(line)
    )
    srv_unchecked = server()
    srv_unchecked.check_params = False
    per_call("  ... without the params schema check", n, lambda: srv_unchecked.handle_line(line))
    reply = srv.handle_line(line)
    checks = per_call(
        "client reply checks (response + result schema)",
        n,
        lambda: (
            protocol.schema_error(json.loads(reply), "response.json", "reply"),
            protocol.check_result("meld", json.loads(reply)["result"]),
        ),
    )
    with open_engine(None) as engine:
        inproc = per_call(
            "in-process client (Engine.call)", n, lambda: engine.call("meld", MELD_PARAMS)
        )
    with open_engine(SERVER_COMMAND) as engine:
        sub = per_call(
            "subprocess client (Engine.call)", n, lambda: engine.call("meld", MELD_PARAMS)
        )
    floor = raw_pipe(n)
    handoff = sub - checks - floor
    print(f"  subprocess - in-process client: {sub - inproc:+.1f} us/call")
    print(f"  pipe and second process (raw pipe - server): {floor - served:+.1f} us/call")
    print(
        f"  client overhead besides checks (subprocess - checks - raw pipe): {handoff:+.1f} us/call"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
