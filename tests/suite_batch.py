"""Runs of the conformance suite in one process, one after the other, as they are sent.

    python -m tests.suite_batch OUTDIR

Reads one run per line on standard input (``tests/suite_runs.py`` sends them), JSON: a ``name``,
the pytest ``args`` and, optionally, a ``mutant`` of ``tests/mutants`` installed in this process
around the run (``reference``: the control). Each run is one in-process ``pytest.main``, so the
interpreter, the imports, the assertion rewriting and the parsed tables are paid once per
process, not once per run (``test_engine_paths`` shows both engine paths give the same
outcomes; engines named by ``--engine`` are still child processes). ``{batch}`` in an argument
is ``OUTDIR``. Writes ``OUTDIR/NAME.out`` (the run's output) and ``NAME.status`` (pytest's exit
status) per run, then prints ``suite_batch: done NAME``. Ends at the end of its input.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO
from unittest import mock

import pytest

from pinochle_judge import engines
from tests.mutants import get
from tests.suite_runs import DONE, OUT

PRISTINE_TRACE = "tests.mutants:pristine_decisions"
"""The reference's trace with the installed mutant paused (``tests.mutants.pristine``), each
question traced once per batch process."""


def run_one(out_dir: Path, name: str, args: Sequence[str], mutant: str | None) -> int:
    """One run, with ``mutant`` installed in this process if named; pytest's exit status."""
    args = [arg.replace(OUT, str(out_dir), 1) for arg in args]
    with (
        open(out_dir / f"{name}.out", "w", encoding="utf-8") as out,
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(out),
        get(mutant).installed() if mutant else contextlib.nullcontext(),
        # The engine under test misreads a rule in this process; the reference's trace must not
        # (kept across the batch's runs, the control's too: the same whatever the mutant).
        mock.patch.object(engines, "REFERENCE_TRACE", PRISTINE_TRACE),
    ):
        status = int(pytest.main(args))
    (out_dir / f"{name}.status").write_text(str(status), encoding="utf-8")
    return status


def _read_all(source: TextIO, lines: queue.SimpleQueue[str | None]) -> None:
    """The runs sent into ``lines`` as they come (the sender never waits on a full pipe)."""
    for line in source:
        lines.put(line)
    lines.put(None)


def main(argv: Sequence[str]) -> int:
    out_dir = Path(argv[0])
    # The runs come and the answers go on copies of the standard streams: each pytest.main
    # puts /dev/null and temporary files on descriptors 0, 1 and 2 while it captures.
    source = os.fdopen(os.dup(0), encoding="utf-8")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
    threading.Thread(target=_read_all, args=(source, lines), daemon=True).start()
    while (line := lines.get()) is not None:
        if not line.strip():
            continue
        run = json.loads(line)
        run_one(out_dir, run["name"], run["args"], run.get("mutant"))
        print(f"{DONE}{run['name']}", file=answers, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
