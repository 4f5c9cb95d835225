"""Several runs of the conformance suite in one process, one after the other.

    python -m tests.suite_batch OUTDIR RUNS.json

``RUNS.json`` lists the runs (``tests/suite_runs.py`` writes it): each a ``name``, the pytest
``args`` and, optionally, a ``mutant`` of ``tests/mutants`` installed in this process around the
run (``reference``: the control). Each run is one in-process ``pytest.main``, so the
interpreter, the imports, the assertion rewriting and the parsed tables are paid once per batch,
not once per run (``test_engine_paths`` shows both engine paths give the same outcomes; engines
named by ``--engine`` are still child processes). ``{batch}`` in an argument is ``OUTDIR``.
Writes ``OUTDIR/NAME.out`` (the run's output) and ``NAME.status`` (pytest's exit status) per run,
then prints ``suite_batch: done NAME``.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.mutants import get
from tests.suite_runs import DONE, OUT


def run_one(out_dir: Path, name: str, args: Sequence[str], mutant: str | None) -> int:
    """One run, with ``mutant`` installed in this process if named; pytest's exit status."""
    args = [arg.replace(OUT, str(out_dir), 1) for arg in args]
    with (
        open(out_dir / f"{name}.out", "w", encoding="utf-8") as out,
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(out),
        get(mutant).installed() if mutant else contextlib.nullcontext(),
    ):
        status = int(pytest.main(args))
    (out_dir / f"{name}.status").write_text(str(status), encoding="utf-8")
    return status


def main(argv: Sequence[str]) -> int:
    out_dir, plan = Path(argv[0]), Path(argv[1])
    for run in json.loads(plan.read_text(encoding="utf-8")):
        run_one(out_dir, run["name"], run["args"], run.get("mutant"))
        print(f"{DONE}{run['name']}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
